"""The basic-strategy drill: a stream of random decisions (two cards against the dealer's up card
under a rule set), each answered, graded and explained. Pure and stateless: a question is made
from its seed, so a front can carry the whole drill in a button's custom_id.

Each question is dealt by the engine itself from a stacked shoe, so its legal actions (insurance
against an ace included) are exactly those the table would offer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.blackjack.grading import Grade, Grader, action_values
from engine.blackjack import (
    Action,
    Advice,
    BasicStrategy,
    Decision,
    Round,
    Rules,
    StackedShoe,
)
from engine.cards import DECK, parse_cards

SEED_LIMIT = 10**9
"""Seeds are below this, so they stay short in a custom_id."""
_FILLER = tuple(parse_cards("5c 5d 5h 5s 4c 4d 4h 4s"))
"""Cards after the question's: a hole card that never makes a dealer blackjack, then draws."""


@dataclass(frozen=True, slots=True)
class Score:
    """How the drill is going: questions answered, right answers, the current streak."""

    asked: int = 0
    right: int = 0
    streak: int = 0

    def after(self, correct: bool) -> Score:
        return Score(self.asked + 1, self.right + correct, self.streak + 1 if correct else 0)

    @property
    def text(self) -> str:
        if not self.asked:
            return "No answers yet."
        share = f"{self.right / self.asked:.0%}"
        return f"Score {self.right}/{self.asked} ({share}) · streak {self.streak}"


@dataclass(frozen=True, slots=True)
class Question:
    """One decision to make."""

    seed: int
    decision: Decision

    @property
    def legal(self) -> frozenset[Action]:
        return self.decision.legal


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer, graded, with the chart cell and every action's value to explain it."""

    grade: Grade
    advice: Advice
    values: dict[Action, float]


def question(rules: Rules, seed: int) -> Question:
    """The question ``seed`` makes under ``rules`` (the same seed, the same question)."""
    rng = random.Random(seed)
    while True:
        first, up, second = (DECK[rng.randrange(52)] for _ in range(3))
        # One seat: its first card, the dealer's up card, its second card, the hole card.
        game = Round(rules, StackedShoe([first, up, second, *_FILLER]), {0: 2})
        if game.to_act is not None or game.pending_insurance:
            return Question(seed, game.decision(0))
        # A natural against anything but an ace is no decision: deal again.


def next_seed(seed: int) -> int:
    """The seed of the question after ``seed``'s."""
    return random.Random(seed * 7919 + 1).randrange(SEED_LIMIT)


def answer(rules: Rules, asked: Question, action: Action) -> Answer:
    """``action`` on ``asked``, graded against basic strategy and explained."""
    grade = Grader(rules).grade(asked.decision, action, stake=1)
    advice = BasicStrategy(rules).advice(asked.decision)
    return Answer(grade, advice, action_values(asked.decision))
