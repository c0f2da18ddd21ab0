"""Concurrency: two debits never overdraw, a double submission applies once, two processes'
connections share the database safely, and readers never see half a transaction."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from storage.errors import DatabaseBusy, InsufficientChips
from storage.models import Metric
from storage.postgres import LOCK_CLASS, guild_lock_key
from storage.store import Storage
from tests.storage.support import FakeClock, Sql, State

GUILD = 10
ALICE, BOB, CAROL = 1, 2, 3


async def test_concurrent_debits_never_overdraw(storage: Storage) -> None:
    await storage.ensure_account(GUILD, BOB)
    await storage.ensure_account(GUILD, ALICE)

    results = await asyncio.gather(
        *(storage.transfer(GUILD, ALICE, BOB, 300, key=f"t{n}") for n in range(10)),
        return_exceptions=True,
    )

    done = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, InsufficientChips)]
    assert (len(done), len(refused)) == (3, 7)
    assert await storage.balance(GUILD, ALICE) == 100
    assert (await storage.check()).ok


async def test_buy_ins_racing_for_the_same_wallet_never_overdraw(storage: Storage) -> None:
    tables = [
        (await storage.open_table(GUILD, n, settings={}, key=f"open{n}")).table_id for n in range(4)
    ]
    await storage.ensure_account(GUILD, ALICE)

    results = await asyncio.gather(
        *(storage.buy_in(t, 0, ALICE, 400, key=f"in{t}") for t in tables),
        return_exceptions=True,
    )

    assert sum(not isinstance(r, BaseException) for r in results) == 2
    account = await storage.get_account(GUILD, ALICE)
    assert account is not None
    assert (account.balance, account.at_tables) == (200, 800)


async def test_the_same_request_sent_twice_at_once_applies_once(storage: Storage, sql: Sql) -> None:
    await storage.ensure_account(GUILD, BOB)

    first, second = await asyncio.gather(
        storage.transfer(GUILD, ALICE, BOB, 100, key="double-click"),
        storage.transfer(GUILD, ALICE, BOB, 100, key="double-click"),
    )

    assert first == second
    assert await storage.balance(GUILD, ALICE) == 900
    assert sql("SELECT COUNT(*) FROM operations WHERE op_key = 'double-click'") == [(1,)]


async def test_two_processes_writing_the_same_database_keep_every_chip(
    database: str | Path, clock: FakeClock
) -> None:
    one = await Storage.open(database, clock=clock)
    two = await Storage.open(database, clock=clock)
    try:
        for user in (ALICE, BOB, CAROL):
            await one.ensure_account(GUILD, user)

        async def shuffle(storage: Storage, tag: str) -> None:
            for n in range(40):
                sender, recipient = ((ALICE, BOB), (BOB, CAROL), (CAROL, ALICE))[n % 3]
                with contextlib.suppress(InsufficientChips):
                    await storage.transfer(GUILD, sender, recipient, 37, key=f"{tag}{n}")

        await asyncio.gather(shuffle(one, "a"), shuffle(two, "b"))

        report = await two.check()
        assert report.ok, report.problems
        assert report.guilds[0].held == 3_000
    finally:
        await one.close()
        await two.close()


async def test_readers_never_see_half_a_transaction(database: str | Path, clock: FakeClock) -> None:
    writer = await Storage.open(database, clock=clock)
    reader = await Storage.open(database, clock=clock)
    try:
        table = (await writer.open_table(GUILD, 1, settings={}, key="t")).table_id
        for user in (ALICE, BOB):
            await writer.ensure_account(GUILD, user)
        finished = asyncio.Event()
        seen: list[int] = []

        async def write() -> None:
            for n in range(60):
                await writer.transfer(
                    GUILD, (ALICE, BOB)[n % 2], (BOB, ALICE)[n % 2], 7, key=f"x{n}"
                )
                await writer.buy_in(table, 0, ALICE, 50, key=f"in{n}")
                await writer.cash_out(table, 0, key=f"out{n}")
            finished.set()

        async def read() -> None:
            while not finished.is_set():
                board = await reader.leaderboard(GUILD, Metric.BALANCE)
                seen.append(sum(entry.value for entry in board.entries))
                assert (await reader.check()).ok

        await asyncio.gather(write(), read())

        assert seen
        assert set(seen) == {2_000}
    finally:
        await writer.close()
        await reader.close()


@contextlib.contextmanager
def another_process_holding_the_write_lock(database: str | Path, guild_id: int) -> Iterator[None]:
    """SQLite: a connection inside BEGIN IMMEDIATE. PostgreSQL: a connection holding the
    guild's advisory lock inside a transaction."""
    if isinstance(database, Path):
        other = sqlite3.connect(database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    with psycopg.connect(database, autocommit=True) as pg:
        pg.execute("BEGIN")
        pg.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, guild_lock_key(guild_id)))
        try:
            yield
        finally:
            pg.execute("ROLLBACK")


async def test_a_write_lock_held_too_long_by_another_process_is_reported_busy(
    database: str | Path, clock: FakeClock, state: State
) -> None:
    async with await Storage.open(database, clock=clock, busy_timeout=0.05) as storage:
        await storage.ensure_account(GUILD, ALICE)
        before = state()
        with another_process_holding_the_write_lock(database, GUILD), pytest.raises(DatabaseBusy):
            await storage.admin_grant(GUILD, ALICE, 5, actor_id=9, key="g")
        assert state() == before
        assert (await storage.admin_grant(GUILD, ALICE, 5, actor_id=9, key="g")).balance == 1_005
