"""Blackjack rounds: bets leave the wallet at the deal, doubles/splits/insurance move chips when
made, payouts come back through escrow with the house covering the difference."""

from __future__ import annotations

import json
from typing import Any

import pytest

from storage.errors import (
    AlreadySettled,
    InsufficientChips,
    InvalidAmount,
    InvalidArgument,
    InvalidSettlement,
    NotInRound,
    UnknownRound,
)
from storage.models import BetReason, Game, RoundOutcome, RoundStatus
from storage.store import Storage
from tests.storage.support import Sql, State

GUILD = 111_111_111_111_111_111
CHANNEL = 777
ALICE, BOB, CAROL = 1_001, 1_002, 1_003
HISTORY = json.dumps({"dealer": ["Th", "7c"], "hands": {"1001": [["As", "Kd"]]}})


async def house(sql: Sql) -> int:
    balance: int = sql("SELECT balance FROM accounts WHERE kind = 'house'")[0][0]
    return balance


async def test_the_bet_leaves_the_wallet_when_the_round_is_dealt(
    storage: Storage, sql: Sql
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 50}, key="deal")

    alice = await storage.get_account(GUILD, ALICE)

    assert dealt.bets == {ALICE: 100, BOB: 50}
    assert dealt.wallet_balances == {ALICE: 900, BOB: 950}
    assert alice is not None
    assert (alice.balance, alice.in_play, alice.total) == (900, 100, 1_000)
    assert sql("SELECT kind, delta FROM ledger WHERE kind = 'bet' ORDER BY entry_id") == [
        ("bet", -100),
        ("bet", 100),
        ("bet", -50),
        ("bet", 50),
    ]


async def test_a_round_is_dealt_for_everyone_or_for_nobody(storage: Storage, state: State) -> None:
    await storage.ensure_account(GUILD, ALICE)
    await storage.ensure_account(GUILD, BOB)
    before = state()

    with pytest.raises(InsufficientChips) as short:
        await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 1_001}, key="deal")

    assert short.value.user_id == BOB
    assert state() == before


@pytest.mark.parametrize("bets", [{}, {ALICE: 0}, {ALICE: -5}, {ALICE: 2**53}, {-1: 5}])
async def test_malformed_bets_are_refused(storage: Storage, state: State, bets: Any) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()
    with pytest.raises((InvalidAmount, InvalidArgument)):
        await storage.open_round(GUILD, CHANNEL, bets, key="deal")
    assert state() == before


async def test_doubles_splits_and_insurance_move_chips_when_made(
    storage: Storage, sql: Sql
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="deal")

    await storage.add_bet(dealt.round_id, ALICE, 50, reason=BetReason.INSURANCE, key="ins")
    await storage.add_bet(dealt.round_id, ALICE, 100, reason=BetReason.SPLIT, key="split")
    grown = await storage.add_bet(dealt.round_id, ALICE, 100, reason=BetReason.DOUBLE, key="dbl")

    assert grown.bets == {ALICE: 350}
    assert grown.wallet_balances == {ALICE: 650}
    record = await storage.get_round(dealt.round_id)
    assert record is not None
    assert [(b.reason, b.amount) for b in record.bets] == [
        (BetReason.INITIAL, 100),
        (BetReason.INSURANCE, 50),
        (BetReason.SPLIT, 100),
        (BetReason.DOUBLE, 100),
    ]


async def test_add_bet_refusals_change_nothing(storage: Storage, state: State) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 900}, key="deal")
    await storage.ensure_account(GUILD, BOB)
    before = state()

    with pytest.raises(InsufficientChips):
        await storage.add_bet(dealt.round_id, ALICE, 101, reason=BetReason.DOUBLE, key="a")
    with pytest.raises(NotInRound):
        await storage.add_bet(dealt.round_id, BOB, 10, reason=BetReason.DOUBLE, key="b")
    with pytest.raises(UnknownRound):
        await storage.add_bet(dealt.round_id + 1, ALICE, 10, reason=BetReason.DOUBLE, key="c")
    with pytest.raises(InvalidArgument):
        await storage.add_bet(dealt.round_id, ALICE, 10, reason=BetReason.INITIAL, key="d")
    with pytest.raises(InvalidAmount):
        await storage.add_bet(dealt.round_id, ALICE, 0, reason=BetReason.DOUBLE, key="e")
    assert state() == before


async def test_settle_pays_wins_takes_losses_and_the_house_balances_it(
    storage: Storage, sql: Sql
) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 100, CAROL: 100}, key="d")

    settled = await storage.settle_round(
        dealt.round_id,
        {
            ALICE: RoundOutcome(payout=250, hands_won=1, blackjacks=1),  # 3:2 blackjack
            BOB: RoundOutcome(payout=0),  # a loss
            CAROL: RoundOutcome(payout=100),  # a push
        },
        history=HISTORY,
        key="settle",
    )

    assert settled.payouts == {ALICE: 250, BOB: 0, CAROL: 100}
    assert settled.nets == {ALICE: 150, BOB: -100, CAROL: 0}
    assert settled.wallet_balances == {ALICE: 1_150, BOB: 900, CAROL: 1_000}
    assert await house(sql) == -50
    escrow = sql("SELECT SUM(balance) FROM accounts WHERE kind = 'bet'")
    assert escrow == [(0,)]
    assert (await storage.check()).ok


