"""Durable chip operations per second: hand settlements (6 seats, ledger and stats rows included)
and buy-in/cash-out pairs, with synchronous=FULL and NORMAL, 1 and 20 concurrent writers; then
settlements on SQLite (the default) and on PostgreSQL side by side, with 1, 4, 16 and 32 writers,
against PostgreSQL's bare commits with as many writers.

The SQLite reference, measured in the same run on the same disk (the filesystem type is printed:
tmpfs would hide the disk), is a bare sqlite3 transaction (BEGIN IMMEDIATE, one UPDATE, COMMIT)
at the same synchronous level: the floor any durable operation pays. Goal (issue 21): at least
2,000 settlements/s with one writer at the default (synchronous=NORMAL, the log fsynced once a
second in the background, which these figures include). Settlements per CPU-second of this
process (all its threads) are printed too: other programs on a shared machine slow the wall
clock, not that.

PostgreSQL runs in a throwaway cluster this script starts (initdb in a temporary directory, a
Unix socket, the server's default durability: fsync and synchronous_commit on), or on the server
``--postgres URL`` names (a new schema is created there and dropped afterwards). Its reference is
bare psycopg transactions (BEGIN, one UPDATE, COMMIT) from 1, 4, 16 and 32 connections at once,
each on a thread of its own, and the ratio settlements / bare commits is printed for each writer
count (goal: at least 0.50 with 16 writers, and more settlements with more writers).
``--commit-delay`` turns on group commit in the throwaway cluster, for the reference and the
settlements alike. Each writer settles hands at a table of its own; PostgreSQL orders the writes of
one guild (advisory lock) and runs different guilds' in parallel, so it is measured with every
table in one guild and with one guild per table.

Every figure is the median of ``--repeats`` slices taken in turn (alternated rounds), so a burst
of other load on the shared machine hits every figure alike; the load average is printed.

With ``--lease`` it measures only what an instance lease costs (issue 15): settlements/s with
1 and 16 writers, in alternating slices without and with a heartbeat renewing the lease alongside
(every 50 ms, 100 times as often as ``felt run`` does, so that any cost would show), on SQLite and
PostgreSQL.

    .venv/bin/python bench/storage_throughput.py [--seconds 0.5] [--repeats 3] [--long]
        [--only sqlite|postgres] [--postgres URL] [--commit-delay MICROSECONDS]
    .venv/bin/python bench/storage_throughput.py --lease [--seconds 1.5] [--repeats 5]
    .venv/bin/python bench/storage_throughput.py --cost [--postgres-hands 300]
    .venv/bin/python bench/storage_throughput.py --bulk 10000

With ``--bulk MEMBERS`` it measures only how long a season reset of MEMBERS wallets (a bulk write)
holds up the event loop on SQLite at ``NORMAL``: the longest gap between the turns of a task that
wakes every millisecond, against the reset's own time in the same run (a short write runs on the
loop itself; a bulk one on the writer's thread).

With ``--cost`` it measures only what one PostgreSQL settlement costs (issue 21): its median and
p90 latency with one writer in a cluster with fsync off (round trips, not the disk), and the CPU
it takes in this process and in the server's processes (from /proc) with 16 writers at once.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.append(str(_HERE.parent))  # for tests.storage.pg_cluster

import aiosqlite  # noqa: E402
import psycopg  # noqa: E402

from storage.instances import Claim  # noqa: E402
from storage.models import SeatResult  # noqa: E402
from storage.settings import EconomySettings  # noqa: E402
from storage.sqlite import DEFAULT_SYNCHRONOUS, Synchronous  # noqa: E402
from storage.store import Storage  # noqa: E402

GUILD = 1
SEATS = 6
TABLES = 20
GOAL = 2_000
"""Settlements/s with one writer at the default synchronous=NORMAL, on disk (issue 21)."""
WRITERS = (1, 4, 16, 32)
"""Concurrent writers in the SQLite/PostgreSQL comparison."""
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
    settlement_cpu: float
    """Settlements per CPU-second of this process (every thread), which other programs on a
    shared machine cannot inflate."""


def filesystem(folder: Path) -> str:
    """The type of the filesystem ``folder`` is on (``ext4``, ``tmpfs``...), from /proc/mounts."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return "unknown"
    resolved = str(folder.resolve())
    best, kind = "", "unknown"
    for line in mounts:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1]
        inside = resolved == point or resolved.startswith(point.rstrip("/") + "/")
        if inside and len(point) > len(best):
            best, kind = point, fields[2]
    return kind


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


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


