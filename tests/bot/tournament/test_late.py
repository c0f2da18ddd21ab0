"""Late registration and re-entry through the director on real storage: an entry after the start
is paid into the pool, seated at the table with the fewest players and announced; a busted
member re-enters up to the limit; every refusal is one sentence that changes nothing;
registration closes when the last late level ends; and an entry paid for just before a crash is
seated by the resumed director, the prizes paying out every chip."""

from __future__ import annotations

import pytest

from bot.tables.clock import HaltableScheduler, ManualScheduler
from bot.tournament import late
from bot.tournament.director import TournamentDirector
from bot.tournament.errors import TournamentRefusal
from bot.tournament.launch import TournamentDirectors
from bot.tournament.news import ClockChanged, TournamentOver
from engine.tournament.structure import AnteKind, Break, Format, Level, Structure
from engine.tournament.tournament import Tournament, TournamentConfig
from storage import Storage
from storage.errors import InsufficientChips
from storage.tournaments import EntryPayment, TournamentKind
from tests.bot.tournament.support import ALICE, BOB, GUILD, RecordingFront, new_tournament
from tests.bot.tournament.test_desk import step_until
from tests.bot.tournament.test_director import directors_for

CAROL = 13
BOTS = ("Ada", "Bea")


def late_structure(stack: int = 1_000, minutes: int = 2) -> Structure:
    """Late registration to the end of level 2, which a break follows; one re-entry."""
    steps = (
        Level(10, 20, minutes=minutes),
        Level(20, 40, minutes=minutes),
        Break(1),
        Level(40, 80, 80, minutes=minutes),
        Level(100, 200, 200, minutes=minutes),
        Level(300, 600, 600, minutes=minutes),
    )
    return Structure(
        "late", stack, steps, AnteKind.BIG_BLIND, late_registration_levels=2, re_entries=1
    )


async def running(
    storage: Storage,
    scheduler: ManualScheduler,
    structure: Structure,
    *,
    max_entries: int = 6,
    bots: tuple[str, ...] = BOTS,
    halt: HaltableScheduler | None = None,
) -> tuple[TournamentDirectors, TournamentDirector, RecordingFront]:
    """Alice and Bob and house bots on two tables of 3 (timers on ``halt`` when given, so a
    test can stop them as a crash would); Carol has chips and no entry."""
    row = await new_tournament(
        storage, structure, kind=TournamentKind.MULTI_TABLE, seats=3, max_entries=max_entries
    )
    await storage.admin_grant(GUILD, CAROL, 1_000, actor_id=ALICE, key="grant-carol")
    await storage.start_tournament(row.tournament_id, bots=list(bots))
    fronts: dict[int, RecordingFront] = {}
    directors = directors_for(storage, halt or scheduler, fronts)
    await directors.start(row.tournament_id)
    await scheduler.advance(0)
    director = directors.running[row.tournament_id]
    fronts[row.tournament_id].director = director
    return directors, director, fronts[row.tournament_id]


def entries_of(director: TournamentDirector, user_id: int) -> int:
    return late.entries_of(director.engine, f"u{user_id}")


# --- the pure parts ------------------------------------------------------------------------------


def test_registration_closes_when_the_level_after_the_last_late_one_starts_breaks_included() -> (
    None
):
    structure = late_structure(minutes=2)
    assert late.closes_at(structure, 0, 1_000.0) == 1_000 + 2 * 120 + 60
    assert late.closes_at(structure, 2, 5_000.0) == 5_000 + 60  # on the break after level 2
    by_hands = Structure(
        "hands", 1_000, (Level(10, 20, hands=5), Level(20, 40, hands=5)), late_registration_levels=1
    )
    assert late.closes_at(by_hands, 0, 0.0) is None
    assert late.planned(structure, 100.0) == late.LateRegistration(True, 2, 100 + 300)
    assert late.planned(Structure("none", 1_000, (Level(10, 20, minutes=5),)), 0.0) is None


def bust(engine: Tournament, number: int) -> None:
    """Play a hand at entry ``number``'s table in which it loses every chip."""
    where = engine.seating.where(number)
    assert where is not None
    setup = engine.start_hand(where[0])
    stacks = dict(zip(setup.entries, setup.stacks, strict=True))
    winner = next(entry for entry in setup.entries if entry != number)
    stacks[winner] += stacks[number]
    stacks[number] = 0
    engine.finish_hand(where[0], stacks)


