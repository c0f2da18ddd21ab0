"""The Blackjack trainer's grades: a member's decisions graded against basic strategy, how many
were correct, and the expected chips lost to the others. A round's grades are stored on its
player rows in the transaction that settles it, and added up with the other statistics
(``storage/player_counts.py``), per season and all time."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from storage.backend import Transaction
from storage.errors import InvalidSettlement
from storage.models import Game, SeasonSelector
from storage.player_counts import read_counts
from storage.stats import resolve_season

MILLI = 1000
"""Expected losses are stored in thousandths of a chip: they are expectations, not chips."""


@dataclass(frozen=True, slots=True)
class DecisionGrades:
    """What one round (or a member's whole record) adds up to."""

    decisions: int = 0
    correct: int = 0
    expected_loss_milli: int = 0
    """Expected chips lost to the decisions that were not basic strategy, in thousandths."""

    @property
    def accuracy(self) -> float | None:
        """The share of decisions that were correct (None before the first one)."""
        return self.correct / self.decisions if self.decisions else None

    @property
    def expected_loss(self) -> float:
        """Expected chips lost to mistakes."""
        return self.expected_loss_milli / MILLI

    def __add__(self, other: DecisionGrades) -> DecisionGrades:
        return DecisionGrades(
            self.decisions + other.decisions,
            self.correct + other.correct,
            self.expected_loss_milli + other.expected_loss_milli,
        )

    def since(self, earlier: DecisionGrades) -> DecisionGrades:
        """What was added to a record since it stood at ``earlier``."""
        return DecisionGrades(
            self.decisions - earlier.decisions,
            self.correct - earlier.correct,
            self.expected_loss_milli - earlier.expected_loss_milli,
        )


def check_grades(grades: object, members: set[int]) -> dict[int, DecisionGrades]:
    """``grades`` by member, each consistent and for a member of the round, or a refusal."""
    if not isinstance(grades, Mapping):
        raise InvalidSettlement("Grades must be a mapping of members to DecisionGrades.")
    checked: dict[int, DecisionGrades] = {}
    for user_id, grade in grades.items():
        if user_id not in members:
            raise InvalidSettlement(f"Grades for user {user_id}, who is not in the round.")
        if not isinstance(grade, DecisionGrades):
            raise InvalidSettlement("Grades must be DecisionGrades values.")
        counts = (grade.decisions, grade.correct, grade.expected_loss_milli)
        if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
            raise InvalidSettlement("Grades must be whole numbers of zero or more.")
        if grade.correct > grade.decisions:
            raise InvalidSettlement("A member cannot make more correct decisions than decisions.")
        checked[user_id] = grade
    return checked


def read_grades(
    tx: Transaction, guild_id: int, user_id: int, season: SeasonSelector
) -> DecisionGrades:
    """A member's grades for a season number, the current season, or all time (the statistics
    counters hold them: ``storage/player_counts.py``)."""
    resolved = resolve_season(tx, guild_id, season)
    counts = read_counts(
        tx, Game.BLACKJACK, guild_id, user_id, None if resolved is None else resolved[0]
    )
    return DecisionGrades(
        counts["decisions"], counts["correct_decisions"], counts["expected_loss_milli"]
    )
