"""`felt play tournament`: a Sit & Go to the end with typed input, levels shown, the finishing
place and prize; bad options refused in one line."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from bot.cli import main
from bot.terminal.tournament import TournamentOptions, TournamentSession
from engine.tournament import Break, Level, Structure, preset
from tests.bot.terminal.support import ROOT

LATE_STRUCTURE = """
starting_stack = 1000
late_registration_levels = 1
[[levels]]
small_blind = 10
big_blind = 20
minutes = 5
"""


class Clock:
    """A clock the test moves: each reading is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def session(
    lines: list[str], *, step: float = 1.0, players: int = 3, structure: Structure | None = None
) -> tuple[int, str]:
    typed: Iterator[str] = iter(lines)
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    chosen = structure or preset("hyper")
    options = TournamentOptions(chosen, players, 11, "Ann", "passive")
    game = TournamentSession(options, console, lambda: next(typed, None), Clock(step))
    return game.run(), out.getvalue()


def test_calling_every_hand_plays_to_the_end_with_levels_and_a_place() -> None:
    code, text = session(["c"] * 400, step=20.0)
    assert code == 0
    assert "Hand #1 · Level 1 · 10/20 · next level in" in text
    assert re.search(r"Level [2-9] · ", text)  # the clock moved the levels on
    assert "Final standings" in text and "Prize pool 300 chips." in text
    assert re.search(r"You finished (1st and won 195|2nd and won 105|3rd \(no prize\))", text)


def test_bad_lines_are_refused_and_the_turn_asked_again() -> None:
    code, text = session(["zz", "r 1", "rebuy", "", "?", "f", "q"])
    assert code == 0
    assert "Unknown command 'zz'. Type f (fold), c (check or call)" in text
    assert "Raise to between" in text
    assert "rebuys are offered when you bust" in text
    assert text.count("Your turn.") >= 1 and "You leave the table" in text
    assert "rebuy" not in text.split("Unknown command")[1].split("\n")[0]


def test_end_of_input_leaves_and_the_bots_finish_the_tournament() -> None:
    code, text = session([], players=6)
    assert code == 0
    assert "You leave the table: you check or fold from now on." in text
    assert text.count("place") >= 1 and "Final standings" in text
    assert "Hand #2" not in text  # nothing is narrated once you are gone


def test_a_structure_with_rebuys_offers_them_and_the_add_on() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    replies = ["maybe"]

    def answer() -> str:
        """Shove at every turn; answer a yes/no question with "maybe" first, then "y"."""
        if out.getvalue().endswith(("(y/n)? ", "y or n: ")):
            return replies.pop() if replies else "y"
        return "a"

    structure = Structure(
        "rebuys",
        500,
        (
            Level(10, 20, hands=6),
            Break(5, add_on=True),
            Level(20, 40, hands=3),
            Level(50, 100, 100, hands=200),
        ),
        rebuy_levels=1,
        rebuy_limit=3,
        rebuy_chips=500,
        add_on_chips=750,
    )
    options = TournamentOptions(structure, 3, 1, "Ann", "passive")  # seed 1: Ann busts early
    assert TournamentSession(options, console, answer, Clock(30.0)).run() == 0
    text = out.getvalue()
    assert "You are out of chips: rebuy 500 chips for 100 (y/n)?" in text
    assert "Type y or n:" in text
    assert "Break: 5 minutes." in text
    assert "Add-on: 750 chips for 100 (y/n)?" in text
    found = re.search(r"Prize pool ([\d,]+) chips", text)
    assert found is not None and int(found[1].replace(",", "")) > 300  # rebuys joined the pool


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "1"), "--players must be a whole number from 2 to 10"),
        (("--players", "eleven"), "--players must be a whole number"),
        (("--preset", "slow"), "unknown preset 'slow'"),
        (("--bots", "wizard"), "--bots: unknown strategy"),
        (("--seed", "-3"), "--seed must be a whole number"),
        (("--preset", "late.toml"), "cannot use"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "late.toml").write_text(LATE_STRUCTURE, encoding="utf-8")
    code = main(["play", "tournament", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_felt_play_tournament_in_a_real_terminal() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "COLUMNS": "140"}
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "bot.cli",
            "play",
            "tournament",
            "--players",
            "3",
            "--preset",
            "hyper",
            "--bots",
            "passive",
            "--seed",
            "4",
            "--name",
            "Ann",
        ],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 140),
    )
    output = io.StringIO()
    child.logfile_read = output
    try:
        child.expect(r"Hand #1 · Level 1 · 10/20")
        child.expect(r"Your turn\. ")
        child.sendline("c")
        child.sendline("q")
        child.expect(r"You finished (\d+)(st|nd|rd|th)")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "Final standings" in output.getvalue()


def test_felt_play_tournament_turbo_nine_players_with_piped_input_plays_to_the_end() -> None:
    """The issue's command line, with calls typed on stdin until the game ends."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "COLUMNS": "120"}
    arguments = ["play", "tournament", "--preset", "turbo", "--players", "9", "--seed", "5"]
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments],
        input="c\n" * 3000,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    text = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Hand #1 · Level 1 · 10/20 · next level in 4:5" in text
    assert "You show " in text and "You win " in text and "You shows" not in text
    out = re.search(r"You are out in (\d+)(?:st|nd|rd|th) place", text)
    finished = re.search(
        r"You finished (\d+)(?:st|nd|rd|th)(?: and won ([\d,]+)| \(no prize)", text
    )
    assert out is not None and finished is not None and out[1] == finished[1]
    assert "Final standings" in text and "Prize pool 900 chips." in text
    [mine] = [line for line in text.splitlines() if re.match(rf"\s*{finished[1]}\w\w  You ", line)]
    assert mine.split()[-1] == (finished[2] or "-")
