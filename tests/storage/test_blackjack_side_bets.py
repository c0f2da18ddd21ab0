"""Blackjack side bets in storage: escrowed with the opening bet, paid through the same
settlement (up to 100 to 1), refunded with the round, and refused when malformed."""

from __future__ import annotations

from typing import Any

import pytest

from storage.errors import InvalidArgument, InvalidSettlement, StorageError
from storage.models import BetReason, RoundOutcome
from storage.store import Storage
from tests.storage.support import State

GUILD = 333
CHANNEL = 4
ALICE, BOB = 1_001, 1_002
SIDE = {BetReason.SIDE_21_3: 5, BetReason.PERFECT_PAIRS: 10}


async def test_side_bets_leave_the_wallet_with_the_opening_bet(storage: Storage) -> None:
    dealt = await storage.open_round(
        GUILD, CHANNEL, {ALICE: 100}, key="deal", side_bets={ALICE: SIDE}
    )
    joined = await storage.join_round(
        dealt.round_id, BOB, 50, key="join", side_bets={BetReason.SIDE_21_3: 1}
    )

    assert joined.bets == {ALICE: 115, BOB: 51}
    assert joined.wallet_balances == {ALICE: 885, BOB: 949}
    record = await storage.get_round(dealt.round_id)
    assert record is not None
    assert sorted((b.user_id, b.reason, b.amount) for b in record.bets) == [
        (ALICE, BetReason.INITIAL, 100),
        (ALICE, BetReason.PERFECT_PAIRS, 10),
        (ALICE, BetReason.SIDE_21_3, 5),
        (BOB, BetReason.INITIAL, 50),
        (BOB, BetReason.SIDE_21_3, 1),
    ]
    assert (await storage.check()).ok


async def test_a_side_bet_may_win_a_hundred_to_one_and_no_more(storage: Storage) -> None:
    dealt = await storage.open_round(
        GUILD, CHANNEL, {ALICE: 100}, key="deal", side_bets={ALICE: {BetReason.SIDE_21_3: 10}}
    )
    too_much = {ALICE: RoundOutcome(payout=3 * 100 + 101 * 10 + 1)}
    with pytest.raises(InvalidSettlement):
        await storage.settle_round(dealt.round_id, too_much, history="{}", key="settle")

    most = {ALICE: RoundOutcome(payout=3 * 100 + 101 * 10, hands_won=1)}
    settled = await storage.settle_round(dealt.round_id, most, history="{}", key="settle")

    assert settled.nets == {ALICE: 1_310 - 110}
    assert (await storage.check()).ok


async def test_a_refund_returns_the_side_bets_too(storage: Storage) -> None:
    dealt = await storage.open_round(
        GUILD, CHANNEL, {ALICE: 100}, key="deal", side_bets={ALICE: SIDE}
    )

    refunded = await storage.refund_round(dealt.round_id, reason="restart", key="refund")

    assert refunded.refunds == {ALICE: 115}
    assert await storage.balance(GUILD, ALICE) == 1_000


@pytest.mark.parametrize(
    "side_bets",
    [
        {BOB: {BetReason.SIDE_21_3: 5}},  # no opening bet from Bob
        {ALICE: {BetReason.DOUBLE: 5}},
        {ALICE: {BetReason.SIDE_21_3: 0}},
        {ALICE: {BetReason.PERFECT_PAIRS: -1}},
        {ALICE: {BetReason.PERFECT_PAIRS: 2.5}},
        {ALICE: {BetReason.PERFECT_PAIRS: 2_000}},  # more than Alice has
    ],
)
async def test_malformed_side_bets_are_refused_and_change_nothing(
    storage: Storage, state: State, side_bets: Any
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()
    with pytest.raises(StorageError):
        await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="deal", side_bets=side_bets)
    assert state() == before


async def test_side_bets_cannot_be_added_once_the_cards_are_out(
    storage: Storage, state: State
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="deal")
    before = state()
    with pytest.raises(InvalidArgument):
        await storage.add_bet(dealt.round_id, ALICE, 5, reason=BetReason.SIDE_21_3, key="late")
    assert state() == before
