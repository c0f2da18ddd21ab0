"""What a Blackjack player can do (``Action``), the round's phases and the outcomes of a hand."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Action(StrEnum):
    """A player's decision. Every action is taken for a seat: ``round.act(seat, Action.HIT)``."""

    HIT = "hit"
    """Take another card."""
    STAND = "stand"
    """Take no more cards."""
    DOUBLE = "double"
    """Double the bet on the first two cards and take exactly one more card."""
    SPLIT = "split"
    """Split a pair into two hands, adding a bet equal to the first."""
    SURRENDER = "surrender"
    """Give up the hand on the first two cards and get half the bet back."""
    INSURE = "insure"
    """Against a dealer ace: bet half the bet that the dealer has blackjack (pays 2:1)."""
    EVEN_MONEY = "even_money"
    """Against a dealer ace, holding a natural: take 1:1 now instead of risking a push."""
    NO_INSURANCE = "no_insurance"
    """Decline insurance or even money."""

    @property
    def label(self) -> str:
        """A button label: ``"Double down"``."""
        return _LABELS[self]


_LABELS = {
    Action.HIT: "Hit",
    Action.STAND: "Stand",
    Action.DOUBLE: "Double down",
    Action.SPLIT: "Split",
    Action.SURRENDER: "Surrender",
    Action.INSURE: "Insurance",
    Action.EVEN_MONEY: "Even money",
    Action.NO_INSURANCE: "No insurance",
}

PLAY_ACTIONS = frozenset({Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER})
"""Actions on a hand during the players' turns."""
INSURANCE_ACTIONS = frozenset({Action.INSURE, Action.EVEN_MONEY, Action.NO_INSURANCE})
"""Decisions while insurance is offered."""


class Phase(StrEnum):
    """Where a round is."""

    READY = "ready"
    """Bets are in; the cards are not dealt yet. A ``Round`` deals as it is constructed, so it is
    never seen in one; table hosts use it for the betting window before a round exists."""
    INSURANCE = "insurance"
    """The dealer shows an ace: seats decide on insurance or even money, in any order."""
    PLAYERS = "players"
    """Hands act one at a time, seat 0 first; the dealer plays once the last hand is done."""
    OVER = "over"
    """Every bet is settled."""


class Outcome(StrEnum):
    """How a hand ended."""

    BLACKJACK = "blackjack"
    """A natural paid at the table's blackjack rate."""
    EVEN_MONEY = "even_money"
    """A natural paid 1:1 at once against a dealer ace."""
    WIN = "win"
    """Beat the dealer, or the dealer busted: paid 1:1."""
    PUSH = "push"
    """A tie: the stake comes back."""
    LOSS = "loss"
    """Lost to the dealer's total or blackjack."""
    BUST = "bust"
    """Went over 21 (lost whatever the dealer does)."""
    SURRENDER = "surrender"
    """Gave up: half the bet (rounded down) comes back."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """The settlement of one hand: ``stake`` chips were at risk, ``payout`` chips come back."""

    seat: int
    hand: int
    outcome: Outcome
    stake: int
    payout: int

    @property
    def net(self) -> int:
        """Chips won (positive) or lost (negative)."""
        return self.payout - self.stake


@dataclass(frozen=True, slots=True)
class InsuranceResult:
    """The settlement of an insurance bet."""

    seat: int
    stake: int
    payout: int

    @property
    def net(self) -> int:
        """Chips won (positive) or lost (negative)."""
        return self.payout - self.stake
