"""Bot players in Blackjack rounds (bets from the house, back to the house, no stats) and the
trainer's grades, stored with the round's settlement."""

from __future__ import annotations

import pytest

from engine.blackjack.stats import RATIO
from storage import DecisionGrades, bot_player_id
from storage.errors import InvalidArgument, InvalidSettlement
from storage.models import BetReason, Game, Metric, ProblemKind, RoundOutcome
from storage.player_counts import RatioQuery
from storage.store import Storage
from tests.storage.support import Sql, State

GUILD = 222
CHANNEL = 9
ALICE = 1_001
BOT = bot_player_id(6)


def house(sql: Sql) -> int:
    balance: int = sql("SELECT balance FROM accounts WHERE kind = 'house'")[0][0]
    return balance


async def round_with_bot(storage: Storage) -> int:
    dealt = await storage.open_round(GUILD, CHANNEL, {ALICE: 100}, key="deal")
    await storage.join_round_bot(dealt.round_id, 6, "Bot Ada", 40, key="bot")
    return dealt.round_id


async def test_a_bots_bet_moves_from_the_house_into_escrow(storage: Storage, sql: Sql) -> None:
    round_id = await round_with_bot(storage)

    record = await storage.get_round(round_id)

    assert house(sql) == -40
    assert record is not None
    bot = next(p for p in record.players if p.bot_name is not None)
    assert (bot.user_id, bot.bot_name, bot.total_bet) == (BOT, "Bot Ada", 40)
    assert (await storage.check()).ok


async def test_a_bots_double_comes_from_the_house(storage: Storage, sql: Sql) -> None:
    round_id = await round_with_bot(storage)

    await storage.add_bet(round_id, BOT, 40, reason=BetReason.DOUBLE, key="dbl")

    assert house(sql) == -80
    assert (await storage.check()).ok


async def test_a_bots_payout_goes_back_to_the_house_and_it_gets_no_stats(
    storage: Storage, sql: Sql
) -> None:
    round_id = await round_with_bot(storage)
    outcomes = {ALICE: RoundOutcome(payout=0), BOT: RoundOutcome(payout=80, hands_won=1)}

    settled = await storage.settle_round(round_id, outcomes, history="{}", key="settle")

    # The house took Alice's 100 and paid the bot's 40 to itself: +100 in all.
    assert house(sql) == 100
    assert settled.nets == {ALICE: -100, BOT: 40}
    assert set(settled.wallet_balances) == {ALICE}
    assert sql("SELECT DISTINCT user_id FROM member_stats") == [(ALICE,)]
    board = await storage.leaderboard(GUILD, Metric.NET, game=Game.BLACKJACK)
    assert [entry.user_id for entry in board.entries] == [ALICE]
    assert (await storage.check()).ok


async def test_a_refund_returns_a_bots_bet_to_the_house_and_names_only_members(
    storage: Storage, sql: Sql
) -> None:
    round_id = await round_with_bot(storage)

    refunded = await storage.refund_round(round_id, reason="restart", key="refund")

    assert house(sql) == 0
    assert refunded.refunds == {ALICE: 100}
    assert (await storage.check()).ok


async def test_a_bot_bet_sent_twice_applies_once_and_a_taken_seat_is_refused(
    storage: Storage, sql: Sql, state: State
) -> None:
    round_id = await round_with_bot(storage)
    await storage.join_round_bot(round_id, 6, "Bot Ada", 40, key="bot")
    before = state()

    with pytest.raises(InvalidArgument):
        await storage.join_round_bot(round_id, 6, "Bot Bea", 40, key="other")
    with pytest.raises(InvalidArgument):
        await storage.join_round_bot(round_id, 7, "Bot Cy", 40, key="seven")

    assert house(sql) == -40
    assert state() == before


async def test_grades_are_stored_with_the_settlement_per_season_and_all_time(
    storage: Storage,
) -> None:
    round_id = await round_with_bot(storage)
    outcomes = {ALICE: RoundOutcome(payout=200, hands_won=1), BOT: RoundOutcome(payout=0)}
    grades = {ALICE: DecisionGrades(decisions=3, correct=2, expected_loss_milli=35_000)}

    await storage.settle_round(round_id, outcomes, history="{}", key="settle", grades=grades)
    await storage.start_season(GUILD, key="season-2")
    second = await storage.open_round(GUILD, CHANNEL, {ALICE: 10}, key="deal-2")
    await storage.settle_round(
        second.round_id,
        {ALICE: RoundOutcome(payout=20, hands_won=1)},
        history="{}",
        key="settle-2",
        grades={ALICE: DecisionGrades(decisions=1, correct=1)},
    )

    all_time = await storage.decision_grades(GUILD, ALICE)
    first_season = await storage.decision_grades(GUILD, ALICE, season=1)
    assert all_time == DecisionGrades(4, 3, 35_000)
    assert first_season == DecisionGrades(3, 2, 35_000)
    assert first_season.expected_loss == 35.0


@pytest.mark.parametrize(
    "grades",
    [
        {BOT: DecisionGrades(1, 1)},
        {ALICE: DecisionGrades(1, 2)},
        {ALICE: DecisionGrades(1, 1, -5)},
        {ALICE: (1, 1, 0)},
    ],
)
async def test_bad_grades_refuse_the_whole_settlement(
    storage: Storage, state: State, grades: dict[int, DecisionGrades]
) -> None:
    round_id = await round_with_bot(storage)
    before = state()
    outcomes = {ALICE: RoundOutcome(payout=0), BOT: RoundOutcome(payout=0)}

    with pytest.raises(InvalidSettlement):
        await storage.settle_round(round_id, outcomes, history="{}", key="settle", grades=grades)

    assert state() == before


async def test_check_names_a_bots_escrow_that_belongs_to_a_member(
    storage: Storage, sql: Sql
) -> None:
    await round_with_bot(storage)
    sql("UPDATE accounts SET user_id = ? WHERE kind = 'seat'", ALICE)

    report = await storage.check()

    assert [p.kind for p in report.problems] == [ProblemKind.SCHEMA]
    assert "not a bot's" in report.problems[0].message


async def test_accuracy_is_a_statistic_board_and_bots_have_no_counters(
    storage: Storage, sql: Sql
) -> None:
    round_id = await round_with_bot(storage)
    outcomes = {ALICE: RoundOutcome(payout=200, hands_won=1), BOT: RoundOutcome(payout=0)}
    grades = {ALICE: DecisionGrades(decisions=4, correct=3, expected_loss_milli=1_500)}
    await storage.settle_round(round_id, outcomes, history="{}", key="settle", grades=grades)

    accuracy = RATIO["accuracy"]
    query = RatioQuery(Game.BLACKJACK, accuracy.numerator, accuracy.denominator, 100, 0)
    board = await storage.ratio_leaderboard(GUILD, query)

    assert [(entry.user_id, entry.value) for entry in board.entries] == [(ALICE, 7_500)]
    assert sql("SELECT DISTINCT user_id FROM blackjack_counts") == [(ALICE,)]
