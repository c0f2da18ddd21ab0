"""Seating by the TDA rules: the draw, balancing, breaking and the final table, over many
field sizes, deterministic for a seed."""

from __future__ import annotations

import json
import random

import pytest

from engine.tournament import Format, Seating, SeatReason, Tournament, TournamentConfig, preset
from engine.tournament.seating import FINAL_TABLE, big_blind_seat, hand_order
from tests.engine.tournament.driver import play_out


@pytest.mark.parametrize("seats", [2, 6, 9, 10])
def test_the_draw_spreads_every_field_size_evenly(seats: int) -> None:
    for players in range(2, 120):
        seating = Seating(seats)
        seating.draw(list(range(1, players + 1)), random.Random(players))
        counts = [len(row) for row in seating.tables.values()]
        assert len(counts) == -(-players // seats)
        assert max(counts) - min(counts) <= 1 and max(counts) <= seats
        assert sorted(e for row in seating.tables.values() for e in row.values()) == list(
            range(1, players + 1)
        )


def test_the_button_moves_to_the_next_occupied_seat_and_heads_up_button_is_small_blind() -> None:
    assert hand_order({2, 5, 7}, 5) == (7, (2, 5, 7))
    assert hand_order({2, 5, 7}, 7) == (2, (5, 7, 2))
    assert big_blind_seat((5, 7, 2)) == 7
    assert big_blind_seat((5, 2)) == 5  # heads-up: the non-button is the big blind


def test_balancing_moves_the_next_big_blind_into_the_equivalent_seat() -> None:
    seating = Seating(
        9,
        {1: {s: s for s in range(1, 10)}, 2: {1: 21, 2: 22, 5: 25, 6: 26, 7: 27, 8: 28, 9: 29}},
        {1: 3, 2: 5},
    )
    seating.tables[2].pop(1)
    seating.tables[2].pop(2)  # table 2 now has 5 players, table 1 has 9
    moves = seating.rearrange(set(), random.Random(0))
    first = moves[0]
    assert first.reason is SeatReason.BALANCE and first.from_table == 1
    # Table 1's next hand: button 4, small blind 5, big blind 6: seat 6 moves.
    assert first.entry == 6
    # Table 2's next hand: button 6, big blind 8; any of the empty seats 1-4 posts the big
    # blind two hands later (seats 1-4 come after 9), so the lowest is taken.
    assert (first.table, first.seat) == (2, 1)


def test_a_busy_table_is_never_touched() -> None:
    seating = Seating(9, {1: {s: s for s in range(1, 10)}, 2: {1: 21, 2: 22}}, {1: 1, 2: 1})
    assert seating.rearrange({1}, random.Random(0)) == []
    assert len(seating.rearrange(set(), random.Random(0))) == 3  # 9-2 -> 6/5 in three moves


def test_tables_break_highest_number_first_and_the_final_table_is_redrawn() -> None:
    seating = Seating(6, {1: {1: 1, 2: 2, 3: 3}, 2: {1: 4, 2: 5, 3: 6}, 3: {1: 7, 2: 8}}, {})
    moves = seating.rearrange(set(), random.Random(1))
    assert {m.from_table for m in moves if m.reason is SeatReason.BREAK} == {3}
    assert sorted(seating.tables) == [1, 2]
    seating.tables[2] = {1: 4, 2: 5}
    seating.tables[1] = {1: 1, 2: 2, 3: 3, 4: 7}
    moves = seating.rearrange(set(), random.Random(2))
    assert {m.reason for m in moves} == {SeatReason.FINAL_TABLE}
    assert list(seating.tables) == [FINAL_TABLE] and len(seating.tables[FINAL_TABLE]) == 6


@pytest.mark.parametrize("entries", [10, 19, 27, 45, 64, 100, 181])
def test_multi_table_tournaments_of_many_sizes_end_at_one_table(entries: int) -> None:
    config = TournamentConfig(
        "mtt", preset("hyper", Format.MULTI_TABLE), 10, Format.MULTI_TABLE, 9, entries, seed=entries
    )
    tournament = Tournament(config)
    for number in range(entries):
        tournament.register(f"p{number}")
    tournament.start(0)
    reached_final: list[bool] = []

    def after(t: Tournament) -> None:
        reached_final.append(list(t.seating.tables) == [FINAL_TABLE])

    done = play_out(tournament, random.Random(entries), after_hand=after)
    assert any(reached_final) and len(done.results) == entries


def test_same_seed_same_tournament() -> None:
    def run(seed: int) -> object:
        config = TournamentConfig(
            "d", preset("hyper", Format.MULTI_TABLE), 10, Format.MULTI_TABLE, 6, 30, seed=seed
        )
        tournament = Tournament(config)
        for number in range(30):
            tournament.register(f"p{number}")
        tournament.start(0)
        return play_out(tournament, random.Random(4)).results

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_the_seed_alone_decides_the_draw_and_every_move() -> None:
    """Same seed: the same seats and the same moves; another seed: another draw."""

    def history(seed: int) -> tuple[str, list[str]]:
        config = TournamentConfig(
            "d", preset("hyper", Format.MULTI_TABLE), 10, Format.MULTI_TABLE, 6, 40, seed=seed
        )
        tournament = Tournament(config)
        for number in range(40):
            tournament.register(f"p{number}")
        tournament.start(0)

        def seats(t: Tournament) -> str:
            state = t.to_dict()
            return json.dumps([state["tables"], state["buttons"]], sort_keys=True)

        drawn = seats(tournament)
        moves: list[str] = []

        def after(t: Tournament) -> None:
            moves.append(seats(t))

        play_out(tournament, random.Random(9), after_hand=after)
        return drawn, moves

    first = history(7)
    assert history(7) == first
    assert history(8)[0] != first[0]
