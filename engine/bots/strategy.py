"""The strategy interface, the three simple strategies, and helpers shared by every strategy.

A strategy is an object with ``decide(view, rng) -> Action``: it sees only a ``SeatView`` and
draws randomness only from ``rng``, so it is deterministic for a seeded ``random.Random``. It
returns a legal action (``view.legal.allows(action)``); ``RaiseTo`` amounts are "to" totals.
Strategies keep no shared mutable state: one instance per seat, called from any one thread.

- ``random``: a uniformly random legal kind of action (fold, check, call, bet/raise), and a
  uniformly random size between the minimum raise and all-in.
- ``passive``: never bets or raises; checks when it can, calls when its equity against the live
  opponents (treated as random hands) pays the price of the call, folds otherwise.
- ``aggressive``: bets or raises whenever it can (half the pot to the pot), calls when it cannot,
  and folds only junk (the worst 30% of starting hands; after the flop no pair and no flush
  draw) when a call would cost half its stack or more.
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol

from engine.bots.preflop import preflop_table
from engine.bots.view import SeatView
from engine.equity import equity
from engine.holdem.actions import Action, Call, Check, Fold, LegalActions, RaiseTo
from engine.holdem.streets import Street

FOLD, CHECK, CALL = Fold(), Check(), Call()


class Strategy(Protocol):
    """Anything that picks a legal Hold'em action for a seat."""

    @property
    def name(self) -> str:
        """The registry name: ``random``, ``passive``, ``aggressive`` or ``smart``."""
        ...

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        """One of the actions ``view.legal`` allows."""
        ...


# ------------------------------------------------------------------------------ helpers


def check_or_fold(legal: LegalActions) -> Action:
    """Check if free, else fold: the safe default."""
    return CHECK if legal.can_check else FOLD


def check_or_call(legal: LegalActions) -> Action:
    """Check if free, else call."""
    return CHECK if legal.can_check else CALL


def raise_to(legal: LegalActions, amount: float) -> RaiseTo:
    """A bet or raise to ``amount`` rounded to a chip and clamped into the legal range.

    Only call it when ``legal.can_raise``."""
    low, high = legal.min_raise_to, legal.max_raise_to
    assert low is not None and high is not None
    return RaiseTo(min(high, max(low, round(amount))))


def pot_raise_to(view: SeatView, fraction: float) -> int:
    """The "to" amount of a bet of ``fraction`` of the pot, or of a raise of ``fraction`` of
    the pot after calling (the usual way players size a raise)."""
    current = view.current_bet
    if view.legal.is_bet:
        return round(view.bets[view.seat] + fraction * view.pot_total)
    return round(current + fraction * (view.pot_total + view.to_call))


def hand_equity(view: SeatView, rng: random.Random, samples: int, opponents: int) -> float:
    """Equity against ``opponents`` random hands: the preflop table before the flop, else
    Monte Carlo with ``samples`` runouts (exact on the river heads-up)."""
    first, second = view.hole
    if view.street is Street.PREFLOP:
        return preflop_table().equity_vs_random(first, second, opponents)
    result = equity(
        [view.hole],
        view.board,
        random_opponents=opponents,
        samples=samples,
        exact_limit=1_000,
        rng=rng,
    )
    return result.hands[0].equity


# ------------------------------------------------------------------------------ strategies


class RandomStrategy:
    """Uniformly random legal play (a baseline and a fuzzer)."""

    name: ClassVar[str] = "random"
    __slots__ = ()

    def __repr__(self) -> str:
        # Stable across processes: test ids and logs must not carry memory addresses.
        return "RandomStrategy()"

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        choices: list[str] = []
        if legal.can_fold:
            choices.append("fold")
        choices.append("check" if legal.can_check else "call")
        if legal.can_raise:
            choices.append("raise")
        choice = choices[int(rng.random() * len(choices))]
        if choice == "fold":
            return FOLD
        if choice == "raise":
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            return RaiseTo(rng.randint(legal.min_raise_to, legal.max_raise_to))
        return check_or_call(legal)


class PassiveStrategy:
    """A calling station with a conscience: calls when the price is right, never raises."""

    name: ClassVar[str] = "passive"
    __slots__ = ("samples",)

    def __repr__(self) -> str:
        # Stable across processes: test ids and logs must not carry memory addresses.
        return "PassiveStrategy()"

    def __init__(self, samples: int = 150) -> None:
        self.samples = samples

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if legal.can_check:
            return CHECK
        to_call = view.to_call
        price = to_call / (view.pot_total + to_call)
        strength = hand_equity(view, rng, self.samples, len(view.opponents))
        return CALL if strength >= price else FOLD


class AggressiveStrategy:
    """A maniac: bets and raises at every chance, calls otherwise, rarely folds."""

    name: ClassVar[str] = "aggressive"
    __slots__ = ()

    def __repr__(self) -> str:
        # Stable across processes: test ids and logs must not carry memory addresses.
        return "AggressiveStrategy()"

    SIZES: ClassVar[tuple[float, ...]] = (0.5, 0.75, 1.0)

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if legal.can_raise:
            fraction = self.SIZES[int(rng.random() * len(self.SIZES))]
            return raise_to(legal, pot_raise_to(view, fraction))
        if legal.can_check:
            return CHECK
        if view.to_call * 2 >= view.stack and self._has_nothing(view):
            return FOLD
        return CALL

    @staticmethod
    def _has_nothing(view: SeatView) -> bool:
        """The bottom 30% of starting hands; after the flop, no pair and no flush draw."""
        first, second = view.hole
        if view.street is Street.PREFLOP:
            return preflop_table().percentile(first, second) > 0.7
        ranks = {card >> 2 for card in view.board}
        if first >> 2 == second >> 2 or first >> 2 in ranks or second >> 2 in ranks:
            return False
        suits = [card & 3 for card in (*view.hole, *view.board)]
        return max(suits.count(suit) for suit in range(4)) < 4
