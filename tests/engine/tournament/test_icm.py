"""ICM (exact and Monte Carlo, held against each other) and chip-chop deals."""

from __future__ import annotations

import random

import pytest

from engine.tournament import IcmError, chip_chop, icm, icm_exact, icm_monte_carlo, whole_deal


def test_equal_stacks_have_equal_equity() -> None:
    equity = icm_exact([1000, 1000, 1000], [50, 30, 20])
    assert equity == pytest.approx([100 / 3] * 3)


def test_two_players_equity_is_the_harville_formula() -> None:
    # 1st with p = 3/4 takes 70, else 30: 0.75 * 70 + 0.25 * 30 = 60.
    assert icm_exact([3000, 1000], [70, 30]) == pytest.approx([60.0, 40.0])


def test_three_player_equity_matches_a_hand_computed_value() -> None:
    stacks, pay = [5000, 3000, 2000], [50, 30, 20]
    # Player 0 second: after 1 wins (0.3) -> 5/7, after 2 wins (0.2) -> 5/8.
    second = 0.3 * 5 / 7 + 0.2 * 5 / 8
    third = 1 - 0.5 - second
    assert icm_exact(stacks, pay)[0] == pytest.approx(50 * 0.5 + 30 * second + 20 * third)


def test_equity_sums_to_the_prizes_and_follows_the_stacks() -> None:
    stacks = [9000, 4000, 4000, 2500, 500]
    equity = icm_exact(stacks, [50, 30, 20])
    assert sum(equity) == pytest.approx(100)
    assert equity[1] == pytest.approx(equity[2])
    assert equity[0] > equity[1] > equity[3] > equity[4]


def test_monte_carlo_agrees_with_exact_within_its_error() -> None:
    stacks = [12_000, 8_000, 5_000, 3_000, 2_000, 1_500, 900, 600]
    pay = [400, 250, 150, 100, 60, 40]
    exact = icm_exact(stacks, pay)
    sampled = icm_monte_carlo(stacks, pay, random.Random(3), trials=40_000)
    # Standard error per player < 400 / sqrt(40k) = 2; allow 4 standard errors.
    assert sampled == pytest.approx(exact, abs=8)
    assert sum(sampled) == pytest.approx(sum(pay))


def test_icm_is_exact_to_ten_players_and_seeded_beyond() -> None:
    ten = list(range(100, 1100, 100))
    assert icm(ten, [60, 40]) == icm_exact(ten, [60, 40])
    eleven = [*ten, 50]
    assert icm(eleven, [60, 40], seed=5, trials=2_000) == icm(
        eleven, [60, 40], seed=5, trials=2_000
    )


def test_chip_chop_guarantees_the_last_prize_and_splits_the_rest_by_chips() -> None:
    assert chip_chop([6000, 3000, 1000], [50, 30, 20]) == pytest.approx([20 + 24, 20 + 12, 20 + 4])
    assert chip_chop([3000, 1000, 1000], [70, 30]) == pytest.approx([60, 20, 20])


def test_whole_deal_pays_the_pool_exactly() -> None:
    amounts = whole_deal([33.4, 33.3, 33.3], 1000)
    assert sum(amounts) == 1000 and amounts == (334, 333, 333)


@pytest.mark.parametrize(
    ("stacks", "pay", "message"),
    [
        ([], [1], "at least one stack"),
        ([100, 0], [1], "above 0"),
        ([100, 100], [], "at least one payout"),
        ([100, 100], [3, 2, 1], "3 payouts for 2 players"),
        ([100, 100], [-1], "0 or more"),
    ],
)
def test_bad_icm_input_is_refused(stacks: list[int], pay: list[int], message: str) -> None:
    with pytest.raises(IcmError, match=message):
        icm(stacks, pay)
    with pytest.raises(IcmError, match=message):
        chip_chop(stacks, pay)
