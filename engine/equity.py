"""Hold'em equity: each hand's share of the pot over the runouts of a partial board.

``equity(hands, board, random_opponents=k)`` answers "how often does each of these hands win",
by exact enumeration of every remaining board (and every hand a random opponent could hold) when
that is cheap enough, by Monte Carlo sampling otherwise, or as asked with ``method``. A hand's
*equity* is its expected share of the pot: a win counts 1, a split between k hands 1/k each, so
the equities of all players (known hands and random opponents) add up to 1.

The table shows all-in equities with this, so exactness is tested against full enumeration. The
sampling loop is plain Python around phevaluator's C core; the random source is passed in.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from phevaluator import _pheval

from engine.cards import DECK, Card
from engine.errors import MalformedInputError

_evaluate_7 = _pheval.evaluate_7cards

DEFAULT_SAMPLES = 50_000
"""Monte Carlo runouts when none are asked for: a standard error of about 0.2% of the pot."""

DEFAULT_EXACT_LIMIT = 300_000
"""``AUTO`` enumerates exactly up to this many runouts (every flop or turn all-in between known
hands; a turn against one random hand), and samples beyond (preflop: 1,712,304 boards)."""

MAX_PLAYERS = 23
"""52 cards hold 23 two-card hands and a five-card board (no burns are needed here)."""


class EquityInputError(MalformedInputError):
    """Hands or a board that cannot be dealt together (a repeated card, a three-card hand, ...)."""


class EquityMethod(StrEnum):
    """How ``equity`` works the runouts out."""

    AUTO = "auto"
    """Exact when at most ``exact_limit`` runouts remain, else Monte Carlo."""
    EXACT = "exact"
    """Every remaining board and every random opponent hand, each once."""
    MONTE_CARLO = "monte-carlo"
    """``samples`` random runouts."""


@dataclass(frozen=True, slots=True)
class HandEquity:
    """One known hand's results.

    ``win`` is the fraction of runouts it wins alone, ``tie`` the fraction it splits, and
    ``equity`` its expected share of the pot (win plus its part of every split). ``stderr`` is
    the standard error of ``equity`` (0 for exact results).
    """

    cards: tuple[Card, Card]
    win: float
    tie: float
    equity: float
    stderr: float

    @property
    def lose(self) -> float:
        """The fraction of runouts it neither wins nor splits."""
        return max(0.0, 1.0 - self.win - self.tie)


@dataclass(frozen=True, slots=True)
class EquityResult:
    """Equities of the known hands (in the order given) on ``board``.

    ``runouts`` is how many runouts were counted (boards, times opponent hands when there are
    random opponents); ``exact`` tells whether they were all of them.
    """

    hands: tuple[HandEquity, ...]
    board: tuple[Card, ...]
    random_opponents: int
    runouts: int
    exact: bool

    @property
    def random_opponent_equity(self) -> float:
        """Each random opponent's equity (they are interchangeable), 0 without any."""
        if not self.random_opponents:
            return 0.0
        rest = 1.0 - sum(hand.equity for hand in self.hands)
        return max(0.0, rest) / self.random_opponents


