"""Hypothesis properties of whole tournaments played with made-up hands: chips are conserved
hand to hand and through moves, the pool paid is what was collected minus the fee, no table is
left short while another could take a player, and every move follows the TDA rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    Format,
    PlayerEliminated,
    PlayerSeated,
    Seating,
    Tournament,
    TournamentConfig,
    preset,
)
from engine.tournament.tournament import Phase
from tests.engine.tournament.driver import check_move, made_up_result, settle


def _config(entries: int, seats: int, fee: int, rebuys: bool, seed: int) -> TournamentConfig:
    structure = preset("hyper", Format.MULTI_TABLE)
    if rebuys:
        structure = structure.with_rebuys()
    return TournamentConfig(
        "property", structure, 100, Format.MULTI_TABLE, seats, entries + 10, fee, seed=seed
    )


def _assert_tables_sound(tournament: Tournament) -> None:
    seats = tournament.config.seats_per_table
    counts = {n: len(row) for n, row in tournament.seating.tables.items()}
    for count in counts.values():
        assert count <= seats
    if len(counts) > 1:
        # Between hands (every table idle here): balanced within one, none short while
        # another table has room.
        assert max(counts.values()) - min(counts.values()) <= 1
        for table, count in counts.items():
            room = any(c < seats for n, c in counts.items() if n != table)
            assert count >= 2 or not room


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    entries=st.integers(2, 70),
    seats=st.integers(2, 10),
    fee=st.integers(0, 25),
    rebuys=st.booleans(),
)
def test_whole_tournaments_conserve_chips_pay_the_pool_and_move_by_the_rules(
    seed: int, entries: int, seats: int, fee: int, rebuys: bool
) -> None:
    rng = random.Random(seed)
    tournament = Tournament(_config(entries, seats, fee, rebuys, seed))
    for number in range(entries):
        tournament.register(f"p{number}")
    tournament.start(0.0)
    now = 0.0
    late = 0
    while tournament.phase is Phase.RUNNING:
        assert tournament.chips_in_play == tournament.chips_issued
        if tournament.on_break:
            for entry in tournament.alive:
                if tournament.can_add_on(entry.number):
                    tournament.add_on(entry.number)
            due = tournament.next_change_at
            assert due is not None
            now = due
            tournament.advance_clock(now)
            continue
        if tournament.registration_open and late < 5 and rng.random() < 0.05:
            late += 1
            tournament.register(f"late{late}")
            _assert_tables_sound(tournament)
        for table in sorted(tournament.seating.tables):
            if tournament.phase is not Phase.RUNNING or not tournament.can_start_hand(table):
                continue
            _play_checked_hand(tournament, table, rng)
        now += 60
        if tournament.phase is Phase.RUNNING:
            tournament.advance_clock(now)
    results = tournament.results
    assert sorted(f.entry for f in results) == sorted(tournament.entries)
    assert sum(f.prize for f in results) == tournament.collected - tournament.fee
    assert tournament.fee == tournament.collected * fee // 100


def _play_checked_hand(tournament: Tournament, table: int, rng: random.Random) -> None:
    setup = tournament.start_hand(table)
    assert sum(setup.stacks) <= tournament.chips_issued
    before = Seating(
        tournament.config.seats_per_table,
        tournament.seating.tables,
        {**tournament.seating.buttons, table: setup.button},
    )
    final = dict(zip(setup.entries, made_up_result(setup.stacks, rng, 0.15), strict=True))
    rebuys = [e for e, s in final.items() if s == 0 and tournament.may_rebuy(e, stack=0)]
    events = tournament.finish_hand(table, final, rebuys[: rng.randint(0, len(rebuys))])
    for event in events:
        if isinstance(event, PlayerEliminated):
            before.remove(event.entry)
        elif isinstance(event, PlayerSeated):
            check_move(before, event.move, set())
    assert tournament.chips_in_play == tournament.chips_issued
    if tournament.phase is Phase.RUNNING:
        settle(before)
        assert before.tables == tournament.seating.tables
        _assert_tables_sound(tournament)
