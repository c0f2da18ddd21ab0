"""Hand reading: holdings on a board, and equity against modelled opponents."""

from __future__ import annotations

import random

import pytest

from engine.bots.reading import (
    AIR,
    STRONG,
    TOP_PAIR,
    WEAK_PAIR,
    OpponentModel,
    estimate_equity,
    holding_class,
)
from engine.cards import parse_cards
from engine.equity import EquityMethod, equity


@pytest.mark.parametrize(
    ("hole", "board", "expected"),
    [
        ("AsKd", "Kh7c2d", TOP_PAIR),
        ("QsQd", "Jh7c2d", TOP_PAIR),  # an overpair
        ("7s6d", "Kh7c2d", WEAK_PAIR),
        ("4s4d", "Kh7c2d", WEAK_PAIR),
        ("Ks7d", "Kh7c2d", STRONG),  # two pair
        ("2s2h", "Kh7c2d", STRONG),  # a set
        ("5s6s", "3h4c7d", STRONG),  # a straight
        ("AsQs", "Kh7c2d", AIR),
        ("AsQs", "Kh7c2dJs", AIR),
        ("AsQs", "Kh7c2dJsTd", STRONG),  # Broadway on the river
    ],
)
def test_holding_class_sorts_hole_cards_into_strong_top_pair_weak_pair_or_air(
    hole: str, board: str, expected: int
) -> None:
    first, second = parse_cards(hole)
    assert holding_class(first, second, parse_cards(board)) == expected


def test_estimate_matches_exact_equity_against_a_random_hand_on_the_river() -> None:
    hole, board = parse_cards("AcQc"), parse_cards("Qd7s2h9c3d")
    estimate = estimate_equity(
        (hole[0], hole[1]), board, [OpponentModel(1)], samples=10, exact_budget=0,
        rng=random.Random(1),
    )  # fmt: skip
    exact = equity([hole], board, random_opponents=1, method=EquityMethod.EXACT)
    assert estimate == pytest.approx(exact.hands[0].equity, abs=1e-12)


def test_estimate_matches_exact_equity_on_the_turn_when_enumeration_is_cheap() -> None:
    hole, board = parse_cards("6h5h"), parse_cards("Qh7h2c9s")
    estimate = estimate_equity(
        (hole[0], hole[1]), board, [OpponentModel(1)], samples=10, exact_budget=100_000,
        rng=random.Random(1),
    )  # fmt: skip
    exact = equity([hole], board, random_opponents=1, method=EquityMethod.EXACT)
    assert estimate == pytest.approx(exact.hands[0].equity, abs=1e-12)


@pytest.mark.parametrize("board", ["", "Qh7h2c", "Qh7h2c9s"])
def test_estimate_by_sampling_agrees_with_exact_equity(board: str) -> None:
    hole = parse_cards("AhKh")
    cards = parse_cards(board)
    models = [OpponentModel(1), OpponentModel(2)]
    estimate = estimate_equity(
        (hole[0], hole[1]), cards, models, samples=6_000, exact_budget=0, rng=random.Random(2)
    )
    reference = equity([hole], cards, random_opponents=2, samples=60_000, rng=random.Random(3))
    # 6,000 heads-up samples scale to 4,000 three-way samples: a standard error under 0.8%.
    assert estimate == pytest.approx(reference.hands[0].equity, abs=0.03)


def test_multiway_river_estimate_agrees_with_sampling() -> None:
    hole, board = parse_cards("JcJd"), parse_cards("Qd7s2h9c3d")
    models = [OpponentModel(1), OpponentModel(2), OpponentModel(3)]
    estimate = estimate_equity(
        (hole[0], hole[1]), board, models, samples=4_000, exact_budget=0, rng=random.Random(4)
    )
    reference = equity([hole], board, random_opponents=3, samples=40_000, rng=random.Random(5))
    assert estimate == pytest.approx(reference.hands[0].equity, abs=0.025)


def test_narrow_ranges_and_bets_lower_the_equity_of_a_medium_hand() -> None:
    hole, board = parse_cards("9s9d"), parse_cards("Kh7c2d")
    args = {"samples": 3_000, "exact_budget": 0}
    anything = estimate_equity(
        (hole[0], hole[1]), board, [OpponentModel(1)], rng=random.Random(1), **args
    )
    tight = estimate_equity(
        (hole[0], hole[1]), board, [OpponentModel(1, 0.08)], rng=random.Random(1), **args
    )
    betting = estimate_equity(
        (hole[0], hole[1]),
        board,
        [OpponentModel(1, 1.0, 1.0, 0.9, 0.4, 0.1)],
        rng=random.Random(1),
        **args,
    )
    assert tight < anything - 0.1
    assert betting < anything - 0.1


def test_estimate_without_opponents_is_the_whole_pot() -> None:
    hole = parse_cards("2c7d")
    assert (
        estimate_equity((hole[0], hole[1]), (), [], samples=10, exact_budget=0, rng=random.Random())
        == 1.0
    )