def engine_with_a_bust() -> Tournament:
    """A running multi-table tournament of three where u1 (entry 1) has busted."""
    config = TournamentConfig(
        "t", late_structure(), 100, Format.MULTI_TABLE, seats_per_table=3, max_entries=4
    )
    engine = Tournament(config)
    for player in ("u1", "u2", "u3"):
        engine.register(player)
    engine.start(0.0)
    bust(engine, 1)
    return engine


def test_each_refusal_is_one_sentence_and_a_busted_player_may_re_enter() -> None:
    engine = engine_with_a_bust()
    assert late.refusal(engine, "u1") is None, "busted, within the re-entry limit"
    assert late.refusal(engine, "u9") is None, "a newcomer during late registration"
    assert "already playing" in (late.refusal(engine, "u2") or "")
    engine.register("u1")
    assert late.refusal(engine, "u4") == "The tournament is full (4 entries)."
    used = engine_with_a_bust()
    used.register("u1")
    bust(used, 4)  # the re-entry busts too
    assert late.refusal(used, "u1") == "You have re-entered once, the most this tournament allows."
    closed = engine_with_a_bust()
    closed.advance_clock(301.0)
    assert late.refusal(closed, "u9") == (
        "Late registration is over: it closed at the end of level 2."
    )
    closed.cancel()
    assert late.refusal(closed, "u9") == "The tournament is cancelled: it takes no more entries."


def test_an_entry_key_names_the_tournament_the_player_and_their_entry_number() -> None:
    assert late.entry_key(7, "u13", 2) == "tournament:7:u13:entry:2"


# --- through the director -----------------------------------------------------------------------


