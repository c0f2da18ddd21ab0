"""The shoe: 1-8 decks, a cut card, reshuffles, and stacked shoes for tests and replays.

The shuffle is a Fisher-Yates done one card at a time: each draw swaps a uniformly chosen undealt
card into place. The order that comes out is exactly as random as shuffling the whole shoe first,
but a round only pays for the cards it uses, so a reshuffle every round (a continuous shuffler) is
as cheap as a six-deck shoe. The default source is ``secrets.SystemRandom()``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence

from engine.blackjack.errors import ShoeExhaustedError
from engine.blackjack.rules import Rules
from engine.cards import DECK, Card, parse_card


def _bits_of(source: random.Random) -> Callable[[int], int] | None:
    """``source.getrandbits`` when ``source._randbelow`` is the standard one built on it (so
    ``draw`` may do its work inline and draw the same numbers), else None."""
    if getattr(type(source), "_randbelow", None) is random.Random._randbelow_with_getrandbits:  # type: ignore[attr-defined]
        return source.getrandbits
    return None


class Shoe:
    """A shoe of ``decks`` decks with a cut card at ``penetration`` of the way through.

    Call ``begin_round()`` before each round: it reshuffles if the cut card came out during the
    last round (or every round, for a continuous shuffler) and says whether it did. If a round
    empties the shoe, the discards from earlier rounds are shuffled back in and play goes on.
    """

    __slots__ = (
        "_cards",
        "_cut",
        "_fresh",
        "_getrandbits",
        "_pos",
        "_randrange",
        "_reshuffle",
        "_round_start",
        "_shuffles",
    )

    def __init__(
        self,
        decks: int = 6,
        *,
        penetration: float = 0.75,
        reshuffle_every_round: bool = False,
        rng: random.Random | None = None,
    ) -> None:
        Rules(decks=decks, penetration=penetration)  # one place validates decks and penetration
        self._cards: list[int] = [card_id for _ in range(decks) for card_id in range(52)]
        self._cut = max(1, round(len(self._cards) * penetration))
        self._reshuffle = reshuffle_every_round
        source = rng if rng is not None else secrets.SystemRandom()
        # randrange(n) is _randbelow(n) after argument checks; calling it directly draws the same
        # numbers a fifth faster. Fall back to randrange for generators without it.
        self._randrange: Callable[[int], int] = getattr(source, "_randbelow", source.randrange)
        self._getrandbits = _bits_of(source)
        self._pos = 0
        self._round_start = 0
        self._fresh = True
        self._shuffles = 0

    def copy(self) -> Shoe:
        """An independent copy: a seeded generator is copied with its state (both shoes deal
        the same cards); the default OS generator has no state and is shared."""
        cls = type(self)
        twin = cls.__new__(cls)
        for klass in cls.__mro__:
            for name in getattr(klass, "__slots__", ()):
                value = getattr(self, name)
                setattr(twin, name, list(value) if isinstance(value, list) else value)
        source = getattr(self._randrange, "__self__", None)
        if isinstance(source, random.Random) and not isinstance(source, secrets.SystemRandom):
            clone = random.Random()
            clone.setstate(source.getstate())
            twin._randrange = getattr(clone, "_randbelow", clone.randrange)
            twin._getrandbits = _bits_of(clone)
        return twin

    def __copy__(self) -> Shoe:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Shoe:
        return self.copy()

    @classmethod
    def for_rules(cls, rules: Rules, rng: random.Random | None = None) -> Shoe:
        """A shoe with the rule set's decks, penetration and reshuffle rule."""
        return cls(
            rules.decks,
            penetration=rules.penetration,
            reshuffle_every_round=rules.reshuffle_every_round,
            rng=rng,
        )

    @property
    def size(self) -> int:
        """Cards in the shoe when full."""
        return len(self._cards)

    @property
    def cards_dealt(self) -> int:
        """Cards dealt since the last shuffle."""
        return self._pos

    @property
    def cards_left(self) -> int:
        """Cards not yet dealt since the last shuffle."""
        return len(self._cards) - self._pos

    @property
    def needs_shuffle(self) -> bool:
        """Whether the next ``begin_round()`` will reshuffle."""
        return self._fresh or self._reshuffle or self._pos >= self._cut

    @property
    def shuffles(self) -> int:
        """How many times the shoe has been shuffled, counting discards shuffled back in when a
        round ran it dry: a card counter starts over whenever this changes."""
        return self._shuffles

    @property
    def cut_card(self) -> int:
        """Cards dealt after which the shoe is reshuffled at the next round: the rule set's
        penetration of the shoe, at least one card."""
        return self._cut

    def dealt_ids(self, start: int = 0) -> list[int]:
        """Ids of the cards dealt since the last shuffle, from the ``start``-th on, in order of
        dealing (everything a table has shown, plus a hole card not yet turned over)."""
        return self._cards[start : self._pos]

    def begin_round(self) -> bool:
        """Start a round: reshuffle if due and return whether the shoe was shuffled."""
        if self._fresh or self._reshuffle or self._pos >= self._cut:
            self._pos = 0
            self._round_start = 0
            self._fresh = False
            self._shuffles += 1
            return True
        self._round_start = self._pos
        return False

    def draw(self) -> int:
        """Deal the next card's id (the round's hot path; ``draw_card`` gives a ``Card``)."""
        cards = self._cards
        pos = self._pos
        left = len(cards) - pos
        if not left:
            pos = self._recycle_discards()
            left = len(cards) - pos
        bits = self._getrandbits
        if bits is None:
            pick = pos + self._randrange(left)
        else:  # _randbelow_with_getrandbits(left), inlined: the same numbers, one call less
            width = left.bit_length()
            pick = bits(width)
            while pick >= left:
                pick = bits(width)
            pick += pos
        card = cards[pick]
        cards[pick] = cards[pos]
        cards[pos] = card
        self._pos = pos + 1
        return card

    def draw_card(self) -> Card:
        """Deal the next card."""
        return DECK[self.draw()]

    def _recycle_discards(self) -> int:
        """Put the cards still on the table first and make every earlier card undealt again."""
        in_play = self._cards[self._round_start : self._pos]
        if len(in_play) == len(self._cards):
            raise ShoeExhaustedError("every card in the shoe is on the table")
        discards = self._cards[: self._round_start]
        self._cards[:] = in_play + discards
        self._round_start = 0
        self._pos = len(in_play)
        self._shuffles += 1
        return self._pos