async def test_round_history_and_stats_are_stored(storage: Storage) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="d")
    await storage.add_bet(dealt.round_id, ALICE, 100, reason=BetReason.SPLIT, key="split")
    await storage.settle_round(
        dealt.round_id,
        {ALICE: RoundOutcome(payout=400, hands_played=2, hands_won=2, blackjacks=0)},
        history=HISTORY,
        key="s",
    )

    record = await storage.get_round(dealt.round_id)
    stats = await storage.stats(GUILD, ALICE, game=Game.BLACKJACK)
    mine = await storage.list_rounds(GUILD, user_id=ALICE)

    assert record is not None
    assert (record.status, record.history) == (RoundStatus.SETTLED, HISTORY)
    assert [(p.user_id, p.total_bet, p.payout, p.hands_played) for p in record.players] == [
        (ALICE, 200, 400, 2)
    ]
    assert (stats.rounds_played, stats.hands_played, stats.hands_won, stats.net) == (1, 2, 2, 200)
    assert stats.biggest_pot == 200
    assert [r.round_id for r in mine] == [dealt.round_id]
    assert await storage.list_rounds(GUILD, user_id=BOB) == []


async def test_settlement_refusals_change_nothing(storage: Storage, state: State) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 100}, key="d")
    before = state()

    with pytest.raises(InvalidSettlement):
        await storage.settle_round(
            dealt.round_id, {ALICE: RoundOutcome(200)}, history=HISTORY, key="a"
        )
    with pytest.raises(InvalidSettlement):
        await storage.settle_round(
            dealt.round_id,
            {ALICE: RoundOutcome(200), BOB: RoundOutcome(0), CAROL: RoundOutcome(0)},
            history=HISTORY,
            key="b",
        )
    with pytest.raises(InvalidSettlement, match="more than 3 times"):
        await storage.settle_round(
            dealt.round_id,
            {ALICE: RoundOutcome(301), BOB: RoundOutcome(0)},
            history=HISTORY,
            key="c",
        )
    with pytest.raises(InvalidAmount):
        await storage.settle_round(
            dealt.round_id,
            {ALICE: RoundOutcome(-1), BOB: RoundOutcome(0)},
            history=HISTORY,
            key="s-d",
        )
    with pytest.raises(InvalidSettlement):
        await storage.settle_round(
            dealt.round_id,
            {ALICE: RoundOutcome(200, hands_played=1, hands_won=2), BOB: RoundOutcome(0)},
            history=HISTORY,
            key="e",
        )
    with pytest.raises(UnknownRound):
        await storage.settle_round(
            dealt.round_id + 5, {ALICE: RoundOutcome(0)}, history=HISTORY, key="f"
        )
    assert state() == before


async def test_a_round_ends_only_once(storage: Storage, state: State) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="d")
    first = await storage.settle_round(
        dealt.round_id, {ALICE: RoundOutcome(200)}, history=HISTORY, key="s1"
    )
    before = state()

    with pytest.raises(AlreadySettled):
        await storage.settle_round(
            dealt.round_id, {ALICE: RoundOutcome(200)}, history=HISTORY, key="s2"
        )
    with pytest.raises(AlreadySettled):
        await storage.refund_round(dealt.round_id, reason="oops", key="r")
    with pytest.raises(AlreadySettled):
        await storage.add_bet(dealt.round_id, ALICE, 10, reason=BetReason.DOUBLE, key="a")
    assert state() == before
    assert (
        await storage.settle_round(
            dealt.round_id, {ALICE: RoundOutcome(200)}, history=HISTORY, key="s1"
        )
        == first
    )


async def test_refund_returns_every_bet(storage: Storage, sql: Sql) -> None:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100, BOB: 30}, key="d")
    await storage.add_bet(dealt.round_id, ALICE, 100, reason=BetReason.DOUBLE, key="dbl")

    refunded = await storage.refund_round(dealt.round_id, reason="dealer timed out", key="r")

    assert refunded.refunds == {ALICE: 200, BOB: 30}
    assert refunded.wallet_balances == {ALICE: 1_000, BOB: 1_000}
    record = await storage.get_round(dealt.round_id)
    assert record is not None
    assert (record.status, record.refund_reason) == (RoundStatus.REFUNDED, "dealer timed out")
    assert await house(sql) == 0
    assert sql("SELECT COUNT(*) FROM ledger WHERE kind = 'refund'") == [(4,)]
    with pytest.raises(AlreadySettled, match="refunded"):
        await storage.refund_round(dealt.round_id, reason="again", key="r2")


async def test_join_round_moves_the_opening_bet_now(storage: Storage, state: State) -> None:
    opened = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="deal")
    joined = await storage.join_round(opened.round_id, BOB, 40, key="bob-joins")
    assert joined.bets == {ALICE: 100, BOB: 40}
    assert joined.wallet_balances[BOB] == 960
    again = await storage.join_round(opened.round_id, BOB, 40, key="bob-joins")
    assert again.bets == joined.bets  # the same key applies once
    before = state()
    with pytest.raises(InvalidArgument, match="already has a bet"):
        await storage.join_round(opened.round_id, BOB, 10, key="bob-again")
    with pytest.raises(InsufficientChips):
        await storage.join_round(opened.round_id, CAROL, 5_000, key="carol")
    with pytest.raises(InvalidAmount):
        await storage.join_round(opened.round_id, CAROL, 0, key="carol-zero")
    assert state() == before
    refunded = await storage.refund_round(opened.round_id, reason="test", key="refund")
    assert refunded is not None
    assert await storage.balance(GUILD, BOB) == 1_000
    assert (await storage.check()).ok
