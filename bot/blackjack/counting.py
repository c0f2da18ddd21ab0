"""The counting drill: a sequence of cards, then "what is the running count?", under Hi-Lo, KO or
Omega II. Pure and stateless like the strategy drill: a question is made from its seed.

The systems and their tags are the engine's (``engine.blackjack.counting``); a drill counts from
0, as KO does in a single deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.render.cards import card_label
from engine.blackjack.counting import CountSystem, running_count
from engine.cards import DECK, Card

__all__ = [
    "MAX_CARDS",
    "MIN_CARDS",
    "CountQuestion",
    "CountSystem",
    "count_question",
    "running_count",
]


MIN_CARDS, MAX_CARDS = 4, 30
"""How long a sequence may be."""


@dataclass(frozen=True, slots=True)
class CountQuestion:
    """A sequence of cards and the answers offered (the right one among them)."""

    seed: int
    system: CountSystem
    cards: tuple[Card, ...]
    choices: tuple[int, ...]

    @property
    def count(self) -> int:
        return running_count(self.cards, self.system)

    def explanation(self) -> str:
        """Each card's tag: ``"K♠ -1 · 5♦ +1 · ..."``."""
        return " · ".join(f"{card_label(card)} {self.system.tag(card):+d}" for card in self.cards)


def count_question(system: CountSystem, length: int, seed: int) -> CountQuestion:
    """``length`` cards from a shuffled six-deck shoe, and four answers to choose from."""
    if not MIN_CARDS <= length <= MAX_CARDS:
        raise ValueError(f"a counting drill shows {MIN_CARDS} to {MAX_CARDS} cards")
    rng = random.Random(seed)
    cards = tuple(DECK[rng.randrange(52)] for _ in range(length))
    right = running_count(cards, system)
    offsets = rng.sample([-3, -2, -1, 1, 2, 3], 3)
    choices = sorted({right, *(right + offset for offset in offsets)})
    return CountQuestion(seed, system, cards, tuple(choices))
