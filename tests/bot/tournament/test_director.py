"""The tournament director on real table hosts and real storage: Sit & Gos and multi-table
tournaments to the end, with every step checked (chips, table sizes, seats)."""

from __future__ import annotations

import itertools

import pytest

from bot.holdem.errors import TableError
from bot.holdem.events import ActionTaken, HandDealt, HandFinished, PlayerSatOut, TurnStarted
from bot.tables.clock import HaltableScheduler, ManualScheduler, Scheduler
from bot.tournament.director import TournamentDirector
from bot.tournament.launch import TournamentDirectors
from bot.tournament.news import PlayerMoved, TournamentOver
from engine.holdem import ActionKind
from engine.tournament.seating import SeatReason
from engine.tournament.structure import AnteKind, Break, Level, Structure
from engine.tournament.tournament import Phase
from storage import Storage
from storage.tournaments import TournamentKind, TournamentStatus
from tests.bot.tournament.support import (
    ALICE,
    BOB,
    GUILD,
    RecordingFront,
    new_tournament,
    pushers,
    start_in_storage,
)

LADDER = ((10, 20), (20, 40), (40, 80), (75, 150), (150, 300), (300, 600), (600, 1200))


def by_hands(hands: int = 6, starting: int = 1_000) -> Structure:
    steps = tuple(Level(sb, bb, bb if bb >= 80 else 0, hands=hands) for sb, bb in LADDER)
    steps += (Level(1_000, 2_000, 2_000, hands=hands),)
    return Structure("test", starting, steps, AnteKind.BIG_BLIND)


def invariants(director: TournamentDirector) -> None:
    """Chips conserved; no table above its seats; a table short of 2 only while every other
    table is in a hand or full; every idle host seats exactly the engine's row."""
    engine = director.engine
    if engine.phase is not Phase.RUNNING:
        return
    assert engine.chips_in_play == engine.chips_issued
    seats = engine.config.seats_per_table
    counts = engine.seating.counts()
    for table_no, count in counts.items():
        assert count <= seats
        if count < 2 and table_no not in engine.busy:
            others = [n for n in counts if n != table_no]
            assert all(n in engine.busy or counts[n] == seats for n in others)
    for table_no, table in director.tables.items():
        if table.hand is None and table_no not in director.settling:
            row = engine.seating.tables.get(table_no, {})
            assert set(table.seats) == set(row)
            for seat_no, entry in row.items():
                assert table.seats[seat_no].stack == engine.entries[entry].stack


def ranked_with_ties(places: list[int]) -> bool:
    """Places as ties give them: ``k`` players sharing place ``p`` leave ``p+1..p+k-1`` out."""
    ordered = sorted(places)
    return all(place == ordered.index(place) + 1 for place in ordered)


def directors_for(
    storage: Storage, scheduler: Scheduler, fronts: dict[int, RecordingFront]
) -> TournamentDirectors:
    def front(row: object) -> RecordingFront:
        tournament_id = row.tournament_id  # type: ignore[attr-defined]
        return fronts.setdefault(tournament_id, RecordingFront(tournament_id, invariants))

    directors = TournamentDirectors(
        storage=storage,
        scheduler=scheduler,
        fronts=front,
        bots=pushers,
        names=lambda guild, user: f"member {user}",
    )
    return directors


async def started(
    storage: Storage, scheduler: ManualScheduler, tournament_id: int
) -> tuple[TournamentDirectors, TournamentDirector, RecordingFront]:
    fronts: dict[int, RecordingFront] = {}
    directors = directors_for(storage, scheduler, fronts)
    front = fronts.setdefault(tournament_id, RecordingFront(tournament_id, invariants))
    await start_in_storage(storage, tournament_id)
    await directors.start(tournament_id)
    await scheduler.advance(0)
    director = directors.running[tournament_id]
    front.director = director
    return directors, director, front


