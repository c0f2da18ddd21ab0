"""Dealing: cards come from the generator's own ``randrange`` when it has one."""

from __future__ import annotations

import random

from engine.cards import DECK, Card
from engine.holdem import Call, Check, Hand, Stakes


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


def _randrange_deal(rng: random.Random, count: int) -> list[Card]:
    """The first ``count`` cards a Fisher-Yates pass with ``rng.randrange`` deals."""
    deck = list(DECK)
    for i in range(count):
        j = i + rng.randrange(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:count]


class _RandomOnly(random.Random):
    """A generator with its own ``random`` and no ``getrandbits``: ``randrange`` draws from
    ``random()``, so the engine cannot make the bit draws itself."""

    def random(self) -> float:
        return super().random()


def test_deal_whole_hands_deal_every_card_as_randrange_would() -> None:
    # Twelve hole cards, then burn and flop, burn and turn, burn and river: twenty cards.
    for kind in (random.Random, _RandomOnly):
        for seed in range(40):
            hand = Hand(Stakes.standard(6, 1, 2), [100] * 6, rng=kind(seed))
            while not hand.is_complete:
                turn = hand.turn
                assert turn is not None
                hand.act(turn.player, Check() if turn.can_check else Call())
            dealt = _randrange_deal(kind(seed), 20)
            assert hand.hole_cards == tuple((dealt[i], dealt[6 + i]) for i in range(6))
            assert hand.board == (*dealt[13:16], dealt[17], dealt[19])