async def setup(storage: Storage, *, count: int = TABLES, guild_per_table: bool = False) -> Tables:
    """``count`` tables (in one guild, or each in its own) with 6 members seated at each, every
    stack 1,000."""
    tables = []
    for t in range(count):
        guild = GUILD + t if guild_per_table else GUILD
        table = (await storage.open_table(guild, 100 + t, settings={}, key=f"open-{t}")).table_id
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
    return (await settle_rates(storage, tables, writers, seconds, rng))[0]


async def settle_rates(
    storage: Storage, tables: Tables, writers: int, seconds: float, rng: random.Random
) -> tuple[float, float]:
    """(settlements per second, settlements per CPU-second of this process) as
    :func:`settle_rate` measures them."""
    settled = 0
    timed = 0.0
    cpu = 0.0
    group = tables.ids[:writers]
    while timed < seconds:
        await start_hands(storage, tables, group, f"{writers}")
        begin, cpu_begin = time.perf_counter(), time.process_time()
        await settle_hands(storage, tables, group, f"{writers}", rng)
        timed += time.perf_counter() - begin
        cpu += time.process_time() - cpu_begin
        settled += len(group)
    return settled / timed, settled / cpu if cpu else 0.0


async def start_hands(storage: Storage, tables: Tables, group: list[int], tag: str) -> None:
    """Start the next hand at each table of ``group``, one after another."""
    for table in group:
        tables.last_hand[table] += 1
        hand = tables.last_hand[table]
        await storage.start_hand(
            table, hand, tables.stacks[table], key=f"start-{tag}-{table}-{hand}"
        )


async def settle_hands(
    storage: Storage, tables: Tables, group: list[int], tag: str, rng: random.Random
) -> None:
    """Settle the hand in progress at each table of ``group``, all at once."""
    stacks = tables.stacks

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
        hand = tables.last_hand[table]
        await storage.settle_hand(
            table,
            hand,
            final,
            phh=PHH,
            results={winner: SeatResult(won=True, pot_won=pot)},
            key=f"settle-{tag}-{table}-{hand}",
        )
        stacks[table] = final

    if len(group) == 1:
        await settle(group[0])
    else:
        await asyncio.gather(*(settle(table) for table in group))


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
    """The reference and every figure, medians of ``repeats`` slices taken in turn (the machine
    is shared: every figure meets the same bursts of other load)."""
    stores: dict[Synchronous, Storage] = {}
    tables: dict[Synchronous, Tables] = {}
    slices: dict[tuple[Synchronous, int], list[tuple[float, float, float]]] = {}
    references: dict[Synchronous, list[float]] = {level: [] for level in Synchronous}
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
                references[level].append(bare)
                for writers in (1, TABLES):
                    store, state = stores[level], tables[level]
                    rate, per_cpu = await settle_rates(store, state, writers, seconds, rng)
                    pairs = await pair_rate(store, state, writers, seconds)
                    slices.setdefault((level, writers), []).append((rate, pairs, per_cpu))
        for store in stores.values():
            report = await store.check()
            assert report.ok, report.problems
    finally:
        for store in stores.values():
            await store.close()
    figures = {
        (level, writers): Figure(
            level,
            writers,
            median([rate for rate, _, _ in found]),
            median([pairs for _, pairs, _ in found]),
            median([per_cpu for _, _, per_cpu in found]),
        )
        for (level, writers), found in slices.items()
    }
    return {level: median(found) for level, found in references.items()}, figures


@dataclass(frozen=True, slots=True)
class Comparison:
    """Settlements/s by writers (medians of alternated slices): SQLite's default, PostgreSQL in
    one guild and one guild per table, and PostgreSQL's bare commits/s with as many writers."""

    postgres_version: str
    group_commit: str
    sqlite: dict[int, float]
    postgres_one_guild: dict[int, float]
    postgres_guild_per_table: dict[int, float]
    postgres_bare: dict[int, float]


