"""A statistic that is one sum of counts over another (VPIP, bb/100, return per round...).

Each game's stats module lists its ratios once (``engine.holdem.stats.RATIOS``,
``engine.blackjack.stats.RATIOS``); the counts' properties, the /stats embed and the
leaderboards (which storage ranks in SQL from the same column names) all read them from there.

>>> from engine.holdem.stats import StyleCounts, RATIO
>>> RATIO["vpip"].of(StyleCounts(hands=4, vpip=1))
25.0
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ratio:
    """``scale * sum(numerator) / sum(denominator)`` over a counts value's fields; ``None``
    when the denominator is 0. ``scale`` is 100 for a percentage, 1 for a plain ratio."""

    key: str
    """The name a leaderboard and a command option use."""
    label: str
    numerator: tuple[str, ...]
    denominator: tuple[str, ...]
    scale: int = 100

    @property
    def percent(self) -> bool:
        return self.scale == 100

    def of(self, counts: object) -> float | None:
        below = sum(int(getattr(counts, name)) for name in self.denominator)
        if not below:
            return None
        return self.scale * sum(int(getattr(counts, name)) for name in self.numerator) / below
