"""`felt rules blackjack`, and the one ``--rules``/``--rule`` parser that `felt sim blackjack`,
`felt rules blackjack` and `felt play blackjack` share: the same overrides are accepted by all
three and the same refusals come out of all three, one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from engine.blackjack import CASINO, house_edge
from engine.blackjack.sidebets import (
    TwentyOneThreePaytable,
    perfect_pairs_house_edge,
    twenty_one_three_house_edge,
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, list[str]]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err.strip().splitlines()


def test_rules_json_has_exactly_the_issue_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "rules", "blackjack", "--rule", "decks=8", "--rule", "side_21_3=five_tier", "--json"
    )
    assert code == 0 and err == []
    report = json.loads(out)
    assert list(report) == ["rules", "house_edge_pct", "side_bets"]
    assert report["rules"] == CASINO.with_overrides(["decks=8", "side_21_3=five_tier"]).options()
    assert report["house_edge_pct"] == pytest.approx(house_edge(CASINO.with_overrides(["decks=8"])))
    five_tier = TwentyOneThreePaytable.FIVE_TIER
    assert report["side_bets"] == {
        "21+3": {
            "paytable": "five_tier",
            "house_edge_pct": pytest.approx(100 * float(twenty_one_three_house_edge(8, five_tier))),
        },
        "perfect_pairs": {
            "house_edge_pct": pytest.approx(100 * float(perfect_pairs_house_edge(8)))
        },
    }
    assert round(report["side_bets"]["21+3"]["house_edge_pct"], 2) == 3.70
    assert round(report["side_bets"]["perfect_pairs"]["house_edge_pct"], 2) == 4.10


def test_rules_json_with_the_side_bets_off_shows_the_classic_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = json.loads(run(capsys, "rules", "blackjack", "--json")[1])
    assert report["rules"]["side_21_3"] == "off"
    assert report["rules"]["perfect_pairs"] is False
    assert report["side_bets"]["21+3"]["paytable"] == "classic"
    assert round(report["side_bets"]["21+3"]["house_edge_pct"], 2) == 3.24
    assert round(report["side_bets"]["perfect_pairs"]["house_edge_pct"], 2) == 6.11


def test_rules_text_lists_the_pay_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "rules", "blackjack", "--rule", "side_21_3=five_tier", "--rule", "perfect_pairs=on"
    )
    assert code == 0
    assert "Basic strategy house edge: 0.403%" in out
    assert "21+3, five-tier pay table: house edge 4.621%" in out
    assert "suited trips     100 to 1" in out
    assert "Perfect Pairs: house edge 6.109%" in out
    assert "coloured pair    12 to 1" in out
    assert "not offered" not in out
    _, classic, _ = run(capsys, "rules", "blackjack", "--rules", "classic")
    assert "1 deck" in classic
    assert "21+3, classic pay table (not offered under these rules): house edge 13.303%" in classic


def test_rules_help_says_what_side_bets_show_when_off(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["rules", "blackjack", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the classic table when side_21_3 is off" in text


REFUSALS = [
    (["--rules", "vegas"], "unknown rule preset 'vegas' (choose from casino, classic)"),
    (["--rule", "decks=9"], "rule decks must be a whole number from 1 to 8"),
    (["--rule", "colour=red"], "unknown rule 'colour'"),
    (["--rule", "h17"], "expected name=value"),
    (["--rule", "penetration=0"], "rule penetration cannot be '0'"),
    (["--rule", "penetration=1.5"], "rule penetration cannot be '1.5'"),
    (
        ["--rule", "side_21_3=9:1"],
        "side_21_3 cannot be '9:1' (choose from off, classic, five_tier)",
    ),
    (["--rule", "perfect_pairs=25"], "rule perfect_pairs must be true or false"),
    (["--rule", "decks=" + "9" * 10_000], "(10,006 characters) is not a rule"),
]
COMMANDS = {
    "rules": ["rules", "blackjack"],
    "sim": ["sim", "blackjack", "--hands", "10", "--seed", "1"],
    "play": ["play", "blackjack", "--auto", "--fast"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("arguments", "message"), REFUSALS)
def test_every_rule_refusal_is_one_line_exit_2_in_every_command(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    arguments: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "felt.db"
    extra = ["--db", str(database)] if command == "play" else []
    code, out, err = run(capsys, *COMMANDS[command], *arguments, *extra)
    assert code == 2
    assert out == ""
    assert len(err) == 1
    assert err[0].startswith(f"felt {command}: ")
    assert message in err[0]
    assert len(err[0]) < 250
    assert not database.exists()  # refused before anything was opened


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--side-21-3", "5"],
            "--side-21-3 needs a table with that side bet (--rule side_21_3=classic or five_tier)",
        ),
        (
            ["--rule", "side_21_3=classic", "--perfect-pairs", "5"],
            "--perfect-pairs needs a table with that side bet (--rule perfect_pairs=true)",
        ),
        (["--rule", "perfect_pairs=on", "--perfect-pairs", "0"], "--perfect-pairs"),
        (["--rule", "perfect_pairs=on", "--perfect-pairs", "101"], "--perfect-pairs"),
        (["--rule", "side_21_3=five_tier", "--side-21-3", "lots"], "--side-21-3"),
    ],
)
def test_play_refuses_side_bets_the_table_does_not_take(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    arguments: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "felt.db"
    code, out, err = run(capsys, "play", "blackjack", "--auto", *arguments, "--db", str(database))
    assert code == 2 and out == ""
    assert len(err) == 1 and err[0].startswith("felt play: ") and message in err[0]
    assert not database.exists()


def test_play_blackjack_plays_under_the_rule_overrides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    code, out, _ = run(
        capsys,
        "play",
        "blackjack",
        "--auto",
        "--fast",
        "--seed",
        "3",
        "--rule",
        "decks=2",
        "--rule",
        "H17=yes",
        "--db",
        str(tmp_path / "felt.db"),
    )
    assert code == 0
    assert "Rules: casino (2 decks, H17," in " ".join(out.split())
