"""Equity: exact enumeration against hand counts and an independent evaluator, Monte Carlo
against exact values, splits, random opponents, and refusals."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import DECK, Card, parse_cards
from engine.equity import (
    EquityInputError,
    EquityMethod,
    all_in_equities,
    equity,
    exact_runouts,
)
from engine.errors import MalformedInputError
from engine.evaluate import rank_of

_TREYS = TreysEvaluator()


def treys_rank(cards: Sequence[Card]) -> int:
    """The rank of 5-7 cards by treys, an evaluator that shares no code with ours."""
    converted = [TreysCard.new(str(card)) for card in cards]
    return int(_TREYS.evaluate(converted[:2], converted[2:]))


def brute_force(hands: list[list[Card]], board: list[Card]) -> list[float]:
    """Each hand's pot share over every runout, by treys (smaller rank is stronger)."""
    used = {card for hand in hands for card in hand} | set(board)
    rest = [card for card in DECK if card not in used]
    shares = [0.0] * len(hands)
    runouts = 0
    for extra in combinations(rest, 5 - len(board)):
        full = [*board, *extra]
        ranks = [treys_rank([*hand, *full]) for hand in hands]
        best = min(ranks)
        winners = [i for i, rank in enumerate(ranks) if rank == best]
        for i in winners:
            shares[i] += 1 / len(winners)
        runouts += 1
    return [share / runouts for share in shares]


def test_equity_flush_draw_against_top_pair_on_the_turn_is_12_outs_of_44() -> None:
    # 6h5h on Qh7h2c9s: nine hearts and the three other eights (5-6-7-8-9) win; nothing ties,
    # and QsJd can improve to nothing that beats a flush or a straight.
    result = equity([parse_cards("6h5h"), parse_cards("QsJd")], parse_cards("Qh7h2c9s"))
    draw, pair = result.hands
    assert result.exact
    assert result.runouts == 44
    assert draw.win * 44 == pytest.approx(12)
    assert pair.win * 44 == pytest.approx(32)
    assert draw.tie == pair.tie == 0.0
    assert draw.equity == pytest.approx(12 / 44)
    assert draw.equity + pair.equity == pytest.approx(1.0)


def test_equity_flop_matches_an_independent_evaluator_three_ways() -> None:
    hands = [parse_cards("AsAh"), parse_cards("KdKc"), parse_cards("9h8h")]
    board = parse_cards("2h7hJc")
    result = equity(hands, board, method=EquityMethod.EXACT)
    expected = brute_force(hands, board)
    assert result.runouts == 903  # C(43, 2)
    for got, want in zip(result.hands, expected, strict=True):
        assert got.equity == pytest.approx(want, abs=1e-12)


def test_equity_aces_against_kings_on_a_flop_counts_every_board() -> None:
    hands = [parse_cards("AsAh"), parse_cards("KdKc")]
    board = parse_cards("2c7d9h")
    result = equity(hands, board)
    rest = [c for c in DECK if c not in {*hands[0], *hands[1], *board}]
    wins = sum(
        rank_of([*hands[0], *board, *extra]) < rank_of([*hands[1], *board, *extra])
        for extra in combinations(rest, 2)
    )
    assert result.exact and result.runouts == 990
    assert result.hands[0].win == pytest.approx(wins / 990)
    assert result.hands[0].equity == pytest.approx(brute_force(hands, board)[0], abs=1e-12)


def test_equity_board_that_plays_splits_the_pot_between_everyone() -> None:
    hands = [parse_cards("2c3d"), parse_cards("4c5d"), parse_cards("2h3s")]
    result = equity(hands, parse_cards("AsKsQsJsTs"))
    for hand in result.hands:
        assert hand.win == 0.0
        assert hand.tie == 1.0
        assert hand.equity == pytest.approx(1 / 3)


def test_equity_partial_split_gives_each_winner_half() -> None:
    # Ac9c makes a flush with any of the nine clubs left; every other river both play A-K-Q-J
    # (or the same straight with a ten) and split.
    result = equity([parse_cards("Ac9c"), parse_cards("Ah9s")], parse_cards("KcQcJd2s"))
    flush, other = result.hands
    assert flush.win * 44 == pytest.approx(9)
    assert flush.tie * 44 == pytest.approx(35) and other.tie * 44 == pytest.approx(35)
    assert other.win == 0.0
    assert flush.equity == pytest.approx(9 / 44 + 35 / 88)
    assert other.equity == pytest.approx(35 / 88)


def test_equity_monte_carlo_agrees_with_exact_within_four_standard_errors() -> None:
    hands = [parse_cards("AsAh"), parse_cards("KdKc")]
    board = parse_cards("2c7d9h")
    exact = equity(hands, board, method=EquityMethod.EXACT)
    sampled = equity(
        hands, board, method=EquityMethod.MONTE_CARLO, samples=20_000, rng=random.Random(3)
    )
    assert not sampled.exact
    for got, want in zip(sampled.hands, exact.hands, strict=True):
        assert got.stderr > 0
        assert abs(got.equity - want.equity) < 4 * got.stderr


def test_equity_is_reproducible_for_a_seed() -> None:
    hands = [parse_cards("QsQd")]
    first = equity(hands, random_opponents=2, samples=3_000, rng=random.Random(9))
    second = equity(hands, random_opponents=2, samples=3_000, rng=random.Random(9))
    assert first == second


