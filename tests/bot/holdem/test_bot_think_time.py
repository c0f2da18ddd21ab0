"""Bots at a live table pause as people do: a trash fold at once, an all-in call for the whole
bot delay. Time is a ManualScheduler's, so each pause is measured exactly, with no waiting."""

from __future__ import annotations

import random

from bot.holdem.events import ActionTaken, HandDealt, TableEvent
from bot.holdem.host import HoldemTable
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from engine.bots import Personality
from engine.holdem import Action, ActionKind, Call, Check, Fold, Hand, RaiseTo
from storage import Storage
from tests.bot.holdem.support import ALICE, GUILD, CallingStation

DELAY = 4.0


class Folder:
    """Checks when it can, folds to any bet."""

    def decide(self, hand: Hand, player: int) -> Action:
        legal = hand.turn
        assert legal is not None
        return Check() if legal.can_check else Fold()


class TimedRecorder:
    """Keeps each event with the table clock's time when it was published."""

    def __init__(self, scheduler: ManualScheduler) -> None:
        self.scheduler = scheduler
        self.events: list[tuple[float, TableEvent]] = []

    async def publish(self, event: TableEvent) -> None:
        self.events.append((self.scheduler.now(), event))

    def bot_pauses(self) -> list[tuple[ActionTaken, float]]:
        """Each bot action with the time since the event that gave it the turn."""
        found = []
        last = 0.0
        for at, event in self.events:
            if isinstance(event, ActionTaken) and event.name.startswith("🤖"):
                found.append((event, round(at - last, 3)))
            if isinstance(event, ActionTaken | HandDealt):
                last = at
        return found


async def play_against(
    storage: Storage, brain: object, alice_moves: str
) -> list[tuple[ActionTaken, float]]:
    """Alice (``raise``: min-raises, ``shove``: all-in, whenever she may) against one bot."""
    scheduler = ManualScheduler()
    recorder = TimedRecorder(scheduler)

    def bots(
        name: str, strategy: str, rng: random.Random, personality: Personality | None = None
    ) -> Folder | CallingStation:
        assert isinstance(brain, Folder | CallingStation)
        return brain

    table = await HoldemTable.create(
        storage=storage,
        guild_id=GUILD,
        channel_id=40 if alice_moves == "raise" else 41,
        host_user_id=ALICE,
        name="Think time",
        settings=HoldemSettings(
            seats=2,
            bots=1,
            min_buy_in=100,
            bot_delay_seconds=DELAY,
            turn_seconds=60,
            between_hands_seconds=10,
        ),
        key=f"open-{alice_moves}",
        scheduler=scheduler,
        presenter=recorder,
        bots=bots,
        rng=random.Random(4),
    )
    await table.join(ALICE, "Alice", 500)
    for _ in range(200):
        hand = table.hand
        if hand is None or hand.is_complete or table.hand_id > 1:
            break
        legal = hand.turn
        if legal is not None and table.snapshot().to_act_seat == table.seat_of(ALICE):
            if legal.can_raise and legal.min_raise_to and legal.max_raise_to:
                to = legal.min_raise_to if alice_moves == "raise" else legal.max_raise_to
                action: Action = RaiseTo(to)
            else:
                action = Check() if legal.can_check else Call()
            await table.act(ALICE, table.hand_id, hand.action_count, action)
        else:
            await scheduler.advance(0.05)
    return recorder.bot_pauses()


async def test_a_bot_folds_trash_almost_at_once(storage: Storage) -> None:
    pauses = await play_against(storage, Folder(), "raise")
    folds = [pause for action, pause in pauses if action.kind is ActionKind.FOLD]
    assert folds, pauses
    # think_time: a preflop fold takes a tenth of the delay (+-25%).
    assert all(0 < pause <= 0.13 * DELAY for pause in folds), pauses


async def test_a_bot_takes_the_whole_bot_delay_to_call_all_in(storage: Storage) -> None:
    pauses = await play_against(storage, CallingStation(), "shove")
    # Alice moves in with her 500 chips; the bot's call of it is the big decision.
    all_in_calls = [p for a, p in pauses if a.kind is ActionKind.CALL and a.bet_to == 500]
    assert all_in_calls == [DELAY], pauses
    others = [p for a, p in pauses if a.bet_to < 500]
    assert all(pause < DELAY for pause in others), pauses
