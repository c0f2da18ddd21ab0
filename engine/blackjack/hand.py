"""Blackjack card values and hand totals (hard, soft, bust, natural) for play and display.

The round works on card ids (``Card.id``) and the tables here, so its hot path builds no objects;
``hand_value`` is the readable form for fronts and tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card

VALUE_OF_ID: tuple[int, ...] = tuple(
    1 if card_id // 4 == 12 else min(card_id // 4 + 2, 10) for card_id in range(52)
)
"""Blackjack value of each card id with an ace counted as 1: 2-9 at face value, T-K are 10."""

ACE = 1
TEN = 10


def card_value(card: Card) -> int:
    """A card's value with an ace counted as 1 (tens and faces are 10)."""
    return VALUE_OF_ID[card.id]


@dataclass(frozen=True, slots=True)
class HandTotal:
    """The totals of a Blackjack hand.

    ``total`` is the best total: an ace counts 11 when that does not bust the hand, which makes
    the hand ``soft``. ``hard`` counts every ace as 1.
    """

    hard: int
    total: int
    soft: bool
    cards: int

    @property
    def is_bust(self) -> bool:
        """Over 21 (a soft hand never is)."""
        return self.total > 21

    @property
    def is_two_card_21(self) -> bool:
        """Two cards making 21; a natural only if the hand did not come from a split."""
        return self.cards == 2 and self.total == 21

    @property
    def label(self) -> str:
        """What a table shows: ``"7/17"`` for a soft 17, ``"17"``, ``"21"``, ``"bust (24)"``."""
        if self.total > 21:
            return f"bust ({self.total})"
        if self.soft and self.total != 21:
            return f"{self.total - 10}/{self.total}"
        return str(self.total)


def best_total(hard: int, has_ace: bool) -> int:
    """The best total of a hand with this hard total."""
    return hard + 10 if has_ace and hard <= 11 else hard


def hand_value(cards: Iterable[Card]) -> HandTotal:
    """The totals of ``cards``.

    >>> from engine.cards import parse_cards
    >>> hand_value(parse_cards("As 6d")).label
    '7/17'
    """
    hard = 0
    has_ace = False
    count = 0
    for card in cards:
        value = VALUE_OF_ID[card.id]
        hard += value
        has_ace = has_ace or value == ACE
        count += 1
    soft = has_ace and hard <= 11
    return HandTotal(hard=hard, total=hard + 10 if soft else hard, soft=soft, cards=count)
