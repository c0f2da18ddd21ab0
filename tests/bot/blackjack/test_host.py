"""The Blackjack table host: bets escrowed when placed, extra stakes escrowed before the engine
acts, stale clicks refused, timers, settlement and refunds, all on real storage."""

from __future__ import annotations

from typing import Any

import pytest

from bot.blackjack.errors import (
    ActionRefused,
    BetRefused,
    NoDecisionError,
    NotInRoundError,
)
from bot.blackjack.events import ActionTaken, RoundFinished, RoundRefunded, TablePhase
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.tables.clock import ManualScheduler
from bot.tables.errors import StaleActionError
from engine.blackjack import CASINO, Action, StackedShoe
from storage import Storage
from tests.bot.recorder import BlackjackRecorder

GUILD, CHANNEL = 1000, 3000
ALICE, BOB = 21, 22
START = 1000


def table(
    storage: Storage,
    scheduler: ManualScheduler,
    recorder: BlackjackRecorder,
    cards: str | None = None,
) -> BlackjackTable:
    return BlackjackTable(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="#blackjack",
        settings=BlackjackSettings(
            rules=CASINO, min_bet=10, max_bet=500, betting_seconds=10, turn_seconds=20
        ),
        scheduler=scheduler,
        presenter=recorder,
        shoe=StackedShoe(cards.split()) if cards else None,
    )


async def test_bets_leave_the_wallet_when_placed_and_others_join_the_window(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "Th 9h 9c 7d 8s 7c")
    assert await game.bet(ALICE, "Alice", 100) == 0
    assert game.phase is TablePhase.BETTING
    assert await storage.balance(GUILD, ALICE) == START - 100
    assert await game.bet(BOB, "Bob", 50) == 1
    assert await storage.balance(GUILD, BOB) == START - 50
    assert game.snapshot().deadline == scheduler.now() + 10
    await scheduler.advance(10)  # the window closes: the cards are dealt
    assert game.round is not None
    assert (await storage.check()).ok


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (5, "10 to 500"),
        (501, "10 to 500"),
        (0, "10 to 500"),
        (-10, "10 to 500"),
        (10**20, "10 to 500"),
        (2.5, "whole number"),
    ],
)
async def test_bets_outside_the_limits_are_refused_and_change_nothing(
    storage: Storage, amount: Any, message: str
) -> None:
    game = table(storage, ManualScheduler(), BlackjackRecorder())
    with pytest.raises(BetRefused, match=message):
        await game.bet(ALICE, "Alice", amount)
    assert game.phase is TablePhase.IDLE
    assert await storage.get_account(GUILD, ALICE) is None


async def test_a_bet_above_the_balance_a_second_bet_and_a_bet_during_play_are_refused(
    storage: Storage,
) -> None:
    scheduler = ManualScheduler()
    game = table(storage, scheduler, BlackjackRecorder(), "Th 9c 7d Ts")
    await storage.ensure_account(GUILD, BOB)
    await storage.admin_take(GUILD, BOB, 990, actor_id=1, key="t")
    await game.bet(ALICE, "Alice", 100)
    with pytest.raises(BetRefused, match="You have 10 chips"):
        await game.bet(BOB, "Bob", 50)
    with pytest.raises(BetRefused, match="already bet 100"):
        await game.bet(ALICE, "Alice", 20)
    await game.deal_now(ALICE)
    assert game.phase is TablePhase.PLAYING
    with pytest.raises(BetRefused, match="being played"):
        await game.bet(BOB, "Bob", 10)
    assert await storage.balance(GUILD, BOB) == 10
    assert (await storage.check()).ok


async def test_only_a_bettor_may_deal_now(storage: Storage) -> None:
    game = table(storage, ManualScheduler(), BlackjackRecorder())
    with pytest.raises(StaleActionError):
        await game.deal_now(ALICE)
    await game.bet(ALICE, "Alice", 100)
    with pytest.raises(NotInRoundError):
        await game.deal_now(BOB)


