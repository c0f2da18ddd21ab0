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
from engine.blackjack.actions import Phase
from engine.blackjack.counting import BetRamp, CountingError
from engine.blackjack.exact import ExactOutcome, exact_outcomes, simple_strategy_hits
from engine.blackjack.parallel import run_parallel
from engine.blackjack.round import Round
from engine.blackjack.rules import Rules
from engine.blackjack.shoe import Shoe
from engine.blackjack.sidebets import perfect_pairs_house_edge, twenty_one_three_house_edge
from engine.blackjack.sim import SideBetTotals, SimResult, simulate, simulated_house_edge
from engine.blackjack.strategy import BasicStrategy


@pytest.fixture(scope="module")
def classic_exact() -> ExactOutcome:
    return exact_outcomes(CLASSIC)


def _flat(
    *, rounds: int, bet: int, net: int, net_squares: int, wins: int, pushes: int, losses: int
) -> SimResult:
    """The totals of a session at a flat bet of ``bet`` chips."""
    return SimResult(
        rounds=rounds,
        bet=bet,
        net=net,
        net_squares=net_squares,
        wins=wins,
        pushes=pushes,
        losses=losses,
        wagered=rounds * bet,
        wagered_squares=rounds * bet * bet,
        net_wagered=net * bet,
    )


def test_sim_result_figures_from_totals() -> None:
    # Four rounds at a bet of 2 chips: +2, -2, 0, +3 chips.
    result = _flat(rounds=4, bet=2, net=3, net_squares=4 + 4 + 0 + 9, wins=2, pushes=1, losses=1)
    assert result.net_units == 1.5
    assert result.house_edge_pct == pytest.approx(-37.5)
    mean = 3 / 4
    variance = (17 - 4 * mean * mean) / 3
    assert result.stderr_pct == pytest.approx(100 * math.sqrt(variance / 4) / 2)
    assert (result.win_pct, result.push_pct, result.loss_pct) == (50.0, 25.0, 25.0)
    assert result.win_ratio == pytest.approx(2 / 3)


def test_sim_result_summary_has_exactly_the_json_fields() -> None:
    result = _flat(rounds=10, bet=2, net=-4, net_squares=40, wins=4, pushes=1, losses=5)
    assert list(result.summary()) == [
        "hands",
        "house_edge_pct",
        "stderr_pct",
        "player_edge_pct",
        "average_bet",
        "win_pct",
        "push_pct",
        "loss_pct",
        "wins",
        "pushes",
        "losses",
        "win_ratio",
    ]
    assert result.summary()["hands"] == 10
    assert result.summary()["house_edge_pct"] == pytest.approx(20.0)


