"""Bot players for Hold'em: the seat view they decide from, their strategies, and the simulator.

A bot sees only a ``SeatView`` (its own cards and public facts) and returns a legal action:

    strategy = make_strategy("smart:hard")          # one per seat
    view = SeatView.from_hand(hand, player, stats=table_stats.snapshot(player_keys))
    action = strategy.decide(view, rng)             # deterministic for a seeded rng

``BotPlayer`` wraps a strategy and its generator for a live table (thread-safe, with a safe
fallback and a way to run decisions in a thread or process pool); ``HandBot`` and
``make_hand_bot`` serve a host that hands bots the live ``Hand``.
"""

from engine.bots.errors import (
    BotError,
    IllegalBotActionError,
    NotSeatsTurnError,
    UnknownStrategyError,
)
from engine.bots.personality import DecisionFacts, Personality, PersonalityError, think_time
from engine.bots.registry import (
    DIFFICULTIES,
    STRATEGY_NAMES,
    BotSpec,
    make_strategy,
    parse_seats,
)
from engine.bots.runner import BotPlayer, HandBot, make_hand_bot
from engine.bots.smart import Difficulty, SmartStrategy
from engine.bots.stats import PlayerStats, TableStats
from engine.bots.strategy import AggressiveStrategy, PassiveStrategy, RandomStrategy, Strategy
from engine.bots.view import PublicAction, SeatView

__all__ = [
    "DIFFICULTIES",
    "STRATEGY_NAMES",
    "AggressiveStrategy",
    "BotError",
    "BotPlayer",
    "BotSpec",
    "DecisionFacts",
    "Difficulty",
    "HandBot",
    "IllegalBotActionError",
    "NotSeatsTurnError",
    "PassiveStrategy",
    "Personality",
    "PersonalityError",
    "PlayerStats",
    "PublicAction",
    "RandomStrategy",
    "SeatView",
    "SmartStrategy",
    "Strategy",
    "TableStats",
    "UnknownStrategyError",
    "make_hand_bot",
    "make_strategy",
    "parse_seats",
    "think_time",
]
