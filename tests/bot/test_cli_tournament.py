"""`felt icm`, `felt tournament structure` and `felt sim tournament`: output, JSON, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from engine.tournament import icm_exact


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_icm_json_is_the_equity_at_full_precision(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "icm", "5000", "3000", "2000", "--payouts", "50", "30", "20", "--json"
    )
    assert code == 0
    assert json.loads(out) == {"equity": icm_exact([5000, 3000, 2000], [50, 30, 20])}


def test_icm_accepts_decimals_and_chip_chop(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "icm", "60.5", "39.5", "--payouts", "0.7", "0.3", "--chip-chop", "--json"
    )
    assert code == 0
    equity = json.loads(out)["equity"]
    assert equity == pytest.approx([0.3 + 0.4 * 0.605, 0.3 + 0.4 * 0.395])


def test_icm_text_names_every_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "icm", "100", "100", "--payouts", "1")
    assert code == 0 and "ICM equity of 2 players" in out
    assert out.count("0.50") == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("icm", "100", "abc", "--payouts", "1"), "a stack must be a number"),
        (("icm", "100", "0", "--payouts", "1"), "every stack must be above 0"),
        (("icm", "100", "-5", "--payouts", "1"), "a stack must be a number"),
        (("icm", "100", "50", "--payouts", "3", "2", "1"), "3 payouts for 2 players"),
        (("icm", "100", "50", "--payouts", "1e5"), "a payout must be a number"),
        (("tournament", "structure", "glacial"), "unknown preset 'glacial'"),
        (("tournament", "structure", "turbo", "--format", "xyz"), "--format must be sng or mtt"),
        (("tournament", "structure", "missing.toml"), "cannot read 'missing.toml'"),
        (("tournament", "payouts", "0"), "ENTRIES must be a whole number from 1"),
        (("tournament", "payouts", "9", "--percent", "60", "30"), "must sum to 100, not 90"),
        (("tournament", "payouts", "9", "--fee", "101"), "--fee must be a whole number from 0"),
        (("tournament", "payouts", "9", "--pool", "lots"), "--pool must be a whole number"),
        (("tournament", "payouts", "9", "--percent", "1e2"), "--percent must be a number"),
        (("tournament", "payouts", "9", "--percent", "５０", "５０"), "--percent must be a number"),
        (("tournament", "payouts", "9", "--percent", "1_0", "90"), "--percent must be a number"),
        (("sim", "tournament", "--seats", "smart"), "--seats must list 2 to 10"),
        (("sim", "tournament", "--seats", "smart,wizard"), "unknown strategy"),
        (("sim", "tournament", "--tournaments", "0"), "--tournaments must be a whole number"),
        (("sim", "tournament", "--preset", "slow"), "unknown preset"),
        (("sim", "tournament", "--seed", "-1"), "--seed must be a whole number"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_bad_structure_file_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("starting_stack = 100\n[[levels]]\nsmall_blind = 5\nbig_blind = 10\n")
    code, _, err = run(capsys, "tournament", "structure", str(path))
    assert code == 2 and "a level lasts either minutes or hands" in err
    assert len(err.strip().splitlines()) == 1


def test_structure_prints_levels_breaks_and_rebuys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "structure", "regular", "--format", "mtt", "--rebuys")
    assert code == 0
    assert "starting stack 3,000" in out and "late registration to the end of level 6" in out
    assert "break 5 minutes (add-on)" in out and "rebuys to the end of level 6" in out
    assert "   1              10/20" in out


def test_sim_tournament_json_has_exactly_the_issue_fields(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("sim", "tournament", "--seats", "random,passive,aggressive", "--tournaments", "5")
    code, out, err = run(capsys, *args, "--preset", "hyper", "--seed", "4", "--json")
    assert code == 0 and "5 tournaments" in err
    report = json.loads(out)
    assert list(report) == ["tournaments", "seats"] and report["tournaments"] == 5
    for seat in report["seats"]:
        assert list(seat) == [
            "seat",
            "strategy",
            "itm_pct",
            "roi_pct",
            "stderr_roi_pct",
            "avg_place",
        ]
    assert [s["strategy"] for s in report["seats"]] == ["random", "passive", "aggressive"]
    assert sum(s["avg_place"] for s in report["seats"]) <= 6
    again = run(capsys, *args, "--preset", "hyper", "--seed", "4", "--json")[1]
    assert again == out


def test_sim_tournament_rebuys_add_entries(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "sim", "tournament", "--seats", "aggressive,aggressive,random",
        "--tournaments", "3", "--preset", "hyper", "--seed", "2", "--rebuys", "--json",
    )  # fmt: skip
    assert code == 0
    seats = json.loads(out)["seats"]
    assert all(seat["entries"] > 1 for seat in seats)
    assert all(
        list(seat)
        == ["seat", "strategy", "itm_pct", "roi_pct", "stderr_roi_pct", "avg_place", "entries"]
        for seat in seats
    )


def test_sim_tournament_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "sim", "tournament", "--seats", "random,passive", "--tournaments", "4",
        "--preset", "hyper", "--seed", "1",
    )  # fmt: skip
    assert code == 0
    assert "Sit & Go: 4 tournaments, 2 seats" in out and "places 1st..last" in out


def test_sim_tournament_reads_a_custom_structure_and_keeps_its_rebuys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "rebuys.toml"
    path.write_text(
        "starting_stack = 300\nrebuy_levels = 2\nrebuy_limit = 1\nrebuy_chips = 300\n"
        "[[levels]]\nsmall_blind = 10\nbig_blind = 20\nhands = 5\n"
        "[[levels]]\nsmall_blind = 20\nbig_blind = 40\nhands = 5\n"
        "[[levels]]\nsmall_blind = 50\nbig_blind = 100\nhands = 5\n",
        encoding="utf-8",
    )
    code, out, _ = run(
        capsys, "sim", "tournament", "--seats", "aggressive,aggressive,aggressive",
        "--tournaments", "3", "--preset", str(path), "--seed", "1", "--json",
    )  # fmt: skip
    assert code == 0
    assert all("entries" in seat for seat in json.loads(out)["seats"])


def test_sim_tournament_refuses_a_structure_with_late_registration(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "late.toml"
    path.write_text(
        "starting_stack = 300\nlate_registration_levels = 1\n"
        "[[levels]]\nsmall_blind = 10\nbig_blind = 20\nminutes = 5\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "sim", "tournament", "--preset", str(path))
    assert code == 2 and out == "" and "which a Sit & Go" in err
    assert len(err.strip().splitlines()) == 1


def test_payouts_print_whole_chips_that_pay_the_pool(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "payouts", "5", "--pool", "1001", "--fee", "10")
    assert code == 0 and "prize pool 901" in out
    prizes = [int(line.split()[-1].replace(",", "")) for line in out.splitlines()[2:]]
    assert prizes == [586, 315]  # 65/35 of 901: 585.65 and 315.35, the leftover chip to 1st


def test_custom_payouts_for_fewer_entries_than_places_pay_only_the_entries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "tournament", "payouts", "2", "--percent", "50", "30", "20")
    assert code == 0 and "prize pool 200" in out
    rows = [line.split() for line in out.splitlines()[2:]]
    assert rows == [["1", "62.50", "125"], ["2", "37.50", "75"]]


def test_icm_beyond_ten_players_is_a_seeded_estimate_in_the_payouts_unit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stacks = [str(1_000 * n) for n in range(1, 13)]
    args = ("icm", *stacks, "--payouts", "500", "300", "200", "--json")
    code, out, _ = run(capsys, *args)
    assert code == 0
    equity = json.loads(out)["equity"]
    assert len(equity) == 12 and sum(equity) == pytest.approx(1_000)
    assert equity[-1] > equity[0] > 0  # the biggest stack is worth the most
    assert run(capsys, *args)[1] == out  # the same estimate every time
