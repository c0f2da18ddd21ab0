"""`felt sim blackjack`: output formats, determinism, progress and refusals.

(These test ``bot/cli/sim_blackjack.py``; they live with the Blackjack engine tests because the
simulator's owner owns this folder.)
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.cli.common import CliError
from bot.cli.sim_blackjack import Progress, parse_count, run_simulation, wants_progress
from engine.blackjack import CASINO, CLASSIC, parallel
from engine.blackjack.parallel import shares, worker_seed

ROOT = Path(__file__).resolve().parents[2]
JSON_FIELDS = [
    "hands",
    "house_edge_pct",
    "stderr_pct",
    "player_edge_pct",
    "average_bet",
    "win_pct",
    "push_pct",
    "loss_pct",
    "wins",
    "pushes",
    "losses",
    "win_ratio",
    "rounds",
    "risk_of_ruin_pct",
    "side_bets",
    "preset",
    "rule_overrides",
    "strategy",
    "spread",
    "bankroll",
    "seed",
    "workers",
    "rules",
]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sim", "blackjack", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_json_is_one_line_with_exactly_the_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--hands", "3000", "--seed", "5", "--json")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert list(report) == JSON_FIELDS
    assert report["hands"] == 3000
    assert report["win_ratio"] == pytest.approx(
        report["wins"] / (report["wins"] + report["losses"])
    )
    assert report["win_pct"] + report["push_pct"] + report["loss_pct"] == pytest.approx(100.0)


def test_cli_same_seed_and_workers_give_the_same_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--rules", "casino", "--rule", "decks=2", "--hands", "4000", "--seed", "11", "--json")
    first = run_cli(capsys, *args, "--workers", "2")[1]
    second = run_cli(capsys, *args, "--workers", "2")[1]
    other_seed = run_cli(capsys, *args[:-3], "--seed", "12", "--json", "--workers", "2")[1]
    assert first == second
    assert first != other_seed


def test_cli_text_report_has_the_original_exercise_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "--rules", "classic", "--strategy", "dealer", "--hands", "2000", "--seed", "3"
    )
    assert code == 0
    assert re.search(r"^Wins: \d+ Losses: \d+ Win ratio: 0\.\d{4}$", out, re.MULTILINE)
    assert "House edge:" in out
    assert "Rules: classic: 1 deck" in out
    assert "Basic strategy, calculated" not in out  # only printed for the basic strategy
    assert "rounds/s" in err
    assert "rounds/s" not in out


def test_cli_basic_strategy_report_shows_the_calculated_edge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run_cli(capsys, "--hands", "1000", "--seed", "3")
    assert "Basic strategy, calculated for a fresh shoe: 0.40" in out


def test_cli_without_seed_says_which_seed_it_used(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = run_cli(capsys, "--hands", "1500", "--json")
    seed = re.search(r"using --seed (\d+)", err)
    assert seed is not None
    _, again, _ = run_cli(capsys, "--hands", "1500", "--json", "--seed", seed.group(1))
    assert again == out


def test_cli_progress_goes_to_stderr_only(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = run_cli(capsys, "--hands", "1000", "--seed", "1", "--json", "--progress")
    assert "1,000/1,000 rounds" in err
    assert "rounds/s" not in out and "/1,000 rounds" not in out


def test_cli_no_progress_is_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run_cli(capsys, "--hands", "1000", "--seed", "1", "--no-progress")
    assert "/1,000 rounds" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "lots"], "--hands must be a whole number"),
        (["--hands", "0"], "--hands must be a whole number of at least 1"),
        (["--hands", "-5"], "--hands must be"),
        (["--hands", "2.5"], "--hands must be a whole number of at least 1"),
        (["--seed", "x"], "--seed must be a whole number"),
        (["--seed", "-1"], "--seed must be a whole number from 0 to"),
        (["--seed", "²"], "--seed must be a whole number from 0 to"),
        (["--hands", "²"], "--hands must be a whole number of at least 1, not '²'"),
        (["--hands", "9" * 10_000], "(10,000 characters)"),
        (["--workers", "0"], "--workers must be a whole number from 1 to 64"),
        (["--workers", "65"], "--workers must be a whole number from 1 to 64"),
        (["--workers", "two"], "--workers must be a whole number"),
        (["--rules", "vegas"], "unknown rule preset 'vegas'"),
        (["--rule", "decks=9"], "rule decks must be a whole number from 1 to 8"),
        (["--rule", "colour=red"], "unknown rule 'colour'"),
        (["--rule", "h17"], "expected name=value"),
        (["--rule", "blackjack_pays=2:1"], "choose from 3:2, 6:5, 1:1"),
        (["--strategy", "martingale"], "unknown strategy 'martingale'"),
        (["--strategy", "x" * 3000], "(3,000 characters)"),
        (["--rule", "decks=" + "9" * 10_000], "(10,006 characters) is not a rule"),
        (["--spread", "1-8"], "--spread: a bet spread needs a counting strategy, not 'basic'"),
        (["--strategy", "hilo", "--spread", "8-1"], "--spread: a bet spread cannot fall from 8"),
        (["--strategy", "hilo", "--spread", "lots"], "--spread: 'lots' is not a bet spread"),
        (["--strategy", "hilo", "--spread", "1-" + "9" * 5000], "--spread: "),
        (["--bankroll", "0"], "--bankroll must be a whole number of at least 1"),
        (["--bankroll", "rich"], "--bankroll must be a whole number"),
    ],
)
def test_cli_refuses_bad_options_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    # The options under test come last, so they override the defaults before them.
    code, out, err = run_cli(capsys, "--hands", "10", "--seed", "1", "--json", *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert message in lines[0]
    assert lines[0].startswith("felt sim: ")
    assert len(lines[0]) < 250  # a long value is quoted in part, never whole


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1000", 1000),
        ("1_000_000", 1_000_000),
        ("1,000", 1000),
        ("1e6", 1_000_000),
        ("5M", 5_000_000),
        ("250k", 250_000),
    ],
)
def test_cli_parse_count_accepts_readable_numbers(text: str, value: int) -> None:
    assert parse_count(text, "--hands") == value


def test_parallel_worker_seeds_differ_and_repeat() -> None:
    seeds = [worker_seed(7, worker) for worker in range(8)]
    assert len(set(seeds)) == 8
    assert seeds == [worker_seed(7, worker) for worker in range(8)]
    assert worker_seed(8, 0) != seeds[0]


def test_parallel_shares_split_rounds_evenly() -> None:
    assert shares(10, 3) == [4, 3, 3]
    assert shares(2, 4) == [1, 1, 0, 0]
    assert sum(shares(1_000_001, 7)) == 1_000_001


def test_run_simulation_is_deterministic_across_processes() -> None:
    first = run_simulation(CASINO, "basic", 3000, 9, workers=2)
    assert first == run_simulation(CASINO, "basic", 3000, 9, workers=2)
    assert first.rounds == 3000
    single = run_simulation(CLASSIC, "dealer", 2000, 9)
    assert single == run_simulation(CLASSIC, "dealer", 2000, 9, workers=1)


def test_run_simulation_reports_a_failed_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(parallel, "_play_share", broken)
    # Both workers fail; whichever reports first is named.
    with pytest.raises(CliError, match=r"worker [01] failed: RuntimeError: boom"):
        run_simulation(CASINO, "basic", 100, 1, workers=2)


def test_progress_bar_redraws_on_a_terminal_and_finishes_the_line() -> None:
    stream = io.StringIO()
    now = [0.0]
    progress = Progress(1000, stream, bar=True, clock=lambda: now[0], min_interval=0.2)
    now[0] = 1.0
    progress.update(500)
    now[0] = 1.1
    progress.update(600)  # too soon to redraw
    now[0] = 2.0
    progress.update(1000)
    progress.close()
    text = stream.getvalue()
    assert text.count("\r") == 2
    assert " 50.0% 500/1,000 rounds  500/s" in text
    assert "100.0% 1,000/1,000 rounds" in text
    assert text.endswith("\n")


def test_progress_lines_for_a_log_file_every_tenth() -> None:
    stream = io.StringIO()
    progress = Progress(100, stream, bar=False, clock=lambda: 1.0)
    for done in range(0, 101, 5):
        progress.update(done)
    progress.close()
    assert len(stream.getvalue().splitlines()) == 10
    assert "\r" not in stream.getvalue()


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("flag", "hands", "tty", "expected"),
    [
        (None, 1000, True, (True, True)),
        (None, 1000, False, (False, False)),
        (None, 5_000_000, False, (True, False)),
        (False, 5_000_000, True, (False, False)),
        (True, 10, False, (True, False)),
    ],
)
def test_progress_is_shown_on_a_terminal_or_for_long_runs(
    flag: bool | None, hands: int, tty: bool, expected: tuple[bool, bool]
) -> None:
    stream = FakeTty() if tty else io.StringIO()
    assert wants_progress(flag, hands, stream) == expected


def test_cli_json_holds_everything_needed_to_rerun_it(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--rule", "decks=2", "--rule", "h17=true", "--strategy", "basic", "--workers", "2")
    first = json.loads(run_cli(capsys, *args, "--hands", "2000", "--seed", "21", "--json")[1])
    assert first["rounds"] == first["hands"] == 2000
    assert (first["seed"], first["workers"], first["strategy"]) == (21, 2, "basic")
    assert first["rules"]["decks"] == 2 and first["rules"]["h17"] is True
    rerun: list[str] = ["--rules", first["preset"], "--strategy", first["strategy"]]
    for override in first["rule_overrides"]:
        rerun += ["--rule", override]
    rerun += ["--hands", str(first["rounds"]), "--seed", str(first["seed"])]
    rerun += ["--workers", str(first["workers"]), "--json"]
    assert json.loads(run_cli(capsys, *rerun)[1]) == first


def total(counts: Iterable[int]) -> int:
    """How many units the chunks played (``sum`` is too generic for mypy to pick ``R``)."""
    return sum(counts)


def test_run_in_chunks_keeps_the_finished_chunks_when_interrupted() -> None:
    from bot.cli.simulation import run_in_chunks

    played: list[int] = []

    def play(index: int, count: int, _seed: int, report: object) -> int:
        if index == 3:
            raise KeyboardInterrupt
        played.append(count)
        return count

    outcome = run_in_chunks(1000, 100, play, total)
    assert (outcome.result, outcome.done, outcome.interrupted) == (300, 300, True)

    def whole_chunk(index: int, count: int, _seed: int, report: object) -> int:
        return count

    whole = run_in_chunks(250, 100, whole_chunk, total)
    assert (whole.result, whole.done, whole.interrupted) == (250, 250, False)


def test_cli_ctrl_c_prints_the_rounds_finished_so_far(tmp_path: Path) -> None:
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-m", "bot.cli", "sim", "blackjack", "--hands", "100M", "--seed", "3", "--progress"],
        cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb"},
        encoding="utf-8",
        timeout=120,
    )
    try:
        # Wait until the first chunk is done (the bar counts rounds), then press Ctrl-C.
        child.expect(r"\] +\d+\.\d%  ?(1[1-9]\d|10[1-9]),\d{3}/100,000,000 rounds")
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    text = child.before.replace("\r\n", "\n")
    assert child.exitstatus == 130
    finished = re.search(r"Blackjack: ([\d,]+) rounds, strategy basic, seed 3", text)
    assert finished is not None and finished.group(1) in ("100,000", "200,000")
    assert "House edge:" in text
    assert f"report covers the first {finished.group(1)} of 100,000,000 rounds" in text


def test_cli_counting_with_a_spread_and_a_bankroll(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--strategy", "hilo", "--spread", "1-12", "--bankroll", "5000", "--seed", "4")
    code, out, _ = run_cli(capsys, *args, "--hands", "20000", "--json")
    assert code == 0
    report = json.loads(out)
    assert (report["strategy"], report["spread"], report["bankroll"]) == ("hilo", "1-12", 5000)
    assert CASINO.bet_unit < report["average_bet"] < 12 * CASINO.bet_unit
    assert report["player_edge_pct"] == pytest.approx(-report["house_edge_pct"])
    assert 0.0 < report["risk_of_ruin_pct"] <= 100.0
    assert report["pushes"] == report["hands"] - report["wins"] - report["losses"]
    _, text, _ = run_cli(capsys, *args, "--hands", "20000")
    assert "strategy hilo, seed 4, 1 worker, spread 1-12 units" in text
    assert "Risk of ruin for a bankroll of 5,000 chips: " in text
    assert "Player's edge: " in text and "95% interval" in text
    assert "Basic strategy, calculated" not in text


def test_cli_reports_the_side_bets_against_their_exact_edges(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--rule", "side_21_3=five_tier", "--rule", "perfect_pairs=on", "--seed", "8"]
    report = json.loads(run_cli(capsys, *args, "--hands", "5000", "--json")[1])
    side_bets = report["side_bets"]
    assert list(side_bets) == ["21+3", "perfect_pairs"]
    assert side_bets["21+3"]["paytable"] == "five_tier"
    assert side_bets["21+3"]["bets"] == 5000
    assert side_bets["21+3"]["exact_house_edge_pct"] == pytest.approx(4.621, abs=1e-3)
    assert side_bets["perfect_pairs"]["exact_house_edge_pct"] == pytest.approx(6.109, abs=1e-3)
    assert report["risk_of_ruin_pct"] is None
    assert (
        json.loads(run_cli(capsys, "--hands", "100", "--seed", "1", "--json")[1])["side_bets"] == {}
    )
    _, text, _ = run_cli(capsys, *args, "--hands", "5000")
    assert "21+3: house edge" in text and "(exact for a fresh shoe: 4.621%)" in text
    assert "perfect_pairs: house edge" in text
