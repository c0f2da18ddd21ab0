"""The tournament simulator: real hands between real bots, to the end, reproducibly."""

from __future__ import annotations

import pytest

from engine.bots.registry import make_strategy, parse_seats
from engine.tournament import Format, preset
from engine.tournament.simulate import (
    SIM_BUY_IN,
    TournamentSimError,
    play_tournament,
    simulate_tournaments,
)
from engine.tournament.tournament import TournamentConfig


def test_a_nine_player_turbo_of_smart_bots_plays_to_the_end() -> None:
    result = simulate_tournaments(parse_seats(",".join(["smart"] * 9)), 1, preset("turbo"), 7)
    places = sorted(seat.place_sum for seat in result.seats)
    assert places == list(range(1, 10))
    assert sum(seat.net for seat in result.seats) == 0  # no fee: the pool goes back out


def test_same_seed_same_summary_and_the_json_fields_are_exact() -> None:
    specs = parse_seats("random,passive,aggressive")
    first = simulate_tournaments(specs, 4, preset("hyper"), 3).summary()
    assert first == simulate_tournaments(specs, 4, preset("hyper"), 3).summary()
    assert list(first) == ["tournaments", "seats"]
    seat = first["seats"][0]  # type: ignore[index]
    assert list(seat) == ["seat", "strategy", "itm_pct", "roi_pct", "stderr_roi_pct", "avg_place"]


def test_rebuys_add_entries_per_seat() -> None:
    result = simulate_tournaments(
        parse_seats("aggressive,random,aggressive"), 3, preset("hyper"), 1, rebuys=True
    )
    assert result.rebuys_happened
    assert all("entries" in row for row in result.summary()["seats"])  # type: ignore[attr-defined]
    cost = sum(seat.payments for seat in result.seats) * SIM_BUY_IN
    assert sum(seat.net for seat in result.seats) == 0 and cost > 9 * SIM_BUY_IN


def test_a_multi_table_field_of_bots_plays_to_the_end() -> None:
    config = TournamentConfig(
        "mtt", preset("hyper", Format.MULTI_TABLE), SIM_BUY_IN, Format.MULTI_TABLE, 9, 30, seed=2
    )
    strategies = {f"bot{n}": parse_seats("aggressive")[0] for n in range(30)}
    played = play_tournament(config, {k: make_strategy(v) for k, v in strategies.items()}, "t")
    places = sorted(o.place for o in played.outcomes.values())
    assert len(places) == 30 and places[:2] == [1, 2]  # same-hand ties may share lower places
    assert sum(o.prize for o in played.outcomes.values()) == 30 * SIM_BUY_IN


def test_bad_simulations_are_refused() -> None:
    with pytest.raises(TournamentSimError, match="2 to 10"):
        simulate_tournaments(parse_seats("smart"), 1, preset("turbo"), 1)
    with pytest.raises(TournamentSimError, match="at least 1"):
        simulate_tournaments(parse_seats("smart,smart"), 0, preset("turbo"), 1)


@pytest.mark.slow
def test_smart_bots_win_sit_and_gos_against_random_ones_beyond_the_error() -> None:
    result = simulate_tournaments(
        parse_seats("smart,random,random,smart,random,random"), 200, preset("turbo"), 2024
    )
    for seat in (result.seats[0], result.seats[3]):
        assert seat.roi_pct - 1.96 * seat.stderr_roi_pct > 0
