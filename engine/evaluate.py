"""Poker hand evaluation of 5 to 7 cards on phevaluator's C core, with categories and descriptions.

``evaluate(cards)`` returns a ``HandValue``: higher beats lower, equal values tie. Its category is
cheap; the best five cards and the description people read at showdown are worked out on demand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import cache, total_ordering
from itertools import combinations, combinations_with_replacement

from phevaluator import _pheval

from engine.cards import DECK, Card, Rank
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
    int from 1 (seven-five high) to 7462 (royal flush) that orders the same way. There are only
    7,462 values and each exists once, so evaluating allocates nothing. Everything here depends
    on the value alone (suits never matter to a description); the actual five cards come from
    ``best_five(cards)``.
    """

    __slots__ = ("_description", "category", "strength")

    def __init__(self, strength: int, category: HandCategory) -> None:
        self.strength = strength
        self.category = category
        self._description: str | None = None
        """Worked out the first time it is asked for (every value exists once, and a
        showdown asks each shown hand's)."""

    @property
    def description(self) -> str:
        """What people say at showdown: ``"Full house, Kings over Sevens"``."""
        description = self._description
        if description is None:
            description = self._description = _description_of(self.strength)
        return description

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __hash__(self) -> int:
        return self.strength

    def __repr__(self) -> str:
        return f"HandValue({self.strength}, {self.category.name})"


# Indexed by phevaluator's rank (1 = royal flush); index 0 is unused.
_VALUES: tuple[HandValue, ...] = (
    HandValue(0, HandCategory.HIGH_CARD),
    *(
        HandValue(WORST_RANK + 1 - rank, category_of_rank(rank))
        for rank in range(1, WORST_RANK + 1)
    ),
)


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The value of the best five-card hand among 5, 6 or 7 distinct cards.

    >>> from engine.cards import parse_cards
    >>> evaluate(parse_cards("Kh Kd Ks 7c 7d 2s 3s")).description
    'Full house, Kings over Sevens'
    """
    return _VALUES[rank_of(cards)]


def evaluate_distinct(cards: Sequence[Card]) -> HandValue:
    """``evaluate`` for 5 to 7 cards the caller knows are distinct, such as a hand's hole cards
    and board dealt from one checked deck: the same value without the duplicate check, which
    costs about as much as phevaluator's own work (the Hold'em engine evaluates every hand
    that reaches a showdown)."""
    return _VALUES[_unchecked_rank(cards)]


def evaluate_holes(holes: Sequence[tuple[Card, Card]], board: Sequence[Card]) -> list[HandValue]:
    """``evaluate_distinct`` of each pair of hole cards with the same 3 to 5 board cards: a
    showdown values every player on one board, and with a full board the seven cards go
    straight to phevaluator, the board unpacked once (no tuple built, no call per player)."""
    values = _VALUES
    size = len(board)
    if size == 5:
        b0, b1, b2, b3, b4 = board
        evaluate_7 = _evaluate_7
        return [values[evaluate_7(first, second, b0, b1, b2, b3, b4)] for first, second in holes]
    if size == 4:  # all in before the river: the hands are shown (and described) on the turn
        b0, b1, b2, b3 = board
        evaluate_6 = _evaluate_6
        return [values[evaluate_6(first, second, b0, b1, b2, b3)] for first, second in holes]
    if size == 3:
        b0, b1, b2 = board
        evaluate_5 = _evaluate_5
        return [values[evaluate_5(first, second, b0, b1, b2)] for first, second in holes]
    raise MalformedInputError(f"a board is 3 to 5 cards, not {size}")


def rank_of(cards: Sequence[Card]) -> int:
    """phevaluator's raw rank of 5-7 cards (1 = royal flush ... 7462; smaller is stronger)."""
    rank = _unchecked_rank(cards)
    if len(set(cards)) != len(cards):
        raise MalformedInputError("a hand cannot hold the same card twice")
    return rank


def _unchecked_rank(cards: Sequence[Card]) -> int:
    """``rank_of`` without the duplicate check."""
    n = len(cards)
    if n == 7:
        rank: int = _evaluate_7(*cards)
    elif n == 6:
        rank = _evaluate_6(*cards)
    elif n == 5:
        rank = _evaluate_5(*cards)
    else:
        raise MalformedInputError(f"a hand is 5 to 7 cards, not {n}")
    return rank


def best_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five of these cards that make the best hand, the cards that matter most first.

    >>> from engine.cards import parse_cards, format_cards
    >>> format_cards(best_five(parse_cards("2c Kh 7d Kd 7s Ks 3h")))
    'Ks Kh Kd 7s 7d'
    """
    target = rank_of(cards)
    if len(cards) == 5:
        return _arrange(cards)
    for five in combinations(cards, 5):
        if rank_of(five) == target:
            return _arrange(five)
    raise AssertionError("no five of the cards reach their own value")  # pragma: no cover


def _description_of(strength: int) -> str:
    """The description of a strength (``HandValue.description`` keeps it once made)."""
    hand = _representatives()[strength]
    return describe(_arrange(hand), _VALUES[WORST_RANK + 1 - strength].category)


@cache
def _representatives() -> dict[int, tuple[Card, ...]]:
    """One five-card hand for every strength (suits never change a description)."""
    hands: dict[int, tuple[Card, ...]] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] == ranks[4]:
            continue  # five of a kind
        hand = _unsuited(ranks)
        hands[WORST_RANK + 1 - rank_of(hand)] = hand
        if len(set(ranks)) == 5:
            flush = tuple(DECK[r * 4] for r in ranks)
            hands[WORST_RANK + 1 - rank_of(flush)] = flush
    return hands


def _unsuited(ranks: Sequence[int]) -> tuple[Card, ...]:
    """Cards of these ranks that do not make a flush."""
    if len(set(ranks)) == 5:
        return tuple(DECK[rank * 4 + (position == 4)] for position, rank in enumerate(ranks))
    seen: Counter[int] = Counter()
    cards = []
    for rank in ranks:
        cards.append(DECK[rank * 4 + seen[rank]])
        seen[rank] += 1
    return tuple(cards)


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
