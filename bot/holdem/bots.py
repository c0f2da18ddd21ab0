"""The bot players and all-in equities that live tables use: engine.bots' strategies.

One place to choose them, so the Discord front, the terminal front and tests agree.
"""

from __future__ import annotations

from bot.holdem.host import EquityFunction
from bot.holdem.seating import BotFactory
from engine.bots.runner import make_hand_bot
from engine.equity import all_in_equities

TABLE_BOTS: BotFactory = make_hand_bot
"""Builds a bot from (name, strategy such as "smart" or "smart:hard", its own generator, and the
personality stored with its seat, if any: without one it draws a new one)."""

TABLE_EQUITY: EquityFunction = all_in_equities
"""Each face-up hand's chance to win or share, for all-ins before the river."""
