"""What Hold'em host tests share besides fixtures: the members, a calling-station bot, and the
``make_table`` fixture's type."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from bot.holdem.host import HoldemTable
from engine.holdem import Action, Call, Check, Hand

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL = 11, 12, 13


class CallingStation:
    """A bot that checks when it can and calls otherwise."""

    def decide(self, hand: Hand, player: int) -> Action:
        legal = hand.turn
        assert legal is not None and legal.player == player
        return Check() if legal.can_check else Call()


def calling_station(name: str, strategy: str, rng: random.Random) -> CallingStation:
    return CallingStation()


TableFactory = Callable[..., Awaitable[HoldemTable]]
"""The ``make_table`` fixture: ``await make_table(seats=..., bots=...)`` opens a test table."""
