"""Which bots sit at a terminal Hold'em table: the strategies ``--bots`` accepts and the factory
that builds them, in one place.

The bots and all-in equities are the ones every live table uses (``bot.holdem.bots``); the
terminal only chooses a strategy per seat. To seat other bots, change ``_BRAINS``; nothing else
in the terminal front builds a bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.holdem.bots import TABLE_BOTS, TABLE_EQUITY
from bot.holdem.host import EquityFunction
from bot.holdem.seating import BOT_NAMES, BotBrain, BotFactory
from engine.bots import STRATEGY_NAMES, BotSpec, Personality, UnknownStrategyError

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
EQUITY: EquityFunction | None = TABLE_EQUITY
"""All-in win chances shown when hands are tabled."""
_BRAINS: BotFactory = TABLE_BOTS
"""Builds one bot from (name, strategy such as ``smart:hard``, its own generator)."""


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


def bot_factory(strategies: Sequence[str]) -> BotFactory:
    """A factory giving each bot the strategy listed for it (the table's single strategy name
    is ignored: the terminal chooses per seat)."""
    return _PerSeatBots(tuple(strategies) or (DEFAULT_STRATEGY,))


@dataclass(frozen=True, slots=True)
class _PerSeatBots:
    """A ``BotFactory`` that gives the bot named n-th the n-th strategy chosen."""

    strategies: tuple[str, ...]

    def __call__(
        self,
        name: str,
        strategy: str,
        rng: random.Random,
        personality: Personality | None = None,
    ) -> BotBrain:
        chosen = strategy_of(name, self.strategies)
        return _BRAINS(name, chosen, rng, personality=personality)
