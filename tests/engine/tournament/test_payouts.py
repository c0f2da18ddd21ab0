"""Payouts: the standard curves, custom percentages, whole chips and ties."""

from __future__ import annotations

import itertools
import math

import pytest

from engine.tournament import (
    PayoutError,
    Tournament,
    TournamentConfig,
    custom_shares,
    preset,
    prizes,
    standard_shares,
)
from engine.tournament.payouts import fee_of, places_prizes, prize_pool, shares_for, split_tie


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (1, (10_000,)),
        (2, (10_000,)),
        (3, (6_500, 3_500)),
        (6, (6_500, 3_500)),
        (7, (5_000, 3_000, 2_000)),
        (9, (5_000, 3_000, 2_000)),
    ],
)
def test_small_fields_follow_the_fixed_curves(entries: int, expected: tuple[int, ...]) -> None:
    assert standard_shares(entries) == expected


def test_standard_curves_pay_about_fifteen_percent_on_a_falling_curve() -> None:
    for entries in range(10, 2001, 7):
        shares = standard_shares(entries)
        assert len(shares) == max(3, math.ceil(0.15 * entries))
        assert sum(shares) == 10_000
        assert all(a >= b > 0 for a, b in itertools.pairwise(shares))


def test_a_large_field_pays_a_min_cash_worth_having() -> None:
    shares = standard_shares(1000)
    pool = 1000 * 100  # a buy-in of 100
    assert prizes(pool, shares)[-1] >= 149  # 1.5 buy-ins, give or take a rounding chip


def test_prizes_pay_the_whole_pool_remainder_to_the_top_places() -> None:
    assert prizes(1000, (5_000, 3_000, 2_000)) == (500, 300, 200)
    assert prizes(7, (5_000, 3_000, 2_000)) == (4, 2, 1)  # 3.5, 2.1, 1.4: one left for 1st
    for pool in range(0, 500):
        assert sum(prizes(pool, standard_shares(40))) == pool


def test_custom_percentages_become_basis_points() -> None:
    assert custom_shares([60, 25.5, "14.5"]) == (6_000, 2_550, 1_450)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([], "at least one"),
        ([50, 40], "sum to 100"),
        ([40, 60], "cannot pay more"),
        ([99.999, 0.001], "two decimals"),
        ([100, 0], "above 0"),
        (["lots"], "not a percentage"),
    ],
)
def test_bad_percentages_are_refused(values: list[object], message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        custom_shares(values)  # type: ignore[arg-type]


def test_pool_is_collected_minus_the_fee() -> None:
    assert fee_of(10_000, 10) == 1_000
    assert prize_pool(10_000, 1_000) == 9_000
    with pytest.raises(PayoutError):
        fee_of(100, 101)
    with pytest.raises(PayoutError):
        prize_pool(100, 101)


def test_tied_players_split_the_places_they_share_earlier_entry_gets_the_odd_chip() -> None:
    assert split_tie((30, 20), 2) == (25, 25)
    assert split_tie((30, 21), 2) == (26, 25)
    table = places_prizes([[4], [2, 7], [1]], (50, 30, 21))
    assert table == {4: (1, 50), 2: (2, 26), 7: (2, 25), 1: (4, 0)}


def test_a_custom_table_for_fewer_entries_drops_the_places_nobody_takes_and_rescales() -> None:
    assert shares_for(2, (5_000, 3_000, 2_000)) == (6_250, 3_750)
    assert shares_for(3, (5_000, 3_000, 2_000)) == (5_000, 3_000, 2_000)
    assert shares_for(1, (5_000, 3_000, 2_000)) == (10_000,)
    assert shares_for(40, None) == standard_shares(40)
    with pytest.raises(PayoutError):
        shares_for(0, (10_000,))


def test_a_tournament_with_custom_payouts_pays_them_scaled_to_its_field() -> None:
    structure = preset("hyper")
    config = TournamentConfig("c", structure, 100, payout_shares=(5_000, 3_000, 2_000))
    tournament = Tournament(config)
    for name in ("ann", "bob"):
        tournament.register(name)
    assert tournament.prizes() == (125, 75)
    tournament.register("cy")
    assert tournament.prizes() == (150, 90, 60)
