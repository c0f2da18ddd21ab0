"""The counting drill: a sequence of cards, then "what is the running count?", under Hi-Lo, KO or
Omega II. Pure and stateless like the strategy drill: a question is made from its seed.

The tags are the published ones (by card value, ace as 1): Hi-Lo 2-6 +1, 7-9 0, tens and aces
-1 (balanced); KO as Hi-Lo with the 7 at +1 (unbalanced, a deck sums to +4); Omega II 2, 3, 7
+1, 4-6 +2, 9 -1, tens -2, 8 and aces 0 (balanced, level 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from bot.render.cards import card_label
from engine.blackjack.hand import VALUE_OF_ID
from engine.cards import DECK, Card


class CountSystem(StrEnum):
    """A card-counting system."""

    HILO = "hilo"
    KO = "ko"
    OMEGA_II = "omega2"

    @property
    def label(self) -> str:
        return {"hilo": "Hi-Lo", "ko": "KO", "omega2": "Omega II"}[self.value]


TAGS: dict[CountSystem, tuple[int, ...]] = {
    # index: card value 1 (ace) to 10 (any ten); index 0 unused
    CountSystem.HILO: (0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    CountSystem.KO: (0, -1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    CountSystem.OMEGA_II: (0, 0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
}
"""Each system's tag by card value."""

MIN_CARDS, MAX_CARDS = 4, 30
"""How long a sequence may be."""


def tag(card: Card, system: CountSystem) -> int:
    """What ``card`` adds to the running count under ``system``."""
    return TAGS[system][VALUE_OF_ID[card.id]]


def running_count(cards: list[Card] | tuple[Card, ...], system: CountSystem) -> int:
    """The running count after ``cards`` (from a fresh shoe: 0 to start)."""
    return sum(tag(card, system) for card in cards)


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
        return " · ".join(f"{card_label(card)} {tag(card, self.system):+d}" for card in self.cards)


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