def equity(
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    random_opponents: int = 0,
    dead: Sequence[Card] = (),
    method: EquityMethod = EquityMethod.AUTO,
    samples: int = DEFAULT_SAMPLES,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    rng: random.Random | None = None,
) -> EquityResult:
    """The equity of each of ``hands`` against the others and ``random_opponents`` unknown hands.

    ``board`` holds 0, 3, 4 or 5 cards; ``dead`` cards are out of the deck (folded or burnt
    cards somebody saw). Monte Carlo draws from ``rng`` (default: a generator seeded from the
    OS), so a seeded ``random.Random`` makes the result reproducible.

    >>> from engine.cards import parse_cards
    >>> result = equity([parse_cards("AhKh"), parse_cards("QsJd")], parse_cards("Qh7h2c9s"))
    >>> result.exact, round(result.hands[0].equity, 4)
    (True, 0.3409)
    """
    known = [_hand(cards) for cards in hands]
    table = tuple(board)
    if len(table) not in (0, 3, 4, 5):
        raise EquityInputError(f"a board has 0, 3, 4 or 5 cards, not {len(table)}")
    if random_opponents < 0:
        raise EquityInputError("the number of random opponents cannot be negative")
    players = len(known) + random_opponents
    if not known:
        raise EquityInputError("give at least one hand")
    if players < 2:
        raise EquityInputError("equity needs at least two players (add a random opponent)")
    if players > MAX_PLAYERS:
        raise EquityInputError(f"one deck deals at most {MAX_PLAYERS} hands, not {players}")
    used = [card for hand in known for card in hand] + list(table) + list(dead)
    for card in used:
        if not isinstance(card, Card):
            raise EquityInputError(f"{card!r} is not a Card")
    if len(set(used)) != len(used):
        raise EquityInputError("the same card appears twice among the hands, board and dead")
    remaining = [card for card in DECK if card not in set(used)]
    missing = 5 - len(table)
    if len(remaining) < missing + 2 * random_opponents:
        raise EquityInputError("not enough cards left to deal the opponents and the board")
    if samples < 1:
        raise EquityInputError("Monte Carlo needs at least one sample")

    count = exact_runouts(len(remaining), random_opponents, missing)
    if method is EquityMethod.EXACT or (method is EquityMethod.AUTO and count <= exact_limit):
        tally = _enumerate(known, table, remaining, random_opponents, missing)
        exact = True
    else:
        source = rng if rng is not None else random.Random(secrets.randbits(64))
        tally = _sample(known, table, remaining, random_opponents, missing, samples, source)
        exact = False
    return tally.result(known, table, random_opponents, exact)


ALL_IN_SAMPLES = 20_000
ALL_IN_SEED = 0


def all_in_equities(hands: Sequence[Sequence[Card]], board: Sequence[Card] = ()) -> list[float]:
    """Each face-up hand's share of the pot, as a table shows it at an all-in.

    Exact when there are at most ``DEFAULT_EXACT_LIMIT`` run-outs (from the flop on, and any
    heads-up turn), else ``ALL_IN_SAMPLES`` samples from a fixed seed (preflop: a standard error
    of about 0.3%), so the same cards always show the same figures. About 0.1 s preflop.
    """
    result = equity(hands, board, samples=ALL_IN_SAMPLES, rng=random.Random(ALL_IN_SEED))
    return [hand.equity for hand in result.hands]


def exact_runouts(remaining: int, random_opponents: int, missing: int) -> int:
    """How many runouts exact enumeration visits: each random opponent's hand in turn, then
    the ``missing`` board cards, from ``remaining`` unseen cards."""
    total = 1
    left = remaining
    for _ in range(random_opponents):
        total *= math.comb(left, 2)
        left -= 2
    return total * math.comb(left, missing)


def _hand(cards: Sequence[Card]) -> tuple[Card, Card]:
    if len(cards) != 2:
        raise EquityInputError(f"a Hold'em hand is two cards, not {len(cards)}")
    return (cards[0], cards[1])


class _Tally:
    """Running totals per known hand: outright wins, splits, pot shares and squared shares."""

    __slots__ = ("runouts", "shares", "squares", "ties", "wins")

    def __init__(self, hands: int) -> None:
        self.runouts = 0
        self.wins = [0] * hands
        self.ties = [0] * hands
        self.shares = [0.0] * hands
        self.squares = [0.0] * hands

    def result(
        self,
        hands: Sequence[tuple[Card, Card]],
        board: tuple[Card, ...],
        random_opponents: int,
        exact: bool,
    ) -> EquityResult:
        n = self.runouts
        out = []
        for index, cards in enumerate(hands):
            mean = self.shares[index] / n
            if exact or n < 2:
                stderr = 0.0
            else:
                variance = max(0.0, (self.squares[index] - n * mean * mean) / (n - 1))
                stderr = math.sqrt(variance / n)
            out.append(HandEquity(cards, self.wins[index] / n, self.ties[index] / n, mean, stderr))
        return EquityResult(tuple(out), board, random_opponents, n, exact)


