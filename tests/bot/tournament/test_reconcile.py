"""A rebuy or add-on paid into storage just before a crash, the engine's state not saved after
it: the resumed director applies it when the engine can still take it, refunds it when it
cannot, tells the member, and the tournament still finishes and pays its whole pool with
``db check`` exact (real hosts and storage, hand-driven time)."""

from __future__ import annotations

from bot.tables.clock import HaltableScheduler, ManualScheduler
from bot.tournament.bust_rebuys import rebuy_key
from bot.tournament.director import TournamentDirector
from bot.tournament.reconcile import PaymentSettled
from storage import Storage
from storage.tournaments import EntryPayment, TournamentEntry
from tests.bot.tournament.support import ALICE, GUILD, RecordingFront, new_tournament
from tests.bot.tournament.support import start_in_storage as start_stored
from tests.bot.tournament.test_bust_rebuy import until_offered
from tests.bot.tournament.test_desk import between_hands, step_until, with_rebuys
from tests.bot.tournament.test_director import directors_for

ME = f"u{ALICE}"


async def crashing(
    storage: Storage, scheduler: ManualScheduler
) -> tuple[HaltableScheduler, TournamentDirector, RecordingFront]:
    """Alice and two bots in a rebuy tournament, run by a process that can die."""
    row = await new_tournament(storage, with_rebuys(), members=(ALICE,), seats=3, max_entries=3)
    first = HaltableScheduler(scheduler)
    fronts: dict[int, RecordingFront] = {}
    before = directors_for(storage, first, fronts)
    await start_stored(storage, row.tournament_id)
    await before.start(row.tournament_id)
    await scheduler.advance(0)
    return first, before.running[row.tournament_id], fronts[row.tournament_id]


async def restarted(
    storage: Storage, scheduler: ManualScheduler, first: HaltableScheduler, tournament_id: int
) -> tuple[TournamentDirector, RecordingFront]:
    """The process dies now (nothing saved since the last save) and a new one resumes."""
    first.halt()
    fronts: dict[int, RecordingFront] = {}
    after = directors_for(storage, HaltableScheduler(scheduler), fronts)
    assert await after.resume_all() == [tournament_id]
    return after.running[tournament_id], fronts[tournament_id]


async def stored(storage: Storage, tournament_id: int) -> list[TournamentEntry]:
    return list(await storage.tournament_entries(tournament_id))


async def paid_out_exactly(
    storage: Storage, scheduler: ManualScheduler, director: TournamentDirector
) -> int:
    """Play to the end: the finish paid the whole pool; Alice's prize."""
    await scheduler.run_until_idle(limit=500_000)
    assert director.done.is_set(), "the tournament finished and paid out"
    entries = await stored(storage, director.tournament_id)
    pool = sum(e.paid_in for e in entries)
    assert sum(e.prize for e in entries) == pool == director.engine.prize_pool
    assert (await storage.check()).ok
    return next(e.prize for e in entries if e.user_id == ALICE)


def told(front: RecordingFront) -> list[PaymentSettled]:
    return [news for news in front.news if isinstance(news, PaymentSettled)]


async def test_a_held_busts_rebuy_paid_before_a_crash_is_applied_on_resume(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    first, crashed, front = await crashing(storage, scheduler)
    tid = crashed.tournament_id
    offered = await until_offered(scheduler, crashed, front)
    wallet = await storage.balance(GUILD, ALICE)
    key = rebuy_key(tid, offered.entry, 1)
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key=key)

    resumed, after = await restarted(storage, scheduler, first, tid)
    entry = resumed.engine.entries[offered.entry]
    assert entry.alive and entry.rebuys == 1 and offered.entry not in resumed.engine.held
    assert resumed.engine.seating.where(offered.entry) is not None
    [news] = told(after)
    assert (news.user_id, news.payment, news.refunded, news.chips) == (
        ALICE,
        EntryPayment.REBUY,
        False,
        1_000,
    )
    assert "applied" in news.line
    prize = await paid_out_exactly(storage, scheduler, resumed)
    assert await storage.balance(GUILD, ALICE) == wallet - 110 + prize


async def test_a_command_rebuy_paid_before_a_crash_is_applied_on_resume(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    first, crashed, _front = await crashing(storage, scheduler)
    tid = crashed.tournament_id

    def can_rebuy() -> bool:
        entry = crashed.engine.entry_of(ME)
        return between_hands(crashed, ALICE)() and entry is not None and entry.stack <= 1_000

    await step_until(scheduler, can_rebuy)
    wallet = await storage.balance(GUILD, ALICE)
    key = f"tournament:{tid}:{ME}:rebuy:1"  # the director's own key for it
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key=key)

    resumed, after = await restarted(storage, scheduler, first, tid)
    entry = resumed.engine.entry_of(ME)
    assert entry is not None and entry.rebuys == 1
    assert [(n.payment, n.refunded) for n in told(after)] == [(EntryPayment.REBUY, False)]
    prize = await paid_out_exactly(storage, scheduler, resumed)
    assert await storage.balance(GUILD, ALICE) == wallet - 110 + prize


async def test_a_payment_the_engine_can_no_longer_take_is_refunded_and_told(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    first, crashed, _front = await crashing(storage, scheduler)
    tid = crashed.tournament_id
    wallet = await storage.balance(GUILD, ALICE)
    # This structure sells no add-on: nothing the engine can apply it to.
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.ADD_ON, key="addon-1")
    bot = next(e.bot_name for e in await stored(storage, tid) if e.bot_name is not None)
    assert bot is not None
    await storage.pay_tournament_entry(tid, bot, EntryPayment.ADD_ON, key="bot-addon-1")

    resumed, after = await restarted(storage, scheduler, first, tid)
    [news] = told(after)  # the bot's is the house's: nobody to tell
    assert (news.user_id, news.payment, news.refunded, news.chips) == (
        ALICE,
        EntryPayment.ADD_ON,
        True,
        110,
    )
    assert "back in your wallet" in news.line
    assert await storage.balance(GUILD, ALICE) == wallet
    assert all(e.add_ons == 0 for e in await stored(storage, tid))
    prize = await paid_out_exactly(storage, scheduler, resumed)
    assert await storage.balance(GUILD, ALICE) == wallet + prize


async def test_a_resume_with_nothing_to_settle_tells_nobody(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    first, crashed, _front = await crashing(storage, scheduler)
    await scheduler.advance(5)
    resumed, after = await restarted(storage, scheduler, first, crashed.tournament_id)
    assert told(after) == []
    await paid_out_exactly(storage, scheduler, resumed)
