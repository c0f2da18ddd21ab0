"""Refunding a tournament rebuy or add-on the director's saved state never knew of, on SQLite
and PostgreSQL: the chips go back from the pool to the wallet (a bot's to the house) in a ledger
row, the entry's count and the prize pool drop with it, a re-sent refund applies once, every
refusal changes nothing, and the tournament still finishes with ``db check`` exact."""

from __future__ import annotations

import pytest

from storage.errors import InvalidArgument
from storage.store import Storage
from storage.tournaments import (
    EntryPayment,
    NoSuchPayment,
    NotRegistered,
    TournamentNotOpen,
)
from tests.storage.support import Sql, State
from tests.storage.test_tournaments import ALICE, BOB, CAROL, GUILD, START, house, sit_and_go


async def running(storage: Storage) -> int:
    """Alice, Bob and the bot Ada, started."""
    tid = await sit_and_go(storage, bots_fill=True)
    for member in (ALICE, BOB):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.start_tournament(tid, bots=["Ada"])
    return tid


@pytest.mark.parametrize("payment", [EntryPayment.REBUY, EntryPayment.ADD_ON])
async def test_a_refunded_payment_returns_its_cost_and_lowers_the_count_and_the_pool(
    storage: Storage, sql: Sql, payment: EntryPayment
) -> None:
    tid = await running(storage)
    await storage.pay_tournament_entry(tid, ALICE, payment, key="pay-1")
    await storage.pay_tournament_entry(tid, ALICE, payment, key="pay-2")
    refunded = await storage.refund_tournament_payment(tid, ALICE, payment, 2, key="refund-2")
    count = refunded.entry.rebuys if payment is EntryPayment.REBUY else refunded.entry.add_ons
    assert count == 1
    assert (refunded.entry.paid_in, refunded.entry.fees_paid) == (200, 20)
    assert refunded.wallet_balance == START - 220
    assert await storage.balance(GUILD, ALICE) == START - 220
    assert refunded.tournament.prize_pool == 400
    pool = sql("SELECT pool_account_id FROM tournaments WHERE tournament_id = ?", tid)[0][0]
    refunds = sql("SELECT delta FROM ledger WHERE account_id = ? AND kind = 'refund'", pool)
    assert refunds == [(-110,)], "one ledger row takes the payment's cost out of the pool"
    assert (await storage.check()).ok


async def test_a_bots_refunded_rebuy_goes_back_to_the_house(storage: Storage) -> None:
    tid = await running(storage)
    before = await house(storage)
    await storage.pay_tournament_entry(tid, "Ada", EntryPayment.REBUY, key="ada-rebuy-1")
    assert await house(storage) == before - 110
    refunded = await storage.refund_tournament_payment(
        tid, "Ada", EntryPayment.REBUY, 1, key="ada-refund-1"
    )
    assert refunded.wallet_balance is None and refunded.entry.rebuys == 0
    assert await house(storage) == before


async def test_a_re_sent_refund_applies_once(storage: Storage, state: State) -> None:
    tid = await running(storage)
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key="pay-1")
    first = await storage.refund_tournament_payment(tid, ALICE, EntryPayment.REBUY, 1, key="r-1")
    before = state()
    again = await storage.refund_tournament_payment(tid, ALICE, EntryPayment.REBUY, 1, key="r-1")
    assert again == first
    assert state() == before


async def test_after_a_refund_the_tournament_pays_out_its_pool_exactly(storage: Storage) -> None:
    tid = await running(storage)
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key="pay-1")
    await storage.refund_tournament_payment(tid, ALICE, EntryPayment.REBUY, 1, key="r-1")
    places = {ALICE: 1, BOB: 2, "Ada": 3}
    done = await storage.finish_tournament(tid, places, {ALICE: 300}, key="finish")
    assert done.paid == 300
    assert await storage.balance(GUILD, ALICE) == START - 110 + 300
    assert (await storage.check()).ok


@pytest.mark.parametrize(
    "reason", ["not the latest", "none paid", "re-entry", "not entered", "over", "zero"]
)
async def test_a_refused_refund_changes_nothing(
    storage: Storage, state: State, reason: str
) -> None:
    tid = await running(storage)
    await storage.ensure_account(GUILD, CAROL)
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key="pay-1")
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key="pay-2")
    if reason == "over":
        await storage.finish_tournament(
            tid, {ALICE: 1, BOB: 2, "Ada": 3}, {ALICE: 500}, key="finish"
        )
    player: int | str = CAROL if reason == "not entered" else ALICE
    payment = {"none paid": EntryPayment.ADD_ON, "re-entry": EntryPayment.RE_ENTRY}.get(
        reason, EntryPayment.REBUY
    )
    number = {"not the latest": 1, "zero": 0, "none paid": 1}.get(reason, 2)
    expected: dict[str, type[Exception]] = {
        "not the latest": NoSuchPayment,
        "none paid": NoSuchPayment,
        "zero": NoSuchPayment,
        "re-entry": InvalidArgument,
        "not entered": NotRegistered,
        "over": TournamentNotOpen,
    }
    before = state()
    with pytest.raises(expected[reason]):
        await storage.refund_tournament_payment(tid, player, payment, number, key="refund")
    assert state() == before
    assert (await storage.check()).ok
