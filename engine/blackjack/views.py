"""Read-only pictures of a round: the decision in front of a player and the public table view.

Both hide the dealer's hole card until the dealer plays, so either may be shown to anyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.blackjack.actions import Action, HandResult, InsuranceResult, Phase
from engine.blackjack.hand import VALUE_OF_ID, HandTotal, hand_value
from engine.blackjack.rules import Rules
from engine.cards import Card


@dataclass(frozen=True, slots=True)
class Decision:
    """What a player (or a bot seat's strategy) sees when it must decide.

    ``legal`` are exactly the actions the round accepts now for this seat; during insurance the
    hand is the seat's first hand and ``legal`` holds the insurance choices.
    """

    seat: int
    hand: int
    phase: Phase
    cards: tuple[Card, ...]
    total: int
    soft: bool
    dealer_up: Card
    legal: frozenset[Action]
    hands_at_seat: int
    from_split: bool
    rules: Rules

    @property
    def pair_value(self) -> int | None:
        """The card value of a two-card pair (1 for aces, 10 for any two tens), else None."""
        cards = self.cards
        if len(cards) == 2 and VALUE_OF_ID[cards[0].id] == VALUE_OF_ID[cards[1].id]:
            return VALUE_OF_ID[cards[0].id]
        return None

    @property
    def value(self) -> HandTotal:
        """The hand's totals."""
        return hand_value(self.cards)

    @property
    def dealer_up_value(self) -> int:
        """The dealer's up card value, 1 for an ace."""
        return VALUE_OF_ID[self.dealer_up.id]


class BlackjackHandStatus(StrEnum):
    """Where a hand is in play."""

    WAITING = "waiting"
    """Not played yet (a later seat, or a split hand waiting for its second card)."""
    ACTING = "acting"
    """The hand to act."""
    STOOD = "stood"
    """Done: stood, doubled, or reached 21; waits for the dealer."""
    BUST = "bust"
    """Over 21."""
    SURRENDERED = "surrendered"
    """Surrendered."""
    BLACKJACK = "blackjack"
    """A natural."""


@dataclass(frozen=True, slots=True)
class HandView:
    """One player hand as the table shows it."""

    seat: int
    index: int
    cards: tuple[Card, ...]
    stake: int
    status: BlackjackHandStatus
    doubled: bool
    from_split: bool
    result: HandResult | None

    @property
    def value(self) -> HandTotal:
        """The hand's totals (``value.label`` is ``"7/17"`` for a soft 17)."""
        return hand_value(self.cards)


@dataclass(frozen=True, slots=True)
class RoundSeatView:
    """One seat: its opening bet, hands, insurance, and its net result once settled."""

    seat: int
    bet: int
    hands: tuple[HandView, ...]
    insurance: int
    insurance_result: InsuranceResult | None
    net: int | None


@dataclass(frozen=True, slots=True)
class DealerView:
    """The dealer's cards that are face up; ``hole_hidden`` while a hole card is face down."""

    cards: tuple[Card, ...]
    hole_hidden: bool

    @property
    def value(self) -> HandTotal:
        """The totals of the face-up cards."""
        return hand_value(self.cards)


@dataclass(frozen=True, slots=True)
class RoundView:
    """The whole table as everyone may see it."""

    phase: Phase
    rules: Rules
    dealer: DealerView
    seats: tuple[RoundSeatView, ...]
    to_act: tuple[int, int] | None
    pending_insurance: tuple[int, ...]
