"""Several processes, each with its own connections, hammering transfers, buy-ins, cash-outs,
hand settlements and blackjack rounds on the same accounts at once (hammer_session.py). Afterwards
check passes, no operation's effect was lost (each member holds exactly what the operations the
processes saw succeed add up to), no balance but the house's went below zero, every chip is
conserved, and what a process saw succeed is in the database while what it saw refused is not.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from storage.store import Storage
from tests.storage.hammer_session import GUILDS
from tests.storage.support import RawDatabase

SCRIPT = Path(__file__).with_name("hammer_session.py")
ROOT = Path(__file__).resolve().parents[2]
STARTING_CHIPS = 1_000
GRANT = 200
TABLES_PER_GUILD = 2


async def prepare(database: str | Path) -> None:
    async with await Storage.open(database) as storage:
        for guild, members in GUILDS.items():
            for user in members:
                await storage.admin_grant(guild, user, GRANT, actor_id=1, key=f"grant-{user}")
            for n in range(TABLES_PER_GUILD):
                await storage.open_table(guild, n, settings={}, key=f"table-{guild}-{n}")


def hammer(database: str | Path, processes: int, ops: int, seed: int) -> list[dict[str, Any]]:
    """Start every process at once, then wait for all of them."""
    running = [
        subprocess.Popen(
            [
                *(sys.executable, str(SCRIPT), str(database)),
                *("--worker", str(worker), "--seed", str(seed), "--ops", str(ops)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for worker in range(processes)
    ]
    reports = []
    for process in running:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


async def verify(database: str | Path, reports: list[dict[str, Any]], ops: int) -> None:
    async with await Storage.open(database) as storage:
        report = await storage.check()
    assert report.ok, report.problems
    assert (report.hands_in_progress, report.rounds_open) == (0, 0)

    unexpected = [line for r in reports for line in r["unexpected"]]
    assert unexpected == []
    done = {key for r in reports for key in r["done"]}
    refused = {key for r in reports for key in r["refused"]}
    # The test is only worth something if the processes really got in each other's way and
    # still got plenty done.
    assert len(done) >= len(reports) * ops // 3
    refusals: Counter[str] = sum((Counter(r["refusals"]) for r in reports), Counter())
    assert refusals["InsufficientChips"] > 0
    assert refusals["SeatTaken"] + refusals["AlreadySeated"] > 0

    raw = RawDatabase(database)
    try:
        applied = {key for (key,) in raw("SELECT op_key FROM operations WHERE op_key LIKE 'w%'")}
        holdings = dict(
            raw(
                "SELECT user_id, SUM(balance) FROM accounts WHERE user_id IS NOT NULL "
                "GROUP BY user_id"
            )
        )
        houses = dict(raw("SELECT guild_id, balance FROM accounts WHERE kind = 'house'"))
        lowest = raw("SELECT MIN(balance) FROM accounts WHERE kind <> 'house'")[0][0]
    finally:
        raw.close()

    assert applied == done
    assert not refused & applied
    assert lowest >= 0
    effects: Counter[int] = Counter()
    for r in reports:
        effects.update({int(user): delta for user, delta in r["effects"].items()})
    start = STARTING_CHIPS + GRANT
    assert holdings == {
        user: start + effects[user] for members in GUILDS.values() for user in members
    }
    for guild, members in GUILDS.items():
        # Members only win from or lose to the house (blackjack); nothing else creates chips.
        assert houses[guild] == -sum(effects[user] for user in members)
    assert sum(holdings.values()) + sum(houses.values()) == start * sum(map(len, GUILDS.values()))


def test_processes_hammering_the_same_accounts_lose_nothing(database: str | Path) -> None:
    asyncio.run(prepare(database))

    reports = hammer(database, processes=6, ops=60, seed=11)

    asyncio.run(verify(database, reports, ops=60))


@pytest.mark.slow
def test_many_processes_hammering_for_long_lose_nothing(database: str | Path) -> None:
    processes = int(os.environ.get("FELT_HAMMER_PROCESSES", "8"))
    ops = int(os.environ.get("FELT_HAMMER_OPS", "800"))
    asyncio.run(prepare(database))

    reports = hammer(database, processes=processes, ops=ops, seed=29)

    asyncio.run(verify(database, reports, ops=ops))
