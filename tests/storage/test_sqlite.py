"""The SQLite adapter: migrations and user_version, refusing foreign or newer databases, pragmas,
append-only ledger, transactions that commit or roll back as a unit."""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from storage import sqlite as adapter
from storage.backend import Transaction
from storage.errors import (
    DatabaseFailure,
    DatabaseNotFound,
    DatabaseOutdated,
    DatabaseTooNew,
    MigrationError,
    NotAFeltDatabase,
)
from storage.sqlite import (
    APPLICATION_ID,
    SqliteBackend,
    Synchronous,
    latest_version,
)
from storage.store import Storage

GUILD = 42
ALICE = 7


@pytest.fixture
def backend() -> str:
    """These are the SQLite adapter's own tests (test_postgres.py has PostgreSQL's)."""
    return "sqlite"


def pragma(path: Path, name: str) -> object:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        connection.close()


async def test_a_new_database_is_migrated_to_the_latest_version(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        assert storage.schema_version == latest_version() >= 1

    assert pragma(db_path, "user_version") == latest_version()
    assert pragma(db_path, "application_id") == APPLICATION_ID
    assert pragma(db_path, "journal_mode") == "wal"


async def test_migrate_reports_what_it_applied_then_nothing(db_path: Path) -> None:
    first = await adapter.migrate_database(db_path)
    second = await adapter.migrate_database(db_path)

    assert (first.version_before, first.version_after) == (0, latest_version())
    assert first.applied[0] == "0001_initial.sql"
    assert (second.applied, second.version_before) == ((), latest_version())


async def test_connections_use_foreign_keys_busy_timeout_and_the_chosen_sync(db_path: Path) -> None:
    for level, expected in ((Synchronous.FULL, 2), (Synchronous.NORMAL, 1)):
        backend = await SqliteBackend.open(db_path, synchronous=level, busy_timeout=3.0)
        try:
            read = await backend.read(
                lambda tx: (
                    tx.value("PRAGMA foreign_keys"),
                    tx.value("PRAGMA synchronous"),
                    tx.value("PRAGMA busy_timeout"),
                    tx.value("PRAGMA query_only"),
                )
            )
            written = await backend.write(lambda tx: tx.value("PRAGMA synchronous"))
        finally:
            await backend.close()
        assert read == (1, expected, 3000, 1)
        assert written == expected


async def test_a_database_from_a_newer_felt_refuses_to_open(db_path: Path) -> None:
    await adapter.migrate_database(db_path)
    sqlite3.connect(db_path, isolation_level=None).execute(
        "PRAGMA user_version = 99"
    ).connection.close()

    with pytest.raises(DatabaseTooNew) as refusal:
        await Storage.open(db_path)

    assert (refusal.value.found, refusal.value.supported) == (99, latest_version())
    assert "Upgrade Felt" in str(refusal.value)
    assert pragma(db_path, "user_version") == 99


async def test_opening_without_migrating_refuses_an_old_schema(db_path: Path) -> None:
    sqlite3.connect(db_path).close()  # an empty SQLite file: schema 0

    with pytest.raises(DatabaseOutdated, match="felt db migrate"):
        await Storage.open(db_path, migrate=False)
    assert pragma(db_path, "user_version") == 0


async def test_opening_without_create_refuses_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.db"

    with pytest.raises(DatabaseNotFound):
        await Storage.open(missing, create=False)
    assert not missing.exists()


async def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 100)

    with pytest.raises(NotAFeltDatabase):
        await Storage.open(path)
    assert path.read_bytes().startswith(b"these are my notes")


async def test_another_programs_sqlite_database_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.db"
    connection = sqlite3.connect(theirs)
    connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.commit()
    connection.close()
    stamped = tmp_path / "stamped.db"
    connection = sqlite3.connect(stamped, isolation_level=None)
    connection.execute("PRAGMA application_id = 1234")
    connection.close()

    with pytest.raises(NotAFeltDatabase, match="another program"):
        await Storage.open(theirs)
    with pytest.raises(NotAFeltDatabase, match="application id"):
        await Storage.open(stamped)
    assert pragma(theirs, "user_version") == 0


def test_migration_files_are_numbered_without_gaps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE a (x INTEGER);")
    (tmp_path / "0003_third.sql").write_text("CREATE TABLE c (x INTEGER);")
    monkeypatch.setattr(adapter, "MIGRATIONS_DIR", tmp_path)

    with pytest.raises(MigrationError, match="number 2 is missing"):
        adapter.load_migrations()