def test_sim_result_combine_adds_totals() -> None:
    first = _flat(rounds=3, bet=2, net=2, net_squares=8, wins=2, pushes=0, losses=1)
    second = _flat(rounds=2, bet=2, net=-4, net_squares=8, wins=0, pushes=0, losses=2)
    assert SimResult.combine([first, second]) == _flat(
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


def _within(simulated: float, stderr: float, exact: float, sigmas: float = 3.0) -> None:
    assert stderr > 0
    assert abs(simulated - exact) <= sigmas * stderr, (simulated, stderr, exact)


@pytest.mark.parametrize(
    ("overrides", "seed"),
    [
        (["side_21_3=classic", "perfect_pairs=on", "reshuffle_every_round=true"], 3),
        (["side_21_3=five_tier", "decks=8", "reshuffle_every_round=true"], 4),
    ],
)
def test_simulated_side_bets_match_their_exact_edges(overrides: list[str], seed: int) -> None:
    rules = CASINO.with_overrides(overrides)
    result = simulate(rules, strategy_named("basic", rules), 60_000, random.Random(seed))
    assert rules.side_21_3 is not None
    side = result.side_21_3
    assert (side.bets, side.stake) == (60_000, rules.bet_unit)
    exact = 100 * float(twenty_one_three_house_edge(rules.decks, rules.side_21_3))
    _within(side.house_edge_pct, side.stderr_pct, exact)
    if rules.perfect_pairs:
        pairs = result.perfect_pairs
        _within(pairs.house_edge_pct, pairs.stderr_pct, 100 * float(perfect_pairs_house_edge(6)))
    else:
        assert result.perfect_pairs == SideBetTotals()


def test_simulated_side_bets_do_not_change_the_main_game() -> None:
    rules = CASINO.with_overrides(["side_21_3=five_tier", "perfect_pairs=on"])
    with_side = simulate(rules, strategy_named("basic", rules), 3000, random.Random(9))
    without = simulate(CASINO, strategy_named("basic", CASINO), 3000, random.Random(9))
    assert (
        dataclasses.replace(with_side, side_21_3=SideBetTotals(), perfect_pairs=SideBetTotals())
        == without
    )


def test_combine_adds_side_bets() -> None:
    rules = CASINO.with_overrides(["perfect_pairs=on"])
    basic = strategy_named("basic", rules)
    first = simulate(rules, basic, 500, random.Random(1))
    second = simulate(rules, basic, 700, random.Random(2))
    both = SimResult.combine([first, second])
    assert both.perfect_pairs.bets == 1200
    assert both.perfect_pairs.net == first.perfect_pairs.net + second.perfect_pairs.net


def test_spread_sizes_bets_by_the_true_count() -> None:
    rules = CASINO
    flat = simulate(rules, strategy_named("hilo", rules), 5000, random.Random(6))
    spread = simulate(
        rules, strategy_named("hilo", rules), 5000, random.Random(6), spread=BetRamp(1, 8)
    )
    assert flat.average_bet == rules.bet_unit
    assert flat.wagered == 5000 * rules.bet_unit
    assert rules.bet_unit < spread.average_bet < 8 * rules.bet_unit
    assert spread.wagered_squares > spread.wagered * rules.bet_unit
    # The same cards are dealt: the bet size changes the money, not the play.
    assert (spread.wins, spread.pushes, spread.losses) == (flat.wins, flat.pushes, flat.losses)


def test_spread_needs_a_counting_strategy() -> None:
    with pytest.raises(CountingError, match="needs a counting strategy, not 'basic'"):
        simulate(
            CASINO, strategy_named("basic", CASINO), 10, random.Random(1), spread=BetRamp(1, 8)
        )
    # A flat "spread" is just a bigger unit, for any strategy.
    result = simulate(
        CASINO, strategy_named("basic", CASINO), 10, random.Random(1), spread=BetRamp(3, 3)
    )
    assert result.average_bet == 3 * CASINO.bet_unit


def test_edge_standard_error_with_varying_bets() -> None:
    # Three rounds: bet 2 net +2, bet 4 net -4, bet 2 net 0. Edge = -2 / 8.
    result = SimResult(
        rounds=3,
        bet=2,
        net=-2,
        net_squares=4 + 16,
        wins=1,
        pushes=1,
        losses=1,
        wagered=8,
        wagered_squares=4 + 16 + 4,
        net_wagered=4 - 16,
    )
    assert result.house_edge_pct == pytest.approx(25.0)
    assert result.player_edge_pct == pytest.approx(-25.0)
    ratio = -2 / 8
    residuals = [2 - ratio * 2, -4 - ratio * 4, 0 - ratio * 2]
    variance = sum(r * r for r in residuals) / 2
    assert result.stderr_pct == pytest.approx(100 * math.sqrt(variance / 3) / (8 / 3))


def test_risk_of_ruin() -> None:
    winning = _flat(rounds=100, bet=2, net=20, net_squares=500, wins=50, pushes=0, losses=50)
    mean = 0.2
    variance = (500 - 100 * mean * mean) / 99
    assert winning.risk_of_ruin(100) == pytest.approx(math.exp(-2 * mean * 100 / variance))
    assert winning.risk_of_ruin(1000) < winning.risk_of_ruin(100) < 1.0
    losing = _flat(rounds=100, bet=2, net=-20, net_squares=500, wins=40, pushes=0, losses=60)
    assert losing.risk_of_ruin(10**9) == 1.0
    with pytest.raises(ValueError, match="bankroll"):
        winning.risk_of_ruin(0)


def test_hilo_flat_bet_has_basic_strategys_edge_within_three_standard_errors() -> None:
    hilo = simulate(CASINO, strategy_named("hilo", CASINO), 50_000, random.Random(21))
    basic = simulate(CASINO, strategy_named("basic", CASINO), 50_000, random.Random(22))
    spread = math.hypot(hilo.stderr_pct, basic.stderr_pct)
    assert abs(hilo.house_edge_pct - basic.house_edge_pct) <= 3 * spread


@pytest.mark.slow
def test_hilo_flat_bet_long_run_has_basic_strategys_edge() -> None:
    """6 decks, H17, DAS, 75% penetration: index plays at a flat bet move the edge by a few
    hundredths of a percent, well within three standard errors of 2M rounds each."""
    rules = CASINO.with_overrides(["h17=true"])
    hilo = run_parallel(rules, "hilo", 2_000_000, seed=5, workers=2)
    basic = run_parallel(rules, "basic", 2_000_000, seed=6, workers=2)
    spread = math.hypot(hilo.stderr_pct, basic.stderr_pct)
    assert spread < 0.13
    assert abs(hilo.house_edge_pct - basic.house_edge_pct) <= 3 * spread


@pytest.mark.slow
def test_counting_with_a_spread_beats_the_house() -> None:
    """6 decks, H17, DAS, 75% penetration, Hi-Lo with the index plays and a 1-12 spread: the
    player's edge is positive and its 95% interval excludes zero."""
    rules = CASINO.with_overrides(["h17=true", "das=true", "penetration=0.75"])
    result = run_parallel(rules, "hilo", 4_000_000, seed=12, workers=2, spread=BetRamp(1, 12))
    assert result.player_edge_pct - 1.96 * result.stderr_pct > 0


class _AskedEveryTime(BasicStrategy):
    """Basic strategy under another type: the simulator asks it at every decision."""

    __slots__ = ()


@pytest.mark.parametrize("rules", [CASINO, CLASSIC], ids=["casino", "classic"])
def test_sim_remembered_chart_choices_play_as_asking_at_every_decision(rules: Rules) -> None:
    remembered = simulate(rules, BasicStrategy(rules), 6_000, random.Random(11))
    asked = simulate(rules, _AskedEveryTime(rules), 6_000, random.Random(11))
    assert remembered == asked


def test_sim_chart_situation_matches_the_decision() -> None:
    rng = random.Random(5)
    seen = 0
    for _ in range(300):
        game = Round(CASINO, Shoe.for_rules(CASINO, rng), {0: 10})
        while not game.is_complete:
            decision = game.decision(0)
            insurance, mask, pair, soft, total, up = game.chart_situation(0)
            assert insurance == (decision.phase is Phase.INSURANCE)
            assert (pair or None) == decision.pair_value
            assert (soft, total, up) == (decision.soft, decision.total, decision.dealer_up_value)
            assert mask and bin(mask).count("1") == len(decision.legal)
            seen += 1
            game.act(0, sorted(decision.legal)[0])
    assert seen > 200  # decisions checked, insurance among them
