"""bench/tournament.py keeps running and printing its figures (a small field here; the
1,000-entry run is `make bench`): the Sit & Go time against its 2 s goal, the multi-table
tournament's time and hands/s, and the references measured in the same run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_the_tournament_benchmark_prints_times_hands_per_second_and_references() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tournament.py"), "--entries", "30", "--sngs", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"9-player turbo Sit & Go, smart bots: mean [\d.]+ s, .*\(goal < 2 s\)", out)
    assert re.search(r"30-entry MTT .*: [\d.]+ s .*, [\d,]+ hands, [\d,]+ hands/s", out)
    assert "final table from hand" in out
    assert re.search(r"reference: plain 6-max hand loop .*: [\d,]+ hands/s", out)
    assert re.search(r"ratio: MTT / plain loop [\d.]+x", out)
