"""`felt replay`: JSON per hand on stdout, one readable line and exit 2 on any bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from bot.cli import main
from tests.engine.holdem.pokerkit_home import (
    play_pokerkit_home,
    pokerkit_finishing_stacks,
    random_home_setup,
)
from tests.engine.holdem.test_phh import REFERENCE, history


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_cli_replay_prints_finishing_stacks_per_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    single = tmp_path / "one.phh"
    single.write_text(REFERENCE)
    multi = tmp_path / "many.phhs"
    multi.write_text(f"[1]\n{REFERENCE}\n[two]\n{history()}\n['x']\nhand = 42\n{history()}")
    code, lines, err = run_cli(capsys, str(single), str(multi))
    assert code == 0
    assert err == ""
    assert [json.loads(line) for line in lines] == [
        {"hand": 1, "finishing_stacks": [800, 900, 0, 1500]},
        {"hand": 1, "finishing_stacks": [800, 900, 0, 1500]},
        {"hand": "two", "finishing_stacks": [101, 99]},
        {"hand": 42, "finishing_stacks": [101, 99]},
    ]


def test_cli_replay_uses_the_hand_field_when_present(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.phh"
    path.write_text(REFERENCE + "hand = 1234\n")
    assert run_cli(capsys, str(path))[1] == [
        '{"hand": 1234, "finishing_stacks": [800, 900, 0, 1500]}'
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("x = [", "not valid TOML"),
        (history(variant='"FT"'), "not supported"),
        (
            history(actions='["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 1"]'),
            "hand 1: action 3 'p2 cbr 1'",
        ),
        ("[7]\n" + history(actions='["p9 f"]'), "hand 7: action 1 'p9 f'"),
    ],
)
def test_cli_replay_refuses_bad_files_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    path = tmp_path / "bad.phh"
    if content is not None:
        path.write_text(content)
    code, lines, err = run_cli(capsys, str(path))
    assert code == 2
    assert lines == []
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"felt replay: {path}")
    assert message in err


def test_cli_replay_runs_as_a_console_script(tmp_path: Path) -> None:
    path = tmp_path / "one.phh"
    path.write_text(REFERENCE)
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"hand": 1, "finishing_stacks": [800, 900, 0, 1500]}


def felt_replay(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_replay_goes_on_after_a_bad_hand_and_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "many.phhs"
    bad = history(actions='["d dh p1 AsAd", "d dh p2 KsKd", "p1 f"]')
    path.write_text(f"[1]\n{history()}\n[2]\n{bad}\n[3]\n{history()}")
    code, lines, err = run_cli(capsys, str(path))
    assert code == 2
    assert [json.loads(line)["hand"] for line in lines] == [1, 3]
    # Heads-up p2 acts first: PokerKit's repair folds p2, and then p1 has nothing to fold.
    assert err == f"felt replay: {path}: hand 2: action 3 'p1 f': the hand is already over\n"


def test_cli_replay_names_each_bad_file_and_replays_the_good_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.phh"
    good.write_text(history())
    broken = tmp_path / "broken.phh"
    broken.write_text("x = [")
    missing = tmp_path / "missing.phh"
    code, lines, err = run_cli(capsys, str(missing), str(good), str(broken), str(good))
    assert code == 2
    assert lines == ['{"hand": 1, "finishing_stacks": [101, 99]}'] * 2
    errors = err.splitlines()
    assert len(errors) == 2
    assert errors[0] == f"felt replay: {missing}: no such file"
    assert errors[1].startswith(f"felt replay: {broken}: not valid TOML")


def test_cli_replay_reads_stdin_for_a_dash() -> None:
    result = felt_replay("-", stdin=f"[1]\n{history()}\n[2]\n{REFERENCE}")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert [json.loads(line) for line in result.stdout.splitlines()] == [
        {"hand": 1, "finishing_stacks": [101, 99]},
        {"hand": 2, "finishing_stacks": [800, 900, 0, 1500]},
    ]


def test_cli_replay_names_stdin_in_its_errors() -> None:
    result = felt_replay("-", stdin="x = [")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("felt replay: <stdin>: not valid TOML")
    assert len(result.stderr.splitlines()) == 1


def test_cli_replay_into_a_reader_that_stops_exits_quietly(tmp_path: Path) -> None:
    path = tmp_path / "many.phhs"
    # More output than a pipe buffers, so the writer is still writing when the reader leaves.
    path.write_text("\n".join(f"[{i}]\n{history()}" for i in range(1, 3001)))
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "replay", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    code = process.wait(timeout=120)
    assert json.loads(first) == {"hand": 1, "finishing_stacks": [101, 99]}
    assert err == ""
    assert code == 0


def test_cli_replay_refuses_an_unknown_field_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.phh"
    path.write_text(history(foo_bar="1"))
    code, lines, err = run_cli(capsys, str(path))
    assert code == 2
    assert lines == []
    assert err == (
        f"felt replay: {path}: hand 1: unknown field 'foo_bar': not a PHH field"
        " (user-defined fields start with '_')\n"
    )


def test_cli_replay_accepts_user_defined_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.phh"
    path.write_text(history(_felt_note='"kept"'))
    assert run_cli(capsys, str(path)) == (0, ['{"hand": 1, "finishing_stacks": [101, 99]}'], "")


def test_cli_replay_names_a_misspelled_required_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.phh"
    path.write_text(history(actions=None, actoins='["d dh p1 AsAd", "d dh p2 KsKd", "p2 f"]'))
    code, lines, err = run_cli(capsys, str(path))
    assert code == 2
    assert lines == []
    assert err == (
        f"felt replay: {path}: hand 1: missing required field(s): actions"
        " ('actoins' looks like a misspelling of 'actions')\n"
    )


def test_cli_replay_refuses_fields_outside_the_hand_tables_of_a_phhs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.phhs"
    path.write_text(f'author = "me"\n[1]\n{history()}')
    code, lines, err = run_cli(capsys, str(path))
    assert code == 2
    assert lines == []
    assert err.startswith(f"felt replay: {path}: top-level field 'author' sits outside the hand")
    assert len(err.splitlines()) == 1


def test_cli_replay_reads_pokerkit_straddle_and_run_it_twice_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(20)
    texts, expected = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind in ("straddles", "runs") * 15:
            setup = random_home_setup(rng, straddles=kind == "straddles", runs=kind == "runs")
            text, stacks = play_pokerkit_home(setup, rng)
            texts.append(text)
            expected.append(list(stacks))
    path = tmp_path / "home.phhs"
    path.write_text("".join(f"[{n}]\n{text}\n" for n, text in enumerate(texts, 1)))
    assert any("_runout_count = 2" in text for text in texts)
    assert any("blinds_or_straddles = [1, 2, 4" in text for text in texts)
    code, lines, err = run_cli(capsys, str(path))
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in lines] == [
        {"hand": n, "finishing_stacks": stacks} for n, stacks in enumerate(expected, 1)
    ]


def test_cli_replay_honours_the_files_min_bet_whatever_the_straddle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A straddle of 4 with min_bet 2: a raise to 6 is legal (PokerKit's reading), and replays.
    actions = '["d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 QsQd", "p1 cbr 6", "p2 f", "p3 f"]'
    path = tmp_path / "straddle.phh"
    path.write_text(
        history(
            antes="[0, 0, 0]", blinds_or_straddles="[1, 2, 4]", starting_stacks="[100, 100, 100]",
            actions=actions,
        )
    )  # fmt: skip
    code, lines, err = run_cli(capsys, str(path))
    assert (code, err) == (0, "")
    assert json.loads(lines[0]) == {"hand": 1, "finishing_stacks": [106, 98, 96]}
    assert pokerkit_finishing_stacks(path.read_text()) == (106, 98, 96)


def test_cli_replay_refuses_a_runout_count_the_actions_do_not_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "runs.phh"
    path.write_text(history() + "_runout_count = 2\n")
    code, lines, err = run_cli(capsys, str(path))
    assert (code, lines) == (2, [])
    assert err.count("\n") == 1 and "_runout_count is 2 but it ran once" in err