def _add_full(tally: _Tally, ranks: list[int], opponent_ranks: Sequence[int]) -> None:
    """Count one runout with every random opponent's rank (ties between several opponents and
    a known hand split the pot between all of them)."""
    tally.runouts += 1
    best = min(ranks)
    if opponent_ranks:
        best_opponent = min(opponent_ranks)
        if best_opponent < best:
            return
        tying_opponents = opponent_ranks.count(best) if best_opponent == best else 0
    else:
        tying_opponents = 0
    winners = ranks.count(best)
    split = winners + tying_opponents
    share = 1.0 / split
    if split == 1:
        index = ranks.index(best)
        tally.wins[index] += 1
        tally.shares[index] += 1.0
        tally.squares[index] += 1.0
        return
    for index, rank in enumerate(ranks):
        if rank == best:
            tally.ties[index] += 1
            tally.shares[index] += share
            tally.squares[index] += share * share


def _enumerate(
    hands: Sequence[tuple[Card, Card]],
    board: tuple[Card, ...],
    remaining: Sequence[Card],
    random_opponents: int,
    missing: int,
) -> _Tally:
    tally = _Tally(len(hands))
    evaluate = _evaluate_7

    def boards(deck: Sequence[Card], opponents: list[tuple[Card, Card]]) -> None:
        for extra in combinations(deck, missing):
            full = (*board, *extra)
            ranks = [evaluate(a, b, *full) for a, b in hands]
            opponent_ranks = [evaluate(a, b, *full) for a, b in opponents]
            _add_full(tally, ranks, opponent_ranks)

    def deal(deck: Sequence[Card], opponents: list[tuple[Card, Card]], left: int) -> None:
        if left == 0:
            boards(deck, opponents)
            return
        for first, second in combinations(deck, 2):
            rest = [card for card in deck if card not in (first, second)]
            opponents.append((first, second))
            deal(rest, opponents, left - 1)
            opponents.pop()

    if random_opponents == 0 and len(hands) == 2:
        _enumerate_heads_up(tally, hands, board, remaining, missing)
    else:
        deal(list(remaining), [], random_opponents)
    return tally


def _enumerate_heads_up(
    tally: _Tally,
    hands: Sequence[tuple[Card, Card]],
    board: tuple[Card, ...],
    remaining: Sequence[Card],
    missing: int,
) -> None:
    """Two known hands, no random opponents: the all-in case, written out for speed (a full
    preflop enumeration of 1,712,304 boards takes a few seconds)."""
    evaluate = _evaluate_7
    (a1, a2), (b1, b2) = hands
    wins_a = wins_b = ties = runouts = 0
    for extra in combinations(remaining, missing):
        full = board + extra
        rank_a = evaluate(a1, a2, *full)
        rank_b = evaluate(b1, b2, *full)
        runouts += 1
        if rank_a < rank_b:
            wins_a += 1
        elif rank_b < rank_a:
            wins_b += 1
        else:
            ties += 1
    tally.runouts = runouts
    tally.wins = [wins_a, wins_b]
    tally.ties = [ties, ties]
    tally.shares = [wins_a + ties / 2, wins_b + ties / 2]
    tally.squares = [wins_a + ties / 4, wins_b + ties / 4]


def _sample(
    hands: Sequence[tuple[Card, Card]],
    board: tuple[Card, ...],
    remaining: Sequence[Card],
    random_opponents: int,
    missing: int,
    samples: int,
    rng: random.Random,
) -> _Tally:
    tally = _Tally(len(hands))
    evaluate = _evaluate_7
    deck = list(remaining)
    size = len(deck)
    draw = 2 * random_opponents + missing
    uniform = rng.random
    for _ in range(samples):
        # A partial Fisher-Yates shuffle: the first ``draw`` cards are a uniform sample.
        for i in range(draw):
            j = i + int(uniform() * (size - i))
            deck[i], deck[j] = deck[j], deck[i]
        full = (*board, *deck[:missing])
        ranks = [evaluate(a, b, *full) for a, b in hands]
        opponent_ranks = [
            evaluate(deck[missing + 2 * k], deck[missing + 2 * k + 1], *full)
            for k in range(random_opponents)
        ]
        _add_full(tally, ranks, opponent_ranks)
    return tally
