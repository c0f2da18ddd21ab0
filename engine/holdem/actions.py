"""What a player can do: actions are small values; ``LegalActions`` says which are allowed now."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand."""


@dataclass(frozen=True, slots=True)
class Check:
    """Pass when there is nothing to call."""


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet (or go all-in for less)."""


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Bet or raise so that this street's bet totals ``amount`` ("to", as in PHH)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Show:
    """Show the hole cards at showdown (only asked for in manual showdowns, i.e. replays)."""


@dataclass(frozen=True, slots=True)
class Muck:
    """Throw the hole cards away unseen at showdown, giving up every pot."""


Action = Fold | Check | Call | RaiseTo | Show | Muck


class ActionKind(Enum):
    """What an action did, as events report it."""

    FOLD = "fold"
    """Gave up the hand."""
    CHECK = "check"
    """Passed with nothing to call."""
    CALL = "call"
    """Matched the bet (possibly all-in for less)."""
    BET = "bet"
    """Opened the betting on a street."""
    RAISE = "raise"
    """Raised an existing bet."""


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The choices of the player to act.

    ``call_amount`` is how many more chips a call puts in (``None`` when checking is possible).
    ``min_raise_to``/``max_raise_to`` bound a bet or raise "to" amount (``None`` when raising is
    not allowed); ``max_raise_to`` is the all-in amount. ``bet_so_far`` is the player's bet on
    this street, and ``is_bet`` tells whether a raise would be the street's opening bet.
    """

    player: int
    can_fold: bool
    can_check: bool
    call_amount: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    bet_so_far: int
    is_bet: bool

    @property
    def can_call(self) -> bool:
        """Whether calling is possible (there is a bet to match)."""
        return self.call_amount is not None

    @property
    def can_raise(self) -> bool:
        """Whether betting or raising is possible."""
        return self.min_raise_to is not None

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        match action:
            case Fold():
                return self.can_fold
            case Check():
                return self.can_check
            case Call():
                return self.can_call
            case RaiseTo(amount=amount):
                return (
                    self.min_raise_to is not None
                    and self.max_raise_to is not None
                    and self.min_raise_to <= amount <= self.max_raise_to
                )
            case _:
                return False
