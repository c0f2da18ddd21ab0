"""Stacked decks: a random generator that deals chosen cards in chosen hands, and helpers that
write a hand's cards in dealing order."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

from engine.cards import DECK, Card, parse_cards

DeckSpec = Sequence[Card] | Callable[[], Sequence[Card]]


class StackedDecks(random.Random):
    """Deals ``decks[n]`` (cards in dealing order, or a function called when the hand is dealt
    that returns them) in the n-th hand dealt, random cards else.

    The engine draws each card with ``randrange(cards_left)`` (a Fisher-Yates step from the
    sorted deck), so the generator answers with the index that brings the wanted card forward.
    Other draws (the dealer button, bot seeds) are passed to the seeded generator.
    """

    def __init__(self, seed: int, decks: Mapping[int, DeckSpec] | None = None) -> None:
        super().__init__(seed)
        self.decks = dict(decks or {})
        self.hands_dealt = 0
        self._deck: list[Card] = []
        self._wanted: list[Card] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is not None or not 24 <= start <= 52:
            return (
                super().randrange(start, stop, step)
                if stop is not None
                else super().randrange(start)
            )
        if start == 52:
            self.hands_dealt += 1
            self._deck = list(DECK)
            spec = self.decks.get(self.hands_dealt, ())
            self._wanted = list(spec() if callable(spec) else spec)
        i = 52 - start
        if i < len(self._wanted):
            j = self._deck.index(self._wanted[i])
        else:
            j = i + super().randrange(start)
        self._deck[i], self._deck[j] = self._deck[j], self._deck[i]
        return j - i


def dealing_order(seats: Sequence[int], previous_button: int) -> list[int]:
    """Seats in the order a hand deals them: first left of the next button, the button last
    (the standard rule, which PHH's player numbering follows)."""
    ordered = sorted(seats)
    later = [seat for seat in ordered if seat > previous_button]
    button = later[0] if later else ordered[0]
    after = ordered.index(button) + 1
    return ordered[after:] + ordered[:after]


def deck(holes: Sequence[str], board: str) -> list[Card]:
    """Cards in dealing order: one card to each player in turn, twice, then burn + flop,
    burn + turn, burn + river (the burns are taken from cards nobody holds)."""
    hands = [parse_cards(h) for h in holes]
    flop_turn_river = parse_cards(board)
    used = {*itertools.chain.from_iterable(hands), *flop_turn_river}
    spare = iter(card for card in DECK if card not in used)
    order = [hand[0] for hand in hands] + [hand[1] for hand in hands]
    order += [next(spare), *flop_turn_river[:3], next(spare), flop_turn_river[3]]
    order += [next(spare), flop_turn_river[4]]
    return order
