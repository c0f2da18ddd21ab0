"""What both storage backends promise, each test run on SQLite and on PostgreSQL: an append-only
ledger, no member below zero, transactions that commit or roll back whole, a closed storage that
refuses everything, and a reopened one that keeps everything."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from storage.backend import Backend, Transaction
from storage.errors import CheckFailed, StorageClosed
from storage.postgres import PostgresBackend
from storage.sqlite import SqliteBackend
from storage.store import Storage
from tests.storage.support import FakeClock, RawDatabase

GUILD = 42
ALICE = 7

REFUSED = (sqlite3.IntegrityError, psycopg.errors.IntegrityError)
"""What each backend's own driver raises when the schema's guards refuse a raw statement."""


async def open_backend(database: str | Path) -> Backend:
    if isinstance(database, Path):
        return await SqliteBackend.open(database)
    return await PostgresBackend.open(database, pool_size=1)


async def test_the_ledger_and_operations_are_append_only(
    storage: Storage, raw_database: RawDatabase, backend: str
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    statements = [
        "UPDATE ledger SET delta = 5",
        "DELETE FROM ledger",
        "UPDATE operations SET result = '{}'",
        "DELETE FROM operations",
    ]
    if backend == "postgresql":  # SQLite has no TRUNCATE
        statements += ["TRUNCATE ledger CASCADE", "TRUNCATE operations CASCADE"]
    for statement in statements:
        with pytest.raises(REFUSED, match="append-only"):
            raw_database(statement)
    assert (await storage.check()).ok


async def test_no_account_but_the_house_can_go_below_zero(
    storage: Storage, raw_database: RawDatabase
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    with pytest.raises(REFUSED, match=r"(?i)check"):
        raw_database("UPDATE accounts SET balance = -1 WHERE kind = 'member'")
    raw_database("UPDATE accounts SET balance = -1 WHERE kind = 'house'")


async def test_a_failed_database_check_undoes_the_write_and_names_its_reason(
    database: str | Path,
) -> None:
    backend = await open_backend(database)

    def checked(tx: Transaction) -> None:
        tx.send("INSERT INTO guilds (guild_id, created_at) VALUES (1, 'now')")
        tx.send("SELECT felt_check(COUNT(*) = 1, 'one_guild', 'fine') FROM guilds")
        tx.send("SELECT felt_check(COUNT(*) = 0, 'no_guild', 'there are ' || COUNT(*)) FROM guilds")
        tx.send("INSERT INTO guilds (guild_id, created_at) VALUES (2, 'now')")

    try:
        with pytest.raises(CheckFailed) as failed:
            await backend.write(checked)
        assert (failed.value.code, failed.value.check_detail) == ("no_guild", "there are 1")
        assert await backend.read(lambda tx: tx.value("SELECT COUNT(*) FROM guilds")) == 0
        # A check that holds lets the write through, and the connection is usable again.
        await backend.write(lambda tx: tx.value("SELECT felt_check(1 = 1, 'never', '')") and None)
    finally:
        await backend.close()


async def test_a_write_that_fails_midway_is_rolled_back_whole(database: str | Path) -> None:
    backend = await open_backend(database)

    def half_done(tx: Transaction) -> None:
        tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (1, 'now')")
        raise RuntimeError("crash in the middle")

    try:
        with pytest.raises(RuntimeError):
            await backend.write(half_done)
        assert await backend.read(lambda tx: tx.value("SELECT COUNT(*) FROM guilds")) == 0
        # The connection is usable again afterwards.
        await backend.write(
            lambda tx: tx.execute("INSERT INTO guilds (guild_id, created_at) VALUES (2, 'x')")
        )
        assert await backend.read(lambda tx: tx.value("SELECT COUNT(*) FROM guilds")) == 1
    finally:
        await backend.close()


async def test_a_closed_storage_refuses_everything(database: str | Path) -> None:
    storage = await Storage.open(database)
    await storage.close()
    await storage.close()  # twice is fine

    with pytest.raises(StorageClosed):
        await storage.ensure_account(GUILD, ALICE)
    with pytest.raises(StorageClosed):
        await storage.get_account(GUILD, ALICE)


async def test_reopening_keeps_everything(database: str | Path, clock: FakeClock) -> None:
    async with await Storage.open(database, clock=clock) as storage:
        await storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="g")

    async with await Storage.open(database, clock=clock) as storage:
        assert await storage.balance(GUILD, ALICE) == 1_005
        assert (await storage.admin_grant(GUILD, ALICE, 5, actor_id=1, key="g")).balance == 1_005
