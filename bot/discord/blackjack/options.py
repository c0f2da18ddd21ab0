"""A Blackjack table's settings from the guild's defaults, checking a member's bet, and the house
edge of a rule set (worked out once, off the event loop)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from bot.blackjack.host import BlackjackSettings
from bot.blackjack.seats import BotStrategy
from bot.config import BlackjackConfig
from bot.discord.errors import Refusal
from engine.blackjack import Rules, house_edge, preset
from engine.blackjack.sidebets import TwentyOneThreePaytable


class InvalidBet(Refusal):
    """A bet option that is not a whole number within the table's limits."""


def table_settings(config: BlackjackConfig, overrides: Mapping[str, Any]) -> BlackjackSettings:
    """A new table's settings: the guild's Blackjack defaults, then ``overrides`` (tests use
    them for rule variants and timings)."""
    side_21_3 = None if config.side_21_3 == "off" else TwentyOneThreePaytable(config.side_21_3)
    rules = dataclasses.replace(
        preset(config.preset), side_21_3=side_21_3, perfect_pairs=config.perfect_pairs
    )
    settings = BlackjackSettings(
        rules=rules,
        min_bet=config.min_bet,
        max_bet=config.max_bet,
        betting_seconds=float(config.betting_seconds),
        turn_seconds=float(config.turn_seconds),
        hints=config.hints,
        bot_seats=config.bot_seats,
        max_side_bet=config.max_side_bet,
        bot_strategy=BotStrategy(config.bot_strategy),
        bot_spread=config.bot_spread,
    )
    return dataclasses.replace(settings, **overrides) if overrides else settings


def checked_bet(value: object, settings: BlackjackSettings) -> int:
    """``value`` as a bet at a table with ``settings``, or a refusal. discord.py does not
    re-check option types and ranges, so a modified client can send anything."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidBet("The bet must be a whole number of chips.")
    if not settings.min_bet <= value <= settings.max_bet:
        raise InvalidBet(
            f"Bets at this table are {settings.min_bet:,} to {settings.max_bet:,} chips."
        )
    return value


class HouseEdges:
    """The house edge of basic strategy per rule set, worked out in a worker thread the first
    time it is asked for and kept (concurrent askers share one computation)."""

    def __init__(self, compute: Callable[[Rules], float] = house_edge) -> None:
        self._compute = compute
        self._tasks: dict[Rules, asyncio.Task[float]] = {}

    async def get(self, rules: Rules) -> float:
        task = self._tasks.get(rules)
        if task is None:
            task = asyncio.get_running_loop().create_task(asyncio.to_thread(self._compute, rules))
            self._tasks[rules] = task
        try:
            return await asyncio.shield(task)
        except Exception:
            if self._tasks.get(rules) is task:
                del self._tasks[rules]  # let the next asker try again
            raise

    def known(self, rules: Rules) -> float | None:
        """The house edge if it is already worked out."""
        task = self._tasks.get(rules)
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()