async def test_stand_on_17_against_19_loses_and_is_settled(storage: Storage) -> None:
    # Seat 0 gets T and 7; the dealer shows 9 with a T in the hole.
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "Th 9c 7d Ts")
    await game.bet(ALICE, "Alice", 100)
    await game.deal_now(ALICE)
    snapshot = game.snapshot()
    assert snapshot.to_act_user == ALICE
    assert snapshot.view is not None and snapshot.view.dealer.hole_hidden
    assert len(snapshot.view.dealer.cards) == 1  # the hole card is not in the public view
    round_id = game.round_id
    assert round_id is not None
    with pytest.raises(NotInRoundError):
        await game.act(BOB, round_id, snapshot.step, Action.STAND)
    with pytest.raises(StaleActionError):
        await game.act(ALICE, round_id, snapshot.step + 1, Action.STAND)
    await game.act(ALICE, round_id, snapshot.step, Action.STAND)
    with pytest.raises(StaleActionError):
        await game.act(ALICE, round_id, snapshot.step, Action.STAND)  # the double click
    finished = recorder.of(RoundFinished)
    assert len(finished) == 1
    assert finished[0].results[0].net == -100
    assert await storage.balance(GUILD, ALICE) == START - 100
    assert game.phase is TablePhase.IDLE
    assert (await storage.check()).ok


async def test_double_escrows_the_extra_bet_first_and_pays_on_a_win(storage: Storage) -> None:
    # Alice 6+5 = 11 against a dealer 6 (hole T); she doubles into a T: 21; dealer 16 hits a T.
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "6h 6c 5d Ts Tc Td")
    await game.bet(ALICE, "Alice", 100)
    await game.deal_now(ALICE)
    snapshot = game.snapshot()
    assert Action.DOUBLE in snapshot.legal
    assert game.round_id is not None
    await game.act(ALICE, game.round_id, snapshot.step, Action.DOUBLE)
    result = recorder.of(RoundFinished)[0].results[0]
    assert (result.staked, result.payout, result.net) == (200, 400, 200)
    assert await storage.balance(GUILD, ALICE) == START + 200
    assert (await storage.check()).ok


async def test_double_without_the_chips_is_refused_and_changes_nothing(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "6h 6c 5d Ts Tc Td")
    await storage.ensure_account(GUILD, ALICE)
    await storage.admin_take(GUILD, ALICE, 850, actor_id=1, key="t")
    await game.bet(ALICE, "Alice", 100)
    await game.deal_now(ALICE)
    step = game.snapshot().step
    assert game.round_id is not None
    with pytest.raises(ActionRefused, match="needs 100 more chips; you have 50"):
        await game.act(ALICE, game.round_id, step, Action.DOUBLE)
    assert game.snapshot().step == step and await storage.balance(GUILD, ALICE) == 50
    await game.act(ALICE, game.round_id, step, Action.STAND)
    assert (await storage.check()).ok


async def test_split_escrows_a_second_bet(storage: Storage) -> None:
    # Alice 8+8 against a dealer 6 (hole T): split; each 8 gets a T; both stand; dealer 16 busts.
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "8h 6c 8d Ts Tc Td Th")
    await game.bet(ALICE, "Alice", 50)
    await game.deal_now(ALICE)
    assert game.round_id is not None
    await game.act(ALICE, game.round_id, game.snapshot().step, Action.SPLIT)
    assert await storage.balance(GUILD, ALICE) == START - 100
    for _ in range(2):
        await game.act(ALICE, game.round_id or 0, game.snapshot().step, Action.STAND)
    result = recorder.of(RoundFinished)[0].results[0]
    assert result.staked == 100 and result.net == 100
    assert len(result.lines) == 2
    assert await storage.balance(GUILD, ALICE) == START + 100
    assert (await storage.check()).ok


async def test_insurance_against_a_dealer_blackjack_pays_two_to_one(storage: Storage) -> None:
    # Alice T+9 against a dealer ace with a K in the hole: insurance 50 wins 100, the hand loses.
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "Th Ac 9d Ks")
    await game.bet(ALICE, "Alice", 100)
    await game.deal_now(ALICE)
    assert Action.INSURE in game.snapshot().legal
    assert game.round_id is not None
    await game.act(ALICE, game.round_id, game.snapshot().step, Action.INSURE)
    result = recorder.of(RoundFinished)[0].results[0]
    assert (result.staked, result.payout, result.net) == (150, 150, 0)
    assert await storage.balance(GUILD, ALICE) == START
    assert (await storage.check()).ok


