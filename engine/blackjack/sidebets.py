"""Blackjack side bets: 21+3 and Perfect Pairs, their payouts and exact house edges.

Both bets are settled on the opening cards alone, so a table settles them right after the deal,
whatever happens to the main bet. Payouts are "to one" multiples: ``9`` means the bet wins 9
times itself (the stake comes back too); ``0`` means the bet loses.

- **21+3**: the player's two cards and the dealer's up card as a three-card poker hand. A-2-3
  and Q-K-A are straights; K-A-2 is not. Pay tables: ``classic`` pays 9:1 for a flush or better
  (flush, straight, three of a kind, straight flush); ``five_tier`` pays suited trips 100,
  straight flush 40, trips 30, straight 10, flush 5 (a hand is paid as its best category only).
- **Perfect Pairs**: the player's two cards: a perfect pair (same rank and suit) 25, a coloured
  pair (same rank and colour, other suit) 12, a mixed pair (same rank, other colour) 6.

House edges are exact fractions for a fresh shoe of ``decks`` decks, by counting every ordered
deal of distinct physical cards (cards of one kind are told apart, as the shoe's copies are):
the probabilities, published tables and simulator must all agree with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum, StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from engine.blackjack.errors import BadRuleValueError
from engine.cards import DECK, Card


class TwentyOneThreePaytable(StrEnum):
    """Which pay table a 21+3 bet is paid from."""

    CLASSIC = "classic"
    """9:1 for a flush, straight, three of a kind or straight flush."""
    FIVE_TIER = "five_tier"
    """Suited trips 100, straight flush 40, trips 30, straight 10, flush 5."""


class ThreeCardHand(IntEnum):
    """The 21+3 categories, worst to best; a hand counts as its best category only."""

    NOTHING = 0
    FLUSH = 1
    STRAIGHT = 2
    TRIPS = 3
    STRAIGHT_FLUSH = 4
    SUITED_TRIPS = 5
    """Three cards of the same rank and suit (only possible with two or more decks)."""

    @property
    def label(self) -> str:
        """The category as a pay table names it: ``"straight flush"``."""
        return self.name.lower().replace("_", " ")


class PairKind(IntEnum):
    """The Perfect Pairs categories, worst to best."""

    NONE = 0
    MIXED = 1
    """Same rank, one red and one black card."""
    COLOURED = 2
    """Same rank and colour, different suits."""
    PERFECT = 3
    """Same rank and suit (two or more decks)."""

    @property
    def label(self) -> str:
        """The category as a pay table names it: ``"coloured pair"``."""
        return "no pair" if self is PairKind.NONE else f"{self.name.lower()} pair"


TWENTY_ONE_THREE_PAYS: dict[TwentyOneThreePaytable, dict[ThreeCardHand, int]] = {
    TwentyOneThreePaytable.CLASSIC: {
        ThreeCardHand.SUITED_TRIPS: 9,
        ThreeCardHand.STRAIGHT_FLUSH: 9,
        ThreeCardHand.TRIPS: 9,
        ThreeCardHand.STRAIGHT: 9,
        ThreeCardHand.FLUSH: 9,
    },
    TwentyOneThreePaytable.FIVE_TIER: {
        ThreeCardHand.SUITED_TRIPS: 100,
        ThreeCardHand.STRAIGHT_FLUSH: 40,
        ThreeCardHand.TRIPS: 30,
        ThreeCardHand.STRAIGHT: 10,
        ThreeCardHand.FLUSH: 5,
    },
}
"""Each 21+3 pay table: category -> "to one" payout (categories not listed lose)."""

PERFECT_PAIRS_PAYS: dict[PairKind, int] = {
    PairKind.PERFECT: 25,
    PairKind.COLOURED: 12,
    PairKind.MIXED: 6,
}
"""The Perfect Pairs pay table: category -> "to one" payout."""

_ACE = 14
Category = TypeVar("Category", ThreeCardHand, PairKind)


def _rank(card: Card) -> int:
    return card.id // 4 + 2


def _is_straight(ranks: Sequence[int]) -> bool:
    low, middle, high = sorted(ranks)
    if low + 1 == middle and middle + 1 == high:
        return True
    # The ace plays low only in A-2-3; K-A-2 does not wrap around.
    return (low, middle, high) == (2, 3, _ACE)


def three_card_hand(cards: Sequence[Card]) -> ThreeCardHand:
    """The 21+3 category of three cards (the player's two, then the dealer's up card).

    >>> from engine.cards import parse_card
    >>> three_card_hand([parse_card(text) for text in ("Qs", "Ks", "As")]).name
    'STRAIGHT_FLUSH'
    """
    if len(cards) != 3:
        raise BadRuleValueError(f"21+3 takes exactly three cards, not {len(cards)}")
    ranks = [_rank(card) for card in cards]
    suits = {card.suit for card in cards}
    flush = len(suits) == 1
    if ranks[0] == ranks[1] == ranks[2]:
        return ThreeCardHand.SUITED_TRIPS if flush else ThreeCardHand.TRIPS
    straight = len(set(ranks)) == 3 and _is_straight(ranks)
    if straight:
        return ThreeCardHand.STRAIGHT_FLUSH if flush else ThreeCardHand.STRAIGHT
    return ThreeCardHand.FLUSH if flush else ThreeCardHand.NOTHING


def pair_kind(player_cards: Sequence[Card]) -> PairKind:
    """The Perfect Pairs category of the player's first two cards."""
    if len(player_cards) != 2:
        raise BadRuleValueError(f"Perfect Pairs takes exactly two cards, not {len(player_cards)}")
    first, second = player_cards
    if _rank(first) != _rank(second):
        return PairKind.NONE
    if first.suit == second.suit:
        return PairKind.PERFECT
    return PairKind.COLOURED if first.suit.is_red == second.suit.is_red else PairKind.MIXED


