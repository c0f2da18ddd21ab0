"""What Hold'em host tests share besides fixtures: the members, a calling-station bot, and the
``make_table`` fixture's type."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.holdem.host import HoldemTable
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from engine.bots import Personality
from engine.holdem import Action, Call, Check, Hand
from tests.bot.recorder import HoldemRecorder

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL = 11, 12, 13


class CallingStation:
    """A bot that checks when it can and calls otherwise."""

    def decide(self, hand: Hand, player: int) -> Action:
        legal = hand.turn
        assert legal is not None and legal.player == player
        return Check() if legal.can_check else Call()


def calling_station(
    name: str, strategy: str, rng: random.Random, personality: Personality | None = None
) -> CallingStation:
    return CallingStation()


TableFactory = Callable[..., Awaitable[HoldemTable]]
"""The ``make_table`` fixture: ``await make_table(seats=..., bots=...)`` opens a test table."""


async def open_table(
    storage: Any,
    scheduler: ManualScheduler,
    recorder: HoldemRecorder,
    settings: HoldemSettings,
    *,
    seed: int = 7,
    name: str = "Test table",
    key: str = "open-1",
    **more: Any,
) -> HoldemTable:
    """A table in #CHANNEL hosted by Alice, with calling stations for bots and ``seed``'s deck;
    ``storage`` may be any object that acts like one (a test's faulty storage)."""
    return await HoldemTable.create(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_user_id=ALICE,
        name=name,
        settings=settings,
        key=key,
        scheduler=scheduler,
        presenter=recorder,
        bots=calling_station,
        rng=random.Random(seed),
        **more,
    )
