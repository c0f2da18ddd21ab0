"""Card counting: Hi-Lo, KO and Omega II tags, running and true counts, and a bet ramp.

Counting works only from public information: the cards dealt face up since the last shuffle and
how many cards are left. A ``Counter`` follows a shoe (``observe(shoe)`` after each round, or
``see(card)`` and ``shuffle()`` one event at a time, as a table shows them); ``ShoeCount`` is a
picture of it. The true count is the running count per deck left, ``running * 52 / cards_left``,
with the decks left measured exactly (a person estimates them to half a deck).

- **Hi-Lo** (balanced): 2-6 count +1, 7-9 count 0, tens and aces count -1.
- **KO** (Knock-Out, unbalanced): 2-7 count +1, 8-9 count 0, tens and aces -1. A full shoe adds
  up to +4 per deck, so the count starts at ``4 - 4 * decks`` (the standard initial running count)
  and players bet by the running count itself: KO has no true count.
- **Omega II** (balanced, level 2): 2, 3 and 7 count +1; 4, 5 and 6 count +2; 8 and aces 0;
  9 counts -1; tens count -2 (played without its optional ace side count here).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from engine.blackjack.errors import BadRuleValueError, RulesError
from engine.blackjack.hand import VALUE_OF_ID
from engine.blackjack.views import RoundView
from engine.cards import Card


class CountingError(RulesError):
    """A count that cannot be given: a true count for an unbalanced system, a bad bet ramp."""


class CountSystem(StrEnum):
    """A card-counting system."""

    HILO = "hilo"
    """Hi-Lo: 2-6 +1, 7-9 0, T-A -1 (balanced)."""
    KO = "ko"
    """Knock-Out: 2-7 +1, 8-9 0, T-A -1 (unbalanced; no true count)."""
    OMEGA_II = "omega2"
    """Omega II: 2,3,7 +1; 4,5,6 +2; 9 -1; T -2; 8 and A 0 (balanced)."""

    @property
    def label(self) -> str:
        """The system's usual name: ``"Hi-Lo"``, ``"KO"``, ``"Omega II"``."""
        return _LABELS[self]

    @property
    def tags(self) -> tuple[int, ...]:
        """Each card id's tag (``tags[card.id]``)."""
        return _TAGS[self]

    @property
    def balanced(self) -> bool:
        """Whether a full deck adds up to zero (only balanced systems have a true count)."""
        return sum(self.tags) == 0

    def tag(self, card: Card) -> int:
        """What one card adds to the running count."""
        return self.tags[card.id]

    def initial_running_count(self, decks: int) -> int:
        """The count at a fresh shuffle: 0 for balanced systems, ``4 - 4 * decks`` for KO."""
        return -sum(self.tags) * (decks - 1) if not self.balanced else 0


