"""The simulator: exact totals, determinism, and agreement with exact enumeration.

The long statistical runs (millions of rounds against the published house edges) are marked
``slow``; a smaller run of each check is in the default suite.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from engine.blackjack import (
    CASINO,
    CLASSIC,
    DealerStrategy,
    SimpleStrategy,
    Ties,
    strategy_named,
)
from engine.blackjack.exact import ExactOutcome, exact_outcomes, simple_strategy_hits
from engine.blackjack.parallel import run_parallel
from engine.blackjack.sim import SimResult, simulate, simulated_house_edge


@pytest.fixture(scope="module")
def classic_exact() -> ExactOutcome:
    return exact_outcomes(CLASSIC)


def test_sim_result_figures_from_totals() -> None:
    # Four rounds at a bet of 2 chips: +2, -2, 0, +3 chips.
    result = SimResult(
        rounds=4, bet=2, net=3, net_squares=4 + 4 + 0 + 9, wins=2, pushes=1, losses=1
    )
    assert result.net_units == 1.5
    assert result.house_edge_pct == pytest.approx(-37.5)
    mean = 3 / 4
    variance = (17 - 4 * mean * mean) / 3
    assert result.stderr_pct == pytest.approx(100 * math.sqrt(variance / 4) / 2)
    assert (result.win_pct, result.push_pct, result.loss_pct) == (50.0, 25.0, 25.0)
    assert result.win_ratio == pytest.approx(2 / 3)


def test_sim_result_summary_has_exactly_the_json_fields() -> None:
    result = SimResult(rounds=10, bet=2, net=-4, net_squares=40, wins=4, pushes=1, losses=5)
    assert list(result.summary()) == [
        "hands",
        "house_edge_pct",
        "stderr_pct",
        "win_pct",
        "push_pct",
        "loss_pct",
        "wins",
        "losses",
        "win_ratio",
    ]
    assert result.summary()["hands"] == 10
    assert result.summary()["house_edge_pct"] == pytest.approx(20.0)


def test_sim_result_combine_adds_totals() -> None:
    first = SimResult(rounds=3, bet=2, net=2, net_squares=8, wins=2, pushes=0, losses=1)
    second = SimResult(rounds=2, bet=2, net=-4, net_squares=8, wins=0, pushes=0, losses=2)
    assert SimResult.combine([first, second]) == SimResult(
        rounds=5, bet=2, net=-2, net_squares=16, wins=2, pushes=0, losses=3
    )
    with pytest.raises(ValueError, match="different bets"):
        SimResult.combine([first, dataclasses.replace(second, bet=10)])


def test_simulate_is_deterministic_for_a_seed() -> None:
    basic = strategy_named("basic", CASINO)
    first = simulate(CASINO, basic, 3000, random.Random(7))
    second = simulate(CASINO, basic, 3000, random.Random(7))
    third = simulate(CASINO, basic, 3000, random.Random(8))
    assert first == second
    assert first != third
    assert first.rounds == 3000
    assert first.wins + first.pushes + first.losses == 3000
    assert first.bet == CASINO.bet_unit


def test_simulate_random_strategy_is_deterministic_too() -> None:
    strategy = strategy_named("random", CASINO)
    assert simulate(CASINO, strategy, 2000, random.Random(3)) == simulate(
        CASINO, strategy, 2000, random.Random(3)
    )


def test_simulate_reports_progress() -> None:
    seen: list[int] = []
    simulate(
        CLASSIC, DealerStrategy(), 250, random.Random(1), progress=seen.append, progress_every=100
    )
    assert seen == [100, 200, 250]


def test_simulated_house_edge_is_cached_and_deterministic() -> None:
    first = simulated_house_edge(CASINO, "dealer", 5000, 3)
    assert simulated_house_edge(CASINO, "dealer", 5000, 3) is first
    assert first[0] > 2.0  # mimicking the dealer gives the house about 5.5%


def test_exact_classic_dealer_strategy_outcomes_are_chances(classic_exact: ExactOutcome) -> None:
    exact = classic_exact
    assert exact.win + exact.push + exact.loss == pytest.approx(1.0, abs=1e-12)
    # Naturals for both: 2 * (4/52 * 16/51) ...
    both = (2 * 4 * 16 / (52 * 51)) * (2 * 3 * 15 / (50 * 49))
    assert exact.push == pytest.approx(both, rel=1e-9)
    assert exact.win_ratio == pytest.approx(0.41325, abs=5e-5)


def _agrees(sim: SimResult, exact: ExactOutcome, sigmas: float) -> None:
    p = exact.win_ratio
    decided = sim.wins + sim.losses
    assert abs(sim.win_ratio - p) <= sigmas * math.sqrt(p * (1 - p) / decided)
    assert abs(sim.house_edge_pct - exact.house_edge_pct) <= sigmas * sim.stderr_pct
    push_error = 100 * math.sqrt(exact.push * (1 - exact.push) / sim.rounds)
    assert abs(sim.push_pct - 100 * exact.push) <= sigmas * push_error


def test_classic_dealer_strategy_simulation_matches_exact_enumeration(
    classic_exact: ExactOutcome,
) -> None:
    sim = simulate(CLASSIC, DealerStrategy(), 150_000, random.Random(2024))
    _agrees(sim, classic_exact, 4.0)


def test_simple_strategy_simulation_matches_exact_enumeration() -> None:
    rules = dataclasses.replace(CLASSIC, h17=True, ties=Ties.PUSH)
    exact = exact_outcomes(rules, simple_strategy_hits)
    sim = simulate(rules, SimpleStrategy(), 150_000, random.Random(99))
    _agrees(sim, exact, 4.0)


@pytest.mark.slow
def test_classic_dealer_strategy_long_simulation_matches_exact_enumeration(
    classic_exact: ExactOutcome,
) -> None:
    sim = run_parallel(CLASSIC, "dealer", 4_000_000, seed=1, workers=2)
    _agrees(sim, classic_exact, 4.0)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("changes", "published"),
    [
        ({"decks": 1, "reshuffle_every_round": True}, -0.184),
        ({"decks": 2, "h17": True, "reshuffle_every_round": True}, 0.380),
    ],
)
def test_basic_strategy_house_edge_matches_the_published_exact_figure(
    changes: dict[str, object], published: float
) -> None:
    """felt sim blackjack --rule decks=1 --rule reshuffle_every_round=true --hands 6M --seed 1
    --workers 2 (and decks=2 h17=true): within three standard errors plus 0.05 points."""
    rules = dataclasses.replace(CASINO, **changes)  # type: ignore[arg-type]
    sim = run_parallel(rules, "basic", 6_000_000, seed=1, workers=2)
    assert sim.stderr_pct < 0.06
    assert abs(sim.house_edge_pct - published) <= 3 * sim.stderr_pct + 0.05
