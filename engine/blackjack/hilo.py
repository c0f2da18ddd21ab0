"""The ``hilo`` strategy: basic strategy plus the Hi-Lo true-count index plays.

The index plays are the Illustrious 18 and the Fab 4 surrenders (Don Schlesinger, *Blackjack
Attack*), for a multi-deck game: at a true count at or above the index the play is made, below
it the play is not (the hand falls back to basic strategy without it). Under H17 the plays whose
H17 index differs use it (11 v A doubles from -1, 10 v A from +3, 15 v A surrenders from -1).
Surrenders are decided first; where basic strategy surrenders and no index says otherwise (16
against a ten), the hand surrenders.

The count is the table's public state: a ``Counter`` the owner keeps up to date after each round
(``strategy.counter.observe(shoe)``), plus the cards the decision shows (the hand and the
dealer's up card). Other seats' cards from the round in play are counted when the round ends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from engine.blackjack.actions import Action, Phase
from engine.blackjack.counting import Counter, CountSystem
from engine.blackjack.hand import VALUE_OF_ID
from engine.blackjack.rules import Rules, Surrender
from engine.blackjack.strategy import BasicStrategy
from engine.blackjack.views import Decision

PlayKind = Literal["hard", "pair", "insurance"]
_ROWS = 32  # hard totals up to 31 index the cell tables without a bounds check
_VALUE = VALUE_OF_ID
_INSURANCE = Phase.INSURANCE
_SPLIT = Action.SPLIT


@dataclass(frozen=True, slots=True)
class IndexPlay:
    """Make ``action`` on ``kind`` ``row`` against ``up`` at a true count of ``index`` or more.

    ``row`` is the hard total, or the pair's card value; ``up`` is the dealer's card value (1 is
    an ace); insurance has neither.
    """

    kind: PlayKind
    row: int
    up: int
    action: Action
    index: int
    family: str

    def describe(self) -> str:
        """``"16 v T: stand at a true count of 0 or more"``."""
        up = {1: "A", 10: "T"}.get(self.up, str(self.up))
        if self.kind == "insurance":
            hand = "insurance"
        elif self.kind == "pair":
            hand = f"T,T v {up}" if self.row == 10 else f"{self.row},{self.row} v {up}"
        else:
            hand = f"{self.row} v {up}"
        return f"{hand}: {self.action.value} at a true count of {self.index:+d} or more"


def _play(kind: PlayKind, row: int, up: int, action: Action, index: int, family: str) -> IndexPlay:
    return IndexPlay(kind, row, up, action, index, family)


_I18 = "Illustrious 18"
_FAB4 = "Fab 4"
_S, _D, _P, _R = Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER

ILLUSTRIOUS_18: tuple[IndexPlay, ...] = (
    _play("insurance", 0, 1, Action.INSURE, 3, _I18),
    _play("hard", 16, 10, _S, 0, _I18),
    _play("hard", 15, 10, _S, 4, _I18),
    _play("pair", 10, 5, _P, 5, _I18),
    _play("pair", 10, 6, _P, 4, _I18),
    _play("hard", 10, 10, _D, 4, _I18),
    _play("hard", 12, 3, _S, 2, _I18),
    _play("hard", 12, 2, _S, 3, _I18),
    _play("hard", 11, 1, _D, 1, _I18),
    _play("hard", 9, 2, _D, 1, _I18),
    _play("hard", 10, 1, _D, 4, _I18),
    _play("hard", 9, 7, _D, 3, _I18),
    _play("hard", 16, 9, _S, 5, _I18),
    _play("hard", 13, 2, _S, -1, _I18),
    _play("hard", 12, 4, _S, 0, _I18),
    _play("hard", 12, 5, _S, -2, _I18),
    _play("hard", 12, 6, _S, -1, _I18),
    _play("hard", 13, 3, _S, -2, _I18),
)
"""The Illustrious 18, S17 indices, in order of their value to a counter."""

FAB_4: tuple[IndexPlay, ...] = (
    _play("hard", 14, 10, _R, 3, _FAB4),
    _play("hard", 15, 10, _R, 0, _FAB4),
    _play("hard", 15, 9, _R, 2, _FAB4),
    _play("hard", 15, 1, _R, 1, _FAB4),
)
"""The Fab 4 late-surrender plays, S17 indices."""

_H17_INDEX: dict[tuple[PlayKind, int, int, Action], int] = {
    ("hard", 11, 1, _D): -1,
    ("hard", 10, 1, _D): 3,
    ("hard", 15, 1, _R): -1,
}


def index_plays(rules: Rules) -> tuple[IndexPlay, ...]:
    """The index plays for ``rules``: the Illustrious 18, and the Fab 4 with late surrender;
    H17 indices where they differ."""
    plays = ILLUSTRIOUS_18 + (FAB_4 if rules.surrender is Surrender.LATE else ())
    if not rules.h17:
        return plays
    return tuple(
        _play(p.kind, p.row, p.up, p.action, _H17_INDEX[key], p.family)
        if (key := (p.kind, p.row, p.up, p.action)) in _H17_INDEX
        else p
        for p in plays
    )


class HiLoStrategy:
    """Basic strategy with the Hi-Lo index plays at the current true count."""

    name = "hilo"

    __slots__ = ("_basic", "_basic_choose", "_hard", "_insure_at", "_pair", "_tags", "counter")

    def __init__(self, rules: Rules, counter: Counter | None = None) -> None:
        self._basic = BasicStrategy(rules)
        self._basic_choose = self._basic.choose
        self.counter = counter if counter is not None else Counter(CountSystem.HILO, rules.decks)
        self._tags = CountSystem.HILO.tags
        # Cells indexed by row * 11 + up card value (the hot path builds no tuple keys).
        self._hard: list[tuple[IndexPlay, ...] | None] = [None] * (_ROWS * 11)
        self._pair: list[tuple[IndexPlay, ...] | None] = [None] * (_ROWS * 11)
        self._insure_at: int | None = None
        for play in index_plays(rules):
            if play.kind == "insurance":
                self._insure_at = play.index
                continue
            table = self._pair if play.kind == "pair" else self._hard
            cell = table[play.row * 11 + play.up] or ()
            # Surrenders first: they are decided before anything else on the first two cards.
            table[play.row * 11 + play.up] = (
                (play, *cell) if play.action is Action.SURRENDER else (*cell, play)
            )

    def true_count(self, decision: Decision) -> float:
        """The true count the decision is made at: the counter's, plus the cards it shows."""
        tags = self._tags
        counter = self.counter
        cards = decision.cards
        # A Card is its id, so it indexes the tag table directly.
        running = counter.running + tags[decision.dealer_up] + sum([tags[card] for card in cards])
        left = counter.cards_left - 1 - len(cards)
        return running * 52 / left if left > 0 else 0.0

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        if decision.phase is _INSURANCE:
            return self._insurance(decision, rng)
        cards = decision.cards
        up = _VALUE[decision.dealer_up]
        plays: tuple[IndexPlay, ...] | None = None
        if len(cards) == 2 and _VALUE[cards[0]] == _VALUE[cards[1]] and _SPLIT in decision.legal:
            plays = self._pair[_VALUE[cards[0]] * 11 + up]
            if plays is None:
                basic = self._basic_choose(decision, rng)
                if basic is _SPLIT or decision.soft:
                    return basic
        if plays is None and not decision.soft:
            # Includes a pair basic strategy does not split (5,5 is a hard 10).
            plays = self._hard[decision.total * 11 + up]
        if plays is None:
            return self._basic_choose(decision, rng)
        return self._deviate(decision, plays)

    def _insurance(self, decision: Decision, rng: random.Random) -> Action:
        insure_at = self._insure_at
        if insure_at is not None and self.true_count(decision) >= insure_at:
            for action in (Action.INSURE, Action.EVEN_MONEY):
                if action in decision.legal:
                    return action
        return self._basic_choose(decision, rng)

    def _deviate(self, decision: Decision, plays: tuple[IndexPlay, ...]) -> Action:
        legal = decision.legal
        preferences = self._basic.preferences(decision)
        true_count = self.true_count(decision)
        vetoed: set[Action] = set()
        basic_first = next((action for action in preferences if action in legal), None)
        if basic_first is Action.SURRENDER and plays[0].action is not Action.SURRENDER:
            return Action.SURRENDER
        for play in plays:
            if play.action in legal:
                if true_count >= play.index:
                    return play.action
                vetoed.add(play.action)
        for action in preferences:
            if action in legal and action not in vetoed:
                return action
        if Action.HIT in legal:
            return Action.HIT
        return Action.STAND
