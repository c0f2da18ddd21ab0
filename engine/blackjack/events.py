"""What happened in a Blackjack round: small frozen events in the order they occurred.

Events never reveal the dealer's hole card before the dealer plays (``HoleCardDealt`` carries no
card), so a front may show every event to everyone. Chips move on three kinds of event:
``StakeAdded`` (a double, split or insurance puts more chips at risk: escrow ``amount`` more),
``HandSettled`` and ``InsuranceSettled`` (pay ``payout`` back to the player). The opening bets
are escrowed before the round is built.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.blackjack.actions import Action, HandResult, InsuranceResult
from engine.cards import Card


class Event:
    """Base of every Blackjack event."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ShoeShuffled(Event):
    """The shoe was shuffled before this round."""

    cards: int


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """A face-up card went to a player's hand."""

    seat: int
    hand: int
    card: Card


@dataclass(frozen=True, slots=True)
class DealerCardDealt(Event):
    """A face-up card went to the dealer (the up card, or a card drawn when the dealer plays)."""

    card: Card


@dataclass(frozen=True, slots=True)
class HoleCardDealt(Event):
    """The dealer took a face-down card; which one is not told until ``HoleCardRevealed``."""


@dataclass(frozen=True, slots=True)
class HoleCardRevealed(Event):
    """The dealer turned the hole card over."""

    card: Card


@dataclass(frozen=True, slots=True)
class InsuranceOffered(Event):
    """The dealer shows an ace: these seats may take insurance (or even money on a natural)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StakeAdded(Event):
    """A seat put ``amount`` more chips at risk: ``reason`` is DOUBLE, SPLIT or INSURE.

    For a split, ``hand`` is the new hand the chips back; for insurance it is 0.
    """

    seat: int
    hand: int
    amount: int
    reason: Action


@dataclass(frozen=True, slots=True)
class InsuranceTaken(Event):
    """A seat took insurance for ``stake`` chips."""

    seat: int
    stake: int


@dataclass(frozen=True, slots=True)
class InsuranceDeclined(Event):
    """A seat declined insurance or even money."""

    seat: int


@dataclass(frozen=True, slots=True)
class EvenMoneyTaken(Event):
    """A seat with a natural took even money (its ``HandSettled`` follows)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DealerPeeked(Event):
    """The dealer checked the hole card for a blackjack under a ten or an ace."""

    blackjack: bool


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """This hand is now the one to act."""

    seat: int
    hand: int


@dataclass(frozen=True, slots=True)
class HandStood(Event):
    """The hand stands on ``total`` (by choice, or by reaching 21)."""

    seat: int
    hand: int
    total: int


@dataclass(frozen=True, slots=True)
class HandDoubled(Event):
    """The hand doubled; its one card follows as a ``CardDealt``."""

    seat: int
    hand: int


@dataclass(frozen=True, slots=True)
class HandSplit(Event):
    """The pair in ``hand`` was split; its second card now starts ``new_hand``."""

    seat: int
    hand: int
    new_hand: int


@dataclass(frozen=True, slots=True)
class HandSurrendered(Event):
    """The hand was surrendered."""

    seat: int
    hand: int


@dataclass(frozen=True, slots=True)
class HandBusted(Event):
    """The hand went over 21."""

    seat: int
    hand: int
    total: int


@dataclass(frozen=True, slots=True)
class DealerStood(Event):
    """The dealer's final hand: ``total`` (``blackjack`` for a natural)."""

    total: int
    blackjack: bool


@dataclass(frozen=True, slots=True)
class DealerBusted(Event):
    """The dealer went over 21."""

    total: int


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """A hand's bet is settled: pay ``result.payout`` chips back to the seat."""

    result: HandResult


@dataclass(frozen=True, slots=True)
class InsuranceSettled(Event):
    """An insurance bet is settled: pay ``result.payout`` chips back to the seat."""

    result: InsuranceResult


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """Every bet of the round is settled."""
