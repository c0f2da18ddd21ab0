"""The counting drill: a sequence of cards, then "what is the running count?", under Hi-Lo, KO or
Omega II. Pure and stateless like the strategy drill: a question is made from its seed. And the
live question: the running count of a table's shoe at a moment of play, from what the table has
shown (``BlackjackTableState.public_count``).

The systems and their tags are the engine's (``engine.blackjack.counting``); a drill counts from
0, as KO does in a single deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.render.cards import card_label
from engine.blackjack.counting import CountSystem, ShoeCount, running_count
from engine.cards import DECK, Card

__all__ = [
    "MAX_CARDS",
    "MIN_CARDS",
    "CountQuestion",
    "CountSystem",
    "LiveQuestion",
    "count_question",
    "live_question",
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


def _choices(right: int, rng: random.Random) -> tuple[int, ...]:
    """Four answers: the right one and three within 3 of it, in order."""
    offsets = rng.sample([-3, -2, -1, 1, 2, 3], 3)
    return tuple(sorted({right, *(right + offset for offset in offsets)}))


@dataclass(frozen=True, slots=True)
class LiveQuestion:
    """ "What is the running count now?" at a table: the count of every card it has shown since
    the last shuffle, and the answers offered."""

    count: ShoeCount
    choices: tuple[int, ...]
    shuffled_round: int | None
    """The round the shoe was last shuffled before (None before the first deal)."""

    @property
    def system(self) -> CountSystem:
        return self.count.system

    @property
    def right(self) -> int:
        return self.count.running

    def explanation(self) -> str:
        """How the count stands, in words: cards seen, and the true count where there is one."""
        since = (
            f"since the shuffle before round #{self.shuffled_round}"
            if self.shuffled_round is not None
            else "since the shuffle"
        )
        text = f"{self.count.cards_seen} cards shown {since}"
        if self.system.balanced and self.count.cards_left:
            text += f"; true count {self.count.true_count:+.1f}"
        return text


def live_question(count: ShoeCount, shuffled_round: int | None, rng: random.Random) -> LiveQuestion:
    """The question for a table's count now, with four answers to choose from."""
    return LiveQuestion(count, _choices(count.running, rng), shuffled_round)


def count_question(system: CountSystem, length: int, seed: int) -> CountQuestion:
    """``length`` cards from a shuffled six-deck shoe, and four answers to choose from."""
    if not MIN_CARDS <= length <= MAX_CARDS:
        raise ValueError(f"a counting drill shows {MIN_CARDS} to {MAX_CARDS} cards")
    rng = random.Random(seed)
    cards = tuple(DECK[rng.randrange(52)] for _ in range(length))
    return CountQuestion(seed, system, cards, _choices(running_count(cards, system), rng))