async def test_a_turn_that_times_out_stands_and_insurance_times_out_declined(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "Th Ac 9d 7s")
    await game.bet(ALICE, "Alice", 100)
    await scheduler.advance(10)  # the betting window closes: dealt, insurance offered
    await scheduler.advance(20)  # insurance declined
    await scheduler.advance(20)  # the hand stands
    automatic = [e.action for e in recorder.of(ActionTaken) if e.automatic]
    assert automatic == [Action.NO_INSURANCE, Action.STAND]
    assert recorder.of(RoundFinished)[0].results[0].net == 100  # 19 beats 18
    assert (await storage.check()).ok


async def test_not_your_turn_while_another_player_acts(storage: Storage) -> None:
    scheduler = ManualScheduler()
    game = table(storage, scheduler, BlackjackRecorder(), "Th 9h 7d 9c 8s 7c")
    await game.bet(ALICE, "Alice", 100)
    await game.bet(BOB, "Bob", 100)
    await game.deal_now(BOB)
    assert game.snapshot().to_act_user == ALICE
    assert game.round_id is not None
    with pytest.raises(NoDecisionError):
        await game.act(BOB, game.round_id, game.snapshot().step, Action.STAND)


async def test_suspend_refunds_the_round_in_play(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "6h 6c 5d Ts Tc Td")
    await game.bet(ALICE, "Alice", 100)
    await game.deal_now(ALICE)
    assert game.round_id is not None
    await game.suspend("Felt is restarting")
    assert recorder.of(RoundRefunded)[0].reason == "Felt is restarting"
    assert await storage.balance(GUILD, ALICE) == START
    assert game.phase is TablePhase.IDLE
    assert (await storage.check()).ok


async def test_hint_gives_basic_strategy_to_the_player_to_act(storage: Storage) -> None:
    game = table(storage, ManualScheduler(), BlackjackRecorder(), "Th 6c 6d Ts")
    with pytest.raises(NotInRoundError):
        game.hint(ALICE)
    await game.bet(ALICE, "Alice", 100)
    await game.deal_now(ALICE)
    advice = game.hint(ALICE)
    assert "stand" in advice.text.lower()  # hard 16 against a 6: stand


async def test_insurance_is_decided_by_every_player_in_any_order(storage: Storage) -> None:
    # Two players against a dealer ace (no blackjack underneath): both are offered insurance.
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "Th 9h Ac 9d 8s 7c")
    await game.bet(ALICE, "Alice", 100)
    await game.bet(BOB, "Bob", 100)
    await game.deal_now(ALICE)
    snapshot = game.snapshot()
    assert set(snapshot.offers) == {ALICE, BOB}
    assert Action.INSURE in snapshot.offers[BOB]
    round_id, step = game.round_id, snapshot.step
    assert round_id is not None
    # Bob answers first with the button he was shown; Alice's button (same step) still works.
    await game.act(BOB, round_id, step, Action.NO_INSURANCE)
    await game.act(ALICE, round_id, step, Action.NO_INSURANCE)
    with pytest.raises((StaleActionError, NoDecisionError, ActionRefused)):
        await game.act(ALICE, round_id, step, Action.NO_INSURANCE)  # the double click
    assert game.snapshot().to_act_user == ALICE  # on to the hands
    assert (await storage.check()).ok


async def test_the_result_snapshot_numbers_the_round_it_settles(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, "Th 9c 7d Ts Th 9c 7d Ts")
    for number in (1, 2):
        await game.bet(ALICE, "Alice", 10)
        await game.deal_now(ALICE)
        assert game.round_id is not None
        await game.act(ALICE, game.round_id, game.snapshot().step, Action.STAND)
        assert recorder.of(RoundFinished)[-1].snapshot.round_number == number