def test_equity_aces_against_one_random_hand_preflop_is_about_85_percent() -> None:
    result = equity([parse_cards("AsAh")], random_opponents=1, samples=40_000, rng=random.Random(1))
    assert not result.exact
    assert result.hands[0].equity == pytest.approx(0.852, abs=4 * result.hands[0].stderr + 0.001)
    assert result.hands[0].equity + result.random_opponent_equity == pytest.approx(1.0)


def test_equity_exact_against_a_random_hand_on_the_river_counts_every_holding() -> None:
    hole, board = parse_cards("AcQc"), parse_cards("Qd7s2h9c3d")
    result = equity([hole], board, random_opponents=1)
    assert result.exact and result.runouts == 990
    mine = rank_of([*hole, *board])
    rest = [c for c in DECK if c not in {*hole, *board}]
    share = 0.0
    for a, b in combinations(rest, 2):
        theirs = rank_of([a, b, *board])
        share += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    assert result.hands[0].equity == pytest.approx(share / 990, abs=1e-12)


def test_equity_random_opponents_share_the_rest() -> None:
    result = equity(
        [parse_cards("7c7d"), parse_cards("AhKs")],
        random_opponents=3,
        samples=2_000,
        rng=random.Random(4),
    )
    total = sum(hand.equity for hand in result.hands) + 3 * result.random_opponent_equity
    assert total == pytest.approx(1.0)
    assert result.random_opponents == 3


def test_equity_auto_samples_when_enumeration_is_too_long() -> None:
    hands = [parse_cards("AsAh"), parse_cards("KdKc")]
    assert exact_runouts(48, 0, 5) == 1_712_304
    result = equity(hands, samples=500, rng=random.Random(1))
    assert not result.exact and result.runouts == 500
    forced = equity(hands, parse_cards("2c7d9h"), method=EquityMethod.MONTE_CARLO, samples=10)
    assert not forced.exact and forced.runouts == 10


def test_equity_dead_cards_are_out_of_the_deck() -> None:
    # With eight hearts dead, the flush draw has only 9h and the three other eights left.
    dead = parse_cards("Ah Kh Jh Th 8h 4h 3h 2h")
    result = equity([parse_cards("6h5h"), parse_cards("QsJd")], parse_cards("Qh7h2c9s"), dead=dead)
    assert result.runouts == 36
    assert result.hands[0].win * 36 == pytest.approx(4)


@pytest.mark.parametrize(
    ("hands", "board", "kwargs", "message"),
    [
        (["AsAh", "AsKd"], "", {}, "twice"),
        (["AsAh", "KdKc"], "2c7d", {}, "0, 3, 4 or 5"),
        (["AsAhKd"], "", {"random_opponents": 1}, "two cards"),
        (["AsAh"], "", {}, "at least two players"),
        ([], "", {"random_opponents": 2}, "at least one hand"),
        (["AsAh"], "", {"random_opponents": 23}, "at most 23"),
        (["AsAh"], "", {"random_opponents": -1}, "negative"),
        (["AsAh", "KdKc"], "", {"samples": 0, "method": EquityMethod.MONTE_CARLO}, "sample"),
        (["AsAh", "KdKc"], "2c7d9h", {"dead": parse_cards("2c")}, "twice"),
    ],
)
def test_equity_refuses_impossible_deals(
    hands: list[str], board: str, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(EquityInputError, match=message) as caught:
        equity([parse_cards(h) for h in hands], parse_cards(board), **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, MalformedInputError)


def test_equity_refuses_non_cards() -> None:
    with pytest.raises(EquityInputError, match="not a Card"):
        equity([[0, 1], parse_cards("KdKc")])  # type: ignore[list-item]


def test_all_in_equities_are_exact_after_the_flop_and_fixed_before() -> None:
    hands = [parse_cards("AsAh"), parse_cards("KdKc"), parse_cards("9h8h")]
    board = parse_cards("2h7hJc")
    exact = equity(hands, board, method=EquityMethod.EXACT)
    assert all_in_equities(hands, board) == [hand.equity for hand in exact.hands]
    preflop = all_in_equities(hands[:2])
    assert preflop == all_in_equities(hands[:2])  # the same cards always show the same figures
    assert preflop[0] == pytest.approx(0.82, abs=0.01)
    assert sum(preflop) == pytest.approx(1.0)


@pytest.mark.slow
def test_equity_aces_against_kings_preflop_over_all_1712304_boards() -> None:
    hands = [parse_cards("AhAs"), parse_cards("KdKc")]
    result = equity(hands, method=EquityMethod.EXACT)
    assert result.exact and result.runouts == 1_712_304
    # An independent count over the same boards with the plain evaluator API.
    rest = [c for c in DECK if c not in {*hands[0], *hands[1]}]
    wins = ties = 0
    for extra in combinations(rest, 5):
        aces = rank_of([*hands[0], *extra])
        kings = rank_of([*hands[1], *extra])
        wins += aces < kings
        ties += aces == kings
    assert result.hands[0].win == wins / 1_712_304
    assert result.hands[0].tie == ties / 1_712_304
    assert result.hands[0].equity == pytest.approx(0.82, abs=0.01)
