"""Durable chip operations per second: hand settlements (6 seats, ledger and stats rows included)
and buy-in/cash-out pairs, with synchronous=FULL and NORMAL, 1 and 20 concurrent writers.

The reference, measured in the same run on the same disk, is a bare sqlite3 transaction (BEGIN
IMMEDIATE, one UPDATE, COMMIT) at the same synchronous level: the floor any durable operation
pays. Goal: at least 1,000 settlements/s with the default (synchronous=NORMAL, the log fsynced
once a second in the background, which these figures include).

    .venv/bin/python bench/storage.py [--seconds 1.5] [--long] [--dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# This file is bench/storage.py: run as a script, its folder comes first on sys.path and
# `import storage` would find this file instead of the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import aiosqlite  # noqa: E402

from storage.models import SeatResult  # noqa: E402
from storage.settings import EconomySettings  # noqa: E402
from storage.sqlite import DEFAULT_SYNCHRONOUS, Synchronous  # noqa: E402
from storage.store import Storage  # noqa: E402

GUILD = 1
SEATS = 6
TABLES = 20
GOAL = 1_000
PHH = (
    'variant = "NT"\nantes = [0, 0, 0, 0, 0, 0]\nblinds_or_straddles = [5, 10, 0, 0, 0, 0]\n'
    "min_bet = 10\nstarting_stacks = [1000, 1000, 1000, 1000, 1000, 1000]\nactions = [\n"
    + "".join(f'  "d dh p{n} AcKd",\n' for n in range(1, 7))
    + '  "p3 cbr 30", "p4 cc", "p5 f", "p6 f", "p1 cc", "p2 cc",\n  "d db 2c7c9h",\n]\n'
)


@dataclass(frozen=True, slots=True)
class Figure:
    synchronous: Synchronous
    writers: int
    settlements: float
    pairs: float


def bare_commits(path: Path, synchronous: Synchronous, seconds: float) -> float:
    """The reference: bare durable transactions per second through plain sqlite3."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute(f"PRAGMA synchronous = {synchronous.value}")
    connection.execute("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER)")
    connection.execute("INSERT OR REPLACE INTO counter VALUES (1, 0)")
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("UPDATE counter SET n = n + 1 WHERE id = 1")
        connection.execute("COMMIT")
        done += 1
    elapsed = time.perf_counter() - start
    connection.close()
    return done / elapsed


@dataclass(slots=True)
class Tables:
    """The benchmark's tables and what the benchmark knows about them."""

    ids: list[int]
    stacks: dict[int, dict[int, int]]
    last_hand: dict[int, int]


async def setup(storage: Storage) -> Tables:
    """20 tables with 6 members seated at each, every stack 1,000."""
    tables = []
    for t in range(TABLES):
        table = (await storage.open_table(GUILD, 100 + t, settings={}, key=f"open-{t}")).table_id
        for seat in range(SEATS):
            user = 1_000 + t * SEATS + seat
            await storage.buy_in(table, seat, user, 1_000, key=f"in-{t}-{seat}")
        tables.append(table)
    return Tables(
        tables, {t: dict.fromkeys(range(SEATS), 1_000) for t in tables}, dict.fromkeys(tables, 0)
    )


