"""Late registration and re-entry in storage, on SQLite and PostgreSQL: each entry after the start
moves one buy-in and fee into the pool in its own ledger row, a re-sent entry applies once, the
field (re-entries included) stays within ``max_entries``, every refusal changes nothing, and the
finish and ``db check`` account for every chip."""

from __future__ import annotations

import pytest

from storage.errors import InsufficientChips
from storage.store import Storage
from storage.tournaments import TournamentFull, TournamentNotOpen, TournamentStatus
from tests.storage.support import Sql, State
from tests.storage.test_tournaments import ALICE, BOB, CAROL, GUILD, START, house, sit_and_go


async def running(storage: Storage, *, max_entries: int = 6, buy_in: int = 100) -> int:
    """A tournament of alice and bob, started."""
    tid = await sit_and_go(storage, max_entries=max_entries, buy_in=buy_in)
    for member in (ALICE, BOB):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.start_tournament(tid)
    return tid


async def test_a_late_registration_moves_the_buy_in_into_the_running_pool(storage: Storage) -> None:
    tid = await running(storage)
    late = await storage.enter_tournament_late(tid, CAROL, key="late-c-1")
    assert late.wallet_balance == START - 110
    assert (late.entry.user_id, late.entry.re_entries, late.entry.paid_in) == (CAROL, 0, 100)
    assert (late.tournament.entries, late.tournament.prize_pool) == (3, 300)
    assert late.tournament.status is TournamentStatus.RUNNING
    assert (await storage.check()).ok


async def test_each_re_entry_is_a_separate_ledger_row_on_the_members_entry(
    storage: Storage, sql: Sql
) -> None:
    tid = await running(storage)
    await storage.enter_tournament_late(tid, ALICE, key="alice-2")
    again = await storage.enter_tournament_late(tid, ALICE, key="alice-3")
    assert (again.entry.re_entries, again.entry.paid_in, again.entry.fees_paid) == (2, 300, 30)
    assert again.wallet_balance == START - 330
    assert again.tournament.prize_pool == 400
    pool = sql("SELECT pool_account_id FROM tournaments WHERE tournament_id = ?", tid)[0][0]
    buy_ins = sql(
        "SELECT COUNT(*) FROM ledger WHERE account_id = ? AND kind = 'buy_in' AND delta > 0", pool
    )[0][0]
    assert buy_ins == 4, "two registrations and two re-entries, one ledger row each"
    assert (await storage.check()).ok


async def test_a_re_sent_late_entry_applies_once(storage: Storage, state: State) -> None:
    tid = await running(storage)
    first = await storage.enter_tournament_late(tid, CAROL, key="late-c-1")
    before = state()
    assert await storage.enter_tournament_late(tid, CAROL, key="late-c-1") == first
    assert state() == before


@pytest.mark.parametrize("reason", ["full", "full by re-entries", "not started", "over"])
async def test_a_refused_late_entry_changes_nothing(
    storage: Storage, state: State, reason: str
) -> None:
    tid = await sit_and_go(storage, max_entries=3)
    await storage.ensure_account(GUILD, CAROL)
    for member in (ALICE, BOB):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    if reason != "not started":
        await storage.start_tournament(tid)
    if reason == "full":
        await storage.enter_tournament_late(tid, CAROL, key="late-c")
    if reason == "full by re-entries":
        await storage.enter_tournament_late(tid, ALICE, key="alice-2")
    if reason == "over":
        await storage.finish_tournament(tid, {ALICE: 1, BOB: 2}, {ALICE: 200}, key="finish")
    expected: dict[str, type[Exception]] = {
        "full": TournamentFull,
        "full by re-entries": TournamentFull,
        "not started": TournamentNotOpen,
        "over": TournamentNotOpen,
    }
    player = BOB if reason == "full" else CAROL
    before = state()
    with pytest.raises(expected[reason]):
        await storage.enter_tournament_late(tid, player, key="refused")
    assert state() == before


async def test_a_wallet_short_of_a_late_buy_in_is_refused_and_changes_nothing(
    storage: Storage, state: State
) -> None:
    tid = await running(storage, buy_in=600)
    await storage.ensure_account(GUILD, ALICE)
    before = state()
    with pytest.raises(InsufficientChips):
        await storage.enter_tournament_late(tid, ALICE, key="alice-2")
    assert state() == before


async def test_the_finish_pays_out_late_entries_and_re_entries_exactly(storage: Storage) -> None:
    tid = await running(storage)
    await storage.enter_tournament_late(tid, CAROL, key="late-c")
    await storage.enter_tournament_late(tid, BOB, key="bob-2")
    house_before = await house(storage)
    places = {ALICE: 3, BOB: 1, CAROL: 2}
    finished = await storage.finish_tournament(tid, places, {BOB: 250, CAROL: 150}, key="fin")
    assert (finished.paid, finished.house_fee) == (400, 40)
    assert await storage.balance(GUILD, BOB) == START - 220 + 250
    assert await storage.balance(GUILD, CAROL) == START - 110 + 150
    assert await house(storage) == house_before + 40
    assert (await storage.check()).ok
