"""Test support: tournaments played with made-up hands (chips moved at random between the
players dealt in) and a checker that every table move followed the TDA rules."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from engine.tournament import Move, Seating, SeatReason, Tournament
from engine.tournament.seating import FINAL_TABLE
from engine.tournament.tournament import Phase

FINAL_STAGING = -1


def made_up_result(stacks: tuple[int, ...], rng: random.Random, bust: float) -> list[int]:
    """Stacks after a pretend hand: one winner takes what the others lose (some lose all)."""
    after = list(stacks)
    winner = rng.randrange(len(after))
    for player, stack in enumerate(stacks):
        if player == winner:
            continue
        loss = stack if rng.random() < bust else rng.randint(0, stack // 3)
        after[player] -= loss
        after[winner] += loss
    return after


def check_move(seating: Seating, move: Move, busy: set[int]) -> None:
    """Assert ``move`` is TDA-legal from ``seating`` (as it was just before), then apply it."""
    tables = seating.tables
    if move.reason is SeatReason.BALANCE:
        assert move.from_table is not None and move.from_table not in busy
        counts = {n: len(row) for n, row in tables.items()}
        assert counts[move.from_table] == max(counts.values())
        assert counts[move.table] == min(counts.values())
        assert counts[move.from_table] - counts[move.table] >= 2
        assert seating.next_big_blind(move.from_table) == move.entry
        assert seating.equivalent_seat(move.table) == move.seat
    elif move.reason is SeatReason.BREAK:
        assert move.from_table is not None and move.table != move.from_table
        others = {n: len(row) for n, row in tables.items() if n != move.from_table}
        assert others[move.table] == min(others.values())
        idle = [n for n in tables if n not in busy]
        assert move.from_table == max(idle) or not tables[max(idle)]
    elif move.reason is SeatReason.FINAL_TABLE:
        assert move.table == FINAL_TABLE and not busy
    # The final table is drawn into a staging table and replaces the others when complete.
    table = FINAL_STAGING if move.reason is SeatReason.FINAL_TABLE else move.table
    assert move.seat not in tables.get(table, {})
    if move.from_table is not None and move.from_seat is not None:
        assert tables[move.from_table].pop(move.from_seat) == move.entry
    tables.setdefault(table, {})[move.seat] = move.entry


def settle(seating: Seating) -> None:
    """After a batch of checked moves: drop emptied tables, put a drawn final table in place."""
    tables = {n: row for n, row in seating.tables.items() if row}
    if FINAL_STAGING in tables:
        assert len(tables) == 1, "the final table holds everyone"
        tables = {FINAL_TABLE: tables[FINAL_STAGING]}
    seating.tables = tables


def play_out(
    tournament: Tournament,
    rng: random.Random,
    *,
    bust: float = 0.12,
    after_hand: Callable[[Tournament], None] | None = None,
    restart_every: int = 0,
) -> Tournament:
    """Play made-up hands table by table until the end; ``restart_every`` > 0 saves and
    reloads the tournament through JSON that often (in hands), as a restarted host would."""
    now = tournament.clock.now
    hands = 0
    while tournament.phase is Phase.RUNNING:
        if tournament.on_break:
            for entry in tournament.alive:
                if tournament.can_add_on(entry.number) and rng.random() < 0.5:
                    tournament.add_on(entry.number)
            due = tournament.next_change_at
            assert due is not None
            now = due
            tournament.advance_clock(now)
            continue
        for table in sorted(tournament.seating.tables):
            if not tournament.can_start_hand(table):
                continue
            setup = tournament.start_hand(table)
            after = made_up_result(setup.stacks, rng, bust)
            final = dict(zip(setup.entries, after, strict=True))
            rebuys = [e for e, s in final.items() if s == 0 and tournament.may_rebuy(e, stack=0)]
            tournament.finish_hand(table, final, [e for e in rebuys if rng.random() < 0.7])
            hands += 1
            if after_hand is not None:
                after_hand(tournament)
            if restart_every and hands % restart_every == 0:
                tournament = Tournament.from_dict(json.loads(json.dumps(tournament.to_dict())))
            if tournament.phase is not Phase.RUNNING:
                break
        if tournament.phase is Phase.RUNNING:
            now += 60
            tournament.advance_clock(now)
        assert hands < 100_000
    return tournament
