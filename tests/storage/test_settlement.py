"""Settling a hand blind: planned from the starting stacks the storage knows, written in one trip
to the database, whose own checks refuse what the plan could not know (a hand settled or voided
by another process, a balance changed since the hand started, a plan that does not match the
hand), and a careful second way that reads first."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.errors import (
    AlreadySettled,
    BalanceLimitExceeded,
    IdempotencyConflict,
    InsufficientChips,
)
from storage.models import MAX_CHIPS, Bounty, SeatResult
from storage.postgres import PostgresBackend
from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import FakeClock, PostgresServer, Sql, State

GUILD = 222_222_222_222_222_222
ALICE, BOB = 2_001, 2_002
PHH = 'variant = "NT"\nstarting_stacks = [500, 400]\n'
FINAL = {0: 900, 1: 0}


async def table_in_a_hand(storage: Storage) -> int:
    """A table with Alice (seat 0, 500) and Bob (seat 1, 400) in hand 1."""
    table = (await storage.open_table(GUILD, 9, settings={}, key="open")).table_id
    await storage.buy_in(table, 0, ALICE, 500, key="in-a", display_name=None)
    await storage.buy_in(table, 1, BOB, 400, key="in-b", display_name=None)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")
    return table


async def other_process(database: str | Path, clock: FakeClock) -> Storage:
    """A second storage on the same database, which did not start the hand."""
    return await Storage.open(database, clock=clock, economy=EconomySettings())


async def test_a_hand_started_elsewhere_is_settled_after_reading_its_seats(
    storage: Storage, database: str | Path, clock: FakeClock, sql: Sql
) -> None:
    table = await table_in_a_hand(storage)
    other = await other_process(database, clock)
    try:
        settled = await other.settle_hand(table, 1, FINAL, phh=PHH, key="s1")
        replayed = await storage.settle_hand(table, 1, FINAL, phh=PHH, key="s1")
    finally:
        await other.close()

    assert settled.deltas == {0: 400, 1: -400}
    assert replayed == settled
    assert sql(
        "SELECT delta, balance_after FROM ledger WHERE kind = 'hand_result' ORDER BY entry_id"
    ) == [(400, 900), (-400, 0)]
    assert (await storage.check()).ok


async def test_a_hand_settled_elsewhere_is_refused_by_the_databases_check(
    storage: Storage, database: str | Path, clock: FakeClock, state: State
) -> None:
    table = await table_in_a_hand(storage)
    other = await other_process(database, clock)
    try:
        first = await other.settle_hand(table, 1, FINAL, phh=PHH, key="s1")
    finally:
        await other.close()
    before = state()

    with pytest.raises(AlreadySettled, match="Hand #1 was already settled"):
        await storage.settle_hand(table, 1, FINAL, phh=PHH, key="s2")

    assert state() == before
    assert await storage.settle_hand(table, 1, FINAL, phh=PHH, key="s1") == first


async def test_a_replayed_key_planned_blind_returns_the_stored_result(
    storage: Storage, database: str | Path, clock: FakeClock, state: State
) -> None:
    table = await table_in_a_hand(storage)
    other = await other_process(database, clock)
    try:
        first = await other.settle_hand(table, 1, FINAL, phh=PHH, key="s1")
    finally:
        await other.close()
    before = state()

    # This storage still plans hand 1 from its start: the database finds the key first.
    assert await storage.settle_hand(table, 1, FINAL, phh=PHH, key="s1") == first
    with pytest.raises(IdempotencyConflict):
        await storage.settle_hand(table, 1, {0: 0, 1: 900}, phh=PHH, key="s1")
    assert state() == before


async def test_a_hand_voided_elsewhere_is_refused_as_voided(
    storage: Storage, database: str | Path, clock: FakeClock, state: State
) -> None:
    table = await table_in_a_hand(storage)
    other = await other_process(database, clock)
    try:
        await other.void_hand(table, 1, reason="test", key="v1")
    finally:
        await other.close()
    before = state()

    with pytest.raises(AlreadySettled, match="Hand #1 was already voided"):
        await storage.settle_hand(table, 1, FINAL, phh=PHH, key="s1")
    assert state() == before


async def test_a_plan_the_database_contradicts_is_settled_from_what_it_holds(
    storage: Storage, sql: Sql
) -> None:
    table = await table_in_a_hand(storage)
    # Starting stacks that add up like the real ones (500 and 400) but are not them: were the
    # database not to check them, the stored result and deltas would be wrong.
    storage._dealt[table, 1] = {0: 450, 1: 450}

    settled = await storage.settle_hand(table, 1, FINAL, phh=PHH, key="s1")

    assert settled.deltas == {0: 400, 1: -400}
    assert sql("SELECT delta FROM ledger WHERE kind = 'hand_result' ORDER BY entry_id") == [
        (400,),
        (-400,),
    ]
    assert (await storage.check()).ok


async def test_a_balance_below_the_planned_debit_is_refused_by_the_database(
    storage: Storage, state: State
) -> None:
    table = await table_in_a_hand(storage)
    await storage.settle_hand(
        table, 1, {0: 600, 1: 300}, phh=PHH, results={0: SeatResult(True, 200)}, key="s1"
    )
    await storage.start_hand(table, 2, {0: 600, 1: 300}, key="h2")
    # A 7-2 bounty of hand 1 claimed during hand 2 moves 100 of Bob's chips to Alice.
    await storage.pay_bounty(table, 1, [Bounty(payer=1, winner=0, amount=100)], key="b1")
    before = state()

    with pytest.raises(InsufficientChips, match=f"user {BOB} has 200, and this needs 300"):
        await storage.settle_hand(table, 2, {0: 900, 1: 0}, phh=PHH, key="s2")
    assert state() == before


async def test_on_postgresql_a_settlement_is_one_round_trip_or_two_after_reading(
    postgres_server: PostgresServer, clock: FakeClock
) -> None:
    database = postgres_server.new_database()
    storage = await Storage.open(database, clock=clock, economy=EconomySettings())
    other = await other_process(database, clock)
    try:
        pool = storage._backend
        assert isinstance(pool, PostgresBackend)
        table = await table_in_a_hand(storage)
        before = pool.round_trips
        await storage.settle_hand(table, 1, {0: 600, 1: 300}, phh=PHH, key="s1")
        planned = pool.round_trips - before
        await other.start_hand(table, 2, {0: 600, 1: 300}, key="h2")
        before = pool.round_trips
        await storage.settle_hand(table, 2, {0: 300, 1: 600}, phh=PHH, key="s2")
        read_first = pool.round_trips - before
        assert (await storage.check()).ok
    finally:
        await other.close()
        await storage.close()

    assert (planned, read_first) == (1, 2)


async def test_a_balance_pushed_beyond_the_limit_is_refused_by_the_database(
    storage: Storage, state: State
) -> None:
    table = (await storage.open_table(GUILD, 9, settings={}, key="open")).table_id
    await storage.admin_grant(GUILD, ALICE, MAX_CHIPS - 2_000, actor_id=1, key="grant-a")
    await storage.admin_grant(GUILD, BOB, 2_000, actor_id=1, key="grant-b")
    await storage.buy_in(table, 0, ALICE, MAX_CHIPS - 1_000, key="in-a", display_name=None)
    await storage.buy_in(table, 1, BOB, 2_000, key="in-b", display_name=None)
    await storage.start_hand(table, 1, {0: MAX_CHIPS - 1_000, 1: 2_000}, key="h1")
    await storage.settle_hand(table, 1, {0: MAX_CHIPS - 1_100, 1: 2_100}, phh=PHH, key="s1")
    await storage.start_hand(table, 2, {0: MAX_CHIPS - 1_100, 1: 2_100}, key="h2")
    # A 7-2 bounty of hand 1 claimed during hand 2 moves 200 of Bob's chips to Alice.
    await storage.pay_bounty(table, 1, [Bounty(payer=1, winner=0, amount=200)], key="b1")
    before = state()

    # Alice's final stack is within the limit, but her seat now holds 200 more than it started.
    with pytest.raises(BalanceLimitExceeded):
        await storage.settle_hand(table, 2, {0: MAX_CHIPS - 100, 1: 1_100}, phh=PHH, key="s2")
    assert state() == before
