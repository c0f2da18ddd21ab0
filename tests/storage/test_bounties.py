"""7-2 bounties and table settings changes in storage: bounty legs in the settling transaction,
bounties claimed after it as their own operation, and each refusal leaving nothing changed."""

from __future__ import annotations

import pytest

from storage.errors import InvalidSettlement, StorageError, TableClosed
from storage.models import Bounty
from storage.store import Storage
from tests.storage.support import Sql, State
from tests.storage.test_tables import PHH, seated_table


async def test_settle_hand_moves_bounties_in_rows_of_their_own(storage: Storage, sql: Sql) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")

    settled = await storage.settle_hand(
        table,
        1,
        {0: 600, 1: 300, 2: 300},
        phh=PHH,
        bounties=(Bounty(1, 0, 25), Bounty(2, 0, 25)),
        key="h1-settle",
    )

    assert settled.stacks == {0: 650, 1: 275, 2: 275}
    assert settled.deltas == {0: 150, 1: -125, 2: -25}
    assert sql(
        "SELECT o.name, l.delta, l.balance_after FROM ledger l JOIN operations o "
        "ON o.op_id = l.op_id WHERE l.kind = 'hand_result' ORDER BY l.entry_id"
    ) == [
        ("settle_hand", 100, 600),
        ("settle_hand", -100, 300),
        ("settle_hand", -25, 275),
        ("settle_hand", -25, 275),
        ("settle_hand", 50, 650),
    ]
    record = await storage.get_hand(table, 1)
    assert record is not None and [s.final_stack for s in record.seats] == [650, 275, 275]
    assert (await storage.check()).problems == ()


@pytest.mark.parametrize(
    ("bounties", "reason"),
    [
        ((Bounty(5, 0, 25),), "not in the hand"),
        ((Bounty(0, 0, 25),), "does not pay themselves"),
        ((Bounty(1, 0, 301),), "cannot pay more bounty than it holds"),
        ((Bounty(1, 0, 0),), "bounty"),
    ],
)
async def test_settle_hand_refuses_impossible_bounties(
    storage: Storage, state: State, bounties: tuple[Bounty, ...], reason: str
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")
    before = state()
    with pytest.raises(StorageError, match=reason):
        await storage.settle_hand(
            table, 1, {0: 600, 1: 300, 2: 300}, phh=PHH, bounties=bounties, key="s"
        )
    assert state() == before


async def test_pay_bounty_after_settlement_is_its_own_operation_and_applies_once(
    storage: Storage, sql: Sql
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 600, 1: 300, 2: 300}, phh=PHH, key="h1-settle")

    owed = (Bounty(1, 0, 25), Bounty(2, 0, 25))
    paid = await storage.pay_bounty(table, 1, owed, key="bounty")
    again = await storage.pay_bounty(table, 1, owed, key="bounty")

    assert paid == again
    assert paid.stacks == {0: 650, 1: 275, 2: 275}
    assert sql(
        "SELECT count(*) FROM ledger l JOIN operations o ON o.op_id = l.op_id "
        "WHERE o.name = 'holdem_bounty'"
    ) == [(3,)]
    assert (await storage.check()).problems == ()


async def test_pay_bounty_skips_a_player_who_left_and_caps_at_the_stack(
    storage: Storage,
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 1180, 1: 10, 2: 10}, phh=PHH, key="h1-settle")
    await storage.cash_out(table, 2, key="ada-leaves")

    paid = await storage.pay_bounty(table, 1, (Bounty(1, 0, 25), Bounty(2, 0, 25)), key="b")

    assert paid.stacks == {0: 1190, 1: 0}
    assert paid.deltas == {1: -10, 0: 10}


async def test_pay_bounty_refuses_a_hand_not_settled(storage: Storage, state: State) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")
    before = state()
    with pytest.raises(InvalidSettlement, match="not a settled hand"):
        await storage.pay_bounty(table, 1, (Bounty(1, 0, 25),), key="b")
    assert state() == before


async def test_change_table_settings_replaces_them_and_refuses_a_closed_table(
    storage: Storage,
) -> None:
    table = await seated_table(storage)
    await storage.change_table_settings(table, {"small_blind": 5, "rabbit_hunt": True})
    info = await storage.get_table(table)
    assert info is not None and info.settings == {"small_blind": 5, "rabbit_hunt": True}
    await storage.close_table(table, key="close")
    with pytest.raises(TableClosed):
        await storage.change_table_settings(table, {"x": 1})