async def test_a_late_entry_is_paid_seated_at_the_emptiest_table_and_announced(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    _, director, front = await running(storage, scheduler, late_structure(), max_entries=6)
    engine = director.engine
    counts = engine.seating.counts()
    fewest = min(counts.values())
    carol = await storage.balance(GUILD, CAROL)
    entry = await director.enter_late(CAROL, "Carol")
    assert (entry.name, entry.user_id, entry.re_entry, entry.entries) == ("Carol", CAROL, False, 5)
    assert counts[entry.table] == fewest, "the table with the fewest players"
    assert engine.seating.tables[entry.table][entry.seat] == len(engine.entries)
    assert entry in front.news
    assert await storage.balance(GUILD, CAROL) == carol - 110
    row = await storage.get_tournament(director.tournament_id)
    assert row is not None and row.prize_pool == 500
    view = director.view()
    assert view.late == late.LateRegistration(True, 2, engine.clock.started_at + 300)
    assert view.prizes == engine.prizes() and sum(view.prizes) == 500
    await step_until(scheduler, lambda: entry.table not in engine.busy)
    table = director.tables[entry.table]
    assert any(seat.user_id == CAROL for seat in table.seats.values()), "seated between hands"
    assert (await storage.check()).ok


async def test_refused_late_entries_change_nothing(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    _, director, _ = await running(storage, scheduler, late_structure(), max_entries=5)
    engine = director.engine
    wallet = await storage.balance(GUILD, ALICE)
    with pytest.raises(TournamentRefusal, match="already playing"):
        await director.enter_late(ALICE, "Alice")
    assert await storage.balance(GUILD, ALICE) == wallet and len(engine.entries) == 4
    carol = await storage.balance(GUILD, CAROL)
    await storage.admin_take(GUILD, CAROL, carol - 50, actor_id=ALICE, key="take-carol")
    with pytest.raises(InsufficientChips):
        await director.enter_late(CAROL, "Carol")
    assert await storage.balance(GUILD, CAROL) == 50 and len(engine.entries) == 4
    await storage.admin_grant(GUILD, CAROL, 950, actor_id=ALICE, key="grant-carol-2")
    await director.enter_late(CAROL, "Carol")
    await storage.admin_grant(GUILD, 14, 1_000, actor_id=ALICE, key="grant-14")
    dan = await storage.balance(GUILD, 14)
    with pytest.raises(TournamentRefusal, match=r"full \(5 entries\)"):
        await director.enter_late(14, "Dan")
    assert await storage.balance(GUILD, 14) == dan and len(engine.entries) == 5
    assert (await storage.check()).ok


async def test_late_registration_closes_at_the_end_of_its_last_level(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    _, director, front = await running(storage, scheduler, late_structure(), max_entries=6)
    engine = director.engine
    closes = engine.clock.started_at + 300
    carol = await storage.balance(GUILD, CAROL)
    await step_until(scheduler, lambda: scheduler.now() >= closes)
    assert not engine.registration_open
    closed = [n for n in front.news if isinstance(n, ClockChanged) and n.view.late is not None]
    assert closed[-1].view.late == late.LateRegistration(False, 2, None)
    with pytest.raises(TournamentRefusal, match="Late registration is over"):
        await director.enter_late(CAROL, "Carol")
    assert await storage.balance(GUILD, CAROL) == carol
    assert entries_of(director, CAROL) == 0


async def test_a_busted_member_re_enters_once_and_is_refused_after_the_limit(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    # Short stacks and long levels: members fold their turns away and bust by the blinds.
    structure = late_structure(stack=60, minutes=60)
    _, director, front = await running(
        storage, scheduler, structure, max_entries=9, bots=("Ada", "Bea", "Cid", "Dot")
    )
    engine = director.engine

    def busted() -> bool:
        return (
            next(
                (
                    m
                    for m in (ALICE, BOB)
                    if entries_of(director, m) and not engine.entry_of(f"u{m}")
                ),
                None,
            )
            is not None
        )

    await step_until(scheduler, busted)
    member = ALICE if engine.entry_of(f"u{ALICE}") is None else BOB
    wallet = await storage.balance(GUILD, member)
    entry = await director.enter_late(member, "Member")
    assert entry.re_entry and entries_of(director, member) == 2
    assert await storage.balance(GUILD, member) == wallet - 110
    [stored] = [e for e in await storage.tournament_entries(director.tournament_id)
                if e.user_id == member]  # fmt: skip
    assert (stored.re_entries, stored.paid_in) == (1, 200)
    await step_until(scheduler, lambda: engine.entry_of(f"u{member}") is None)
    assert engine.registration_open, "the re-entry busted within the late levels"
    with pytest.raises(TournamentRefusal, match="re-entered once"):
        await director.buy(member, EntryPayment.RE_ENTRY)  # the same rules by /tournament buy
    assert await storage.balance(GUILD, member) == wallet - 110
    assert entries_of(director, member) == 2
    await scheduler.run_until_idle(limit=300_000)
    over = next(n for n in front.news if isinstance(n, TournamentOver))
    assert sum(p.prize for p in over.placings) == len(engine.entries) * 100
    assert (await storage.check()).ok


async def test_late_entries_saved_or_only_paid_before_a_crash_are_seated_after_it(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    first = HaltableScheduler(scheduler)
    _, crashed, _ = await running(
        storage, scheduler, late_structure(stack=300), max_entries=6, halt=first
    )
    tid = crashed.tournament_id
    carol = await storage.balance(GUILD, CAROL)
    await storage.admin_grant(GUILD, 14, 1_000, actor_id=ALICE, key="grant-14")
    await crashed.enter_late(14, "Dan")  # saved with the state before the crash
    # The payment is in storage; the process dies before the engine's state is saved with it.
    key = late.entry_key(tid, f"u{CAROL}", 1)
    await storage.enter_tournament_late(tid, CAROL, key=key)
    first.halt()

    fronts: dict[int, RecordingFront] = {}
    after = directors_for(storage, HaltableScheduler(scheduler), fronts)
    assert await after.resume_all() == [tid]
    resumed = after.running[tid]
    fronts[tid].director = resumed
    for member in (14, CAROL):
        entry = resumed.engine.entry_of(f"u{member}")
        assert entry is not None and resumed.engine.seating.where(entry.number) is not None
    [told] = [n for n in fronts[tid].news if isinstance(n, late.LateEntry)]
    assert (told.user_id, told.re_entry) == (CAROL, False), "the seat-ready mention is made"
    assert resumed.engine.chips_in_play == resumed.engine.chips_issued
    with pytest.raises(TournamentRefusal, match="already playing"):
        await resumed.enter_late(CAROL, "Carol")  # clicking again pays nothing more
    assert await storage.balance(GUILD, CAROL) == carol - 110
    await scheduler.run_until_idle(limit=300_000)
    over = next(n for n in fronts[tid].news if isinstance(n, TournamentOver))
    assert sum(p.prize for p in over.placings) == 6 * 100
    assert (await storage.check()).ok
