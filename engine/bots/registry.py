"""Bot strategies by name, as config, the command line and the Discord table refer to them.

A ``BotSpec`` is a strategy name and a difficulty, written ``smart``, ``smart:hard`` or
``passive``; ``make_strategy`` builds a fresh strategy object (one per seat) from it. Only
``smart`` has difficulty levels: ``parse`` refuses ``random:hard`` rather than accept a setting
that would change nothing, while ``make_strategy`` ignores the difficulty of the simple ones so a
table-wide difficulty can be applied to any mix of bots.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.bots.errors import UnknownStrategyError
from engine.bots.exploits import CallingStation, MinRaiser, Shover
from engine.bots.personality import NEUTRAL, Personality
from engine.bots.smart import Difficulty, SmartStrategy
from engine.bots.strategy import AggressiveStrategy, PassiveStrategy, RandomStrategy, Strategy

_FACTORIES: Mapping[str, Callable[[Difficulty, Personality], Strategy]] = {
    "random": lambda _difficulty, _personality: RandomStrategy(),
    "passive": lambda _difficulty, _personality: PassiveStrategy(),
    "aggressive": lambda _difficulty, _personality: AggressiveStrategy(),
    "smart": lambda difficulty, personality: SmartStrategy(difficulty, personality=personality),
    "minraiser": lambda _difficulty, _personality: MinRaiser(),
    "shover": lambda _difficulty, _personality: Shover(),
    "station": lambda _difficulty, _personality: CallingStation(),
}

STRATEGY_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""The strategy names, simplest first, then the fixed exploits (``engine.bots.exploits``)."""

LEVELLED = frozenset({"smart"})
"""Strategies that have difficulty levels."""

DIFFICULTIES: tuple[str, ...] = tuple(level.value for level in Difficulty)


@dataclass(frozen=True, slots=True)
class BotSpec:
    """Which strategy a bot seat plays, and how well."""

    strategy: str
    difficulty: Difficulty = Difficulty.NORMAL

    def __post_init__(self) -> None:
        if self.strategy not in _FACTORIES:
            raise UnknownStrategyError(
                f"unknown strategy {self.strategy!r} (choose from {', '.join(STRATEGY_NAMES)})"
            )

    @property
    def label(self) -> str:
        """How the spec is written: ``smart`` (normal), ``smart:hard``, ``random``."""
        if self.strategy in LEVELLED and self.difficulty is not Difficulty.NORMAL:
            return f"{self.strategy}:{self.difficulty.value}"
        return self.strategy

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read ``name`` or ``name:difficulty`` (case and spaces ignored; ``-`` works too)."""
        cleaned = text.strip().lower()
        name, separator, level = cleaned.replace("-", ":").partition(":")
        name = name.strip()
        if not name:
            raise UnknownStrategyError(
                f"a seat needs a strategy name ({', '.join(STRATEGY_NAMES)})"
            )
        if name not in _FACTORIES:
            raise UnknownStrategyError(
                f"unknown strategy {text.strip()!r} (choose from {', '.join(STRATEGY_NAMES)})"
            )
        if not separator:
            return cls(name)
        level = level.strip()
        if name not in LEVELLED:
            raise UnknownStrategyError(
                f"{name!r} has no difficulty levels (only {', '.join(sorted(LEVELLED))} does)"
            )
        if level not in DIFFICULTIES:
            raise UnknownStrategyError(
                f"unknown difficulty {level!r} in {text.strip()!r} "
                f"(choose from {', '.join(DIFFICULTIES)})"
            )
        return cls(name, Difficulty(level))


def make_strategy(
    spec: BotSpec | str,
    difficulty: Difficulty | None = None,
    *,
    personality: Personality = NEUTRAL,
) -> Strategy:
    """A new strategy object for one seat. ``spec`` may be a ``BotSpec`` or its text;
    ``difficulty``, if given, overrides the spec's; both it and ``personality`` are ignored by
    the simple strategies."""
    parsed = BotSpec.parse(spec) if isinstance(spec, str) else spec
    level = difficulty if difficulty is not None else parsed.difficulty
    return _FACTORIES[parsed.strategy](level, personality)


def parse_seats(text: str) -> tuple[BotSpec, ...]:
    """A comma-separated list of specs: ``"smart,random,smart:hard"``."""
    parts = text.split(",")
    return tuple(BotSpec.parse(part) for part in parts)
