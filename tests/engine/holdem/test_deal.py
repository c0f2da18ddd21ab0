"""Dealing: cards come from the generator's own ``randrange`` when it has one."""

from __future__ import annotations

import random

from engine.cards import DECK
from engine.holdem import Hand, Stakes


class _FirstUndealt(random.Random):
    """Always picks the first undealt card: the deck comes out in id order."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return 0


def test_deal_uses_a_generators_own_randrange() -> None:
    hand = Hand(Stakes.standard(3, 1, 2), [100, 100, 100], rng=_FirstUndealt(1))
    assert hand.hole_cards == ((DECK[0], DECK[3]), (DECK[1], DECK[4]), (DECK[2], DECK[5]))


def test_deal_seeded_generators_deal_the_same_cards_as_randrange() -> None:
    first = Hand(Stakes.standard(6, 1, 2), [100] * 6, rng=random.Random(7))
    deck = list(DECK)
    rng = random.Random(7)
    for i in range(12):
        j = i + rng.randrange(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    assert first.hole_cards == tuple((deck[i], deck[6 + i]) for i in range(6))