def twenty_one_three_payout(
    player_cards: Sequence[Card], dealer_up: Card, paytable: TwentyOneThreePaytable
) -> int:
    """What a 21+3 bet wins, "to one" (0: the bet loses), on the player's first two cards and
    the dealer's up card.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("2h 3h")
    >>> twenty_one_three_payout(hand, parse_cards("Ah")[0], TwentyOneThreePaytable.FIVE_TIER)
    40
    """
    if len(player_cards) != 2:
        raise BadRuleValueError(f"21+3 takes the player's first two cards, not {len(player_cards)}")
    category = three_card_hand([*player_cards, dealer_up])
    return TWENTY_ONE_THREE_PAYS[TwentyOneThreePaytable(paytable)].get(category, 0)


def perfect_pairs_payout(player_cards: Sequence[Card]) -> int:
    """What a Perfect Pairs bet wins, "to one" (25 perfect, 12 coloured, 6 mixed, 0 loses)."""
    return PERFECT_PAIRS_PAYS.get(pair_kind(player_cards), 0)


# --------------------------------------------------------------------------- exact edges


def _check_decks(decks: int) -> None:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
        raise BadRuleValueError("decks must be a whole number from 1 to 8")


@lru_cache(maxsize=16)
def twenty_one_three_counts(decks: int) -> dict[ThreeCardHand, int]:
    """How many ordered deals of three distinct physical cards from a fresh shoe of ``decks``
    decks fall in each 21+3 category (they add up to ``n (n-1) (n-2)`` for ``n = 52 decks``).

    Each of the 52 kinds of card has ``decks`` copies; a deal of kinds ``a, b, c`` happens in
    ``decks * (decks - [b is a]) * (decks - [c is a] - [c is b])`` ways. Suits are symmetric,
    so the first card is taken to be a club and the count multiplied by four.
    """
    _check_decks(decks)
    counts = dict.fromkeys(ThreeCardHand, 0)
    clubs = [card for card in DECK if card.suit == 0]
    for first in clubs:
        for second in DECK:
            ways_two = decks * (decks - (second == first))
            if not ways_two:
                continue
            for third in DECK:
                ways = ways_two * (decks - (third == first) - (third == second))
                if ways > 0:
                    counts[three_card_hand((first, second, third))] += 4 * ways
    return counts


@lru_cache(maxsize=16)
def perfect_pairs_counts(decks: int) -> dict[PairKind, int]:
    """How many ordered deals of two distinct physical cards from a fresh shoe of ``decks``
    decks fall in each Perfect Pairs category (they add up to ``n (n-1)``, ``n = 52 decks``)."""
    _check_decks(decks)
    counts = dict.fromkeys(PairKind, 0)
    for first in DECK:
        for second in DECK:
            ways = decks * (decks - (second == first))
            if ways:
                counts[pair_kind((first, second))] += ways
    return counts


def _edge(counts: Mapping[Category, int], pays: Mapping[Category, int]) -> Fraction:
    """The house edge of a bet paying ``pays`` (category -> to one; others lose) on deals
    counted by category."""
    player_return = sum(ways * pays.get(kind, -1) for kind, ways in counts.items())
    return Fraction(-player_return, sum(counts.values()))


def twenty_one_three_house_edge(decks: int, paytable: TwentyOneThreePaytable) -> Fraction:
    """The exact house edge of 21+3 (the player's loss per unit bet) for a fresh shoe.

    >>> float(twenty_one_three_house_edge(6, TwentyOneThreePaytable.CLASSIC))  # 3.24%
    0.0323857...
    """
    pays = TWENTY_ONE_THREE_PAYS[TwentyOneThreePaytable(paytable)]
    return _edge(twenty_one_three_counts(decks), pays)


def perfect_pairs_house_edge(decks: int) -> Fraction:
    """The exact house edge of Perfect Pairs (25/12/6) for a fresh shoe.

    >>> round(float(perfect_pairs_house_edge(8)), 4)  # 4.10% at eight decks
    0.041
    """
    return _edge(perfect_pairs_counts(decks), PERFECT_PAIRS_PAYS)