def test_migration_statements_keep_trigger_bodies_whole() -> None:
    migration = adapter.load_migrations()[0]

    statements = migration.statements

    triggers = [s for s in statements if s.startswith("CREATE TRIGGER")]
    assert len(triggers) == 4
    assert all(s.rstrip().endswith("END;") for s in triggers)
    assert not any(s.lstrip().startswith("--") for s in statements)


async def test_a_failing_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (migrations / "0002_bad.sql").write_text(
        "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
    )
    monkeypatch.setattr(adapter, "MIGRATIONS_DIR", migrations)
    path = tmp_path / "felt.db"

    with pytest.raises(MigrationError, match=r"0002_bad\.sql"):
        await SqliteBackend.open(path)

    assert pragma(path, "user_version") == 1
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("a",)]


async def test_sqlite_errors_inside_a_write_become_storage_errors(db_path: Path) -> None:
    backend = await SqliteBackend.open(db_path)
    try:
        with pytest.raises(DatabaseFailure, match="no such table"):
            await backend.write(lambda tx: tx.execute("INSERT INTO nowhere VALUES (1)"))
    finally:
        await backend.close()


async def test_a_naive_clock_is_refused(db_path: Path) -> None:
    from datetime import datetime

    async with await Storage.open(db_path, clock=lambda: datetime(2025, 1, 1)) as storage:
        with pytest.raises(ValueError, match="aware"):
            await storage.claim_daily(GUILD, ALICE, key="d")