async def test_a_sit_and_go_of_two_members_and_bots_plays_to_the_end_and_pays_the_places(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    wallets = {m: await storage.balance(GUILD, m) for m in (ALICE, BOB)}
    _, director, front = await started(storage, scheduler, row.tournament_id)
    await scheduler.run_until_idle(limit=200_000)
    assert director.done.is_set()
    over = [news for news in front.news if isinstance(news, TournamentOver)]
    assert len(over) == 1
    placings = over[0].placings
    assert len(placings) == 6 and min(p.place for p in placings) == 1
    assert ranked_with_ties([p.place for p in placings])
    assert sum(p.prize for p in placings) == 6 * 100
    prize = {p.user_id: p.prize for p in placings if p.user_id is not None}
    for member in (ALICE, BOB):
        assert await storage.balance(GUILD, member) == wallets[member] + prize[member]
    stored = await storage.get_tournament(row.tournament_id)
    assert stored is not None and stored.status is TournamentStatus.FINISHED
    assert (await storage.check()).ok
    assert front.checks > 10  # the invariants ran after every hand


async def test_timed_out_members_sit_out_but_stay_dealt_in_and_never_stall_the_table(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    _, director, front = await started(storage, scheduler, row.tournament_id)
    await scheduler.run_until_idle(limit=200_000)
    assert director.done.is_set()
    events = front.tables[1].events
    sat_out = [e for e in events if isinstance(e, PlayerSatOut) and e.user_id == ALICE]
    assert sat_out, "Alice never acts: two timeouts sit her out"
    after = events[events.index(sat_out[0]) :]
    next_hand = next(e for e in after if isinstance(e, HandDealt))
    assert sat_out[0].seat_no in next_hand.seats


async def test_a_member_who_leaves_is_blinded_away_and_still_gets_a_place(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    _, director, front = await started(storage, scheduler, row.tournament_id)
    table = director.tables[1]
    assert await table.leave(ALICE) is True
    seat_no = table.seat_of(ALICE)
    assert seat_no is not None and table.seats[seat_no].sitting_out
    await scheduler.run_until_idle(limit=200_000)
    dealt = [e for e in front.tables[1].events if isinstance(e, HandDealt)]
    assert sum(seat_no in e.seats for e in dealt) >= 2
    over = next(news for news in front.news if isinstance(news, TournamentOver))
    assert any(p.user_id == ALICE for p in over.placings)


async def test_the_button_moves_to_the_next_occupied_seat_each_hand(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    _, _, front = await started(storage, scheduler, row.tournament_id)
    await scheduler.run_until_idle(limit=200_000)
    dealt = [e for e in front.tables[1].events if isinstance(e, HandDealt)]
    assert len(dealt) > 5
    for before, after in itertools.pairwise(dealt):
        occupied = sorted(after.seats)
        later = [seat for seat in occupied if seat > before.button_seat]
        assert after.button_seat == (later[0] if later else occupied[0])


async def test_tournament_tables_refuse_joining_rebuying_and_stopping(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    _, director, _ = await started(storage, scheduler, row.tournament_id)
    table = director.tables[1]
    with pytest.raises(TableError, match="/tournament"):
        await table.join(77, "Zed")
    with pytest.raises(TableError, match="/tournament"):
        await table.rebuy(ALICE, 100)
    with pytest.raises(TableError, match="stops when"):
        await table.stop(ALICE, is_admin=True)
    assert table.seat_of(77) is None


async def test_a_multi_table_tournament_balances_breaks_and_draws_a_final_table(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(
        storage, by_hands(4), kind=TournamentKind.MULTI_TABLE, seats=6, max_entries=20
    )
    _, director, front = await started(storage, scheduler, row.tournament_id)
    assert len(director.tables) == 4
    await scheduler.run_until_idle(limit=500_000)
    assert director.done.is_set()
    reasons = {news.reason for news in front.news if isinstance(news, PlayerMoved)}
    assert SeatReason.FINAL_TABLE in reasons
    assert reasons & {SeatReason.BALANCE, SeatReason.BREAK}
    over = next(news for news in front.news if isinstance(news, TournamentOver))
    assert len(over.placings) == 20 and ranked_with_ties([p.place for p in over.placings])
    assert sum(p.prize for p in over.placings) == 20 * 100
    assert (await storage.check()).ok
    hands = await storage.tournament_hands(row.tournament_id)
    assert {hand.table_no for hand in hands} == {1, 2, 3, 4}


async def test_minute_levels_and_a_break_deal_nothing_until_the_break_ends(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    structure = Structure(
        "clock",
        1_000,
        (Level(10, 20, minutes=2), Break(3), Level(20, 40, minutes=2), Level(50, 100, minutes=60)),
        AnteKind.BIG_BLIND,
    )
    row = await new_tournament(storage, structure, kind=TournamentKind.MULTI_TABLE, max_entries=6)
    _, director, front = await started(storage, scheduler, row.tournament_id)
    start = scheduler.now()
    await scheduler.advance(120 + 1)
    assert director.engine.on_break
    recorder = front.tables[1]
    before = len(recorder.of(HandDealt))
    await scheduler.advance(170)
    during = recorder.of(HandDealt)[before:]
    hand_running = director.tables[1].hand is not None
    assert len(during) == 0 or hand_running
    await scheduler.advance(20)
    assert not director.engine.on_break
    assert director.engine.level_number == 2
    assert len(recorder.of(HandDealt)) > before
    assert scheduler.now() - start > 300


async def test_a_restart_mid_tournament_voids_the_hands_in_play_and_resumes_to_the_end(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(
        storage, by_hands(4), kind=TournamentKind.MULTI_TABLE, seats=6, max_entries=20
    )
    first = HaltableScheduler(scheduler)
    fronts: dict[int, RecordingFront] = {}
    before = directors_for(storage, first, fronts)
    await start_in_storage(storage, row.tournament_id)
    await before.start(row.tournament_id)
    await scheduler.advance(0)
    crashed = before.running[row.tournament_id]
    await scheduler.advance(40)
    assert not crashed.done.is_set() and crashed.engine.busy, "hands are in play"
    saved = await storage.load_tournament(row.tournament_id)
    first.halt()  # the process dies: nothing more runs, nothing is voided in storage

    second = HaltableScheduler(scheduler)
    after_fronts: dict[int, RecordingFront] = {}
    after = directors_for(storage, second, after_fronts)
    assert await after.resume_all() == [row.tournament_id]
    resumed = after.running[row.tournament_id]
    after_fronts[row.tournament_id].director = resumed
    assert saved.state is not None
    restored, was = resumed.engine.to_dict(), saved.state["engine"]
    for part in ("entries", "tables", "buttons", "bust_groups", "registration_open"):
        assert restored[part] == was[part], part
    assert resumed.memory.hands == crashed.memory.hands
    assert resumed.engine.chips_in_play == resumed.engine.chips_issued
    await scheduler.run_until_idle(limit=500_000)
    assert resumed.done.is_set()
    over = [n for n in after_fronts[row.tournament_id].news if isinstance(n, TournamentOver)]
    assert len(over) == 1 and sum(p.prize for p in over[0].placings) == 20 * 100
    assert (await storage.check()).ok
    stored = await storage.get_tournament(row.tournament_id)
    assert stored is not None and stored.status is TournamentStatus.FINISHED


async def test_a_member_sitting_out_by_choice_posts_blinds_and_folds_without_a_timer(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    _, director, front = await started(storage, scheduler, row.tournament_id)
    table = director.tables[1]
    seat_no = table.seat_of(ALICE)
    assert seat_no is not None
    await table.sit_out(ALICE)
    await scheduler.run_until_idle(limit=200_000)
    events = front.tables[1].events
    start = next(
        n for n, e in enumerate(events) if isinstance(e, PlayerSatOut) and e.user_id == ALICE
    )
    later = events[start:]
    hands = {e.hand_id for e in later if isinstance(e, HandDealt) and seat_no in e.seats}
    assert len(hands) >= 3, "she stays dealt in while she has chips"
    assert not any(isinstance(e, TurnStarted) and e.user_id == ALICE for e in later)
    hers = [e for e in later if isinstance(e, ActionTaken) and e.seat_no == seat_no]
    assert hers and all(e.automatic for e in hers)
    assert {e.kind for e in hers} <= {ActionKind.FOLD, ActionKind.CHECK}
    lost = [
        net
        for e in later
        if isinstance(e, HandFinished) and e.hand_id in hands
        for seat, _, net in e.net
        if seat == seat_no
    ]
    assert any(net < 0 for net in lost), "she posted blinds or antes she then folded"
    assert sum(lost) < 0
    over = next(news for news in front.news if isinstance(news, TournamentOver))
    assert any(p.user_id == ALICE for p in over.placings)