class StackedShoe(Shoe):
    """A shoe that deals ``cards`` in exactly this order, for tests, replays and puzzles.

    The order is the order of dealing: one card to each seat from seat 0 up, the dealer's up
    card, a second card to each seat, the dealer's hole card (none in a no-hole-card game), then
    cards as the hands and the dealer draw. It never reshuffles; running out raises
    ``ShoeExhaustedError``. Any cards may be stacked, even more copies than a real shoe holds.
    """

    __slots__ = ("_order",)

    def __init__(self, cards: Iterable[Card | str]) -> None:
        order = [card if isinstance(card, Card) else parse_card(card) for card in cards]
        super().__init__(1, penetration=1.0, rng=random.Random(0))
        self._order: list[int] = [card.id for card in order]
        self._pos = 0

    @classmethod
    def of(cls, text: str) -> StackedShoe:
        """A stacked shoe from text: ``StackedShoe.of("Th 6c 9d Ks")`` (repeats allowed)."""
        return cls(token for token in text.replace(",", " ").split())

    @property
    def size(self) -> int:
        return len(self._order)

    @property
    def cards_dealt(self) -> int:
        return self._pos

    @property
    def cards_left(self) -> int:
        return len(self._order) - self._pos

    @property
    def needs_shuffle(self) -> bool:
        return False

    @property
    def remaining(self) -> Sequence[Card]:
        """The cards still to come, in order."""
        return [DECK[card_id] for card_id in self._order[self._pos :]]

    def begin_round(self) -> bool:
        return False

    def dealt_ids(self, start: int = 0) -> list[int]:
        return self._order[start : self._pos]

    def draw(self) -> int:
        pos = self._pos
        if pos >= len(self._order):
            raise ShoeExhaustedError(f"the stacked shoe ran out after {pos} cards")
        self._pos = pos + 1
        return self._order[pos]
