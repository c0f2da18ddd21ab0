"""Rebuys, add-ons, re-entries and deals through the director: paid into the pool in storage
first, refused in one sentence when the rules do not allow them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.tables.clock import ManualScheduler
from bot.tournament.deals import DealKind
from bot.tournament.director import TournamentDirector
from bot.tournament.errors import TournamentRefusal
from bot.tournament.news import TournamentOver
from engine.tournament.structure import AnteKind, Level, Structure
from storage import Storage
from storage.tournaments import EntryPayment
from tests.bot.tournament.support import ALICE, BOB, GUILD, new_tournament
from tests.bot.tournament.test_director import by_hands, started


async def step_until(scheduler: ManualScheduler, done: Callable[[], bool]) -> None:
    """Move time half a second at a time until ``done()`` (at most an hour)."""
    for _ in range(7_200):
        if done():
            return
        await scheduler.advance(0.5)
    raise AssertionError("never happened")


def between_hands(director: TournamentDirector, user_id: int) -> Callable[[], bool]:
    def check() -> bool:
        entry = director.engine.entry_of(f"u{user_id}")
        where = director.engine.seating.where(entry.number) if entry else None
        return where is not None and where[0] not in director.engine.busy

    return check


def with_rebuys() -> Structure:
    steps = tuple(Level(sb, bb, hands=8) for sb, bb in ((10, 20), (20, 40), (50, 100), (100, 200)))
    return Structure(
        "rebuys", 1_000, steps, AnteKind.BIG_BLIND, rebuy_levels=4, rebuy_limit=2,
        rebuy_chips=1_000,
    )  # fmt: skip


async def test_a_rebuy_between_hands_is_paid_into_the_pool_and_adds_its_chips(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, with_rebuys())
    _, director, front = await started(storage, scheduler, row.tournament_id)
    before = await storage.balance(GUILD, ALICE)
    await step_until(scheduler, between_hands(director, ALICE))
    entry = director.engine.entry_of(f"u{ALICE}")
    assert entry is not None and entry.stack <= 1_000
    stack = entry.stack
    said = await director.buy(ALICE, EntryPayment.REBUY)
    assert entry.rebuys == 1 and entry.stack == stack + 1_000
    assert f"{stack + 1_000:,}" in said
    assert await storage.balance(GUILD, ALICE) == before - 110
    assert director.engine.chips_in_play == director.engine.chips_issued
    await scheduler.run_until_idle(limit=200_000)
    over = next(news for news in front.news if isinstance(news, TournamentOver))
    # Six entries, Alice's rebuy, and the rebuys bots take when they bust in the period.
    paid = sum(
        1 + e.rebuys + e.add_ons for e in await storage.tournament_entries(row.tournament_id)
    )
    assert paid >= 7 and sum(p.prize for p in over.placings) == paid * 100
    assert (await storage.check()).ok


async def test_rebuys_add_ons_and_re_entries_the_rules_do_not_allow_are_refused_and_cost_nothing(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands())
    _, director, _ = await started(storage, scheduler, row.tournament_id)
    before = await storage.balance(GUILD, ALICE)
    with pytest.raises(TournamentRefusal, match="No rebuy now"):
        await director.buy(ALICE, EntryPayment.REBUY)
    with pytest.raises(TournamentRefusal, match="No add-on now"):
        await director.buy(ALICE, EntryPayment.ADD_ON)
    with pytest.raises(TournamentRefusal, match="no late registration"):
        await director.buy(ALICE, EntryPayment.RE_ENTRY)
    assert await storage.balance(GUILD, ALICE) == before
    assert director.engine.entry_of(f"u{ALICE}").rebuys == 0  # type: ignore[union-attr]


async def test_a_deal_every_player_accepts_ends_the_tournament_with_its_split(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands(), max_entries=2, seats=2, bots_fill=False)
    _, director, front = await started(storage, scheduler, row.tournament_id)
    wallets = {m: await storage.balance(GUILD, m) for m in (ALICE, BOB)}
    with pytest.raises(TournamentRefusal, match="ask again"):
        await director.offer_deal()  # the first hand is in play; no new one starts now
    await step_until(scheduler, lambda: not director.engine.busy)
    offer = await director.offer_deal()
    assert offer.members == {ALICE, BOB}
    icm = offer.split(DealKind.ICM)
    assert sum(icm.amounts) == 200
    assert await director.accept_deal(offer, ALICE, DealKind.ICM) is False
    with pytest.raises(TournamentRefusal, match="still in"):
        await director.accept_deal(offer, 99, DealKind.ICM)
    assert await director.accept_deal(offer, BOB, DealKind.ICM) is True
    over = next(news for news in front.news if isinstance(news, TournamentOver))
    assert over.by_deal
    paid = dict(zip(offer.user_ids, icm.amounts, strict=True))
    for member in (ALICE, BOB):
        assert await storage.balance(GUILD, member) == wallets[member] + paid[member]
    assert (await storage.check()).ok


async def test_a_deal_not_everyone_accepts_changes_nothing_and_play_goes_on(
    storage: Storage, scheduler: ManualScheduler
) -> None:
    row = await new_tournament(storage, by_hands(), max_entries=3, seats=3)
    _, director, front = await started(storage, scheduler, row.tournament_id)
    await step_until(scheduler, lambda: not director.engine.busy)
    offer = await director.offer_deal()
    with pytest.raises(TournamentRefusal, match="bots"):
        await director.accept_deal(offer, ALICE, DealKind.CHIP_CHOP)
    assert await director.accept_deal(offer, ALICE, DealKind.ICM) is False
    await director.call_off_deal()
    with pytest.raises(TournamentRefusal, match="no longer"):
        await director.accept_deal(offer, BOB, DealKind.ICM)
    await scheduler.run_until_idle(limit=200_000)
    over = next(news for news in front.news if isinstance(news, TournamentOver))
    assert not over.by_deal