# Tags by blackjack value: index 1 is the ace, 2-9 the pips, 10 every ten-valued card.
_BY_VALUE: dict[CountSystem, tuple[int, ...]] = {
    CountSystem.HILO: (0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    CountSystem.KO: (0, -1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    CountSystem.OMEGA_II: (0, 0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
}
_TAGS: dict[CountSystem, tuple[int, ...]] = {
    system: tuple(tags[value] for value in VALUE_OF_ID) for system, tags in _BY_VALUE.items()
}
_LABELS = {CountSystem.HILO: "Hi-Lo", CountSystem.KO: "KO", CountSystem.OMEGA_II: "Omega II"}


def count_system(name: str | CountSystem) -> CountSystem:
    """The system called ``name`` (``hilo``, ``ko``, ``omega2``), refused with the choices."""
    text = str(name).strip().lower().replace("-", "").replace(" ", "").replace("_", "")
    text = {"omegaii": "omega2", "knockout": "ko"}.get(text, text)
    try:
        return CountSystem(text)
    except ValueError:
        choices = ", ".join(member.value for member in CountSystem)
        raise CountingError(f"unknown count system {name!r} (choose from {choices})") from None


def running_count(cards: Iterable[Card], system: CountSystem, *, decks: int = 1) -> int:
    """The running count after ``cards`` from a fresh shoe of ``decks`` decks (KO starts at its
    initial running count, balanced systems at 0).

    >>> from engine.cards import parse_cards
    >>> running_count(parse_cards("2c 5d Kh As 9s"), CountSystem.HILO)
    0
    """
    tags = system.tags
    return system.initial_running_count(decks) + sum(tags[card.id] for card in cards)


def true_count(running: int, cards_left: int) -> float:
    """The running count per deck left: ``running * 52 / cards_left`` (a balanced system's)."""
    if cards_left <= 0:
        raise CountingError("the true count needs at least one card left in the shoe")
    return running * 52 / cards_left


@dataclass(frozen=True, slots=True)
class ShoeCount:
    """The count of a shoe from its public state: cards seen since the shuffle and cards left."""

    system: CountSystem
    running: int
    cards_seen: int
    cards_left: int

    @property
    def decks_left(self) -> float:
        """Decks not yet dealt (exact, not rounded to the half deck a person would use)."""
        return self.cards_left / 52

    @property
    def true_count(self) -> float:
        """The running count per deck left; ``CountingError`` for KO, which has none."""
        if not self.system.balanced:
            raise CountingError(f"{self.system.label} is unbalanced: bet by its running count")
        return true_count(self.running, self.cards_left)


def cards_shown(view: RoundView) -> tuple[Card, ...]:
    """Every card face up in ``view``: the dealer's shown cards and each player hand's. A view
    never holds a hole card still face down, so nothing here is private."""
    players = (card for seat in view.seats for hand in seat.hands for card in hand.cards)
    return (*view.dealer.cards, *players)


def shown_count(cards: Iterable[Card], system: CountSystem, decks: int) -> ShoeCount:
    """The count a player at the table keeps: ``cards`` shown since the shuffle of a shoe of
    ``decks`` decks (KO from its initial running count)."""
    shown = tuple(cards)
    running = running_count(shown, system, decks=decks)
    return ShoeCount(system, running, len(shown), max(0, 52 * decks - len(shown)))


class PublicShoe(Protocol):
    """What a counter reads from a shoe: all of it public at a table."""

    @property
    def shuffles(self) -> int: ...

    def dealt_ids(self, start: int) -> list[int]: ...


class Counter:
    """A running count that follows one shoe.

    ``observe(shoe)`` catches up with every card dealt since it last looked (starting over when
    the shoe was shuffled since); ``see``/``shuffle`` do the same one table event at a time. A
    simulator observes once a round ends, when every card dealt has been shown (tables turn the
    dealer's hole card over at the end of every round).
    """

    __slots__ = ("_generation", "_tags", "cards_left", "cards_seen", "decks", "running", "system")

    def __init__(self, system: CountSystem, decks: int) -> None:
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
            raise BadRuleValueError("decks must be a whole number from 1 to 8")
        self.system = system
        self.decks = decks
        self._tags = system.tags
        self._generation = -1
        self.running = 0
        self.cards_seen = 0
        self.cards_left = 0
        self.shuffle()

    def shuffle(self) -> None:
        """Start over for a freshly shuffled shoe."""
        self.running = self.system.initial_running_count(self.decks)
        self.cards_seen = 0
        self.cards_left = 52 * self.decks

    def see(self, card: Card) -> None:
        """Count one card shown at the table."""
        self.running += self._tags[card.id]
        self.cards_seen += 1
        self.cards_left -= 1

    def observe(self, shoe: PublicShoe) -> None:
        """Catch up with ``shoe``: count every card dealt from it since this counter last looked."""
        generation = shoe.shuffles
        if generation != self._generation:
            self._generation = generation
            self.shuffle()
        fresh = shoe.dealt_ids(self.cards_seen)
        if fresh:
            self.running += sum(map(self._tags.__getitem__, fresh))
            self.cards_seen += len(fresh)
            self.cards_left -= len(fresh)

    @property
    def true_count(self) -> float:
        """The running count per deck left (balanced systems only)."""
        return self.snapshot().true_count

    def snapshot(self) -> ShoeCount:
        """The count as a value."""
        return ShoeCount(self.system, self.running, self.cards_seen, self.cards_left)


@dataclass(frozen=True, slots=True)
class BetRamp:
    """A bet spread: ``low`` units at a true count below +2, then two more units for each true
    count above +1 (TC +2: 2, +3: 4, +4: 6, ...), never more than ``high`` units.

    >>> ramp = BetRamp.parse("1-8")
    >>> [ramp.units(tc) for tc in (-3.0, 1.9, 2.0, 3.5, 4.0, 9.0)]
    [1, 1, 2, 4, 6, 8]
    """

    low: int = 1
    high: int = 1

    def __post_init__(self) -> None:
        low, high = self.low, self.high
        for value in (low, high):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
                raise CountingError("a bet spread is whole numbers of units from 1 to 1000")
        if high < low:
            raise CountingError(f"a bet spread cannot fall from {low} to {high} units")

    @classmethod
    def parse(cls, text: str) -> BetRamp:
        """``"1-8"``: from 1 unit to 8 units; ``"1"`` is a flat bet."""
        low_text, sep, high_text = str(text).strip().partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if sep else low
        except ValueError:
            raise CountingError(f"{text!r} is not a bet spread (expected units like 1-8)") from None
        return cls(low, high)

    @property
    def is_flat(self) -> bool:
        """Whether every bet is the same."""
        return self.low == self.high

    def units(self, true_count: float) -> int:
        """The bet in units at ``true_count``."""
        steps = 2 * (math.floor(true_count) - 1)
        return min(self.high, max(self.low, steps))

    def describe(self) -> str:
        """``"1-8 units"`` or ``"flat"``."""
        return "flat" if self.is_flat else f"{self.low}-{self.high} units"
