"""`felt replay`: JSON per hand on stdout, one readable line and exit 2 on any bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
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
