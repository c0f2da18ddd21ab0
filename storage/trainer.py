"""The Blackjack trainer's grades: per member and season, the decisions graded against basic
strategy, how many were correct, and the expected chips lost to the others. Written in the same
transaction as the round's settlement; all-time figures are sums over a member's seasons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from storage.backend import Transaction
from storage.errors import InvalidSettlement
from storage.ledger import Work
from storage.models import SeasonSelector
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


def add_grades(
    work: Work, guild_id: int, season_id: int, grades: Mapping[int, DecisionGrades]
) -> None:
    """Fold a settled round's grades into each member's record for the season."""
    rows = [
        (season_id, guild_id, user_id, g.decisions, g.correct, g.expected_loss_milli)
        for user_id, g in sorted(grades.items())
        if g.decisions
    ]
    if not rows:
        return
    work.tx.executemany(
        "INSERT INTO trainer_grades (season_id, guild_id, user_id, decisions, correct, "
        "expected_loss_milli) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (season_id, user_id) DO UPDATE SET "
        "decisions = trainer_grades.decisions + excluded.decisions, "
        "correct = trainer_grades.correct + excluded.correct, "
        "expected_loss_milli = trainer_grades.expected_loss_milli + excluded.expected_loss_milli",
        rows,
    )


def read_grades(
    tx: Transaction, guild_id: int, user_id: int, season: SeasonSelector
) -> DecisionGrades:
    """A member's grades for a season number, the current season, or all time."""
    resolved = resolve_season(tx, guild_id, season)
    sql = (
        "SELECT COALESCE(SUM(decisions), 0), COALESCE(SUM(correct), 0), "
        "COALESCE(SUM(expected_loss_milli), 0) FROM trainer_grades "
        "WHERE guild_id = ? AND user_id = ?"
    )
    params: list[object] = [guild_id, user_id]
    if resolved is not None:
        sql += " AND season_id = ?"
        params.append(resolved[0])
    row = tx.one(sql, params)
    assert row is not None
    return DecisionGrades(int(row[0]), int(row[1]), int(row[2]))
