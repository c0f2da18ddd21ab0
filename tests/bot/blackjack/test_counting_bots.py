"""Counting bots (``bot_strategy`` hilo): they count the cards the table has shown, bet 1 to
``bot_spread`` minimum bets by the true count and make the Hi-Lo index plays; basic-strategy bots
at the same cards bet flat and play the chart. A spread they could not use is refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.blackjack.events import ActionTaken, TablePhase
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.blackjack.seats import BotSettingsError, BotStrategy
from bot.tables.clock import ManualScheduler
from engine.blackjack import CASINO, Action, StackedShoe
from storage import Storage, bot_player_id
from tests.bot.recorder import BlackjackRecorder

GUILD, CHANNEL, ALICE = 1000, 3000, 21
DELAY = 1.5
BOT = bot_player_id(6)

# Six decks. Round 1, all low cards: Alice 2-2 hits 2, 3, 3, 4 and stands; the bot 3-6 doubles
# on 9 v 4 and draws a 4; the dealer 4-2 draws 5, 5, 6 and busts: fourteen low cards shown, a
# Hi-Lo count of +14 with 298 cards left (true count +2.4: two units). Round 2 follows.
LOW_ROUND = "2c 3c 4c 2d 6c 2h 2s 3d 3h 4d 4h 5c 5d 6d"
ALICE_HITS = 4
# Round 1, tens only (a count of -6, true count -1); round 2: Alice T-8, the bot T-2 against a
# 4 (hole T): at a negative true count Hi-Lo hits 12 v 4 (index 0), where basic strategy stands.
TENS_ROUND = "Th Td Ts Tc Jh Jd"
TWELVE_V_4 = "Qh Qd 4c 8h 2d Ks 5c 3d 2s 2h 2c 2d"


def table(
    storage: Storage, scheduler: ManualScheduler, recorder: BlackjackRecorder, **bots: Any
) -> BlackjackTable:
    cards = bots.pop("cards")
    return BlackjackTable(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="#blackjack",
        settings=BlackjackSettings(
            rules=CASINO,
            min_bet=10,
            max_bet=500,
            betting_seconds=10,
            turn_seconds=20,
            bot_seats=1,
            bot_delay_seconds=DELAY,
            **bots,
        ),
        scheduler=scheduler,
        presenter=recorder,
        shoe=StackedShoe.of(cards),
    )


async def play_round(game: BlackjackTable, scheduler: ManualScheduler, hits: int = 0) -> None:
    """Alice bets 10, hits ``hits`` times and stands; the bot plays at its pace; until the round
    is settled."""
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)
    for _ in range(40):
        snapshot = game.snapshot()
        if snapshot.phase is TablePhase.IDLE:
            return
        if snapshot.to_act_user == ALICE:
            assert snapshot.round_id is not None
            action = Action.HIT if hits else Action.STAND
            hits -= action is Action.HIT
            await game.act(ALICE, snapshot.round_id, snapshot.step, action)
        else:
            await scheduler.advance(DELAY)
    raise AssertionError("the round did not finish")


def bot_bet(game: BlackjackTable) -> int:
    (bot,) = [player for player in game.snapshot().players if player.bot]
    return bot.bet


@pytest.mark.parametrize(
    ("strategy", "spread", "second_bet"),
    [(BotStrategy.HILO, 8, 20), (BotStrategy.HILO, 1, 10), (BotStrategy.BASIC, 1, 10)],
)
async def test_counting_bots_bet_by_the_true_count_and_basic_bots_bet_flat(
    storage: Storage, strategy: BotStrategy, spread: int, second_bet: int
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(
        storage,
        scheduler,
        recorder,
        bot_strategy=strategy,
        bot_spread=spread,
        cards=LOW_ROUND + " 2h 3h 4h 5h 6h 2s 3s 4s 5s 6s",
    )
    await play_round(game, scheduler, hits=ALICE_HITS)
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)  # round 2 is dealt: the bot's bet came from the house

    assert bot_bet(game) == second_bet
    record = await storage.get_round(game.round_id or 0)
    assert record is not None
    assert {p.user_id: p.total_bet for p in record.players}[BOT] == second_bet
    assert (await storage.check()).ok


@pytest.mark.parametrize(
    ("strategy", "plays"),
    [
        (BotStrategy.HILO, [Action.STAND, Action.HIT, Action.STAND]),  # hits 12 v 4, then 17
        (BotStrategy.BASIC, [Action.STAND, Action.STAND]),
    ],
)
async def test_a_counting_bot_makes_the_index_play_the_count_calls_for(
    storage: Storage, strategy: BotStrategy, plays: list[Action]
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(
        storage, scheduler, recorder, bot_strategy=strategy, cards=TENS_ROUND + " " + TWELVE_V_4
    )
    await play_round(game, scheduler)
    await play_round(game, scheduler)

    bot_actions = [event.action for event in recorder.of(ActionTaken) if event.user_id == BOT]
    assert bot_actions == plays  # round 1: stand on 20; round 2: the play on 12 v 4
    assert (await storage.check()).ok


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bot_spread": 4}, "needs bot_strategy = hilo"),
        ({"bot_strategy": BotStrategy.HILO, "bot_spread": 0}, "1 to 16"),
        ({"bot_strategy": BotStrategy.HILO, "bot_spread": 17}, "1 to 16"),
        ({"bot_strategy": BotStrategy.HILO, "bot_spread": 2.5}, "whole number"),
        ({"bot_strategy": "cheat"}, "cheat"),
    ],
)
def test_bot_settings_that_would_be_ignored_are_refused(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        BlackjackSettings(rules=CASINO, **options)
    assert issubclass(BotSettingsError, ValueError)


def test_settings_describe_the_bots() -> None:
    hilo = BlackjackSettings(rules=CASINO, bot_seats=2, bot_strategy=BotStrategy.HILO, bot_spread=8)
    assert hilo.describe_bots() == "2, Hi-Lo counting, betting 1-8 minimum bets by the true count"
    assert BlackjackSettings(rules=CASINO, bot_seats=1).describe_bots() == "1, basic strategy"
    assert BlackjackSettings(rules=CASINO).describe_bots() == ""
    assert [hilo.bot_bet(tc) for tc in (-2.0, 2.0, 3.0, 9.0)] == [10, 20, 40, 80]
