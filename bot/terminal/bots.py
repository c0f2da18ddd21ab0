"""Which bots sit at a terminal Hold'em table: the strategies ``--bots`` accepts and the factory
that builds them, in one place.

The bots are ``engine.bots``' strategies, behind a small adapter from the host's
``decide(hand, player)`` to the engine's ``decide(SeatView)``. When ``bot.holdem.bots`` (the
shared choice for every front, which also feeds the bots the table's statistics) lands, point
``_BRAINS`` at its ``TABLE_BOTS`` and ``EQUITY`` at its ``TABLE_EQUITY``; nothing else here or in
the terminal front names a strategy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.holdem.fallback_bots import DEFAULT_EQUITY
from bot.holdem.host import BOT_NAMES, BotFactory, BotPlayer, EquityFunction
from engine.bots import STRATEGY_NAMES, BotSpec, UnknownStrategyError
from engine.bots.runner import BotPlayer as EngineBot
from engine.bots.view import SeatView
from engine.holdem import Action, Hand

__all__ = [
    "DEFAULT_STRATEGY",
    "EQUITY",
    "STRATEGY_NAMES",
    "UnknownBotError",
    "bot_factory",
    "parse_strategies",
    "strategy_of",
]

DEFAULT_STRATEGY = "smart"
EQUITY: EquityFunction | None = DEFAULT_EQUITY
"""All-in win chances shown when hands are tabled."""


class UnknownBotError(ValueError):
    """A ``--bots`` entry that names no strategy."""


def parse_strategies(text: str) -> tuple[str, ...]:
    """``"smart:hard, random"`` -> ``("smart:hard", "random")``, one per bot, checked."""
    try:
        return tuple(BotSpec.parse(part).label for part in text.split(","))
    except UnknownStrategyError as error:
        raise UnknownBotError(f"--bots: {error}") from None


def strategy_of(bot_name: str, strategies: Sequence[str]) -> str:
    """The strategy of the bot the host named ``bot_name``.

    The host names bots in ``BOT_NAMES`` order as it seats them, so the n-th name plays the
    n-th strategy given (cycling if the host ever seats more bots than names were given).
    """
    index = BOT_NAMES.index(bot_name) if bot_name in BOT_NAMES else 0
    return strategies[index % len(strategies)]


class _SeatBot:
    """An ``engine.bots`` player answering the host's ``decide(hand, player)``."""

    __slots__ = ("_player",)

    def __init__(self, strategy: str, rng: random.Random) -> None:
        self._player = EngineBot.from_spec(strategy, rng)

    def decide(self, hand: Hand, player: int) -> Action:
        return self._player.decide(SeatView.from_hand(hand, player))


def _seat_bot(bot_name: str, strategy: str, rng: random.Random) -> BotPlayer:
    return _SeatBot(strategy, rng)


_BRAINS: BotFactory = _seat_bot
"""Builds one bot from (name, strategy, generator): the line to change for other bots."""


def bot_factory(strategies: Sequence[str]) -> BotFactory:
    """A factory giving each bot the strategy listed for it (the table's single strategy name
    is ignored: the terminal chooses per seat)."""
    chosen = tuple(strategies) or (DEFAULT_STRATEGY,)

    def make(bot_name: str, strategy: str, rng: random.Random) -> BotPlayer:
        return _BRAINS(bot_name, strategy_of(bot_name, chosen), rng)

    return make
