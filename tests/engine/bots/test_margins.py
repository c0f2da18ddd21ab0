"""Paired margins between seats: the mean difference of two seats' (or groups') win rates and
the standard error of that difference, per hand or per duplicate deal."""

from __future__ import annotations

import pytest

from engine.bots.margins import DealNets
from engine.bots.registry import parse_seats
from engine.bots.simulate import SimulationSetupError, simulate_holdem


def test_a_margin_is_the_difference_of_the_two_seats_win_rates() -> None:
    nets = DealNets(3)
    result = simulate_holdem(parse_seats("random,passive,aggressive"), 60, seed=4, on_hand=nets)
    first, second, third = result.seats
    margin = nets.margin([0], [2], big_blind=2)
    assert margin.units == 60
    assert margin.bb_per_100 == pytest.approx(first.bb_per_100 - third.bb_per_100)
    group = nets.margin([0, 1], [2], big_blind=2)
    expected = (first.bb_per_100 + second.bb_per_100) / 2 - third.bb_per_100
    assert group.bb_per_100 == pytest.approx(expected)


def test_a_margins_error_is_measured_on_the_paired_differences() -> None:
    nets = DealNets(2, block=2)
    nets.units = [(8, -8), (0, 0), (4, -4)]  # three deals of two hands, big blind 2
    margin = nets.margin([0], [1], big_blind=2)
    # Differences 16, 0, 8 chips a deal: mean 8, sample SD 8; per hand in bb, times 100.
    assert margin.bb_per_100 == pytest.approx(100 * 8 / 2 / 2)
    assert margin.stderr_bb_per_100 == pytest.approx(100 * 8 / 3**0.5 / 2 / 2)
    low, high = margin.interval_95
    assert low == pytest.approx(200 - 1.96 * margin.stderr_bb_per_100) and high > 200


def test_duplicate_deals_record_one_unit_per_deal() -> None:
    nets = DealNets(3, block=3)
    simulate_holdem(parse_seats("random,passive,aggressive"), 9, seed=2, duplicate=True,
                    on_hand=nets)  # fmt: skip
    assert len(nets.units) == 3
    assert all(sum(unit) == 0 for unit in nets.units)


def test_a_margin_needs_two_groups_of_seats() -> None:
    with pytest.raises(SimulationSetupError, match="two non-empty groups"):
        DealNets(2).margin([], [1], big_blind=2)
