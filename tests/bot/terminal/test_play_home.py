"""`felt play holdem` with home-game options: the flags and their refusals, and a rabbit hunt
typed in a real terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.bot.terminal.support import Play, read_wallet


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TERM", "dumb")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--straddle", "sideways"], "--straddle: `straddle` is one of `off`, `utg` or `button`"),
        (["--run-it-max", "9"], "--run-it-max: `run_it_max` is a whole number from 1 to 4"),
        (["--rabbit-hunt", "maybe"], "--rabbit-hunt: `rabbit_hunt` is on or off"),
        (["--bomb-pot-every", "3"], "Bomb pots need a `bomb_pot_ante` of at least 1 chip"),
        (["--straddle", "button", "--max-straddles", "2"], "The button straddles once"),
    ],
)
def test_play_holdem_refuses_bad_home_options_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, arguments: list[str], message: str
) -> None:
    code = main(["play", "holdem", *arguments, "--db", str(tmp_path / "felt.db")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and message in err[0], err


def test_play_holdem_rabbit_hunt_after_folding(play: Play, database: Path) -> None:
    game = play(
        "holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5",
        "--rabbit-hunt", "on", "--delay", "0",
    )  # fmt: skip
    game.expect("Your cards: ")
    # Fold at the first bet to fold to (checking when there is none), until a hand ends early.
    while game.expect(r"Your turn\.", r"no bet to fold to", r"Before the next hand: type hunt") < 2:
        game.send("c" if "no bet to fold to" in game.text[-200:] else "f")
    game.send("hunt")
    game.expect(r"Ann rabbit hunts: ")
    game.send("q")
    assert game.finish() == 0
    assert read_wallet(database).ledger_ok


def test_play_holdem_refuses_a_run_count_that_is_not_a_whole_number(
    play: Play, database: Path
) -> None:
    game = play(
        "holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5",
        "--run-it-max", "2", "--delay", "0",
    )  # fmt: skip
    game.expect("Your cards: ")
    game.send("run ²")  # a digit to str.isdigit, not a number to int(): refused, not a crash
    game.expect(r"run takes a whole number of runs, not")
    game.send("run two")
    game.expect(r"run takes a whole number of runs, not")
    game.send("q")
    assert game.finish() == 0
    assert read_wallet(database).ledger_ok
