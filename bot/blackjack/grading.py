"""The trainer: a member's decision graded against basic strategy for the table's rules. Pure.

The correct action is what ``hint`` says (``BasicStrategy``, the same charts, insurance and
even money included). The cost of a different action is the difference of the engine's expected
values (``engine.blackjack.analysis``) for the hand against the up card, in opening bets of the
hand: exact for a first decision on two cards; for a hand of three cards or more (only hit or
stand are left) the values of a two-card hand with the same total stand in, so the cost is
approximate there (hence the "~"). Insurance is valued from the dealer's chance of a ten under
the ace, given the player's cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from engine.blackjack import Action, BasicStrategy, Decision, Phase, Rules, hand_values
from engine.blackjack.analysis import dealer_blackjack_chance_behind_ace
from engine.blackjack.hand import VALUE_OF_ID
from storage import DecisionGrades
from storage.trainer import MILLI

_WORDS = {1: "A", 10: "10"}


@dataclass(frozen=True, slots=True)
class Grade:
    """One graded decision."""

    action: Action
    """What the member did."""
    best: Action
    """What basic strategy says."""
    cell: str
    """The chart cell: ``"hard 11 vs 6"``, ``"pair of 8s vs A"``, ``"insurance vs A"``."""
    cost: float | None
    """Expected loss of ``action`` against ``best``, in opening bets of the hand (0 when
    correct; None where the engine has no value for one of them)."""
    stake: int
    """The hand's opening bet, in chips."""

    @property
    def correct(self) -> bool:
        return self.action is self.best

    @property
    def expected_chips_lost(self) -> float:
        return (self.cost or 0.0) * self.stake

    @property
    def text(self) -> str:
        """``"correct"``, or ``"basic strategy: double (hard 11 vs 6), cost ~0.35 bets in
        expectation"``."""
        if self.correct:
            return "correct"
        text = f"basic strategy: {self.best.label.lower()} ({self.cell})"
        if self.cost is not None:
            text += f", cost ~{self.cost:.2f} bets in expectation"
        return text


def tally(grades: list[Grade]) -> DecisionGrades:
    """What a member's graded decisions in a round add to their record."""
    return DecisionGrades(
        decisions=len(grades),
        correct=sum(grade.correct for grade in grades),
        expected_loss_milli=round(sum(grade.expected_chips_lost for grade in grades) * MILLI),
    )


def cell(decision: Decision) -> str:
    """The chart cell a decision falls in."""
    up = _word(decision.dealer_up_value)
    if decision.phase is Phase.INSURANCE:
        return f"insurance vs {up}"
    pair = decision.pair_value
    if pair is not None:
        return f"pair of {'aces' if pair == 1 else f'{pair}s'} vs {up}"
    return f"{'soft' if decision.soft else 'hard'} {decision.total} vs {up}"


class Grader:
    """Grades decisions at one rule set (the charts are worked out once per rule set)."""

    __slots__ = ("_strategy",)

    def __init__(self, rules: Rules) -> None:
        self._strategy = BasicStrategy(rules)

    def best(self, decision: Decision) -> Action:
        """What basic strategy (and ``hint``) says."""
        return self._strategy.choose(decision, random.Random(0))

    def grade(self, decision: Decision, action: Action, stake: int) -> Grade:
        """``action`` taken on ``decision`` (a hand of ``stake`` chips), graded."""
        best = self.best(decision)
        cost: float | None = 0.0
        if action is not best:
            values = action_values(decision)
            mine, right = values.get(action), values.get(best)
            cost = None if mine is None or right is None else max(0.0, right - mine)
        return Grade(action, best, cell(decision), cost, stake)


def action_values(decision: Decision) -> dict[Action, float]:
    """Expected value of each legal action the engine can value, in opening bets."""
    rules = decision.rules
    cards = tuple(sorted(VALUE_OF_ID[card.id] for card in decision.cards))
    up = decision.dealer_up_value
    if decision.phase is Phase.INSURANCE:
        return _insurance_values(rules, cards)
    if len(cards) == 2:
        first, second = cards
    else:
        first, second = _two_cards(decision.total, decision.soft)
    values = _values(rules, first, second, up)
    return {action: values[action] for action in decision.legal if action in values}


@lru_cache(maxsize=4096)
def _values(rules: Rules, first: int, second: int, up: int) -> dict[Action, float]:
    hand = hand_values(rules, first, second, up)
    return {
        action: value
        for action in (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
        if (value := hand.of(action)) is not None
    }


def _insurance_values(rules: Rules, cards: tuple[int, ...]) -> dict[Action, float]:
    """Insurance against declining (the hand's own play is the same either way): half a bet
    that wins 2:1 with chance p. With a natural, even money against keeping it."""
    chance = dealer_blackjack_chance_behind_ace(rules, player_cards=cards)
    insure = 0.5 * (3.0 * chance - 1.0)
    if cards == (1, 10):
        numerator, denominator = rules.blackjack_pays.ratio
        keep = (1.0 - chance) * numerator / denominator
        return {
            Action.EVEN_MONEY: 1.0,
            Action.NO_INSURANCE: keep,
            Action.INSURE: keep + insure,
        }
    return {Action.NO_INSURANCE: 0.0, Action.INSURE: insure}


def _two_cards(total: int, soft: bool) -> tuple[int, int]:
    """A two-card hand with this total, standing in for a longer hand's values."""
    if soft:
        return 1, min(10, max(1, total - 11))
    low = max(2, total - 10)
    high = total - low
    if low == high and low > 2 and high < 10:
        low, high = low - 1, high + 1
    return low, min(10, high)


def _word(value: int) -> str:
    return _WORDS.get(value, str(value))
