"""Poker hand evaluation of 5 to 7 cards on phevaluator's C core, with categories and descriptions.

``evaluate(cards)`` returns a ``HandValue``: higher beats lower, equal values tie. Its category is
cheap; the best five cards and the description people read at showdown are worked out on demand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import total_ordering
from itertools import combinations

from phevaluator import _pheval

from engine.cards import Card, Rank
from engine.errors import MalformedInputError

_evaluate_5 = _pheval.evaluate_5cards
_evaluate_6 = _pheval.evaluate_6cards
_evaluate_7 = _pheval.evaluate_7cards

WORST_RANK = 7462
"""phevaluator ranks hands 1 (royal flush) to 7462 (seven-five high); smaller is stronger."""


class HandCategory(IntEnum):
    """The kind of a poker hand, weakest first."""

    HIGH_CARD = 0
    """No pair: the highest card plays."""
    ONE_PAIR = 1
    """Two cards of one rank."""
    TWO_PAIR = 2
    """Two cards of one rank and two of another."""
    THREE_OF_A_KIND = 3
    """Three cards of one rank."""
    STRAIGHT = 4
    """Five ranks in a row; the wheel A-2-3-4-5 is the lowest."""
    FLUSH = 5
    """Five cards of one suit."""
    FULL_HOUSE = 6
    """Three of one rank and two of another."""
    FOUR_OF_A_KIND = 7
    """Four cards of one rank."""
    STRAIGHT_FLUSH = 8
    """A straight in one suit; ace-high is the royal flush."""

    @property
    def label(self) -> str:
        """The category's name for display: ``"Full house"``."""
        return self.name.replace("_", " ").capitalize()


# The worst (largest) phevaluator rank in each category, strongest category first.
_CATEGORY_FLOORS = (
    (10, HandCategory.STRAIGHT_FLUSH),
    (166, HandCategory.FOUR_OF_A_KIND),
    (322, HandCategory.FULL_HOUSE),
    (1599, HandCategory.FLUSH),
    (1609, HandCategory.STRAIGHT),
    (2467, HandCategory.THREE_OF_A_KIND),
    (3325, HandCategory.TWO_PAIR),
    (6185, HandCategory.ONE_PAIR),
    (7462, HandCategory.HIGH_CARD),
)


def category_of_rank(rank: int) -> HandCategory:
    """The category of a raw phevaluator rank (1 = royal flush ... 7462)."""
    for floor, category in _CATEGORY_FLOORS:
        if rank <= floor:
            return category
    raise MalformedInputError(f"{rank} is not a phevaluator hand rank")


@total_ordering
class HandValue:
    """The value of the best five-card hand among some cards.

    Compare values with ``<``/``==``: higher is stronger, equal is a tie. ``strength`` is an
    int from 1 (seven-five high) to 7462 (royal flush) that orders the same way.
    """

    __slots__ = ("_cards", "strength")

    def __init__(self, strength: int, cards: tuple[Card, ...]) -> None:
        self.strength = strength
        self._cards = cards

    @property
    def category(self) -> HandCategory:
        """The hand's category (``HandCategory.FULL_HOUSE``, ...)."""
        return category_of_rank(WORST_RANK + 1 - self.strength)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards the value was computed from."""
        return self._cards

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards that make the hand, the cards that matter most first."""
        return _arrange(_best_five(self._cards, self.strength))

    @property
    def description(self) -> str:
        """What people say at showdown: ``"Full house, Kings over Sevens"``."""
        return describe(self.best_five, self.category)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __repr__(self) -> str:
        return f"HandValue({self.strength}, {self.category.name})"


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The value of the best five-card hand among 5, 6 or 7 distinct cards.

    >>> from engine.cards import parse_cards
    >>> evaluate(parse_cards("Kh Kd Ks 7c 7d 2s 3s")).description
    'Full house, Kings over Sevens'
    """
    return HandValue(WORST_RANK + 1 - rank_of(cards), tuple(cards))


def rank_of(cards: Sequence[Card]) -> int:
    """phevaluator's raw rank of 5-7 cards (1 = royal flush ... 7462; smaller is stronger)."""
    n = len(cards)
    if n == 7:
        a, b, c, d, e, f, g = cards
        if len({a, b, c, d, e, f, g}) == 7:
            return int(_evaluate_7(a.id, b.id, c.id, d.id, e.id, f.id, g.id))
    elif n == 6:
        a, b, c, d, e, f = cards
        if len({a, b, c, d, e, f}) == 6:
            return int(_evaluate_6(a.id, b.id, c.id, d.id, e.id, f.id))
    elif n == 5:
        a, b, c, d, e = cards
        if len({a, b, c, d, e}) == 5:
            return int(_evaluate_5(a.id, b.id, c.id, d.id, e.id))
    else:
        raise MalformedInputError(f"a hand is 5 to 7 cards, not {n}")
    raise MalformedInputError("a hand cannot hold the same card twice")


def _best_five(cards: tuple[Card, ...], strength: int) -> tuple[Card, ...]:
    if len(cards) == 5:
        return cards
    target = WORST_RANK + 1 - strength
    for five in combinations(cards, 5):
        if rank_of(five) == target:
            return five
    raise AssertionError("no five of the cards reach their own value")  # pragma: no cover


def _arrange(five: Sequence[Card]) -> tuple[Card, ...]:
    """Order five cards for display: bigger groups first, then higher ranks; wheel as 5-4-3-2-A."""
    counts = Counter(card.rank for card in five)
    ordered = sorted(five, key=lambda card: (counts[card.rank], card.rank, card.suit), reverse=True)
    ranks = [card.rank for card in ordered]
    if ranks == [Rank.ACE, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO]:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def describe(five: Sequence[Card], category: HandCategory) -> str:
    """Describe an arranged five-card hand (as ``HandValue.best_five`` orders it)."""
    r = [card.rank for card in five]
    match category:
        case HandCategory.STRAIGHT_FLUSH:
            if r[0] == Rank.ACE:
                return "Royal flush"
            return f"Straight flush, {r[0].word} high"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {r[0].plural}, {r[4].word} kicker"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {r[0].plural} over {r[3].plural}"
        case HandCategory.FLUSH:
            return f"Flush, {r[0].word} high"
        case HandCategory.STRAIGHT:
            return f"Straight, {r[0].word} high"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {r[0].plural}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {r[0].plural} and {r[2].plural}, {r[4].word} kicker"
        case HandCategory.ONE_PAIR:
            return f"Pair of {r[0].plural}, {r[2].word} kicker"
        case _:
            return f"High card, {r[0].word}"
