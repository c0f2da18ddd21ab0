"""Busts held for a rebuy decision: the entry leaves its table at once, its elimination waits
for ``rebuy_held``/``decline_held``, its deadline or the end of the rebuy period; places follow
the bust order whatever the order of decisions; the tournament never ends while one is held."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.tournament import (
    BustHeld,
    Format,
    Level,
    PlayerEliminated,
    PlayerSeated,
    RebuyBought,
    Structure,
    Tournament,
    TournamentConfig,
    TournamentEvent,
    TournamentFinished,
    TournamentStateError,
    preset,
)
from engine.tournament.tournament import Phase
from tests.engine.tournament.driver import made_up_result
from tests.engine.tournament.test_tournament import _unchanged

REBUYS = Structure(
    "rebuys",
    1000,
    (Level(10, 20, minutes=10), Level(20, 40, minutes=10), Level(50, 100, minutes=10)),
    rebuy_levels=1,
    rebuy_limit=2,
    rebuy_chips=1000,
)


def _table_of(players: int) -> Tournament:
    tournament = Tournament(TournamentConfig("held", REBUYS, 100, max_entries=players))
    for number in range(players):
        tournament.register(f"p{number}")
    tournament.start(0)
    return tournament


def _bust(
    tournament: Tournament, losers: dict[int, int], hold: dict[int, float]
) -> list[TournamentEvent]:
    """Play a hand at table 1 where ``losers`` (entry -> starting stack) lose everything to
    the first other player; ``hold`` as ``finish_hand`` takes it."""
    banker = next(e for e in tournament.alive if e.number not in losers)
    for entry, stack in losers.items():  # the chips come from (or go to) another player
        banker.stack += tournament.entries[entry].stack - stack
        tournament.entries[entry].stack = stack
    setup = tournament.start_hand(1)
    winner = next(e for e in setup.entries if e not in losers)
    final = {e: 0 if e in losers else tournament.entries[e].stack for e in setup.entries}
    final[winner] += sum(setup.stacks) - sum(final.values())
    return tournament.finish_hand(1, final, hold=hold)


def test_a_held_bust_leaves_its_table_at_once_and_is_not_placed_yet() -> None:
    tournament = _table_of(3)
    events = _bust(tournament, {1: 500}, {1: 60.0})
    assert events == [BustHeld(1, "p0", 60.0)]
    assert tournament.seating.where(1) is None
    assert tournament.entries[1].place is None and not tournament.entries[1].alive
    assert tournament.players_left == 2 and tournament.next_offer_end == 60.0
    assert tournament.chips_in_play == tournament.chips_issued


def test_a_held_rebuy_sits_back_in_the_seat_it_left_with_the_rebuy_stack() -> None:
    tournament = _table_of(3)
    seat = tournament.seating.where(1)
    _bust(tournament, {1: 500}, {1: 60.0})
    events = tournament.rebuy_held(1)
    assert events[0] == RebuyBought(1, 1000, 1)
    assert isinstance(events[1], PlayerSeated) and tournament.seating.where(1) == seat
    assert tournament.entries[1].alive and tournament.entries[1].stack == 1000
    assert tournament.collected == 400 and tournament.chips_in_play == tournament.chips_issued
    assert not tournament.held and not tournament.unplaced


def test_a_declined_bust_takes_the_place_of_its_bust_even_after_later_busts() -> None:
    tournament = _table_of(4)
    _bust(tournament, {1: 500}, {1: 60.0})  # 1 busts first, decision held
    later = _bust(tournament, {2: 400}, {})  # 2 busts later: placed only after 1's decision
    assert not any(isinstance(e, PlayerEliminated) for e in later)
    events = tournament.decline_held(1)
    places = {e.entry: e.place for e in events if isinstance(e, PlayerEliminated)}
    assert places == {1: 4, 2: 3}


def test_a_rebuy_after_a_later_bust_gives_that_bust_the_place_it_left() -> None:
    tournament = _table_of(4)
    _bust(tournament, {1: 500}, {1: 60.0})
    _bust(tournament, {2: 400}, {})
    events = tournament.rebuy_held(1)
    places = {e.entry: e.place for e in events if isinstance(e, PlayerEliminated)}
    assert places == {2: 4}  # 1 is back in: 2 is the first one out


def test_same_hand_busts_rank_by_starting_stack_with_the_held_one_among_them() -> None:
    tournament = _table_of(4)
    events = _bust(tournament, {1: 300, 2: 600}, {2: 60.0})
    # 1 started smaller: it finishes below 2 whatever 2 decides, so it is placed at once.
    assert [e for e in events if isinstance(e, PlayerEliminated)] == [PlayerEliminated(1, "p0", 4)]
    events = tournament.decline_held(2)
    assert [e for e in events if isinstance(e, PlayerEliminated)] == [PlayerEliminated(2, "p1", 3)]


def test_the_tournament_waits_for_a_held_bust_before_it_ends() -> None:
    tournament = _table_of(2)
    _bust(tournament, {1: 500}, {1: 60.0})
    assert tournament.phase is Phase.RUNNING and tournament.players_left == 1
    assert not tournament.can_start_hand(1)
    events = tournament.advance_clock(59.0)
    assert events == [] and tournament.held
    events = tournament.advance_clock(60.0)
    finished = next(e for e in events if isinstance(e, TournamentFinished))
    assert [(f.place, f.entry) for f in finished.results] == [(1, 2), (2, 1)]


def test_the_end_of_the_rebuy_period_ends_every_held_decision() -> None:
    tournament = _table_of(3)
    _bust(tournament, {1: 500}, {1: 10_000.0})
    assert tournament.rebuy_period_ends_at == 600.0
    events = tournament.advance_clock(600.0)
    assert PlayerEliminated(1, "p0", 3) in events and not tournament.held


def test_held_decisions_refused_change_nothing() -> None:
    tournament = _table_of(3)
    _unchanged(tournament, lambda: tournament.rebuy_held(1), TournamentStateError)
    _unchanged(tournament, lambda: tournament.decline_held(1), TournamentStateError)
    _bust(tournament, {1: 500}, {1: 60.0})
    _unchanged(tournament, lambda: tournament.register("p0"), TournamentStateError)
    _unchanged(tournament, lambda: tournament.deal({2: 100, 3: 200}), TournamentStateError)
    _unchanged(tournament, lambda: tournament.rebuy(1), TournamentStateError)
    tournament.decline_held(1)
    _unchanged(tournament, lambda: tournament.rebuy_held(1), TournamentStateError)


def test_a_held_bust_survives_a_save_and_resumes_exactly() -> None:
    tournament = _table_of(4)
    _bust(tournament, {1: 500}, {1: 60.0})
    _bust(tournament, {2: 400}, {})
    saved = json.loads(json.dumps(tournament.to_dict()))
    restored = Tournament.from_dict(saved)
    assert restored.to_dict() == tournament.to_dict()
    assert restored.next_offer_end == 60.0 and restored.players_left == 2
    events = restored.decline_held(1)
    places = {e.entry: e.place for e in events if isinstance(e, PlayerEliminated)}
    assert places == {1: 4, 2: 3}


def _play_with_holds(seed: int, entries: int, seats: int) -> tuple[Tournament, list[object]]:
    """A multi-table rebuy tournament of made-up hands where every bust the rules allow is
    held and decided later at random (rebuy, decline or the deadline)."""
    rng = random.Random(seed)
    structure = preset("hyper", Format.MULTI_TABLE).with_rebuys()
    config = TournamentConfig(
        "held", structure, 100, Format.MULTI_TABLE, seats, entries, 0, seed=seed
    )
    tournament = Tournament(config)
    for number in range(entries):
        tournament.register(f"p{number}")
    tournament.start(0.0)
    now, log = 0.0, list[object]()
    while tournament.phase is Phase.RUNNING:
        assert tournament.chips_in_play == tournament.chips_issued
        for entry in sorted(tournament.held):
            roll = rng.random()
            if roll < 0.3 and tournament.can_rebuy_held(entry):
                log += tournament.rebuy_held(entry)
            elif roll < 0.5:
                log += tournament.decline_held(entry)
        if tournament.phase is not Phase.RUNNING:
            break  # the last decline decided the tournament
        if tournament.on_break:
            now = max(now, tournament.next_change_at or now)
            log += tournament.advance_clock(now)
            continue
        for table in sorted(tournament.seating.tables):
            if tournament.phase is not Phase.RUNNING or not tournament.can_start_hand(table):
                continue
            setup = tournament.start_hand(table)
            final = dict(zip(setup.entries, made_up_result(setup.stacks, rng, 0.15), strict=True))
            hold = {
                e: now + rng.choice((0.0, 30.0, 90.0))
                for e, stack in final.items()
                if stack == 0 and tournament.may_rebuy(e, stack=0)
            }
            log.append(("hand", dict(zip(setup.entries, setup.stacks, strict=True)), final))
            log += tournament.finish_hand(table, final, hold=hold)
        if tournament.phase is Phase.RUNNING:
            now += 20
            log += tournament.advance_clock(now)
        assert len(log) < 200_000
    return tournament, log


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), entries=st.integers(2, 30), seats=st.integers(2, 9))
@example(seed=1256, entries=14, seats=5)  # a decline on a break finished the tournament
def test_held_busts_conserve_chips_and_places_follow_the_bust_order(
    seed: int, entries: int, seats: int
) -> None:
    tournament, log = _play_with_holds(seed, entries, seats)
    finished = next(e for e in log if isinstance(e, TournamentFinished))
    final = {f.entry: f.place for f in finished.results}
    # Every place told at an elimination is the final one: no later decision moved it.
    for event in log:
        if isinstance(event, PlayerEliminated):
            assert final[event.entry] == event.place
    # The bust order: an entry's last bust (a hand where it ended with 0, not bought back)
    # ranks it below everyone busting later, and by starting stack within the hand.
    last_bust: dict[int, tuple[int, int]] = {}
    for index, event in enumerate(log):
        if isinstance(event, tuple):
            _, before, after = event
            for entry, stack in after.items():
                if stack == 0:
                    last_bust[entry] = (index, before[entry])
        elif isinstance(event, RebuyBought):
            del last_bust[event.entry]  # back in: that bust no longer ranks it
    busted = sorted(last_bust, key=lambda e: last_bust[e])
    for worse, better in itertools.pairwise(busted):
        if last_bust[worse] < last_bust[better]:
            assert final[worse] > final[better]
        else:
            assert final[worse] == final[better]
    paid = sum(f.prize for f in finished.results)
    assert paid == tournament.prize_pool and tournament.collected == 100 * sum(
        1 + e.rebuys + e.add_ons for e in tournament.entries.values()
    )
