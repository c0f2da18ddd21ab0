"""How much one seat (or group of seats) out-earned another at the same table, with its error.

At a table of several players two seats' win rates are not independent (they play the same
hands, often against each other), so "A out-earned B" is measured on the difference itself:
``DealNets`` records every seat's net chips per independent unit (a hand, or a whole deal when
``simulate_holdem`` plays each deal from every seat), and ``margin`` gives the mean difference
in big blinds per 100 hands with the standard error of that paired difference and its 95%
interval. A group's net is the mean of its seats' nets, so "the hard seats against the normal
seats" at a table of three of each is one paired figure too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bots.simulate import SimulationSetupError
from engine.holdem.hand import Hand


@dataclass(frozen=True, slots=True)
class Margin:
    """The mean of one group's win rate minus another's, in bb/100, with its error."""

    bb_per_100: float
    stderr_bb_per_100: float
    units: int
    """Independent units (hands, or deals played from every seat) it was measured over."""

    @property
    def interval_95(self) -> tuple[float, float]:
        """A 95% confidence interval of ``bb_per_100`` (normal approximation)."""
        half = 1.96 * self.stderr_bb_per_100
        return (self.bb_per_100 - half, self.bb_per_100 + half)


class DealNets:
    """An ``on_hand`` recorder for ``simulate_holdem``: each seat's net chips per unit of
    ``block`` hands (1, or the seat count for duplicate deals)."""

    def __init__(self, seats: int, block: int = 1) -> None:
        self.seats = seats
        self.block = block
        self.units: list[tuple[int, ...]] = []
        self._open = [0] * seats
        self._hands = 0

    def __call__(self, hand: Hand, order: Sequence[int]) -> None:
        for player, seat in enumerate(order):
            self._open[seat] += hand.stacks[player] - hand.starting_stacks[player]
        self._hands += 1
        if self._hands % self.block == 0:
            self.units.append(tuple(self._open))
            self._open = [0] * self.seats

    def margin(self, group: Sequence[int], others: Sequence[int], big_blind: int) -> Margin:
        """Seats ``group`` (from 0) against seats ``others``: the mean net of ``group``'s seats
        minus the mean net of ``others``', per 100 hands, in big blinds."""
        if not group or not others:
            raise SimulationSetupError("a margin compares two non-empty groups of seats")
        differences = [
            sum(unit[s] for s in group) / len(group) - sum(unit[s] for s in others) / len(others)
            for unit in self.units
        ]
        n = len(differences)
        scale = 100.0 / (self.block * big_blind)
        if n == 0:
            return Margin(0.0, 0.0, 0)
        mean = sum(differences) / n
        if n < 2:
            return Margin(mean * scale, 0.0, n)
        variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
        return Margin(mean * scale, math.sqrt(variance / n) * scale, n)
