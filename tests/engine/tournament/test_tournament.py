"""The tournament state machine: registration, the clock, hands, eliminations, rebuys,
add-ons, deals, refusals that change nothing, and resuming from a saved state."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from engine.tournament import (
    AddOnBought,
    BreakStarted,
    Format,
    Level,
    LevelStarted,
    PlayerEliminated,
    RebuyBought,
    RegistrationClosed,
    Structure,
    Tournament,
    TournamentCancelled,
    TournamentConfig,
    TournamentFinished,
    TournamentSetupError,
    TournamentStateError,
    preset,
)
from engine.tournament.structure import Break
from engine.tournament.tournament import Phase
from tests.engine.tournament.driver import play_out

HANDS = Structure(
    "by hands",
    1000,
    (Level(10, 20, hands=2), Level(20, 40, hands=2), Level(50, 100, 100, hands=2)),
)


def _sng(players: int = 4, structure: Structure = HANDS, room: int | None = None) -> Tournament:
    config = TournamentConfig("test", structure, 100, max_entries=room or players)
    tournament = Tournament(config)
    for number in range(players):
        tournament.register(f"p{number}")
    return tournament


def _unchanged(
    tournament: Tournament, action: Callable[[], object], error: type[Exception]
) -> None:
    before = json.dumps(tournament.to_dict(), sort_keys=True)
    with pytest.raises(error):
        action()
    assert json.dumps(tournament.to_dict(), sort_keys=True) == before


def test_registration_refusals_change_nothing() -> None:
    tournament = _sng(3, room=4)
    _unchanged(tournament, lambda: tournament.register("p0"), TournamentStateError)
    tournament.register("p3")
    _unchanged(tournament, lambda: tournament.register("p9"), TournamentStateError)  # full
    _unchanged(tournament, lambda: tournament.unregister("nobody"), TournamentStateError)
    _unchanged(tournament, lambda: tournament.register(""), TournamentSetupError)


def test_unregister_renumbers_and_start_needs_two_entries() -> None:
    tournament = _sng(2)
    tournament.unregister("p0")
    assert [(e.number, e.player) for e in tournament.entries.values()] == [(1, "p1")]
    _unchanged(tournament, lambda: tournament.start(0), TournamentStateError)


def test_start_draws_everyone_and_closes_sit_and_go_registration() -> None:
    tournament = _sng(4)
    events = tournament.start(0)
    assert isinstance(events[-1], RegistrationClosed)
    assert sorted(tournament.seating.tables[1].values()) == [1, 2, 3, 4]
    _unchanged(tournament, lambda: tournament.register("late"), TournamentStateError)
    _unchanged(tournament, lambda: tournament.unregister("p1"), TournamentStateError)


def test_hand_result_that_creates_chips_is_refused_and_changes_nothing() -> None:
    tournament = _sng(3)
    tournament.start(0)
    setup = tournament.start_hand(1)
    bad = {entry: 1001 for entry in setup.entries}
    _unchanged(tournament, lambda: tournament.finish_hand(1, bad), TournamentSetupError)
    _unchanged(tournament, lambda: tournament.finish_hand(1, {1: 3000}), TournamentSetupError)
    _unchanged(tournament, lambda: tournament.start_hand(1), TournamentStateError)


def test_same_hand_busts_rank_by_starting_stack_and_ties_share_places() -> None:
    tournament = _sng(4)
    tournament.start(0)
    # Give entry 4 the stacks to set up: 1 and 2 start the hand with 700 and 700, 3 with 600.
    tournament.entries[1].stack, tournament.entries[2].stack = 700, 700
    tournament.entries[3].stack, tournament.entries[4].stack = 600, 2000
    setup = tournament.start_hand(1)
    events = tournament.finish_hand(1, {e: (4000 if e == 4 else 0) for e in setup.entries})
    places = {e.entry: e.place for e in events if isinstance(e, PlayerEliminated)}
    assert places == {3: 4, 1: 2, 2: 2}
    finished = next(e for e in events if isinstance(e, TournamentFinished))
    # 4 entries pay 65/35 of 400: 260 to 1st; 2nd and 3rd (140 + 0) split 70/70.
    assert [(f.place, f.entry, f.prize) for f in finished.results] == [
        (1, 4, 260), (2, 1, 70), (2, 2, 70), (4, 3, 0),
    ]  # fmt: skip


def test_hand_counted_levels_rise_after_their_hands() -> None:
    tournament = _sng(2)
    tournament.start(0)
    seen: list[int] = []
    for _ in range(5):
        setup = tournament.start_hand(1)
        seen.append(setup.stakes.big_blind)
        events = tournament.finish_hand(1, dict(zip(setup.entries, setup.stacks, strict=True)))
    assert seen == [20, 20, 40, 40, 100]
    assert not [e for e in events if isinstance(e, LevelStarted)]
    assert tournament.level_number == 3


def test_minute_levels_and_breaks_follow_the_injected_clock() -> None:
    structure = preset("regular", Format.MULTI_TABLE)
    config = TournamentConfig("mtt", structure, 10, Format.MULTI_TABLE, 9, 50)
    tournament = Tournament(config)
    for number in range(20):
        tournament.register(f"p{number}")
    tournament.start(1_000.0)
    assert tournament.advance_clock(1_000.0 + 599) == []
    events = tournament.advance_clock(1_000.0 + 6 * 600)
    assert [e.number for e in events if isinstance(e, LevelStarted)] == [2, 3, 4, 5, 6]
    assert isinstance(events[-1], BreakStarted)
    assert tournament.on_break and not tournament.can_start_hand(1)
    _unchanged(tournament, lambda: tournament.start_hand(1), TournamentStateError)
    events = tournament.advance_clock(1_000.0 + 6 * 600 + 300)
    assert [type(e) for e in events] == [LevelStarted, RegistrationClosed]
    _unchanged(tournament, lambda: tournament.advance_clock(0), TournamentSetupError)


def test_late_registration_and_re_entry_during_the_late_period() -> None:
    structure = preset("turbo", Format.MULTI_TABLE)
    tournament = Tournament(TournamentConfig("mtt", structure, 10, Format.MULTI_TABLE, 6, 30))
    for number in range(7):
        tournament.register(f"p{number}")
    tournament.start(0)
    tournament.register("late")
    assert tournament.entry_of("late") is not None
    tournament.entries[1].place = 8  # p0 busted (set directly: only the rule is under test)
    tournament.seating.remove(1)
    events = tournament.register("p0")
    assert events[0].re_entry  # type: ignore[union-attr]
    tournament.entries[len(tournament.entries)].place = 8
    _unchanged(tournament, lambda: tournament.register("p0"), TournamentStateError)


def test_rebuys_only_in_the_period_and_the_add_on_only_at_its_break() -> None:
    structure = Structure(
        "rebuys",
        1000,
        (Level(10, 20, minutes=10), Break(5, add_on=True), Level(20, 40, minutes=10)),
        rebuy_levels=1,
        rebuy_limit=1,
        rebuy_chips=1000,
        add_on_chips=1500,
    )
    tournament = _sng(3, structure)
    tournament.start(0)
    assert tournament.rebuy(2) == [RebuyBought(2, 1000, 1)]
    _unchanged(tournament, lambda: tournament.rebuy(2), TournamentStateError)  # limit, stack
    _unchanged(tournament, lambda: tournament.add_on(1), TournamentStateError)
    tournament.advance_clock(600)
    assert tournament.add_on(1) == [AddOnBought(1, 1500)]
    _unchanged(tournament, lambda: tournament.add_on(1), TournamentStateError)
    tournament.advance_clock(900)
    _unchanged(tournament, lambda: tournament.rebuy(3), TournamentStateError)
    assert tournament.collected == 100 * 5
    assert tournament.chips_in_play == tournament.chips_issued == 3000 + 1000 + 1500


def test_a_busted_player_rebuys_with_the_hand_result() -> None:
    structure = preset("turbo").with_rebuys()
    tournament = _sng(2, structure)
    tournament.start(0)
    setup = tournament.start_hand(1)
    loser, winner = setup.entries
    events = tournament.finish_hand(1, {loser: 0, winner: 3000}, rebuys=[loser])
    assert events == [RebuyBought(loser, 1500, 1)]
    assert tournament.entries[loser].stack == 1500 and tournament.phase is Phase.RUNNING


def test_cancel_refunds_everything_paid() -> None:
    tournament = _sng(3, preset("turbo").with_rebuys())
    tournament.start(0)
    tournament.rebuy(1)
    (event,) = tournament.cancel()
    assert isinstance(event, TournamentCancelled)
    assert [r.amount for r in event.refunds] == [200, 100, 100]
    _unchanged(tournament, tournament.cancel, TournamentStateError)


def test_a_deal_pays_what_is_left_and_only_then() -> None:
    tournament = _sng(4)
    tournament.start(0)
    _unchanged(tournament, lambda: tournament.deal({1: 400}), TournamentSetupError)
    assert tournament.remaining_prizes() == (260, 140, 0, 0)
    (event,) = tournament.deal({1: 100, 2: 100, 3: 100, 4: 100})
    assert isinstance(event, TournamentFinished) and event.by_deal
    assert sum(f.prize for f in event.results) == 400


def test_a_saved_tournament_resumes_exactly() -> None:
    def run(restart_every: int) -> tuple[object, ...]:
        config = TournamentConfig(
            "resume", preset("hyper", Format.MULTI_TABLE), 50, Format.MULTI_TABLE, 6, 40, 5, seed=3
        )
        tournament = Tournament(config)
        for number in range(33):
            tournament.register(f"p{number}")
        tournament.start(0)
        done = play_out(tournament, random.Random(8), restart_every=restart_every)
        return done.results

    assert run(0) == run(7)


def test_a_finished_tournament_reads_back_the_same() -> None:
    tournament = _sng(3)
    tournament.start(0)
    done = play_out(tournament, random.Random(2))
    restored = Tournament.from_dict(json.loads(json.dumps(done.to_dict())))
    assert restored.to_dict() == done.to_dict()
    assert restored.players_left == done.players_left == 0
    assert restored.results == done.results


def test_a_hand_in_play_when_saved_is_voided_on_restart() -> None:
    tournament = _sng(3)
    tournament.start(0)
    tournament.start_hand(1)
    restored = Tournament.from_dict(json.loads(json.dumps(tournament.to_dict())))
    assert restored.can_start_hand(1)
    tournament.void_hand(1)
    assert tournament.to_dict() == restored.to_dict()
    with pytest.raises(TournamentSetupError, match="not a saved tournament"):
        Tournament.from_dict({"config": {}})


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(TournamentSetupError, match="buy-in"):
        TournamentConfig("x", HANDS, 0)
    with pytest.raises(TournamentSetupError, match="one table"):
        TournamentConfig("x", HANDS, 10, max_entries=12)
    with pytest.raises(TournamentSetupError, match="no late registration"):
        TournamentConfig("x", preset("turbo", Format.MULTI_TABLE), 10)


def test_hand_counted_levels_in_a_multi_table_tournament_follow_the_busiest_table() -> None:
    config = TournamentConfig("mtt", HANDS, 10, Format.MULTI_TABLE, 3, 6)
    tournament = Tournament(config)
    for number in range(6):
        tournament.register(f"p{number}")
    tournament.start(0)
    assert sorted(tournament.seating.tables) == [1, 2]
    for _ in range(2):  # table 1 alone plays the level's two hands
        setup = tournament.start_hand(1)
        tournament.finish_hand(1, dict(zip(setup.entries, setup.stacks, strict=True)))
    assert tournament.level_number == 2
    assert tournament.start_hand(2).stakes.big_blind == 40


def test_no_deal_while_late_registration_is_open() -> None:
    structure = preset("turbo", Format.MULTI_TABLE)
    tournament = Tournament(TournamentConfig("mtt", structure, 10, Format.MULTI_TABLE, 9, 20))
    for number in range(3):
        tournament.register(f"p{number}")
    tournament.start(0)
    amounts = {1: 10, 2: 10, 3: 10}
    _unchanged(tournament, lambda: tournament.deal(amounts), TournamentStateError)
