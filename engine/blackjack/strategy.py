"""Blackjack strategies: one interface for bot seats, hints and the simulator.

A strategy is given the ``Decision`` a player faces (own hand, dealer up card, legal actions,
rules) and a random source, and returns one of the legal actions:

- ``basic``: basic strategy for the rule set (``engine.blackjack.analysis`` works it out), never
  insurance, and even money only where it beats keeping the natural (at 6:5 and 1:1 tables).
- ``dealer``: play like the dealer: hit below 17, stand on soft 17, nothing else.
- ``simple``: the original exercise's example: against an ace or a ten-valued card hit below 18,
  otherwise hit below 17. "Face card" is read as any ten-valued card, since a 10 plays exactly
  like a king.
- ``random``: a uniformly random legal action.
- ``hilo``: basic strategy with the Hi-Lo true-count index plays (``engine.blackjack.hilo``); its
  ``counter`` must be kept up to date with the shoe.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.blackjack.actions import Action, Phase
from engine.blackjack.analysis import BasicChart, basic_chart
from engine.blackjack.hand import VALUE_OF_ID
from engine.blackjack.rules import Rules
from engine.blackjack.views import Decision
from engine.errors import UnknownStrategyError

_ORDER = {action: index for index, action in enumerate(Action)}


class BlackjackStrategy(Protocol):
    """Anything that picks a legal action for a decision."""

    name: str

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        """One of ``decision.legal``."""
        ...


def _in_order(legal: frozenset[Action]) -> list[Action]:
    # Sets of enum members iterate in hash order, which changes between processes; sort them so
    # a seed always gives the same game.
    return sorted(legal, key=_ORDER.__getitem__)


@dataclass(frozen=True, slots=True)
class Advice:
    """A basic-strategy hint: what to do, and the chart row and code it comes from."""

    action: Action
    row: str
    code: str

    @property
    def text(self) -> str:
        """``"Double down (hard 11 against a 6; chart: Dh)"``."""
        return f"{self.action.label} ({self.row}; chart: {self.code})"


class BasicStrategy:
    """Basic strategy for ``rules``: the chart's first legal action."""

    name = "basic"

    __slots__ = ("_even_money", "_hard", "_pair", "_soft", "chart")

    def __init__(self, rules: Rules) -> None:
        self.chart: BasicChart = basic_chart(rules)
        self._hard = self.chart.hard
        self._soft = self.chart.soft
        self._pair = self.chart.pair
        self._even_money = self.chart.take_even_money

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        legal = decision.legal
        if decision.phase is Phase.INSURANCE:
            if self._even_money and Action.EVEN_MONEY in legal:
                return Action.EVEN_MONEY
            return Action.NO_INSURANCE
        for action in self.preferences(decision):
            if action in legal:
                return action
        return Action.STAND if Action.STAND in legal else _in_order(legal)[0]

    def preferences(self, decision: Decision) -> tuple[Action, ...]:
        """The chart cell's actions for ``decision``, best first (take the first one legal)."""
        up = VALUE_OF_ID[decision.dealer_up.id]
        cards = decision.cards
        if len(cards) == 2:
            first = VALUE_OF_ID[cards[0].id]
            if first == VALUE_OF_ID[cards[1].id]:
                return self._pair[first][up]
        if decision.soft:
            return self._soft[decision.total][up]
        return self._hard[decision.total][up]

    def advice(self, decision: Decision) -> Advice:
        """The hint for ``decision``, with the chart row it comes from."""
        action = self.choose(decision, random.Random(0))
        up_card = decision.dealer_up.rank
        against = f"against {'an' if up_card.word in ('Ace', 'Eight') else 'a'} {up_card.word}"
        if decision.phase is Phase.INSURANCE:
            return Advice(action, f"insurance {against}", action.value)
        pair = decision.pair_value
        if pair is not None:
            kind, row = "pair", pair
            label = "a pair of " + ("aces" if pair == 1 else "tens" if pair == 10 else f"{pair}s")
        elif decision.soft:
            kind, row, label = "soft", decision.total, f"soft {decision.total}"
        else:
            kind, row, label = "hard", decision.total, f"hard {decision.total}"
        code = self.chart.code(kind, row, VALUE_OF_ID[decision.dealer_up.id])
        return Advice(action, f"{label} {against}", code)


class DealerStrategy:
    """Hit below 17, stand on 17 or more (soft 17 included); decline insurance."""

    name = "dealer"

    __slots__ = ()

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        legal = decision.legal
        if decision.phase is Phase.INSURANCE:
            return Action.NO_INSURANCE
        if decision.total < 17 and Action.HIT in legal:
            return Action.HIT
        return Action.STAND if Action.STAND in legal else _in_order(legal)[0]


class SimpleStrategy:
    """Against an ace or a ten-valued card hit below 18, otherwise hit below 17."""

    name = "simple"

    __slots__ = ()

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        legal = decision.legal
        if decision.phase is Phase.INSURANCE:
            return Action.NO_INSURANCE
        up = VALUE_OF_ID[decision.dealer_up.id]
        threshold = 18 if up in (1, 10) else 17
        if decision.total < threshold and Action.HIT in legal:
            return Action.HIT
        return Action.STAND if Action.STAND in legal else _in_order(legal)[0]


class RandomBlackjackStrategy:
    """A uniformly random legal action (insurance choices included)."""

    name = "random"

    __slots__ = ()

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        options = _in_order(decision.legal)
        return options[rng.randrange(len(options))]


def _hilo(rules: Rules) -> BlackjackStrategy:
    # engine.blackjack.hilo builds on BasicStrategy, so it is imported when first asked for.
    from engine.blackjack.hilo import HiLoStrategy  # noqa: PLC0415

    return HiLoStrategy(rules)


STRATEGIES: dict[str, Callable[[Rules], BlackjackStrategy]] = {
    "basic": BasicStrategy,
    "dealer": lambda rules: DealerStrategy(),
    "simple": lambda rules: SimpleStrategy(),
    "random": lambda rules: RandomBlackjackStrategy(),
    "hilo": _hilo,
}
"""Strategy names and how to build each for a rule set."""


def strategy_named(name: str, rules: Rules) -> BlackjackStrategy:
    """The strategy called ``name`` for ``rules``; ``UnknownStrategyError`` names the choices."""
    factory = STRATEGIES.get(name.strip().lower())
    if factory is None:
        raise UnknownStrategyError(
            f"unknown strategy {name!r} (choose from {', '.join(STRATEGIES)})"
        )
    return factory(rules)