async def settle_rate(
    storage: Storage, tables: Tables, writers: int, seconds: float, rng: random.Random
) -> float:
    """Settlements per second: hands are started untimed, then settled (timed) one at a time or
    ``writers`` at once."""
    stacks = tables.stacks
    hand_ids = tables.last_hand
    settled = 0
    timed = 0.0
    group = tables.ids[:writers]

    async def settle(table: int) -> None:
        start = stacks[table]
        final = dict(start)
        winner = rng.randrange(SEATS)
        pot = 0
        for seat in range(SEATS):
            if seat != winner:
                # Everybody's stack changes, so every seat writes a ledger row.
                lost = rng.randrange(1, max(2, final[seat] // 4)) if final[seat] > 1 else 0
                final[seat] -= lost
                final[winner] += lost
                pot += lost
        await storage.settle_hand(
            table,
            hand_ids[table],
            final,
            phh=PHH,
            results={winner: SeatResult(won=True, pot_won=pot)},
            key=f"settle-{writers}-{table}-{hand_ids[table]}",
        )
        stacks[table] = final

    while timed < seconds:
        for table in group:
            hand_ids[table] += 1
            await storage.start_hand(
                table,
                hand_ids[table],
                stacks[table],
                key=f"start-{writers}-{table}-{hand_ids[table]}",
            )
        begin = time.perf_counter()
        if writers == 1:
            await settle(group[0])
        else:
            await asyncio.gather(*(settle(table) for table in group))
        timed += time.perf_counter() - begin
        settled += len(group)
    return settled / timed


async def pair_rate(storage: Storage, tables: Tables, writers: int, seconds: float) -> float:
    """Buy-in + cash-out pairs per second, each writer on its own table and seat."""
    count = [0]
    deadline = time.perf_counter() + seconds
    seat = SEATS  # a free chair at every table

    async def shuttle(index: int, table: int) -> None:
        user = 50_000 + index
        n = 0
        while time.perf_counter() < deadline:
            tag = f"{writers}-{index}-{n}"
            await storage.buy_in(table, seat, user, 100, key=f"pair-in-{tag}")
            await storage.cash_out(table, seat, key=f"pair-out-{tag}")
            n += 1
        count[0] += n

    begin = time.perf_counter()
    await asyncio.gather(*(shuttle(i, t) for i, t in enumerate(tables.ids[:writers])))
    return count[0] / (time.perf_counter() - begin)


async def measure(
    folder: Path, seconds: float, repeats: int
) -> tuple[dict[Synchronous, float], dict[tuple[Synchronous, int], Figure]]:
    """The reference and every figure, best of ``repeats`` slices taken in turn (the machine is
    shared, and load from other processes only ever slows a slice down)."""
    stores: dict[Synchronous, Storage] = {}
    tables: dict[Synchronous, Tables] = {}
    best: dict[tuple[Synchronous, int], Figure] = {}
    reference = dict.fromkeys(Synchronous, 0.0)
    rng = random.Random(1)
    try:
        for level in Synchronous:
            stores[level] = await Storage.open(
                folder / f"bench-{level.value.lower()}.db",
                synchronous=level,
                economy=EconomySettings(starting_chips=10**12),
            )
            tables[level] = await setup(stores[level])
        for _ in range(repeats):
            for level in Synchronous:
                bare = bare_commits(folder / f"ref-{level.value.lower()}.db", level, seconds)
                reference[level] = max(reference[level], bare)
                for writers in (1, TABLES):
                    store, state = stores[level], tables[level]
                    settlements = await settle_rate(store, state, writers, seconds, rng)
                    pairs = await pair_rate(store, state, writers, seconds)
                    old = best.get((level, writers))
                    if old is not None:
                        settlements = max(settlements, old.settlements)
                        pairs = max(pairs, old.pairs)
                    best[level, writers] = Figure(level, writers, settlements, pairs)
        for store in stores.values():
            report = await store.check()
            assert report.ok, report.problems
    finally:
        for store in stores.values():
            await store.close()
    return reference, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one slice")
    parser.add_argument("--repeats", type=int, default=3, help="slices per figure (best kept)")
    parser.add_argument("--long", action="store_true", help="ten 2-second slices per figure")
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go")
    args = parser.parse_args()
    seconds, repeats = (2.0, 10) if args.long else (args.seconds, args.repeats)

    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        base = Path(folder)
        print(
            f"SQLite {sqlite3.sqlite_version}, aiosqlite {aiosqlite.__version__}, "
            f"best of {repeats} slices of {seconds:g} s per figure, databases in {base}"
        )
        reference, table = asyncio.run(measure(base, seconds, repeats))

    print()
    print(f"{'':<34}{'synchronous=FULL':>20}{'synchronous=NORMAL':>22}")
    print(
        f"{'reference: bare commits/s':<34}"
        f"{reference[Synchronous.FULL]:>20,.0f}{reference[Synchronous.NORMAL]:>22,.0f}"
    )
    for writers in (1, TABLES):
        full, normal = table[Synchronous.FULL, writers], table[Synchronous.NORMAL, writers]
        label = f"{writers} writer{'s' if writers > 1 else ''}"
        print(
            f"{'settlements/s, ' + label:<34}{full.settlements:>20,.0f}{normal.settlements:>22,.0f}"
        )
        print(
            f"{'buy-in/cash-out pairs/s, ' + label:<34}{full.pairs:>20,.0f}{normal.pairs:>22,.0f}"
        )
    print()
    for level in Synchronous:
        one, many = table[level, 1], table[level, TABLES]
        floor = one.settlements / reference[level]
        print(
            f"{level.value:<6} settlements / bare commits x{floor:.2f}; "
            f"20 writers / 1: settlements x{many.settlements / one.settlements:.2f}, "
            f"pairs x{many.pairs / one.pairs:.2f}"
        )
    for writers in (1, TABLES):
        full, normal = table[Synchronous.FULL, writers], table[Synchronous.NORMAL, writers]
        print(
            f"NORMAL / FULL with {writers:>2} writer(s): settlements x"
            f"{normal.settlements / full.settlements:.2f}, pairs x{normal.pairs / full.pairs:.2f}"
        )
    default = table[DEFAULT_SYNCHRONOUS, 1].settlements
    verdict = "met" if default >= GOAL else "NOT met"
    print(
        f"default synchronous={DEFAULT_SYNCHRONOUS.value}: {default:,.0f} settlements/s with one "
        f"writer; goal {GOAL:,}/s {verdict}"
    )


if __name__ == "__main__":
    main()
