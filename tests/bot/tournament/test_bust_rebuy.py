"""Rebuys offered at the bust, through the director on real hosts and storage with hand-driven
time (``ManualScheduler``, which runs callbacks inline: nothing may wait on an answer). A
member busting in the rebuy period is held, not eliminated; the table plays on without her;
her answer (or the timer) comes later; every refusal changes nothing; a restart keeps the
offer and its time left."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from bot.holdem.events import HandDealt
from bot.tables.clock import HaltableScheduler, ManualScheduler
from bot.tournament.bust_rebuys import NO_OFFER, REBUY_WINDOW_SECONDS
from bot.tournament.director import TournamentDirector
from bot.tournament.errors import TournamentRefusal
from bot.tournament.news import PlayerBusted, RebuyOffered, TournamentOver
from engine.holdem import Call, Check, RaiseTo
from engine.tournament.tournament import Phase
from storage import Storage
from storage.errors import InsufficientChips
from storage.tournaments import EntryPayment, TournamentKind
from tests.bot.tournament.support import (
    ALICE,
    BOB,
    GUILD,
    RecordingFront,
    new_tournament,
    start_in_storage,
)
from tests.bot.tournament.test_desk import with_rebuys
from tests.bot.tournament.test_director import directors_for, started

ME = f"u{ALICE}"


async def alice_and_two_bots(
    storage: Storage, scheduler: ManualScheduler
) -> tuple[TournamentDirector, RecordingFront]:
    row = await new_tournament(storage, with_rebuys(), members=(ALICE,), seats=3, max_entries=3)
    _, director, front = await started(storage, scheduler, row.tournament_id)
    return director, front


async def shove(director: TournamentDirector) -> None:
    """Alice moves all in (or calls, or checks) if it is her turn anywhere."""
    for table in list(director.tables.values()):
        snapshot = table.snapshot()
        seat = snapshot.seat(snapshot.to_act_seat or 0)
        legal = snapshot.legal
        if legal is None or seat is None or seat.user_id != ALICE or snapshot.hand_id is None:
            continue
        if legal.max_raise_to is not None:
            action: RaiseTo | Call | Check = RaiseTo(legal.max_raise_to)
        else:
            action = Check() if legal.can_check else Call()
        await table.act(ALICE, snapshot.hand_id, snapshot.action_count, action)


async def play_until(
    scheduler: ManualScheduler, director: TournamentDirector, done: Callable[[], bool]
) -> None:
    """Alice shoves, the bots play, time moves half a second a step, until ``done()``."""
    for _ in range(20_000):
        if done():
            return
        await shove(director)
        await scheduler.advance(0.5)
    raise AssertionError("never happened")


def offers(front: RecordingFront) -> list[RebuyOffered]:
    return [news for news in front.news if isinstance(news, RebuyOffered)]


def busted(front: RecordingFront, user_id: int) -> list[PlayerBusted]:
    return [n for n in front.news if isinstance(n, PlayerBusted) and n.user_id == user_id]


async def until_offered(
    scheduler: ManualScheduler, director: TournamentDirector, front: RecordingFront
) -> RebuyOffered:
    await play_until(scheduler, director, lambda: bool(offers(front)))
    return offers(front)[-1]


async def test_a_bust_in_the_rebuy_period_is_held_and_the_table_plays_on_without_her(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    director, front = await alice_and_two_bots(storage, scheduler)
    offered = await until_offered(scheduler, director, front)
    engine = director.engine
    [entry] = [e for e in engine.entries.values() if e.player == ME]
    assert (offered.user_id, offered.entry, offered.chips) == (ALICE, entry.number, 1_000)
    assert offered.until == pytest.approx(scheduler.now() + REBUY_WINDOW_SECONDS, abs=1)
    assert entry.number in engine.held and entry.place is None and not entry.alive
    assert busted(front, ALICE) == []
    seat = engine.held[entry.number].seat
    seen = len(front.tables[offered.table].events)

    def dealt_without_her() -> bool:
        later = front.tables[offered.table].events[seen:]
        return any(isinstance(e, HandDealt) and seat not in e.seats for e in later)

    await play_until(scheduler, director, dealt_without_her)
    assert entry.number in engine.held, "the table went on; her decision is still open"


async def test_a_rebuy_taken_is_paid_once_and_she_plays_on_with_the_rebuy_stack(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    director, front = await alice_and_two_bots(storage, scheduler)
    wallet = await storage.balance(GUILD, ALICE)
    offered = await until_offered(scheduler, director, front)
    await director.decide_rebuy(ME, True)
    entry = director.engine.entries[offered.entry]
    assert entry.alive and entry.rebuys == 1 and entry.stack == 1_000
    assert director.engine.seating.where(entry.number) is not None
    assert await storage.balance(GUILD, ALICE) == wallet - 110
    with pytest.raises(TournamentRefusal, match=NO_OFFER):
        await director.decide_rebuy(ME, True)  # a double click pays once
    assert await storage.balance(GUILD, ALICE) == wallet - 110
    [stored] = [e for e in await storage.tournament_entries(director.tournament_id) if e.user_id]
    assert stored.rebuys == 1
    await scheduler.run_until_idle(limit=500_000)
    assert director.done.is_set()
    over = next(n for n in front.news if isinstance(n, TournamentOver))
    paid = sum(
        1 + e.rebuys + e.add_ons for e in await storage.tournament_entries(director.tournament_id)
    )
    assert sum(p.prize for p in over.placings) == paid * 100
    assert (await storage.check()).ok


async def test_a_rebuy_declined_eliminates_her_in_the_place_of_her_bust(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    director, front = await alice_and_two_bots(storage, scheduler)
    wallet = await storage.balance(GUILD, ALICE)
    await until_offered(scheduler, director, front)
    place = director.engine.players_left + 1  # out first of those at her bust
    await director.decide_rebuy(ME, False)
    assert [b.place for b in busted(front, ALICE)] == [place]
    assert await storage.balance(GUILD, ALICE) == wallet
    with pytest.raises(TournamentRefusal, match=NO_OFFER):
        await director.decide_rebuy(ME, True)
    await scheduler.run_until_idle(limit=500_000)
    over = next(n for n in front.news if isinstance(n, TournamentOver))
    assert [p.place for p in over.placings if p.user_id == ALICE] == [place]
    assert (await storage.check()).ok


async def test_an_offer_nobody_answers_ends_at_its_deadline_without_stalling_anything(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    director, front = await alice_and_two_bots(storage, scheduler)
    director.bust_rebuys.window = 5.0  # the window is a setting
    wallet = await storage.balance(GUILD, ALICE)
    offered = await until_offered(scheduler, director, front)
    assert offered.until == scheduler.now() + 5.0
    place = director.engine.players_left + 1
    await scheduler.advance(offered.until - scheduler.now() - 1)
    assert offered.entry in director.engine.held and busted(front, ALICE) == []
    await scheduler.advance(1)
    assert offered.entry not in director.engine.held
    assert [b.place for b in busted(front, ALICE)] == [place]
    with pytest.raises(TournamentRefusal, match=NO_OFFER):
        await director.decide_rebuy(ME, True)  # too late
    assert await storage.balance(GUILD, ALICE) == wallet
    await scheduler.run_until_idle(limit=500_000)
    assert director.done.is_set() and (await storage.check()).ok


async def test_a_wallet_that_cannot_pay_is_refused_and_the_offer_stays_open(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    director, front = await alice_and_two_bots(storage, scheduler)
    offered = await until_offered(scheduler, director, front)
    left = await storage.balance(GUILD, ALICE)
    await storage.admin_take(GUILD, ALICE, left - 50, actor_id=ALICE, key="drain")
    with pytest.raises(InsufficientChips):
        await director.decide_rebuy(ME, True)
    assert offered.entry in director.engine.held
    assert await storage.balance(GUILD, ALICE) == 50
    with pytest.raises(TournamentRefusal, match=NO_OFFER):
        await director.decide_rebuy(f"u{BOB}", True)  # not Bob's offer: he has none
    await director.decide_rebuy(ME, False)
    assert busted(front, ALICE) and (await storage.check()).ok


async def test_no_rebuy_answer_is_taken_once_the_tournament_is_over(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    director, front = await alice_and_two_bots(storage, scheduler)
    await until_offered(scheduler, director, front)
    await director.decide_rebuy(ME, False)
    await scheduler.run_until_idle(limit=500_000)
    assert director.engine.phase is Phase.FINISHED
    with pytest.raises(TournamentRefusal, match="is over"):
        await director.decide_rebuy(ME, True)


async def test_a_restart_keeps_a_held_offer_and_its_time_left(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, with_rebuys(), members=(ALICE,), seats=3, max_entries=3)
    first = HaltableScheduler(scheduler)
    fronts: dict[int, RecordingFront] = {}
    before = directors_for(storage, first, fronts)
    await start_in_storage(storage, row.tournament_id)
    await before.start(row.tournament_id)
    await scheduler.advance(0)
    crashed = before.running[row.tournament_id]
    offered = await until_offered(scheduler, crashed, fronts[row.tournament_id])
    await scheduler.advance(20)
    first.halt()  # the process dies 20 s into the offer

    second = HaltableScheduler(scheduler)
    after = directors_for(storage, second, {})
    assert await after.resume_all() == [row.tournament_id]
    resumed = after.running[row.tournament_id]
    assert offered.entry in resumed.engine.held
    assert resumed.engine.held[offered.entry].until == offered.until
    await scheduler.advance(offered.until - scheduler.now() - 1)
    assert offered.entry in resumed.engine.held, "the timer resumed with the time left"
    await scheduler.advance(1)
    assert offered.entry not in resumed.engine.held
    assert resumed.engine.entries[offered.entry].place is not None
    await scheduler.run_until_idle(limit=500_000)
    assert resumed.done.is_set() and (await storage.check()).ok


async def test_a_held_member_cannot_buy_a_re_entry_or_a_rebuy_by_command_meanwhile(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    structure = dataclasses.replace(with_rebuys(), late_registration_levels=2, re_entries=1)
    row = await new_tournament(
        storage, structure, kind=TournamentKind.MULTI_TABLE, members=(ALICE,), seats=3,
        max_entries=4,
    )  # fmt: skip
    _, director, front = await started(storage, scheduler, row.tournament_id)
    # Room for one more entry (bots filled the field): only the held bust refuses a re-entry.
    engine = director.engine
    engine.config = dataclasses.replace(engine.config, max_entries=5)
    await until_offered(scheduler, director, front)
    assert engine.registration_open
    wallet = await storage.balance(GUILD, ALICE)
    with pytest.raises(TournamentRefusal, match="Answer the rebuy offered at your bust"):
        await director.buy(ALICE, EntryPayment.RE_ENTRY)
    with pytest.raises(TournamentRefusal, match="No rebuy now"):
        await director.buy(ALICE, EntryPayment.REBUY)
    assert await storage.balance(GUILD, ALICE) == wallet
    await director.decide_rebuy(ME, True)
    assert await storage.balance(GUILD, ALICE) == wallet - 110
