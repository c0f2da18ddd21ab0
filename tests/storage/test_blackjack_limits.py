"""A Blackjack round always closes, even when a wallet is at the chip limit: a payout or refund is
paid up to ``MAX_CHIPS`` and the rest goes to the house in the same operation, so the round never
stays open for want of room, and ``db check`` stays exact."""

from __future__ import annotations

import json

from storage.models import MAX_CHIPS, RoundOutcome, RoundStatus
from storage.store import Storage
from tests.storage.support import Sql

GUILD = 222_222_222_222_222_222
CHANNEL = 778
ALICE, BOB, ADMIN = 2_001, 2_002, 2_009
HISTORY = json.dumps({"dealer": ["Th", "7c"]})


def house(sql: Sql) -> int:
    balance: int = sql("SELECT balance FROM accounts WHERE kind = 'house'")[0][0]
    return balance


async def test_a_payout_past_the_chip_limit_is_paid_up_to_it_and_the_rest_goes_to_the_house(
    storage: Storage, sql: Sql
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 100}, key="deal")
    await storage.admin_set(GUILD, ALICE, MAX_CHIPS - 50, actor_id=ADMIN, key="fill")

    settled = await storage.settle_round(
        dealt.round_id,
        {ALICE: RoundOutcome(200, hands_won=1), BOB: RoundOutcome(200, hands_won=1)},
        history=HISTORY,
        key="settle",
    )

    assert settled.payouts == {ALICE: 50, BOB: 200}
    assert settled.nets == {ALICE: -50, BOB: 100}
    assert settled.wallet_balances == {ALICE: MAX_CHIPS, BOB: 1_100}
    assert house(sql) == 50 - 100  # took Alice's 50 net, paid Bob's 100
    record = await storage.get_round(dealt.round_id)
    assert record is not None and record.status is RoundStatus.SETTLED
    assert {p.user_id: p.payout for p in record.players} == {ALICE: 50, BOB: 200}
    assert (await storage.check()).ok


async def test_a_full_wallet_settles_with_nothing_paid_and_replays_the_same(
    storage: Storage,
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="deal")
    await storage.admin_set(GUILD, ALICE, MAX_CHIPS, actor_id=ADMIN, key="fill")

    settled = await storage.settle_round(
        dealt.round_id, {ALICE: RoundOutcome(250, blackjacks=1)}, history=HISTORY, key="s"
    )
    again = await storage.settle_round(
        dealt.round_id, {ALICE: RoundOutcome(250, blackjacks=1)}, history=HISTORY, key="s"
    )

    assert settled.payouts == {ALICE: 0}
    assert settled.wallet_balances == {ALICE: MAX_CHIPS}
    assert again == settled
    assert (await storage.check()).ok


async def test_a_refund_past_the_chip_limit_is_refunded_up_to_it_and_the_rest_goes_to_the_house(
    storage: Storage, sql: Sql
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 30}, key="deal")
    await storage.join_round_bot(dealt.round_id, 6, "Ada Bot", 10, key="bot")
    await storage.admin_set(GUILD, ALICE, MAX_CHIPS - 40, actor_id=ADMIN, key="fill")

    refunded = await storage.refund_round(dealt.round_id, reason="cancelled", key="refund")

    assert refunded.refunds == {ALICE: 40, BOB: 30}
    assert refunded.wallet_balances == {ALICE: MAX_CHIPS, BOB: 1_000}
    assert house(sql) == 60  # Alice's 60 that did not fit; the bot's 10 came back
    record = await storage.get_round(dealt.round_id)
    assert record is not None and record.status is RoundStatus.REFUNDED
    assert (await storage.check()).ok