def bare_postgres_commits(url: str, seconds: float, writers: int = 1) -> float:
    """The PostgreSQL reference: bare durable transactions per second (BEGIN, one UPDATE of a
    row of the writer's own, COMMIT), ``writers`` connections at once, each on a thread."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "CREATE TABLE IF NOT EXISTS bench_counter (id INTEGER PRIMARY KEY, n INTEGER)"
        )
        for writer in range(writers):
            connection.execute(
                "INSERT INTO bench_counter VALUES (%s, 0) ON CONFLICT (id) DO NOTHING", (writer,)
            )
    counts = [0] * writers
    ready = threading.Barrier(writers + 1)
    stop = threading.Event()

    def commit_loop(writer: int) -> None:
        with psycopg.connect(url, autocommit=True) as connection:
            ready.wait()
            done = 0
            while not stop.is_set():
                connection.execute("BEGIN")
                connection.execute("UPDATE bench_counter SET n = n + 1 WHERE id = %s", (writer,))
                connection.execute("COMMIT")
                done += 1
            counts[writer] = done

    threads = [threading.Thread(target=commit_loop, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    ready.wait()
    start = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - start)


def _with_schema(url: str, schema: str) -> str:
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3D{schema}"


async def compare_backends(folder: Path, server: str, seconds: float, repeats: int) -> Comparison:
    """Settlement rates with 1, 4, 16 and 32 writers on SQLite (default settings) and PostgreSQL,
    and PostgreSQL's bare commits with as many writers, medians of ``repeats`` rounds in which
    every figure takes a slice in turn."""
    schemas = ("felt_bench_one_guild", "felt_bench_guild_per_table")
    with psycopg.connect(server, autocommit=True) as admin:
        shown = admin.execute("SHOW server_version").fetchone()
        version = str(shown[0]).split()[0] if shown else "?"
        delay = admin.execute("SHOW commit_delay").fetchone()
        siblings = admin.execute("SHOW commit_siblings").fetchone()
        group_commit = f"commit_delay={delay[0] if delay else '?'}, "
        group_commit += f"commit_siblings={siblings[0] if siblings else '?'}"
        for schema in schemas:
            admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            admin.execute(f"CREATE SCHEMA {schema}")
    economy = EconomySettings(starting_chips=10**12)
    stores: dict[str, Storage] = {}
    layouts: dict[str, Tables] = {}
    rates: dict[str, dict[int, list[float]]] = {
        name: {w: [] for w in WRITERS} for name in ("sqlite", "bare", *schemas)
    }
    rng = random.Random(2)
    try:
        stores["sqlite"] = await Storage.open(folder / "compare.db", economy=economy)
        layouts["sqlite"] = await setup(stores["sqlite"], count=max(WRITERS))
        for schema in schemas:
            stores[schema] = await Storage.open(
                _with_schema(server, schema), economy=economy, pool_size=max(WRITERS)
            )
            layouts[schema] = await setup(
                stores[schema],
                count=max(WRITERS),
                guild_per_table=schema.endswith("per_table"),
            )
        for _ in range(repeats):
            for writers in WRITERS:
                bare = await asyncio.to_thread(
                    bare_postgres_commits, _with_schema(server, schemas[0]), seconds, writers
                )
                rates["bare"][writers].append(bare)
                for name, store in stores.items():
                    rate = await settle_rate(store, layouts[name], writers, seconds, rng)
                    rates[name][writers].append(rate)
        for store in stores.values():
            report = await store.check()
            assert report.ok, report.problems
    finally:
        for store in stores.values():
            await store.close()
        with psycopg.connect(server, autocommit=True) as admin:
            for schema in schemas:
                admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    medians = {name: {w: median(found) for w, found in by.items()} for name, by in rates.items()}
    return Comparison(
        version,
        group_commit,
        medians["sqlite"],
        medians[schemas[0]],
        medians[schemas[1]],
        medians["bare"],
    )


def print_comparison(comparison: Comparison) -> None:
    print()
    print("Settlements/s by backend and concurrent writers (each writer at a table of its own):")
    print(f"{'':<46}" + "".join(f"{f'{w} writer' + ('s' if w > 1 else ''):>12}" for w in WRITERS))
    version = comparison.postgres_version
    rows = (
        (f"SQLite, synchronous={DEFAULT_SYNCHRONOUS.value} (default)", comparison.sqlite),
        (f"PostgreSQL {version}, all tables in one guild", comparison.postgres_one_guild),
        (f"PostgreSQL {version}, one guild per table", comparison.postgres_guild_per_table),
        ("reference: bare PostgreSQL commits/s", comparison.postgres_bare),
    )
    for label, rates in rows:
        print(f"{label:<46}" + "".join(f"{rates[w]:>12,.0f}" for w in WRITERS))
    bare = comparison.postgres_bare
    for label, rates in rows[1:3]:
        print(f"{label + ' / bare':<46}" + "".join(f"{rates[w] / bare[w]:>12.2f}" for w in WRITERS))
    print(f"PostgreSQL group commit: {comparison.group_commit}")
    one = comparison.postgres_guild_per_table
    ratio = one[16] / bare[16]
    print(
        f"PostgreSQL settlements / bare commits with 16 writers (one guild per table): "
        f"x{ratio:.2f}; goal x0.50: {'met' if ratio >= 0.5 else 'NOT met'}; "
        f"32 writers / 16: settlements x{one[32] / one[16]:.2f}, bare commits "
        f"x{bare[32] / bare[16]:.2f}"
    )
    print(
        "PostgreSQL (one guild per table) / SQLite: "
        + ", ".join(f"x{one[w] / comparison.sqlite[w]:.2f} with {w}" for w in WRITERS)
    )


COST_WRITERS = 16
COST_WARMUP = 10
"""Settlements (or rounds of them) not measured: new connections, caches, prepared plans."""


def server_cpu_seconds(data_dir: Path) -> float:
    """CPU seconds used so far by a local PostgreSQL server: its postmaster and every process
    it started (read from /proc; a backend that exited takes its share with it, so measure
    while the connections are open)."""
    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


async def settlement_latency(url: str, hands: int) -> list[float]:
    """Seconds each of ``hands`` settlements took, one at a time at one table."""
    store = await Storage.open(url, economy=EconomySettings(starting_chips=10**12))
    took = []
    rng = random.Random(4)
    try:
        tables = await setup(store, count=1)
        for hand in range(COST_WARMUP + hands):
            await start_hands(store, tables, tables.ids, "latency")
            begin = time.perf_counter()
            await settle_hands(store, tables, tables.ids, "latency", rng)
            if hand >= COST_WARMUP:
                took.append(time.perf_counter() - begin)
    finally:
        await store.close()
    return took


async def settlement_cpu(url: str, data_dir: Path, rounds: int) -> tuple[float, float]:
    """CPU seconds per settlement (this process, the server) with ``COST_WRITERS`` tables
    settling at once; the hands are started outside the measure."""
    store = await Storage.open(
        url, economy=EconomySettings(starting_chips=10**12), pool_size=COST_WRITERS
    )
    client = server = 0.0
    try:
        tables = await setup(store, count=COST_WRITERS, guild_per_table=True)
        rng = random.Random(5)
        for _ in range(COST_WARMUP):
            await start_hands(store, tables, tables.ids, "warm")
            await settle_hands(store, tables, tables.ids, "warm", rng)
        for _ in range(rounds):
            await start_hands(store, tables, tables.ids, "cpu")
            # This process's clock starts after reading the server's and stops before reading it
            # again: reading /proc costs about 1.7 ms here, which is not the settlements'.
            server_before = server_cpu_seconds(data_dir)
            client_before = time.process_time()
            await settle_hands(store, tables, tables.ids, "cpu", rng)
            client += time.process_time() - client_before
            server += server_cpu_seconds(data_dir) - server_before
    finally:
        await store.close()
    settled = rounds * COST_WRITERS
    return client / settled, server / settled


def cost_main(args: argparse.Namespace) -> None:
    from tests.storage.pg_cluster import Cluster

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    quick = Cluster(durable=False).start()
    try:
        took = asyncio.run(settlement_latency(quick.url(), args.postgres_hands))
    finally:
        quick.stop()
    took.sort()
    print(
        f"one PostgreSQL settlement, 1 writer, fsync off, {len(took)} hands: median "
        f"{statistics.median(took) * 1000:.2f} ms, p90 {took[int(0.9 * len(took))] * 1000:.2f} ms"
    )
    durable = Cluster(durable=True).start()
    try:
        client, server = asyncio.run(
            settlement_cpu(durable.url(), durable.data_dir, args.postgres_hands // COST_WRITERS)
        )
    finally:
        durable.stop()
    print(
        f"CPU per PostgreSQL settlement, {COST_WRITERS} writers: this process "
        f"{client * 1000:.2f} ms, the server's processes {server * 1000:.2f} ms"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


LEASE_BEAT = 0.05
"""The heartbeat of the lease benchmark, in seconds (``felt run`` renews every 5)."""
LEASE_WRITERS = (1, 16)


async def lease_overhead(
    database: str | Path, seconds: float, repeats: int
) -> dict[tuple[int, bool], float]:
    """Settlements/s by (writers, heartbeat running), best of ``repeats`` alternating slices."""
    store = await Storage.open(
        database, economy=EconomySettings(starting_chips=10**12), pool_size=max(LEASE_WRITERS)
    )
    rates = {(w, beat): 0.0 for w in LEASE_WRITERS for beat in (False, True)}
    rng = random.Random(3)
    try:
        tables = await setup(store, count=max(LEASE_WRITERS), guild_per_table=True)
        await store.acquire_lease(Claim.discord())
        renewals = 0

        async def renew_often(seconds_between: float) -> None:
            nonlocal renewals
            await asyncio.sleep(seconds_between)
            renewals += 1

        for _ in range(repeats):
            for writers in LEASE_WRITERS:
                for beat in (False, True):
                    if beat:
                        async with store.keep_lease(every=LEASE_BEAT, wait=renew_often):
                            rate = await settle_rate(store, tables, writers, seconds, rng)
                        await store.acquire_lease(Claim.discord())
                    else:
                        rate = await settle_rate(store, tables, writers, seconds, rng)
                    rates[writers, beat] = max(rates[writers, beat], rate)
        assert renewals > 0
        report = await store.check()
        assert report.ok, report.problems
    finally:
        await store.close()
    return rates


def print_lease_overhead(label: str, rates: dict[tuple[int, bool], float]) -> None:
    for writers in LEASE_WRITERS:
        without, with_beat = rates[writers, False], rates[writers, True]
        print(
            f"{label:<34}{writers:>3} writer(s): {without:>8,.0f} settlements/s without a "
            f"heartbeat, {with_beat:>8,.0f} with one every {LEASE_BEAT * 1000:.0f} ms "
            f"(x{with_beat / without:.2f})"
        )


def lease_main(args: argparse.Namespace, seconds: float, repeats: int) -> None:
    print(f"Lease renewal cost, best of {repeats} alternating slices of {seconds:g} s")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        sqlite_rates = asyncio.run(lease_overhead(Path(folder) / "lease.db", seconds, repeats))
    print_lease_overhead(f"SQLite {sqlite3.sqlite_version}", sqlite_rates)
    cluster = None
    server = args.postgres
    if server is None:
        from tests.storage.pg_cluster import Cluster

        cluster = Cluster(durable=True).start()
        server = cluster.url()
    schema = "felt_bench_lease"
    try:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            admin.execute(f"CREATE SCHEMA {schema}")
        postgres_rates = asyncio.run(lease_overhead(_with_schema(server, schema), seconds, repeats))
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        if cluster is not None:
            cluster.stop()
    print_lease_overhead("PostgreSQL", postgres_rates)


async def bulk_stall(path: Path, members: int) -> tuple[float, float]:
    """(seconds a season reset of ``members`` wallets took, the event loop's longest gap between
    turns meanwhile) on a fresh SQLite database at the default ``NORMAL``."""
    async with await Storage.open(path) as storage:
        for member in range(1, members + 1):
            await storage.ensure_account(1, member)
        loop = asyncio.get_running_loop()
        longest = 0.0
        resetting = True

        async def ticker() -> None:
            nonlocal longest
            last = loop.time()
            while resetting:
                await asyncio.sleep(0.001)
                now = loop.time()
                longest, last = max(longest, now - last), now

        ticking = asyncio.create_task(ticker())
        await asyncio.sleep(0.01)
        longest = 0.0
        began = time.perf_counter()
        await storage.start_season(1, reset_to=500, key="bench-reset")
        took = time.perf_counter() - began
        resetting = False
        await ticking
    return took, longest


def bulk_main(args: argparse.Namespace, members: int) -> None:
    if members < 1:
        raise SystemExit("--bulk takes a number of members, at least 1")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        took, longest = asyncio.run(bulk_stall(Path(folder) / "bulk.db", members))
    print(
        f"season reset of {members:,} wallets (SQLite, NORMAL): {took * 1000:.1f} ms; the event "
        f"loop's longest gap meanwhile {longest * 1000:.1f} ms (x{longest / took:.2f} of the reset)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one slice")
    parser.add_argument(
        "--repeats", type=int, default=3, help="alternated slices per figure (median kept)"
    )
    parser.add_argument("--long", action="store_true", help="ten 2-second slices per figure")
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        default=None,
        help="a PostgreSQL server to use (default: start a throwaway cluster)",
    )
    parser.add_argument(
        "--lease", action="store_true", help="only the cost of renewing an instance lease"
    )
    parser.add_argument(
        "--cost",
        action="store_true",
        help="only one PostgreSQL settlement's latency and CPU (client and server)",
    )
    parser.add_argument(
        "--postgres-hands", type=int, default=320, help="settlements measured with --cost"
    )
    parser.add_argument(
        "--bulk",
        type=int,
        default=None,
        metavar="MEMBERS",
        help="only how long a season reset of MEMBERS wallets holds up the event loop",
    )
    parser.add_argument(
        "--only",
        choices=("sqlite", "postgres"),
        default=None,
        help="only the SQLite figures, or only the SQLite/PostgreSQL comparison",
    )
    parser.add_argument(
        "--commit-delay",
        type=int,
        default=None,
        metavar="MICROSECONDS",
        help="group commit on the throwaway cluster: its commit_delay (commit_siblings 2); the "
        "setting applies to the bare-commit reference and to settlements alike",
    )
    args = parser.parse_args()
    seconds, repeats = (2.0, 10) if args.long else (args.seconds, args.repeats)
    if args.lease:
        lease_main(args, seconds, repeats)
        return
    if args.cost:
        cost_main(args)
        return
    if args.bulk is not None:
        bulk_main(args, args.bulk)
        return

    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.only != "postgres":
        sqlite_main(args, seconds, repeats)
    if args.only != "sqlite":
        postgres_main(args, seconds, repeats)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def sqlite_main(args: argparse.Namespace, seconds: float, repeats: int) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        base = Path(folder)
        print(
            f"SQLite {sqlite3.sqlite_version}, aiosqlite {aiosqlite.__version__}, "
            f"medians of {repeats} alternated slices of {seconds:g} s per figure, databases in "
            f"{base} ({filesystem(base)})"
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
    for level in Synchronous:
        print(
            f"{level.value:<6} settlements per CPU-second of this process (every thread): "
            f"{table[level, 1].settlement_cpu:,.0f} with 1 writer, "
            f"{table[level, TABLES].settlement_cpu:,.0f} with {TABLES}"
        )
    default = table[DEFAULT_SYNCHRONOUS, 1].settlements
    verdict = "met" if default >= GOAL else "NOT met"
    print(
        f"default synchronous={DEFAULT_SYNCHRONOUS.value}: {default:,.0f} settlements/s with one "
        f"writer (x{default / reference[DEFAULT_SYNCHRONOUS]:.3f} of a bare commit); goal "
        f"{GOAL:,}/s {verdict}"
    )


def postgres_main(args: argparse.Namespace, seconds: float, repeats: int) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        cluster = None
        server = args.postgres
        if server is None:
            from tests.storage.pg_cluster import Cluster

            cluster = Cluster(durable=True).start()
            server = cluster.url()
            if args.commit_delay is not None:
                with psycopg.connect(server, autocommit=True) as admin:
                    admin.execute(f"ALTER SYSTEM SET commit_delay = {int(args.commit_delay)}")
                    admin.execute("ALTER SYSTEM SET commit_siblings = 2")
                    admin.execute("SELECT pg_reload_conf()")
        try:
            comparison = asyncio.run(compare_backends(Path(folder), server, seconds, repeats))
        finally:
            if cluster is not None:
                cluster.stop()
    print_comparison(comparison)


if __name__ == "__main__":
    main()
