"""The crash test: a real process playing a scripted session, killed with SIGKILL at random
moments, restarted, recovered and checked, many times over.

After every kill: recovery (as at bot startup) voids the unfinished hand and refunds the unfinished
round; `check` passes; every operation the session saw succeed is in the database and no refused one
is; and each member holds exactly their starting grant plus the effects of the operations that were
applied (completed hands, rounds, transfers, grants): no chip lost or invented anywhere, whatever
moment the kill hit (startup, migration, recovery, mid-operation, mid-commit).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import RawDatabase

SCRIPT = Path(__file__).with_name("crash_session.py")
ROOT = Path(__file__).resolve().parents[2]
GUILD = 1
STARTING_CHIPS = 1_000


def spawn(
    db: str | Path, journal: Path, seed: int, run: int, ops: int = 0
) -> subprocess.Popen[str]:
    command = [sys.executable, str(SCRIPT), str(db), str(journal), "--seed", str(seed)]
    command += ["--run", str(run), "--ops", str(ops)]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def kill_at_random(process: subprocess.Popen[str], rng: random.Random) -> int:
    """Let the session report ``n`` finished steps (0 = still starting), then kill it within
    the next couple of milliseconds, which lands inside an operation or its commit."""
    assert process.stdout is not None
    target = rng.choice([0, 1, 2]) if rng.random() < 0.15 else rng.randrange(3, 80)
    seen = 0
    while seen < target:
        if not process.stdout.readline():
            break
        seen += 1
    time.sleep(rng.uniform(0, 0.002))  # the random moment itself, not a wait for something
    process.send_signal(signal.SIGKILL)
    _out, err = process.communicate()
    if process.returncode != -signal.SIGKILL:
        pytest.fail(f"the session ended by itself (exit {process.returncode}):\n{err}")
    return seen


def read_journal(journal: Path) -> tuple[dict[str, dict[int, int]], set[str], set[str]]:
    intents: dict[str, dict[int, int]] = {}
    done: set[str] = set()
    refused: set[str] = set()
    if not journal.exists():
        return intents, done, refused
    for line in journal.read_text().splitlines(keepends=True):
        if not line.endswith("\n"):
            continue  # a line the kill cut short
        entry = json.loads(line)
        if "key" in entry:
            intents[entry["key"]] = {int(k): v for k, v in entry["effects"].items()}
        elif "done" in entry:
            done.add(entry["done"])
        else:
            refused.add(entry["refused"])
    return intents, done, refused


async def restart_and_verify(db: str | Path, journal: Path) -> None:
    """What the bot does at startup (open, migrate, recover), then prove every chip is there."""
    async with await Storage.open(
        db, economy=EconomySettings(starting_chips=STARTING_CHIPS)
    ) as storage:
        await storage.recover()
        report = await storage.check()
    assert report.ok, report.problems
    assert (report.hands_in_progress, report.rounds_open) == (0, 0)

    intents, done, refused = read_journal(journal)
    connection = RawDatabase(db)
    try:
        applied = {key for (key,) in connection("SELECT op_key FROM operations")}
        members = [u for (u,) in connection("SELECT user_id FROM members")]
        holdings = dict(
            connection(
                "SELECT user_id, SUM(balance) FROM accounts WHERE guild_id = ? "
                "AND user_id IS NOT NULL GROUP BY user_id",
                (GUILD,),
            )
        )
        escrow = connection("SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE kind = 'bet'")[0][
            0
        ]
    finally:
        connection.close()

    assert done <= applied, f"acknowledged but lost: {sorted(done - applied)}"
    assert not refused & applied, f"refused but applied: {sorted(refused & applied)}"
    expected: Counter[int] = Counter(dict.fromkeys(members, STARTING_CHIPS))
    for key, effects in intents.items():
        if key in applied:
            expected.update(effects)
    assert {u: v for u, v in holdings.items() if v or u in expected} == {
        u: v for u, v in expected.items() if v or u in holdings
    }
    assert escrow == 0


def crash_many_times(tmp_path: Path, db: str | Path, kills: int, seed: int) -> Counter[str]:
    journal = tmp_path / "journal.jsonl"
    rng = random.Random(seed)
    moments: Counter[str] = Counter()
    for run in range(kills):
        seen = kill_at_random(spawn(db, journal, seed, run), rng)
        moments["starting" if seen < 2 else "playing"] += 1
        asyncio.run(restart_and_verify(db, journal))
    # A last, uninterrupted stretch: the database is still fully usable after all those kills.
    final = spawn(db, journal, seed, kills, ops=30)
    _out, err = final.communicate(timeout=120)
    assert final.returncode == 0, err
    asyncio.run(restart_and_verify(db, journal))
    cli = subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", "check", "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert "OK: every balance equals its ledger" in cli.stdout
    return moments


def test_sigkill_at_random_moments_loses_no_chip(tmp_path: Path, database: str | Path) -> None:
    moments = crash_many_times(tmp_path, database, kills=6, seed=20250301)
    assert sum(moments.values()) == 6


@pytest.mark.slow
def test_sigkill_hundreds_of_times_loses_no_chip(tmp_path: Path, database: str | Path) -> None:
    seed = int(os.environ.get("FELT_CRASH_SEED", "7"))
    kills = int(os.environ.get("FELT_CRASH_KILLS", "200"))
    moments = crash_many_times(tmp_path, database, kills=kills, seed=seed)
    assert moments["playing"] > kills // 2
