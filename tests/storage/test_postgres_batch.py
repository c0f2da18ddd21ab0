"""A blind settlement on PostgreSQL is written in one go as prepared statements: prepared once per
connection, prepared anew when deallocated (after a refusal rolled a transaction back, or behind
the storage's back) or on a connection reopened after the server dropped it; its parameters go
as text with fixed types, and what this path cannot send goes through psycopg as before."""

from __future__ import annotations

from collections.abc import AsyncIterator

import psycopg
import pytest

from storage.errors import InsufficientChips
from storage.models import Bounty
from storage.postgres import PostgresBackend
from storage.postgres_batch import BOOL_OID, INT8_OID, UNKNOWN_OID, encode, numbered
from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import PostgresServer

GUILD = 333_333_333_333_333_333
ALICE, BOB = 3_001, 3_002
PHH = 'variant = "NT"\nstarting_stacks = [500, 400]\n'


@pytest.fixture
async def one_connection(postgres_server: PostgresServer) -> AsyncIterator[Storage]:
    """A storage on a new PostgreSQL database with a pool of one connection (so every
    transaction, and every question about prepared statements, uses the same session)."""
    storage = await Storage.open(
        postgres_server.new_database(), pool_size=1, economy=EconomySettings()
    )
    try:
        yield storage
    finally:
        await storage.close()


def pool(storage: Storage) -> PostgresBackend:
    backend = storage._backend
    assert isinstance(backend, PostgresBackend)
    return backend


async def seated_table(storage: Storage) -> int:
    """A table with Alice (seat 0, 500) and Bob (seat 1, 400)."""
    table = (await storage.open_table(GUILD, 9, settings={}, key="open")).table_id
    await storage.buy_in(table, 0, ALICE, 500, key="in-a", display_name=None)
    await storage.buy_in(table, 1, BOB, 400, key="in-b", display_name=None)
    return table


async def play(
    storage: Storage, table: int, hand: int, start: dict[int, int], final: dict[int, int]
) -> None:
    await storage.start_hand(table, hand, start, key=f"h{hand}")
    await storage.settle_hand(table, hand, final, phh=PHH, key=f"s{hand}")


async def prepared_on_the_server(storage: Storage) -> int:
    """The session's statements prepared by ``storage/postgres_batch.py``."""
    found = await pool(storage).read(
        lambda tx: tx.value("SELECT COUNT(*) FROM pg_prepared_statements WHERE name LIKE 'felt_%'")
    )
    return int(found)


async def ledger_deltas(storage: Storage) -> list[int]:
    rows = await pool(storage).read(
        lambda tx: tx.all("SELECT delta FROM ledger WHERE kind = 'hand_result' ORDER BY entry_id")
    )
    return [int(row[0]) for row in rows]


async def test_a_blind_settlement_prepares_its_statements_once_per_connection(
    one_connection: Storage,
) -> None:
    storage = one_connection
    table = await seated_table(storage)
    await play(storage, table, 1, {0: 500, 1: 400}, {0: 600, 1: 300})
    prepared = len(pool(storage)._slots[0].prepared)

    await play(storage, table, 2, {0: 600, 1: 300}, {0: 400, 1: 500})

    assert prepared > 0
    assert len(pool(storage)._slots[0].prepared) == prepared
    assert await prepared_on_the_server(storage) == prepared
    assert await ledger_deltas(storage) == [100, -100, -200, 200]
    assert (await storage.check()).ok


async def test_a_refused_settlement_leaves_the_next_one_to_be_written(
    one_connection: Storage,
) -> None:
    storage = one_connection
    table = await seated_table(storage)
    await play(storage, table, 1, {0: 500, 1: 400}, {0: 600, 1: 300})
    await storage.start_hand(table, 2, {0: 600, 1: 300}, key="h2")
    # A 7-2 bounty of hand 1 moves 100 of Bob's chips: the planned debit of 300 fails its check.
    await storage.pay_bounty(table, 1, [Bounty(payer=1, winner=0, amount=100)], key="b1")

    with pytest.raises(InsufficientChips):
        await storage.settle_hand(table, 2, {0: 900, 1: 0}, phh=PHH, key="s2")
    await storage.settle_hand(table, 2, {0: 700, 1: 200}, phh=PHH, key="s2-again")
    await play(storage, table, 3, {0: 800, 1: 100}, {0: 850, 1: 50})

    # hand 1, the bounty (payer first), hand 2, hand 3
    assert await ledger_deltas(storage) == [100, -100, -100, 100, 100, -100, 50, -50]
    assert await prepared_on_the_server(storage) == len(pool(storage)._slots[0].prepared) > 0
    assert (await storage.check()).ok


async def test_statements_deallocated_behind_its_back_are_prepared_anew(
    one_connection: Storage,
) -> None:
    storage = one_connection
    table = await seated_table(storage)
    await play(storage, table, 1, {0: 500, 1: 400}, {0: 600, 1: 300})
    await pool(storage).write(lambda tx: tx.execute("DEALLOCATE ALL"))
    assert await prepared_on_the_server(storage) == 0

    await play(storage, table, 2, {0: 600, 1: 300}, {0: 400, 1: 500})

    assert await prepared_on_the_server(storage) == len(pool(storage)._slots[0].prepared) > 0
    assert await ledger_deltas(storage) == [100, -100, -200, 200]
    assert (await storage.check()).ok


async def test_a_settlement_after_the_server_dropped_the_connection_is_written_once_on_a_new_one(
    one_connection: Storage, postgres_server: PostgresServer
) -> None:
    storage = one_connection
    table = await seated_table(storage)
    await play(storage, table, 1, {0: 500, 1: 400}, {0: 600, 1: 300})
    await storage.start_hand(table, 2, {0: 600, 1: 300}, key="h2")
    pid = await pool(storage).read(lambda tx: tx.value("SELECT pg_backend_pid()"))
    with psycopg.connect(postgres_server.url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))

    await storage.settle_hand(table, 2, {0: 400, 1: 500}, phh=PHH, key="s2")

    assert await pool(storage).read(lambda tx: tx.value("SELECT pg_backend_pid()")) != pid
    assert await ledger_deltas(storage) == [100, -100, -200, 200]
    assert (await storage.check()).ok


def test_parameters_are_sent_as_text_every_int_a_bigint() -> None:
    assert encode((5, 70_000, -3, 2**62, "é", None, True)) == (
        [b"5", b"70000", b"-3", str(2**62).encode(), "é".encode(), None, b"t"],
        (INT8_OID, INT8_OID, INT8_OID, INT8_OID, UNKNOWN_OID, UNKNOWN_OID, BOOL_OID),
    )


@pytest.mark.parametrize("value", [1.5, 2**63, b"bytes"])
def test_parameters_this_path_cannot_send_leave_the_transaction_to_psycopg(value: object) -> None:
    assert encode((1, value)) is None


def test_placeholders_are_numbered_outside_quotes() -> None:
    assert numbered("SELECT '?', ?, \"a?\" FROM t WHERE x = ? AND y LIKE 'a%'") == (
        b"SELECT '?', $1, \"a?\" FROM t WHERE x = $2 AND y LIKE 'a%'"
    )
