"""Recovery at startup: unfinished hands voided to their starting stacks, unfinished rounds
refunded, a report for each affected channel, and all of it recorded."""

from __future__ import annotations

import json
from pathlib import Path

from storage.models import HandStatus, RoundStatus
from storage.store import Storage
from tests.storage.support import FakeClock, Sql

GUILD, OTHER_GUILD = 10, 20
TABLE_CHANNEL, ROUND_CHANNEL, OTHER_CHANNEL = 100, 200, 300
ALICE, BOB = 1, 2


async def interrupted_session(storage: Storage) -> tuple[int, int, int]:
    """A hand half played at one table, a round dealt in another channel, and one elsewhere."""
    table = (await storage.open_table(GUILD, TABLE_CHANNEL, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 400, key="a")
    await storage.buy_in(table, 1, BOB, 300, key="b")
    await storage.start_hand(table, 1, {0: 400, 1: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 500, 1: 200}, phh="# one", key="s1")
    await storage.start_hand(table, 2, {0: 500, 1: 200}, key="h2")
    dealt = await storage.open_round(GUILD, ROUND_CHANNEL, {ALICE: 100, BOB: 50}, key="r")
    elsewhere = await storage.open_round(OTHER_GUILD, OTHER_CHANNEL, {ALICE: 10}, key="o")
    return table, dealt.round_id, elsewhere.round_id


async def test_recovery_voids_hands_refunds_rounds_and_reports_channels(
    storage: Storage, sql: Sql
) -> None:
    table, round_id, other_round = await interrupted_session(storage)

    report = await storage.recover()

    assert [(h.table_id, h.hand_id, h.stacks) for h in report.voided_hands] == [
        (table, 2, {0: 500, 1: 200})
    ]
    assert [(r.round_id, r.refunds) for r in report.refunded_rounds] == [
        (round_id, {ALICE: 100, BOB: 50}),
        (other_round, {ALICE: 10}),
    ]
    assert report.channels == {
        (GUILD, TABLE_CHANNEL),
        (GUILD, ROUND_CHANNEL),
        (OTHER_GUILD, OTHER_CHANNEL),
    }
    assert report.guilds == {GUILD, OTHER_GUILD}
    hand = await storage.get_hand(table, 2)
    assert hand is not None
    assert hand.status is HandStatus.VOIDED
    dealt = await storage.get_round(round_id)
    assert dealt is not None
    assert dealt.status is RoundStatus.REFUNDED
    alice = await storage.get_account(GUILD, ALICE)
    assert alice is not None
    assert (alice.balance, alice.at_tables, alice.in_play) == (600, 500, 0)
    stored = sql("SELECT report FROM recoveries")
    assert len(stored) == 1
    assert "voided_hands" in json.loads(stored[0][0])
    ops = sql("SELECT name, op_key FROM operations WHERE name LIKE 'recover%' ORDER BY op_id")
    assert ops == [
        ("recover_hand", f"felt:recover:hand:{table}:2"),
        ("recover_round", f"felt:recover:round:{round_id}"),
        ("recover_round", f"felt:recover:round:{other_round}"),
    ]
    assert (await storage.check()).ok


async def test_a_second_recovery_finds_nothing(storage: Storage, sql: Sql) -> None:
    await interrupted_session(storage)
    await storage.recover()

    again = await storage.recover()

    assert again.is_empty
    assert again.channels == frozenset()
    assert sql("SELECT COUNT(*) FROM recoveries") == [(1,)]


async def test_recovery_after_a_restart_leaves_tables_open_for_the_host(
    database: str | Path, clock: FakeClock, sql: Sql
) -> None:
    async with await Storage.open(database, clock=clock) as storage:
        table, _round, _other = await interrupted_session(storage)
        before = sql("SELECT SUM(balance) FROM accounts WHERE user_id = ?", ALICE)

    async with await Storage.open(database, clock=clock) as storage:
        report = await storage.recover()
        info = await storage.get_table(table)
        # the table resumes: a new hand can start from the restored stacks
        await storage.start_hand(table, 3, {0: 500, 1: 200}, key="h3")

    assert len(report.voided_hands) == 1
    assert info is not None
    assert [s.stack for s in info.seats] == [500, 200]
    assert sql("SELECT SUM(balance) FROM accounts WHERE user_id = ?", ALICE) == before


async def test_nothing_to_recover_on_a_fresh_database(storage: Storage, sql: Sql) -> None:
    report = await storage.recover()

    assert report.is_empty
    assert sql("SELECT COUNT(*) FROM recoveries") == [(0,)]
