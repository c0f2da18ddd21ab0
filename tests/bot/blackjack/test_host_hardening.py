"""The Blackjack host on the edges a first trial found: players who leave mid-round, and chip
movements re-sent after a lost answer."""

from __future__ import annotations

from typing import Any

from bot.blackjack.events import ActionTaken, RoundFinished, RoundRefunded
from bot.blackjack.host import BlackjackTable
from bot.tables.clock import ManualScheduler
from engine.blackjack import Action
from storage import Storage
from tests.bot.blackjack.test_host import ALICE, BOB, GUILD, START, table
from tests.bot.holdem.test_host_hardening import LosesFirstAnswers
from tests.bot.recorder import BlackjackRecorder

# Alice T+7 (17), Bob 9+8 (17), the dealer 9 + 7, then draws a 5: 21.
TWO_SEVENTEENS = "Th 9h 9c 7d 8s 7c 5d"


async def dealt(game: BlackjackTable, scheduler: ManualScheduler) -> None:
    await game.bet(ALICE, "Alice", 100)
    await game.bet(BOB, "Bob", 100)
    await scheduler.advance(10)
    assert game.round is not None


async def test_a_player_who_leaves_on_their_turn_stands_at_once_and_the_round_is_played(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, TWO_SEVENTEENS)
    await dealt(game, scheduler)
    assert game.snapshot().to_act_user == ALICE
    assert await game.leave(ALICE) is False  # no time passes
    taken = recorder.of(ActionTaken)
    assert [(e.user_id, e.action, e.automatic) for e in taken] == [(ALICE, Action.STAND, True)]
    assert game.snapshot().to_act_user == BOB
    await game.act(BOB, game.round_id or 0, game.snapshot().step, Action.STAND)
    (finished,) = recorder.of(RoundFinished)
    assert not recorder.of(RoundRefunded)  # settled as played, never refunded
    assert [r.net for r in finished.results] == [-100, -100]
    assert await storage.balance(GUILD, ALICE) == START - 100
    assert (await storage.check()).ok


async def test_a_player_who_leaves_before_their_turn_stands_when_it_comes(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, TWO_SEVENTEENS)
    await dealt(game, scheduler)
    assert await game.leave(BOB) is False
    assert recorder.of(ActionTaken) == []  # Alice decides first
    await game.act(ALICE, game.round_id or 0, game.snapshot().step, Action.STAND)
    bob = [e for e in recorder.of(ActionTaken) if e.user_id == BOB]
    assert [(e.action, e.automatic) for e in bob] == [(Action.STAND, True)]
    assert len(recorder.of(RoundFinished)) == 1
    assert (await storage.check()).ok


async def test_leaving_without_a_bet_in_play_is_immediate(storage: Storage) -> None:
    game = table(storage, ManualScheduler(), BlackjackRecorder())
    assert await game.leave(ALICE) is True


class LosesBlackjackAnswers(LosesFirstAnswers):
    MOVES = frozenset({"open_round", "join_round", "add_bet", "settle_round"})


async def test_bets_resent_after_a_lost_answer_apply_exactly_once(storage: Storage) -> None:
    flaky: Any = LosesBlackjackAnswers(storage)
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(flaky, scheduler, recorder, TWO_SEVENTEENS)
    await dealt(game, scheduler)  # bets without a key: keyed by the round they join
    for user_id in (ALICE, BOB):
        await game.act(user_id, game.round_id or 0, game.snapshot().step, Action.STAND)
    assert set(flaky.lost) == {"open_round", "join_round", "settle_round"}
    assert len(recorder.of(RoundFinished)) == 1
    assert await storage.balance(GUILD, ALICE) == START - 100
    assert await storage.balance(GUILD, BOB) == START - 100
    assert (await storage.check()).ok
    # The next round's bets are new bets, not replays of these.
    await game.bet(ALICE, "Alice", 50)
    assert await storage.balance(GUILD, ALICE) == START - 150
