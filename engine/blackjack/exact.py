"""Exact win, push and loss chances of a hit-or-stand strategy, by enumerating every deal.

For strategies that only ever hit or stand (``dealer``, ``simple``) on a shoe shuffled every
round, ``exact_outcomes`` walks every ordered sequence of cards the player can draw and, for
each final player hand, every way the dealer's hand can finish from the cards left, without
replacement. The player is dealt before the dealer's hole card in this walk; that gives the same
chances as the table's order because neither hand's play depends on the other's unseen cards, and
a dealer blackjack beats every player hand but a natural however the player played. The sums are
floating point (each term is exact to a rounding error), so results agree with rational
arithmetic to about 1e-15.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.blackjack.analysis import full_shoe
from engine.blackjack.rules import Rules, Ties

HitRule = Callable[[int, bool, int], bool]
"""``hits(total, soft, dealer_up_value)``: whether the strategy hits (up value 1 = ace)."""


def dealer_strategy_hits(total: int, soft: bool, up: int) -> bool:
    """The ``dealer`` strategy: hit below 17."""
    return total < 17


def simple_strategy_hits(total: int, soft: bool, up: int) -> bool:
    """The ``simple`` strategy: hit below 18 against an ace or a ten, otherwise below 17."""
    return total < (18 if up in (1, 10) else 17)


@dataclass(frozen=True, slots=True)
class ExactOutcome:
    """Chances that a round is won, pushed or lost, and the expected net per opening bet."""

    win: float
    push: float
    loss: float
    expected: float

    @property
    def win_ratio(self) -> float:
        """win / (win + loss)."""
        return self.win / (self.win + self.loss)

    @property
    def house_edge_pct(self) -> float:
        """The player's expected loss per opening bet, in percent."""
        return -100.0 * self.expected


def exact_outcomes(rules: Rules, hits: HitRule = dealer_strategy_hits) -> ExactOutcome:
    """Exact chances for one seat playing ``hits`` against a freshly shuffled shoe of ``rules``.

    The strategy never doubles, splits, surrenders or insures, so only ``decks``, ``h17``,
    ``blackjack_pays`` and ``ties`` matter.
    """
    return _Enumeration(rules, hits).run()


class _Enumeration:
    """One walk over every deal; ``shoe`` holds the cards not yet drawn on the current path."""

    def __init__(self, rules: Rules, hits: HitRule) -> None:
        numerator, denominator = rules.blackjack_pays.ratio
        self.natural_win = numerator / denominator
        self.ties_push = rules.ties is Ties.PUSH
        self.h17 = rules.h17
        self.hits = hits
        self.shoe = full_shoe(rules.decks)
        self.up = 0
        self.memo: dict[tuple[int, ...], tuple[float, ...]] = {}
        self.totals = [0.0, 0.0, 0.0, 0.0]  # win, push, loss, expected net

    def run(self) -> ExactOutcome:
        shoe = self.shoe
        size = sum(shoe)
        for up in range(1, 11):
            self.up = up
            self.memo = {}
            chance = shoe[up] / size
            shoe[up] -= 1
            self.player(chance, 0, False, 0, size - 1)
            shoe[up] += 1
        win, push, loss, expected = self.totals
        return ExactOutcome(win=win, push=push, loss=loss, expected=expected)

    def player(self, chance: float, hard: int, ace: bool, cards: int, left: int) -> None:
        """Every way the player's hand can go from here; each finished hand is settled."""
        total = hard + 10 if ace and hard <= 11 else hard
        if cards >= 2 and (total >= 21 or not self.hits(total, ace and hard <= 11, self.up)):
            self.settle(chance, total, cards == 2 and total == 21, left)
            return
        shoe = self.shoe
        for value in range(1, 11):
            count = shoe[value]
            if not count:
                continue
            shoe[value] = count - 1
            self.player(chance * count / left, hard + value, ace or value == 1, cards + 1, left - 1)
            shoe[value] = count

    def settle(self, chance: float, total: int, natural: bool, left: int) -> None:
        """Add a finished player hand (reached with ``chance``) against every dealer finish."""
        up = self.up
        outcome = self.dealer(up, up == 1, 1, left)
        blackjack = outcome[6]
        if natural:
            win, push, loss = 1.0 - blackjack, blackjack, 0.0
            net = win * self.natural_win
        elif total > 21:
            win, push, loss, net = 0.0, 0.0, 1.0, -1.0
        else:
            win = outcome[5] + sum(outcome[d - 17] for d in range(17, 22) if d < total)
            push = outcome[total - 17] if total >= 17 and self.ties_push else 0.0
            loss = 1.0 - win - push
            net = win - loss
        totals = self.totals
        totals[0] += chance * win
        totals[1] += chance * push
        totals[2] += chance * loss
        totals[3] += chance * net

    def dealer(self, hard: int, ace: bool, cards: int, left: int) -> tuple[float, ...]:
        """Chances of the dealer's final (17, 18, 19, 20, 21, bust, blackjack) from here."""
        shoe = self.shoe
        # Only a one-card hand can still become a blackjack, so more cards need not be keyed.
        key = (hard, ace, cards == 1, *shoe)
        found = self.memo.get(key)
        if found is not None:
            return found
        h17 = self.h17
        result = [0.0] * 7
        drawn = cards + 1
        for value in range(1, 11):
            count = shoe[value]
            if not count:
                continue
            chance = count / left
            new_hard = hard + value
            new_ace = ace or value == 1
            if drawn >= 2:  # a finished hand is counted here, saving a call per card
                total = new_hard + 10 if new_ace and new_hard <= 11 else new_hard
                if total > 21:
                    result[5] += chance
                    continue
                if total >= 17 and not (h17 and total == 17 and new_ace and new_hard == 7):
                    result[6 if drawn == 2 and total == 21 else total - 17] += chance
                    continue
            shoe[value] = count - 1
            sub = self.dealer(new_hard, new_ace, drawn, left - 1)
            shoe[value] = count
            result = [mine + chance * theirs for mine, theirs in zip(result, sub, strict=True)]
        outcome = tuple(result)
        self.memo[key] = outcome
        return outcome
