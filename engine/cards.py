"""Cards, ranks and suits: parsing, formatting and shuffling.

A card's ``id`` is ``rank_index * 4 + suit`` (2c = 0 ... As = 51), the encoding phevaluator's
C core takes, so evaluation needs no translation.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Sequence
from enum import IntEnum

from engine.errors import CardParseError


class Rank(IntEnum):
    """A card rank; the value is the rank's pip value with Jack=11 ... Ace=14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """The one-character notation: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self.value - 2]

    @property
    def word(self) -> str:
        """The rank's name as people say it: ``"Seven"``."""
        return _RANK_WORDS[self.value - 2]

    @property
    def plural(self) -> str:
        """The plural name: ``"Sixes"``, ``"Aces"``."""
        return _RANK_PLURALS[self.value - 2]


class Suit(IntEnum):
    """A card suit, numbered as phevaluator numbers them."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-letter notation: ``c``, ``d``, ``h``, ``s``."""
        return "cdhs"[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol used for display: ``♣``, ``♦``, ``♥``, ``♠``."""
        return "♣♦♥♠"[self.value]

    @property
    def is_red(self) -> bool:
        """Whether the suit is printed red (diamonds and hearts)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_CHARS = "23456789TJQKA"
_RANK_WORDS = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_RANK_PLURALS = (
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)


class Card(int):
    """One playing card. Cards order by rank, then suit (clubs < diamonds < hearts < spades).

    A card *is* its phevaluator id (``rank_index * 4 + suit``, 2c = 0 ... As = 51): an immutable
    int subclass, so the C evaluator takes cards without translation and hashing and comparing
    them cost no Python code. Cards are interned: use ``DECK``, ``Card.of`` or the parsers.
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> Card:
        if not 0 <= card_id < 52:
            raise CardParseError(f"card id {card_id} is not in 0..51")
        return super().__new__(cls, card_id)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return DECK[(rank - 2) * 4 + suit]

    @property
    def id(self) -> int:
        """The card's number, 0 (2c) to 51 (As)."""
        return int(self)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANKS[self >> 2]

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUITS[self & 3]

    @property
    def symbol(self) -> str:
        """Display form with a suit symbol: ``A♠`` (tens are written ``T♥``)."""
        return _RANK_CHARS[self >> 2] + "♣♦♥♠"[self & 3]

    def __bool__(self) -> bool:
        # A card is always a card: 2c (id 0) must not be falsy in `card or default`.
        return True

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_RANKS = tuple(Rank(value) for value in range(2, 15))
_SUITS = tuple(Suit)

DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""All 52 cards in id order; cards are interned, so ``Card.of`` and parsing return these."""

CARD_TEXT: tuple[str, ...] = tuple(_RANK_CHARS[i >> 2] + "cdhs"[i & 3] for i in range(52))
"""Each card's text (``"As"``) by id: hand histories write a line per action, and indexing this
costs a fraction of a ``str(card)`` call."""

_SUIT_INPUT = {
    "c": 0, "d": 1, "h": 2, "s": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}  # fmt: skip
_RANK_INPUT = {c: i for i, c in enumerate(_RANK_CHARS)} | {"10": 8}
_CARD_TOKEN = re.compile(r"(10|[2-9TJQKA])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)


def parse_card(text: str) -> Card:
    """Parse one card: ``"As"``, ``"td"``, ``"10h"``, ``"A♠"``.

    >>> parse_card("10h")
    Card('Th')
    """
    token = text.strip()
    match = _CARD_TOKEN.fullmatch(token)
    if match is None:
        raise CardParseError(f"{text!r} is not a card (expected something like As, Td or 10h)")
    return _card_from_match(match)


def _card_from_match(match: re.Match[str]) -> Card:
    rank = _RANK_INPUT[match.group(1).upper()]
    suit = _SUIT_INPUT[match.group(2).lower()]
    return DECK[rank * 4 + suit]


def parse_cards(text: str) -> list[Card]:
    """Parse a list of cards written together or apart: ``"As Kd"``, ``"AsKd"``, ``"A♠,K♦"``.

    An empty string gives an empty list. Duplicates are refused.

    >>> parse_cards("AsKd 10h")
    [Card('As'), Card('Kd'), Card('Th')]
    """
    compact = re.sub(r"[\s,]+", "", text)
    cards: list[Card] = []
    position = 0
    while position < len(compact):
        match = _CARD_TOKEN.match(compact, position)
        if match is None:
            raise CardParseError(f"{text!r} is not a list of cards (bad at {compact[position:]!r})")
        cards.append(_card_from_match(match))
        position = match.end()
    if len(set(cards)) != len(cards):
        raise CardParseError(f"{text!r} names the same card twice")
    return cards


def format_cards(cards: Iterable[Card], *, symbols: bool = False, sep: str = " ") -> str:
    """Write cards as ``"As Kd"`` (or ``"A♠ K♦"`` with ``symbols``)."""
    if symbols:
        return sep.join([card.symbol for card in cards])
    return sep.join([CARD_TEXT[card] for card in cards])


def new_rng(seed: int | None = None) -> random.Random:
    """A shuffle source: seeded and reproducible if ``seed`` is given, else the OS's CSPRNG."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(seed)


def shuffled(cards: Sequence[Card], rng: random.Random | None = None) -> list[Card]:
    """A new list holding ``cards`` in uniformly random order (Fisher-Yates).

    The default source is ``secrets.SystemRandom()``; pass a seeded ``random.Random`` for
    reproducible tests, replays and simulations.
    """
    source = rng if rng is not None else secrets.SystemRandom()
    deck = list(cards)
    # Fisher-Yates, written out so the algorithm does not depend on the RNG class.
    for i in range(len(deck) - 1, 0, -1):
        j = source.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(rng: random.Random | None = None) -> list[Card]:
    """A freshly shuffled 52-card deck."""
    return shuffled(DECK, rng)