async def test_normal_mode_flushes_the_log_only_when_something_was_written(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    backend = await SqliteBackend.open(db_path, synchronous=Synchronous.NORMAL, flush_interval=0)
    try:
        assert await backend.flush() is False
        await backend.write(
            lambda tx: tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (1, 'x')")
        )
        assert await backend.flush() is True
        assert await backend.flush() is False
    finally:
        await backend.close()
    assert len(synced) == 1


async def test_the_background_flusher_syncs_after_a_write_and_stops_on_close(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushed = asyncio.Event()
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        loop.call_soon_threadsafe(flushed.set)

    loop = asyncio.get_running_loop()
    monkeypatch.setattr(os, "fsync", fsync)
    storage = await Storage.open(db_path, flush_interval=0.01)
    await storage.ensure_account(GUILD, ALICE)

    await asyncio.wait_for(flushed.wait(), timeout=10)  # waits for the event, asserts no timing
    await storage.close()

    tasks = [t for t in asyncio.all_tasks() if t.get_name().startswith("felt-storage-flush")]
    assert tasks == []


async def test_full_mode_needs_no_flusher(db_path: Path) -> None:
    async with await Storage.open(db_path, synchronous=Synchronous.FULL) as storage:
        await storage.ensure_account(GUILD, ALICE)
        tasks = [t for t in asyncio.all_tasks() if t.get_name().startswith("felt-storage-flush")]
        assert tasks == []
        assert await storage.flush() is True  # harmless: the log is already synced


def _insert_guild(tx: Transaction, guild: int) -> int:
    return tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (?, 'x')", (guild,))


async def test_the_writer_leaves_checkpoints_to_the_checkpointer_and_the_log_starts_over(
    db_path: Path,
) -> None:
    backend = await SqliteBackend.open(db_path)
    checkpointer = backend.checkpointer
    assert checkpointer is not None
    checkpointer.every, checkpointer.restart_frames = 10, 0  # each finishes under the lock
    try:
        assert await backend.write(lambda tx: tx.value("PRAGMA wal_autocheckpoint")) == 0
        for guild in range(1, 101):
            await backend.write(functools.partial(_insert_guild, guild=guild))
        await checkpointer.wait()
        checkpointer.every = 1_000  # no checkpoint of its own to race the one asked below
        await backend.write(functools.partial(_insert_guild, guild=101))
        # (busy, frames in the log, frames checkpointed), asked on the reader connection.
        log = await backend.read(lambda tx: tx.one("PRAGMA wal_checkpoint(PASSIVE)"))
        guilds = await backend.read(lambda tx: tx.value("SELECT COUNT(*) FROM guilds"))
    finally:
        await backend.close()
    assert guilds == 101
    assert checkpointer.checkpoints >= 1
    assert checkpointer.restarts >= 1
    # The log started over after a checkpoint near the end: it holds the last few writes'
    # pages (at most those since the last checkpoint, `every` and one in flight), not the
    # migrations' and a hundred writes' (over 200 frames).
    assert log is not None
    assert 0 < log[1] < 60


async def test_a_checkpoint_in_flight_ends_before_the_database_closes(db_path: Path) -> None:
    backend = await SqliteBackend.open(db_path)
    assert backend.checkpointer is not None
    backend.checkpointer.every = 1
    await backend.write(
        lambda tx: tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (1, 'x')")
    )
    await backend.close()  # a checkpoint was started by that write

    # The last connection folded the log into the database file.
    assert not await asyncio.to_thread(Path(f"{db_path}-wal").exists)
    assert pragma(db_path, "user_version") == latest_version()


async def test_writes_run_on_the_event_loop_under_normal_and_on_the_writers_thread_under_full(
    db_path: Path,
) -> None:
    loop_thread = threading.get_ident()
    ran_on: dict[Synchronous, int] = {}
    for level in (Synchronous.NORMAL, Synchronous.FULL):
        backend = await SqliteBackend.open(db_path, synchronous=level)
        try:
            ran_on[level] = await backend.write(lambda tx: threading.get_ident())
        finally:
            await backend.close()
    assert ran_on[Synchronous.NORMAL] == loop_thread
    assert ran_on[Synchronous.FULL] != loop_thread


async def test_a_write_that_finds_another_process_holding_the_lock_waits_off_the_event_loop(
    db_path: Path,
) -> None:
    async with await Storage.open(db_path, busy_timeout=5) as storage:
        await storage.ensure_account(GUILD, ALICE)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            grant = asyncio.create_task(storage.admin_grant(GUILD, ALICE, 5, actor_id=9, key="g"))
            for _ in range(50):  # the loop goes on turning while the grant waits for the lock
                await asyncio.sleep(0)
            assert not grant.done()
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert (await grant).balance == 1_005
        # Once the wait is over, writes run on the loop again without waiting there.
        assert (await storage.admin_grant(GUILD, ALICE, 5, actor_id=9, key="h")).balance == 1_010


async def test_a_task_writing_in_a_loop_lets_the_event_loops_other_tasks_run(
    db_path: Path,
) -> None:
    backend = await SqliteBackend.open(db_path, synchronous=Synchronous.NORMAL)
    turns: list[int] = []

    async def other_task() -> None:
        while True:
            turns.append(len(turns))
            await asyncio.sleep(0)

    task = asyncio.create_task(other_task())
    try:
        await asyncio.sleep(0)
        before = len(turns)
        for guild in range(20):
            await backend.write(functools.partial(_insert_guild, guild=guild))
        assert len(turns) - before >= 20
    finally:
        task.cancel()
        await backend.close()


async def test_a_bulk_write_runs_on_the_writers_thread_even_under_normal(db_path: Path) -> None:
    loop_thread = threading.get_ident()
    backend = await SqliteBackend.open(db_path, synchronous=Synchronous.NORMAL)
    try:
        short = await backend.write(lambda tx: threading.get_ident())
        bulk = await backend.write(functools.partial(_insert_guild_on, guild=5), bulk=True)
        assert await backend.read(lambda tx: tx.value("SELECT COUNT(*) FROM guilds")) == 1
    finally:
        await backend.close()
    assert short == loop_thread
    assert bulk != loop_thread


async def test_a_season_reset_writes_off_the_event_loop_and_a_daily_claim_on_it(
    db_path: Path,
) -> None:
    loop_thread = threading.get_ident()
    ran_on: dict[str, set[int]] = {}

    def trace(statement: str) -> None:
        words = " ".join(statement.split()[:3])
        ran_on.setdefault(words, set()).add(threading.get_ident())

    async with await Storage.open(db_path) as storage:
        for member in range(ALICE, ALICE + 20):
            await storage.ensure_account(GUILD, member)
        writer = storage._backend._writer_raw  # type: ignore[attr-defined]
        writer.set_trace_callback(trace)
        await storage.claim_daily(GUILD, ALICE, key="daily")
        claim_threads = set().union(*ran_on.values())
        ran_on.clear()
        started = await storage.start_season(GUILD, reset_to=500, key="season")
        writer.set_trace_callback(None)
        assert started.balances_reset == 20
    assert claim_threads == {loop_thread}
    assert ran_on["INSERT INTO season_balances"] == ran_on["COMMIT"] != {loop_thread}


def _insert_guild_on(tx: Transaction, *, guild: int) -> int:
    _insert_guild(tx, guild=guild)
    return threading.get_ident()
