"""The PostgreSQL adapter: migrations tracked in felt_schema_version, refusing foreign or newer
schemas, the same schema as SQLite, append-only ledger, transactions that commit or roll back as a
unit, writes ordered per guild, retries, reconnection and closing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest
from psycopg import errors

from storage import postgres as adapter
from storage import sqlite as sqlite_adapter
from storage.backend import Transaction, redact
from storage.errors import (
    DatabaseBusy,
    DatabaseFailure,
    DatabaseNotFound,
    DatabaseOutdated,
    DatabaseTooNew,
    IdempotencyConflict,
    MigrationError,
    NotAFeltDatabase,
)
from storage.postgres import (
    LOCK_CLASS,
    PostgresBackend,
    guild_lock_key,
    translate,
)
from storage.store import Storage, migrate_database
from tests.storage.support import RawDatabase

GUILD = 42
OTHER_GUILD = 43
ALICE = 7


@pytest.fixture
def backend() -> str:
    """These are the PostgreSQL adapter's own tests (test_sqlite.py has SQLite's)."""
    return "postgresql"


def columns(raw: RawDatabase) -> dict[str, list[str]]:
    rows = raw(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> ? "
        "ORDER BY table_name, ordinal_position",
        (adapter.VERSION_TABLE,),
    )
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


def sqlite_columns(path: Path) -> dict[str, list[str]]:
    import sqlite3

    connection = sqlite3.connect(path)
    try:
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {
            table: [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            for table in tables
        }
    finally:
        connection.close()


def index_names(raw: RawDatabase) -> set[str]:
    rows = raw("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
    return {name for (name,) in rows if not name.endswith(("_pkey", "_key"))}


async def test_a_new_database_is_migrated_to_the_latest_version(
    database: str | Path, raw_database: RawDatabase
) -> None:
    async with await Storage.open(database) as storage:
        assert storage.schema_version == sqlite_adapter.latest_version() >= 1

    assert raw_database(f"SELECT version, name FROM {adapter.VERSION_TABLE} ORDER BY 1") == [
        (migration.version, migration.name) for migration in sqlite_adapter.load_migrations()
    ]


def test_both_dialects_have_the_same_migrations() -> None:
    sqlite_names = [m.name for m in sqlite_adapter.load_migrations()]
    postgres_names = [m.name for m in adapter.load_postgres_migrations()]

    assert postgres_names == sqlite_names


async def test_the_schema_matches_sqlites_table_for_table(
    database: str | Path, raw_database: RawDatabase, tmp_path: Path
) -> None:
    await migrate_database(database)
    await migrate_database(tmp_path / "reference.db")

    assert columns(raw_database) == sqlite_columns(tmp_path / "reference.db")
    import sqlite3

    connection = sqlite3.connect(tmp_path / "reference.db")
    sqlite_indexes = {
        name
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        )
    }
    connection.close()
    assert index_names(raw_database) == sqlite_indexes


async def test_migrate_reports_what_it_applied_then_nothing(database: str | Path) -> None:
    first = await migrate_database(database)
    second = await migrate_database(database)

    assert (first.version_before, first.version_after) == (0, sqlite_adapter.latest_version())
    assert first.applied == tuple(m.name for m in sqlite_adapter.load_migrations())
    assert (second.applied, second.version_before) == ((), sqlite_adapter.latest_version())
    assert "***" not in first.path and first.path.startswith("postgresql://")


async def test_processes_starting_together_migrate_once(
    database: str | Path, raw_database: RawDatabase
) -> None:
    opened = await asyncio.gather(*(Storage.open(database) for _ in range(4)))
    for storage in opened:
        await storage.close()

    assert raw_database(f"SELECT COUNT(*) FROM {adapter.VERSION_TABLE}") == [
        (sqlite_adapter.latest_version(),)
    ]


async def test_a_database_from_a_newer_felt_refuses_to_open(
    database: str | Path, raw_database: RawDatabase
) -> None:
    await migrate_database(database)
    raw_database(
        f"INSERT INTO {adapter.VERSION_TABLE} (version, name) VALUES (99, '0099_future.sql')"
    )

    with pytest.raises(DatabaseTooNew) as refusal:
        await Storage.open(database)

    assert (refusal.value.found, refusal.value.supported) == (99, sqlite_adapter.latest_version())
    assert "Upgrade Felt" in str(refusal.value)


async def test_an_empty_schema_is_not_found_or_outdated_without_migrating(
    database: str | Path,
) -> None:
    with pytest.raises(DatabaseNotFound, match="no Felt database"):
        await Storage.open(database, create=False, migrate=False)
    with pytest.raises(DatabaseNotFound):
        await Storage.open(database, create=False)
    with pytest.raises(DatabaseOutdated, match="felt db migrate"):
        await Storage.open(database, migrate=False)


async def test_another_programs_schema_is_refused_and_left_alone(
    database: str | Path, raw_database: RawDatabase
) -> None:
    raw_database("CREATE TABLE recipes (name TEXT)")

    with pytest.raises(NotAFeltDatabase, match="another program"):
        await Storage.open(database)

    assert columns(raw_database) == {"recipes": ["name"]}


async def test_a_failing_migration_changes_nothing(
    database: str | Path, raw_database: RawDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrations = tmp_path / "postgresql"
    migrations.mkdir()
    (migrations / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (migrations / "0002_bad.sql").write_text(
        "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
    )
    monkeypatch.setattr(adapter, "MIGRATIONS_DIR", migrations)

    with pytest.raises(MigrationError, match=r"0002_bad\.sql"):
        await PostgresBackend.open(str(database))

    assert raw_database(f"SELECT version FROM {adapter.VERSION_TABLE}") == [(1,)]
    assert set(columns(raw_database)) == {"a"}


async def test_postgres_errors_inside_a_write_become_storage_errors(database: str | Path) -> None:
    backend = await PostgresBackend.open(str(database), pool_size=1)
    try:
        with pytest.raises(DatabaseFailure, match='relation "nowhere" does not exist'):
            await backend.write(lambda tx: tx.execute("INSERT INTO nowhere VALUES (1)"))
        # the connection is usable again afterwards
        assert await backend.read(lambda tx: tx.value("SELECT 1")) == 1
    finally:
        await backend.close()


async def test_reads_cannot_write(database: str | Path) -> None:
    backend = await PostgresBackend.open(str(database), pool_size=1)
    try:
        with pytest.raises(DatabaseFailure, match="read-only"):
            await backend.read(
                lambda tx: tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (1, 'x')")
            )
    finally:
        await backend.close()


async def test_a_deadlocked_transaction_is_run_again_from_the_start(database: str | Path) -> None:
    backend = await PostgresBackend.open(str(database), pool_size=1)
    calls: list[int] = []

    def body(tx: Transaction) -> int:
        calls.append(len(calls))
        tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (?, 'x')", (len(calls),))
        if len(calls) == 1:
            raise errors.DeadlockDetected("deadlock detected (simulated)")
        return int(tx.value("SELECT COUNT(*) FROM guilds"))

    try:
        assert await backend.write(body) == 1
        assert calls == [0, 1]
        assert await backend.read(lambda tx: tx.all("SELECT guild_id FROM guilds")) == [(2,)]
    finally:
        await backend.close()


async def test_a_write_waits_only_for_its_own_guild(
    database: str | Path, raw_database: RawDatabase
) -> None:
    async with await Storage.open(database, busy_timeout=0.05) as storage:
        tables, rounds = {}, {}
        for guild in (GUILD, OTHER_GUILD):
            tables[guild] = (
                await storage.open_table(guild, 1, settings={}, key=f"t{guild}")
            ).table_id
            rounds[guild] = (
                await storage.open_round(guild, 2, {ALICE: 10}, key=f"r{guild}")
            ).round_id
        with psycopg.connect(str(database), autocommit=True) as other:
            other.execute("BEGIN")
            other.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, guild_lock_key(GUILD))
            )
            # a guild's writes wait, whether they name the guild, one of its tables or rounds
            for blocked in (
                storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="locked"),
                storage.buy_in(tables[GUILD], 0, ALICE, 100, key="locked-in"),
                storage.refund_round(rounds[GUILD], reason="x", key="locked-refund"),
            ):
                with pytest.raises(DatabaseBusy):
                    await blocked
            # another guild's writes go through while GUILD is locked
            change = await storage.admin_grant(OTHER_GUILD, ALICE, 5, actor_id=1, key="free")
            await storage.buy_in(tables[OTHER_GUILD], 0, ALICE, 100, key="free-in")
            await storage.refund_round(rounds[OTHER_GUILD], reason="x", key="free-refund")
            other.execute("ROLLBACK")
        assert change.balance == 995
        assert (await storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="locked")).balance == (
            995
        )
        assert (await storage.check()).ok


async def test_a_key_reused_in_another_guild_is_a_conflict(storage: Storage) -> None:
    await storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="same")

    with pytest.raises(IdempotencyConflict):
        await storage.admin_grant(OTHER_GUILD, ALICE, 5, actor_id=1, key="same")


async def test_a_connection_the_server_dropped_is_reopened(database: str | Path) -> None:
    async with await Storage.open(database, pool_size=1) as storage:
        await storage.ensure_account(GUILD, ALICE)
        pid = await storage._backend.read(lambda tx: tx.value("SELECT pg_backend_pid()"))
        with psycopg.connect(str(database), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))

        assert await storage.balance(GUILD, ALICE) == 1_000
        assert await storage._backend.read(lambda tx: tx.value("SELECT pg_backend_pid()")) != pid


async def test_a_cancelled_caller_still_gets_its_write_applied(database: str | Path) -> None:
    async with await Storage.open(database, pool_size=1) as storage:
        await storage.ensure_account(GUILD, ALICE)
        grant = asyncio.create_task(storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="g"))
        await asyncio.sleep(0)  # let it reach the worker thread
        grant.cancel()
        with pytest.raises(asyncio.CancelledError):
            await grant
        # the same key again: applied once, whether the cancelled one got there first or not
        assert (await storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="g")).balance == 1_005


async def test_closing_finishes_the_write_in_flight_and_refuses_those_waiting(
    database: str | Path,
) -> None:
    storage = await Storage.open(database, pool_size=1)
    await storage.ensure_account(GUILD, ALICE)
    grants = [
        asyncio.create_task(storage.admin_grant(GUILD, ALICE, 1, actor_id=1, key=f"g{n}"))
        for n in range(3)
    ]
    await asyncio.sleep(0)  # the first grant holds the one connection, the others wait for it

    await storage.close()
    results = await asyncio.gather(*grants, return_exceptions=True)

    assert [type(result).__name__ for result in results] == [
        "BalanceChange",
        "StorageClosed",
        "StorageClosed",
    ]
    async with await Storage.open(database) as reopened:
        assert await reopened.balance(GUILD, ALICE) == 1_001


async def test_postgres_commits_are_durable_without_a_flush(database: str | Path) -> None:
    async with await Storage.open(database) as storage:
        await storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="g")
        assert await storage.flush() is False  # commits are already durable


async def test_sums_of_chips_come_back_as_ints(storage: Storage) -> None:
    await storage.ensure_account(GUILD, ALICE)

    total = await storage._backend.read(lambda tx: tx.value("SELECT SUM(balance) FROM accounts"))

    assert total == 1_000
    assert type(total) is int


def test_placeholders_and_percent_signs_are_translated() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c = ?") == (
        "SELECT a FROM t WHERE b = %s AND c = %s"
    )
    assert translate("SELECT 'what?', \"odd?\" FROM t WHERE x = ?") == (
        "SELECT 'what?', \"odd?\" FROM t WHERE x = %s"
    )
    assert translate("SELECT 'it''s ?', 7 % ? WHERE y LIKE 'a%'") == (
        "SELECT 'it''s ?', 7 %% %s WHERE y LIKE 'a%%'"
    )


def test_passwords_never_reach_messages() -> None:
    assert redact("postgresql://felt:s3cret@db.example:5432/felt") == (
        "postgresql://felt:***@db.example:5432/felt"
    )
    assert redact("postgresql://db/felt?user=felt&password=s3cret&sslmode=require") == (
        "postgresql://db/felt?user=felt&password=***&sslmode=require"
    )
    assert redact("postgresql:///felt") == "postgresql:///felt"


async def test_a_server_that_is_not_there_is_a_clear_failure(tmp_path: Path) -> None:
    url = f"postgresql://felt:s3cret@{str(tmp_path).replace('/', '%2F')}/felt"

    with pytest.raises(DatabaseFailure, match=r"cannot connect to postgresql://felt:\*\*\*@") as e:
        await Storage.open(url)
    assert "s3cret" not in str(e.value)
