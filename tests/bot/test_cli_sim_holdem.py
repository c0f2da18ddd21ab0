"""`felt sim holdem`: the report, --json, reproducibility, workers and refusals."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.common import CliError
from bot.cli.sim_holdem import parse_blinds, parse_seat_list, parse_stack
from bot.cli.simulation import Progress
from engine.holdem import phh
from engine.holdem.phh import replay
from tests.engine.holdem.pokerkit_hands import pokerkit_finishing_stacks
from tests.engine.holdem.pokerkit_home import pokerkit_finishing_stacks as home_pokerkit_stacks


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sim", "holdem", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_sim_holdem_json_has_exactly_the_issue_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "--seats", "smart,random,passive", "--hands", "40", "--seed", "3", "--json"
    )
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert list(report) == [
        "hands", "preflop_raises_p99", "seats", "seat_strategies", "blinds", "stack", "seed",
        "workers",
    ]  # fmt: skip
    assert report["seat_strategies"] == ["smart", "random", "passive"]
    assert (report["blinds"], report["stack"], report["seed"]) == ([1, 2], 200, 3)
    assert report["hands"] == 40
    assert isinstance(report["preflop_raises_p99"], int)
    assert [seat["seat"] for seat in report["seats"]] == [1, 2, 3]
    assert [seat["strategy"] for seat in report["seats"]] == ["smart", "random", "passive"]
    for seat in report["seats"]:
        assert list(seat) == [
            "seat", "strategy", "net", "bb_per_100", "stderr_bb_per_100", "vpip_pct", "pfr_pct",
            "three_bet_pct", "af", "wtsd_pct", "wsd_pct", "max_raises_in_a_hand",
        ]  # fmt: skip
        assert isinstance(seat["net"], int)
        assert 0 <= seat["vpip_pct"] <= 100 and seat["pfr_pct"] <= seat["vpip_pct"]
    passive = report["seats"][2]
    assert passive["pfr_pct"] == 0 and passive["max_raises_in_a_hand"] == 0
    assert sum(seat["net"] for seat in report["seats"]) == 0
    assert "40 hands in" in err


def test_sim_holdem_same_seed_same_result(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--seats", "smart:hard,aggressive", "--hands", "30", "--seed", "11", "--json")
    first = run(capsys, *args)[1]
    second = run(capsys, *args)[1]
    other = run(capsys, "--seats", "smart:hard,aggressive", "--hands", "30", "--seed", "12",
                "--json")[1]  # fmt: skip
    assert first == second
    assert first != other


def test_sim_holdem_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--seats", "smart,random", "--hands", "20", "--seed", "1", "--blinds", "5/10",
        "--stack", "1000",
    )  # fmt: skip
    assert code == 0
    assert "Hold'em: 20 hands, 2 seats, blinds 5/10, stacks 1,000 (100 bb" in out
    assert "bb/100" in out and "95% interval" in out
    for column in ("VPIP", "PFR", "3bet", "AF", "WTSD", "W$SD", "max raises"):
        assert column in out.splitlines()[1]
    assert "preflop raises per hand, 99th percentile (all players):" in out
    assert out.count("\n") == 5  # title, header, two seats, the preflop raises line


def test_sim_holdem_without_seed_picks_and_prints_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--seats", "random,random", "--hands", "5")
    assert code == 0
    assert "no --seed given, using --seed" in err


def test_sim_holdem_workers_split_the_hands(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--seats", "random,passive,aggressive", "--hands", "30", "--seed", "4", "--json")
    single = json.loads(run(capsys, *args)[1])
    double = json.loads(run(capsys, *args, "--workers", "2")[1])
    again = json.loads(run(capsys, *args, "--workers", "2")[1])
    assert double == again
    assert double["hands"] == single["hands"] == 30
    assert sum(seat["net"] for seat in double["seats"]) == 0


def test_sim_holdem_phh_replays_to_the_same_stacks_in_felt_and_pokerkit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hands.phhs"
    args = ("--seats", "smart,smart:hard,aggressive", "--hands", "30", "--seed", "5")
    code, _, _ = run(capsys, *args, "--phh", str(path), "--workers", "2")
    assert code == 0
    histories = phh.loads_all(path.read_text(encoding="utf-8"))
    assert [name for name, _ in histories] == [str(n) for n in range(1, 31)]
    for _, history in histories:
        assert replay(history).stacks == history.finishing_stacks
        assert pokerkit_finishing_stacks(phh.dumps(history)) == history.finishing_stacks
    assert list(tmp_path.iterdir()) == [path]  # the workers' parts are gone
    # One worker writes the same hands' format; `felt replay` reads the file.
    code, _, _ = run(capsys, *args, "--phh", str(path))
    assert code == 0 and len(phh.loads_all(path.read_text(encoding="utf-8"))) == 30
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.count("finishing_stacks") == 30


def test_sim_holdem_refuses_an_unwritable_phh_path_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "--hands", "5", "--phh", str(tmp_path / "no" / "x.phhs"))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"felt sim: --phh: cannot write {str(tmp_path / 'no' / 'x.phhs')!r}: "
        "No such file or directory"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "smart,clever"], "unknown strategy 'clever'"),
        (["--seats", "smart"], "2 to 10 strategies, not 1"),
        (["--seats", ",".join(["random"] * 11)], "2 to 10 strategies, not 11"),
        (["--seats", "smart:genius,random"], "unknown difficulty"),
        (["--blinds", "2/1"], "cannot exceed the big blind"),
        (["--blinds", "x"], "must look like 1/2"),
        (["--blinds", "0/2"], "at least 1"),
        (["--hands", "0"], "at least 1"),
        (["--hands", "-5"], "--hands"),
        (["--hands", "many"], "--hands"),
        (["--stack", "0"], "--stack must be a whole number of at least 1"),
        (["--stack", "-10"], "--stack must be a whole number of at least 1"),
        (["--stack", "²"], "--stack must be a whole number of at least 1, not '²'"),
        (["--blinds", "²/2"], "must look like 1/2"),
        (["--hands", "9" * 10_000], "(10,000 characters)"),
        (["--stack", "lots"], "whole number"),
        (["--stack", "1"], "cover the big blind"),
        (["--seed", "abc"], "--seed"),
        (["--workers", "0"], "--workers"),
    ],
)
def test_sim_holdem_refuses_bad_options_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    base = {"--seats": "smart,random", "--hands": "10", "--seed": "1"}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    argv = [item for pair in base.items() for item in pair]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("felt sim: ")
    assert message in lines[0]


def test_sim_holdem_option_parsers() -> None:
    assert parse_blinds(" 5 / 10 ") == (5, 10)
    assert parse_stack("1_000", 10) == 1000
    assert [spec.label for spec in parse_seat_list("smart:easy, passive")] == [
        "smart:easy",
        "passive",
    ]
    with pytest.raises(CliError):
        parse_blinds("1/2/3")


def test_sim_holdem_progress_draws_a_bar_and_log_lines() -> None:
    stream = io.StringIO()
    clock = iter([0.0, 1.0, 2.0, 3.0]).__next__
    bar = Progress(100, stream, bar=True, unit="hands", clock=clock, min_interval=0.0)
    bar.update(50)
    bar.update(100)
    bar.close()
    assert "50/100 hands" in stream.getvalue() and "100.0%" in stream.getvalue()
    stream = io.StringIO()
    log = Progress(100, stream, bar=False, unit="hands", clock=iter([0.0, 1.0, 2.0]).__next__)
    log.update(10)
    log.update(15)
    assert stream.getvalue().count("\n") == 1


def test_sim_holdem_home_options_write_hands_pokerkit_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "home.phhs"
    code, out, _ = run(
        capsys, "--seats", "aggressive,random,aggressive,random", "--hands", "40", "--seed", "9",
        "--straddle", "utg", "--straddles", "2", "--run-it-twice", "--bomb-pot-every", "4",
        "--bomb-pot-ante", "3", "--phh", str(path), "--workers", "2",
    )  # fmt: skip
    assert code == 0
    assert "straddle utg x2, run it twice, bomb pot every 4 (ante 3)" in out.splitlines()[0]
    histories = [history for _, history in phh.loads_all(path.read_text(encoding="utf-8"))]
    assert len(histories) == 40
    bombs = [h for h in histories if h.extra.get("_bomb_pot")]
    assert len(bombs) == 10 and all(h.antes == (3, 3, 3, 3) for h in bombs)
    straddled = [h for h in histories if not h.extra.get("_bomb_pot")]
    assert all(h.blinds_or_straddles == (1, 2, 4, 8) and h.min_bet == 8 for h in straddled)
    assert any(h.runout_count == 2 for h in histories)
    for history in histories:
        assert replay(history).stacks == history.finishing_stacks
        assert home_pokerkit_stacks(phh.dumps(history)) == history.finishing_stacks


def test_sim_holdem_button_straddle_and_double_board_bomb_pots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "home.phhs"
    code, out, _ = run(
        capsys, "--seats", "smart,random,passive", "--hands", "12", "--seed", "4", "--json",
        "--straddle", "button", "--bomb-pot-every", "3", "--bomb-pot-ante", "2", "--double-board",
        "--phh", str(path),
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["home_game"] == "straddle button, bomb pot every 3 (ante 2, double board)"
    histories = [history for _, history in phh.loads_all(path.read_text(encoding="utf-8"))]
    assert sum(h.extra.get("_board_count") == 2 for h in histories) == 4
    for history in histories:
        assert home_pokerkit_stacks(phh.dumps(history)) == history.finishing_stacks


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--straddle", "left"], "invalid choice: 'left'"),
        (["--seats", "smart,random", "--straddle", "utg"], "needs at least 3 seats, not 2"),
        (["--straddle", "utg", "--straddles", "2"], "--straddles must be a whole number from 1"),
        (["--seats", "smart,random,passive,random", "--straddle", "button", "--straddles", "2"],
         "needs --straddle utg"),
        (["--bomb-pot-every", "5"], "needs --bomb-pot-ante"),
        (["--bomb-pot-ante", "5"], "need --bomb-pot-every"),
        (["--double-board"], "need --bomb-pot-every"),
        (["--bomb-pot-every", "-1"], "--bomb-pot-every"),
        (["--bomb-pot-every", "2", "--bomb-pot-ante", "0"], "--bomb-pot-ante"),
    ],
)  # fmt: skip
def test_sim_holdem_refuses_bad_home_options_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    base = ["--seats", "smart,random,passive", "--hands", "5", "--seed", "1"]
    if "--seats" in args:
        base = base[2:]
    with contextlib.suppress(SystemExit):  # argparse's own refusals exit
        code, out, err = run(capsys, *base, *args)
        assert code == 2 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("felt sim: ")
        assert message in lines[0]
        return
    err = capsys.readouterr().err
    assert message in err
