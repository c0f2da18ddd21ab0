"""Hand reading for the smart strategy: what each opponent may hold, and equity against that.

An ``OpponentModel`` narrows an opponent's possible holdings: preflop to the strongest
``range_fraction`` of combos (from how they entered the pot and how often they do), and after the
flop by weighting their combos by what they make on this board (strong hands, top pairs, weak
pairs, air) when their bets and calls say something. ``estimate_equity`` then measures the seat's
share of the pot against the live opponents so modelled: Monte Carlo on the flop (and on the turn
when enumeration is dear), exact enumeration on the turn and river heads-up when cheap, and on a
multiway river a draw from each opponent's precomputed hand values (no evaluation per sample).
Opponents modelled as ``OpponentModel(player)`` are uniformly random hands.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from phevaluator import _pheval

from engine.bots.preflop import preflop_table
from engine.cards import DECK, Card

_evaluate_5 = _pheval.evaluate_5cards
_evaluate_6 = _pheval.evaluate_6cards
_evaluate_7 = _pheval.evaluate_7cards

_STRAIGHT_OR_BETTER = 1609
"""phevaluator's worst straight; smaller ranks are straights, flushes, full houses and more."""

STRONG, TOP_PAIR, WEAK_PAIR, AIR = 0, 1, 2, 3
"""What a holding makes on the board, as ``holding_class`` sorts it."""

MIN_SAMPLES = 60


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """Which hands one opponent may hold.

    ``range_fraction`` keeps the strongest fraction of preflop combos (1.0: any two cards). The
    weights scale the likelihood of combos by what they make on the board: two pair or better
    (``strong_weight``), top pair or an overpair, a weaker pair, and no pair (``air_weight``).
    """

    player: int
    range_fraction: float = 1.0
    strong_weight: float = 1.0
    top_pair_weight: float = 1.0
    weak_pair_weight: float = 1.0
    air_weight: float = 1.0

    @property
    def weights(self) -> tuple[float, float, float, float]:
        """The weights by ``holding_class``."""
        return (self.strong_weight, self.top_pair_weight, self.weak_pair_weight, self.air_weight)

    @property
    def is_weighted(self) -> bool:
        """Whether any board-dependent weight differs from 1."""
        return any(weight != 1.0 for weight in self.weights)


def holding_class(first: Card, second: Card, board: Sequence[Card]) -> int:
    """``STRONG`` (two pair or better using a hole card, a set, or a straight or better),
    ``TOP_PAIR`` (top pair or an overpair), ``WEAK_PAIR`` or ``AIR``."""
    n = len(board)
    if n == 3:
        rank = _evaluate_5(first, second, *board)
    elif n == 4:
        rank = _evaluate_6(first, second, *board)
    else:
        rank = _evaluate_7(first, second, *board)
    if rank <= _STRAIGHT_OR_BETTER:
        return STRONG
    board_ranks = {card >> 2 for card in board}
    top = max(board_ranks)
    r1, r2 = first >> 2, second >> 2
    if r1 == r2:
        if r1 in board_ranks:
            return STRONG
        return TOP_PAIR if r1 > top else WEAK_PAIR
    hit1, hit2 = r1 in board_ranks, r2 in board_ranks
    if hit1 and hit2:
        return STRONG
    if hit1 or hit2:
        return TOP_PAIR if top in (r1, r2) else WEAK_PAIR
    return AIR


class _Holdings:
    """One opponent's possible combos given the known cards, with cumulative weights."""

    __slots__ = ("combos", "cumulative", "total", "weights")

    def __init__(self, model: OpponentModel, board: Sequence[Card], known: int) -> None:
        table = preflop_table()
        combos = [
            (a, b)
            for a, b in table.top_combos(model.range_fraction)
            if not (known >> a) & 1 and not (known >> b) & 1
        ]
        if not combos:  # every modelled combo is blocked: fall back to any two cards
            combos = [
                (a, b)
                for a, b in table.ordered_combos()
                if not (known >> a) & 1 and not (known >> b) & 1
            ]
        self.combos = combos
        self.weights: list[float] | None = None
        self.cumulative: list[float] | None = None
        self.total = float(len(combos))
        if model.is_weighted and board:
            by_class = model.weights
            weights = [by_class[holding_class(a, b, board)] for a, b in combos]
            total = sum(weights)
            if total > 0:
                self.weights = weights
                self.cumulative = list(accumulate(weights))
                self.total = total

    def weight(self, index: int) -> float:
        return 1.0 if self.weights is None else self.weights[index]

    def draw(self, uniform: float) -> int:
        """The index of a combo drawn with probability proportional to its weight."""
        if self.cumulative is None:
            return int(uniform * len(self.combos))
        return min(bisect_right(self.cumulative, uniform * self.total), len(self.combos) - 1)


