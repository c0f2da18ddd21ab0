"""Trainer drills, pure: counting-speed drills and basic-strategy decisions, from a seeded rng.

A front (Discord or the terminal) shows a drill, takes the answer and grades it here; nothing
here keeps score, reads a clock or touches chips.

- ``counting_drill(rng)``: a run of cards dealt from a shuffled shoe, and the right running count
  after them under every system (``CountSystem``), with the true count for balanced systems.
- ``strategy_drill(rules, rng)``: a two-card hand against a dealer up card, dealt as a shoe deals
  them (so common hands come up as often as at a table; naturals, which need no decision, are
  dealt again), with every legal first action's expected value from the engine's analysis, the
  basic-strategy action (the chart ``hint`` uses) and an explanation of the chart cell.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.blackjack.actions import Action, Phase
from engine.blackjack.analysis import HandValues, first_decision_values
from engine.blackjack.counting import CountingError, CountSystem, running_count, true_count
from engine.blackjack.hand import VALUE_OF_ID, hand_value
from engine.blackjack.rules import Rules
from engine.blackjack.shoe import Shoe
from engine.blackjack.strategy import BasicStrategy
from engine.blackjack.views import Decision
from engine.cards import Card
from engine.errors import ActionNotAllowedError

MAX_DRILL_CARDS = 416
"""The longest counting drill: a whole eight-deck shoe."""

_CHART_CODES = {
    "H": "hit",
    "S": "stand",
    "P": "split",
    "Dh": "double if allowed, otherwise hit",
    "Ds": "double if allowed, otherwise stand",
    "Rh": "surrender if allowed, otherwise hit",
    "Rs": "surrender if allowed, otherwise stand",
    "Rp": "surrender if allowed, otherwise split",
}
_FIRST_ACTIONS = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)


@dataclass(frozen=True, slots=True)
class CountingDrill:
    """Cards dealt from a fresh shoe of ``decks`` decks, to be counted."""

    cards: tuple[Card, ...]
    decks: int

    @property
    def cards_left(self) -> int:
        """Cards still in the shoe after the drill's cards."""
        return 52 * self.decks - len(self.cards)

    def running_count(self, system: CountSystem) -> int:
        """The right running count after every card (KO from its initial running count)."""
        return running_count(self.cards, system, decks=self.decks)

    def true_count(self, system: CountSystem) -> float:
        """The right true count after every card (balanced systems only)."""
        if not system.balanced:
            raise CountingError(f"{system.label} is unbalanced: it has no true count")
        return true_count(self.running_count(system), self.cards_left)

    @property
    def answers(self) -> dict[CountSystem, int]:
        """The right running count under each system."""
        return {system: self.running_count(system) for system in CountSystem}

    def is_correct(self, system: CountSystem, answer: int) -> bool:
        """Whether ``answer`` is the running count under ``system``."""
        return answer == self.running_count(system)


def counting_drill(rng: random.Random, *, cards: int = 20, decks: int = 1) -> CountingDrill:
    """``cards`` cards dealt from a freshly shuffled shoe of ``decks`` decks."""
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= 52 * decks:
        raise CountingError(f"a counting drill deals 1 to {52 * decks} cards from {decks} decks")
    shoe = Shoe(decks, penetration=1.0, rng=rng)
    shoe.begin_round()
    return CountingDrill(tuple(shoe.draw_card() for _ in range(cards)), decks)


@dataclass(frozen=True, slots=True)
class StrategyDrill:
    """One first decision: ``cards`` against ``dealer_up`` under ``rules``.

    ``values`` holds each legal action's expected value in initial bets (given the dealer has no
    blackjack, where the dealer peeks); ``correct`` is basic strategy's action, from the chart
    the ``hint`` command uses (total-dependent, so on a rare hand it is not the action with the
    highest value for these exact cards: ``cost_of`` is then negative for the better action).
    """

    rules: Rules
    cards: tuple[Card, Card]
    dealer_up: Card
    correct: Action
    values: tuple[tuple[Action, float], ...]
    row: str
    """The chart row and column in words: ``"hard 11 against a Six"``."""
    chart_code: str
    """The chart cell's code: ``H``, ``S``, ``P``, ``Dh``, ``Ds``, ``Rh``, ``Rs``, ``Rp``."""

    @property
    def legal(self) -> tuple[Action, ...]:
        """The actions allowed on these cards under the rules."""
        return tuple(action for action, _ in self.values)

    def value_of(self, action: Action) -> float:
        """The expected value of ``action`` in initial bets."""
        for candidate, value in self.values:
            if candidate is action:
                return value
        raise ActionNotAllowedError(f"{action.label} is not allowed on this hand")

    def is_correct(self, action: Action) -> bool:
        """Whether ``action`` is basic strategy's."""
        return action is self.correct

    def cost_of(self, action: Action) -> float:
        """Bets given up in expectation by playing ``action`` instead of basic strategy's."""
        return self.value_of(self.correct) - self.value_of(action)

    @property
    def explanation(self) -> str:
        """Why: ``"hard 11 against a Six: the chart says Dh (double if allowed, otherwise hit).
        Expected value per bet: double +0.667, hit +0.334, stand -0.154."``"""
        ranked = sorted(self.values, key=lambda pair: -pair[1])
        worth = ", ".join(f"{action.value} {value:+.3f}" for action, value in ranked)
        meaning = _CHART_CODES[self.chart_code]
        return (
            f"{self.row}: the chart says {self.chart_code} ({meaning}). "
            f"Expected value per bet: {worth}."
        )


def strategy_drill(rules: Rules, rng: random.Random) -> StrategyDrill:
    """A random first decision under ``rules``, dealt from a fresh shoe."""
    while True:  # a natural needs no decision: deal again
        shoe = Shoe(rules.decks, penetration=1.0, rng=rng)
        shoe.begin_round()
        first, up, second = shoe.draw_card(), shoe.draw_card(), shoe.draw_card()
        if not hand_value((first, second)).is_two_card_21:
            break
    values_of = VALUE_OF_ID
    hand = first_decision_values(rules, values_of[first.id], values_of[second.id], values_of[up.id])
    values = _legal_values(hand)
    decision = _decision(rules, (first, second), up, frozenset(action for action, _ in values))
    basic = BasicStrategy(rules)
    advice = basic.advice(decision)
    return StrategyDrill(
        rules=rules,
        cards=(first, second),
        dealer_up=up,
        correct=advice.action,
        values=values,
        row=advice.row,
        chart_code=advice.code,
    )


def _legal_values(hand: HandValues) -> tuple[tuple[Action, float], ...]:
    pairs = []
    for action in _FIRST_ACTIONS:
        value = hand.of(action)
        if value is not None:
            pairs.append((action, value))
    return tuple(pairs)


def _decision(
    rules: Rules, cards: tuple[Card, Card], up: Card, legal: frozenset[Action]
) -> Decision:
    total = hand_value(cards)
    return Decision(
        seat=0,
        hand=0,
        phase=Phase.PLAYERS,
        cards=cards,
        total=total.total,
        soft=total.soft,
        dealer_up=up,
        legal=legal,
        hands_at_seat=1,
        from_split=False,
        rules=rules,
    )