def estimate_equity(
    hole: tuple[Card, Card],
    board: Sequence[Card],
    opponents: Sequence[OpponentModel],
    *,
    samples: int,
    exact_budget: int,
    rng: random.Random,
) -> float:
    """The seat's expected share of the pot against the modelled opponents (0..1).

    ``samples`` is the heads-up Monte Carlo sample count (scaled down for more opponents, since
    each sample then costs more evaluations); ``exact_budget`` caps the hand evaluations an
    exact enumeration may take.
    """
    if not opponents:
        return 1.0
    first, second = hole
    known = (1 << first) | (1 << second)
    for card in board:
        known |= 1 << card
    holdings = [_Holdings(model, board, known) for model in opponents]
    missing = 5 - len(board)
    count = len(opponents)
    if missing == 0:
        return _river(hole, tuple(board), holdings, samples, rng)
    if count == 1 and missing == 1 and len(holdings[0].combos) * 44 <= exact_budget:
        return _turn_exact(hole, tuple(board), holdings[0], known)
    scaled = max(MIN_SAMPLES, samples * 2 // (count + 1))
    return _monte_carlo(hole, tuple(board), holdings, known, scaled, rng)


def _river(
    hole: tuple[Card, Card],
    board: tuple[Card, ...],
    holdings: Sequence[_Holdings],
    samples: int,
    rng: random.Random,
) -> float:
    first, second = hole
    hero = _evaluate_7(first, second, *board)
    ranks = [[_evaluate_7(a, b, *board) for a, b in holding.combos] for holding in holdings]
    if len(holdings) == 1:
        holding = holdings[0]
        share = 0.0
        for index, rank in enumerate(ranks[0]):
            if hero < rank:
                share += holding.weight(index)
            elif hero == rank:
                share += holding.weight(index) / 2
        return share / holding.total
    uniform = rng.random
    total = 0.0
    counted = 0
    for _ in range(max(MIN_SAMPLES, samples * 2)):
        used = 0
        best = 1 << 20
        ties = 0
        for holding, values in zip(holdings, ranks, strict=True):
            index = _draw_free(holding, used, uniform)
            if index < 0:
                break
            a, b = holding.combos[index]
            used |= (1 << a) | (1 << b)
            rank = values[index]
            if rank < best:
                best, ties = rank, 1
            elif rank == best:
                ties += 1
        else:
            counted += 1
            if hero < best:
                total += 1.0
            elif hero == best:
                total += 1.0 / (ties + 1)
    return total / counted if counted else 0.0


def _turn_exact(
    hole: tuple[Card, Card], board: tuple[Card, ...], holding: _Holdings, known: int
) -> float:
    first, second = hole
    rivers = [card for card in DECK if not (known >> card) & 1]
    hero = {river: _evaluate_7(first, second, *board, river) for river in rivers}
    share = 0.0
    weight_total = 0.0
    for index, (a, b) in enumerate(holding.combos):
        weight = holding.weight(index)
        if weight == 0.0:
            continue
        wins = 0.0
        outcomes = 0
        for river in rivers:
            if river in (a, b):
                continue
            rank = _evaluate_7(a, b, *board, river)
            mine = hero[river]
            outcomes += 1
            if mine < rank:
                wins += 1.0
            elif mine == rank:
                wins += 0.5
        share += weight * wins / outcomes
        weight_total += weight
    return share / weight_total if weight_total else 0.0


def _draw_free(holding: _Holdings, used: int, uniform: Callable[[], float]) -> int:
    """A combo index whose cards are not in ``used``, or -1 after many tries."""
    draw = holding.draw
    combos = holding.combos
    for _ in range(40):
        index = draw(uniform())
        a, b = combos[index]
        if not (used >> a) & 1 and not (used >> b) & 1:
            return index
    return -1


def _monte_carlo(
    hole: tuple[Card, Card],
    board: tuple[Card, ...],
    holdings: Sequence[_Holdings],
    known: int,
    samples: int,
    rng: random.Random,
) -> float:
    first, second = hole
    deck = [card for card in DECK if not (known >> card) & 1]
    size = len(deck)
    missing = 5 - len(board)
    uniform = rng.random
    evaluate = _evaluate_7
    total = 0.0
    counted = 0
    for _ in range(samples):
        used = known
        hands: list[tuple[Card, Card]] = []
        for holding in holdings:
            index = _draw_free(holding, used, uniform)
            if index < 0:
                break
            a, b = holding.combos[index]
            used |= (1 << a) | (1 << b)
            hands.append((a, b))
        else:
            extra: list[Card] = []
            while len(extra) < missing:
                card = deck[int(uniform() * size)]
                if not (used >> card) & 1:
                    used |= 1 << card
                    extra.append(card)
            full = (*board, *extra)
            hero = evaluate(first, second, *full)
            best = 1 << 20
            ties = 0
            for a, b in hands:
                rank = evaluate(a, b, *full)
                if rank < best:
                    best, ties = rank, 1
                elif rank == best:
                    ties += 1
            counted += 1
            if hero < best:
                total += 1.0
            elif hero == best:
                total += 1.0 / (ties + 1)
    return total / counted if counted else 0.0
