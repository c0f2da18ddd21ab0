"""Tournaments in storage, on SQLite and PostgreSQL: registration escrows the buy-in in the pool,
unregistering and cancelling refund it, the finish pays out the pool exactly, bots are funded by
the house, state saves are compare-and-set, and every refusal changes nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from storage.errors import IdempotencyConflict, InsufficientChips
from storage.models import Period
from storage.store import Storage
from storage.tournaments import (
    AlreadyRegistered,
    EntryPayment,
    InvalidTournamentResults,
    NotRegistered,
    StaleTournamentState,
    TooFewEntries,
    TournamentFull,
    TournamentKind,
    TournamentNotOpen,
    TournamentStatus,
    UnknownTournament,
)
from tests.storage.support import Sql, State

GUILD = 42
CHANNEL = 500
ADMIN, ALICE, BOB, CAROL = 1, 7, 8, 9
STRUCTURE = json.dumps({"name": "turbo sng", "starting_stack": 1500})
START = 1_000  # every wallet's starting grant


async def sit_and_go(
    storage: Storage,
    *,
    buy_in: int = 100,
    fee: int = 10,
    max_entries: int = 6,
    bots_fill: bool = False,
    key: str = "create-1",
) -> int:
    row = await storage.create_tournament(
        GUILD,
        CHANNEL,
        ADMIN,
        "Friday turbo",
        TournamentKind.SIT_AND_GO,
        buy_in,
        fee,
        STRUCTURE,
        6,
        max_entries,
        None,
        bots_fill,
        key=key,
    )
    return row.tournament_id


async def house(storage: Storage) -> int:
    report = await storage.check()
    assert report.ok, report.problems
    return await storage._read(
        lambda tx: int(
            tx.value("SELECT balance FROM accounts WHERE guild_id = ? AND kind = 'house'", (GUILD,))
        )
    )


async def test_registering_moves_buy_in_and_fee_from_the_wallet_to_the_pool(
    storage: Storage,
) -> None:
    tid = await sit_and_go(storage)
    registration = await storage.register_tournament(tid, ALICE, key="reg-a")
    assert registration.wallet_balance == START - 110
    assert (registration.tournament.entries, registration.tournament.prize_pool) == (1, 100)
    assert registration.tournament.fees == 10
    assert await storage.balance(GUILD, ALICE) == START - 110
    assert (await storage.check()).ok


async def test_a_resent_registration_applies_once(storage: Storage) -> None:
    tid = await sit_and_go(storage)
    first = await storage.register_tournament(tid, ALICE, key="reg-a")
    again = await storage.register_tournament(tid, ALICE, key="reg-a")
    assert again == first
    assert await storage.balance(GUILD, ALICE) == START - 110
    with pytest.raises(IdempotencyConflict):
        await storage.register_tournament(tid, BOB, key="reg-a")


@pytest.mark.parametrize("reason", ["twice", "full", "short", "started", "unknown"])
async def test_a_refused_registration_changes_nothing(
    storage: Storage, state: State, reason: str
) -> None:
    tid = await sit_and_go(storage, max_entries=2, buy_in=2_000 if reason == "short" else 100)
    if reason != "short":
        await storage.register_tournament(tid, ALICE, key="reg-a")
    if reason in ("full", "started"):
        await storage.register_tournament(tid, BOB, key="reg-b")
    if reason == "started":
        await storage.start_tournament(tid)
    expected: dict[str, type[Exception]] = {
        "twice": AlreadyRegistered,
        "full": TournamentFull,
        "short": InsufficientChips,
        "started": TournamentNotOpen,
        "unknown": UnknownTournament,
    }
    player = ALICE if reason in ("twice", "short") else CAROL
    await storage.ensure_account(GUILD, player)
    before = state()
    with pytest.raises(expected[reason]):
        await storage.register_tournament(tid + (99 if reason == "unknown" else 0), player, key="x")
    assert state() == before


async def test_unregistering_refunds_everything_paid(storage: Storage) -> None:
    tid = await sit_and_go(storage)
    await storage.register_tournament(tid, ALICE, key="reg-a")
    refunds = await storage.unregister_tournament(tid, ALICE, key="unreg-a")
    assert refunds.total == 110
    assert refunds.tournament.entries == 0
    assert await storage.balance(GUILD, ALICE) == START
    # Registering again is a new entry.
    await storage.register_tournament(tid, ALICE, key="reg-a2")
    assert len(await storage.tournament_entries(tid, registered_only=False)) == 2
    assert (await storage.check()).ok


async def test_unregistering_is_refused_when_not_registered_or_started(
    storage: Storage, state: State
) -> None:
    tid = await sit_and_go(storage)
    await storage.ensure_account(GUILD, BOB)
    before = state()
    with pytest.raises(NotRegistered):
        await storage.unregister_tournament(tid, BOB, key="unreg-b")
    assert state() == before
    await storage.register_tournament(tid, ALICE, key="reg-a")
    await storage.register_tournament(tid, BOB, key="reg-b")
    await storage.start_tournament(tid)
    before = state()
    with pytest.raises(TournamentNotOpen):
        await storage.unregister_tournament(tid, ALICE, key="unreg-a")
    assert state() == before


async def test_cancelling_refunds_every_entry_and_closes_the_lobby(storage: Storage) -> None:
    tid = await sit_and_go(storage)
    for member in (ALICE, BOB):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    cancelled = await storage.cancel_tournament(tid, reason="not enough players", key="cancel")
    assert cancelled.total == 220
    assert cancelled.tournament.status is TournamentStatus.CANCELLED
    assert [await storage.balance(GUILD, m) for m in (ALICE, BOB)] == [START, START]
    with pytest.raises(TournamentNotOpen):
        await storage.register_tournament(tid, CAROL, key="reg-c")
    with pytest.raises(TournamentNotOpen):
        await storage.cancel_tournament(tid, reason="again", key="cancel-2")
    assert (await storage.check()).ok


async def test_a_finished_tournament_pays_the_pool_out_exactly(storage: Storage) -> None:
    tid = await sit_and_go(storage)
    for member in (ALICE, BOB, CAROL):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    entries = await storage.start_tournament(tid)
    assert [entry.user_id for entry in entries] == [ALICE, BOB, CAROL]
    await storage.pay_tournament_entry(tid, BOB, EntryPayment.REBUY, key="rebuy-b")
    house_before = await house(storage)
    places = {ALICE: 1, BOB: 2, CAROL: 3}
    finished = await storage.finish_tournament(tid, places, {ALICE: 260, BOB: 140}, key="fin")
    assert (finished.paid, finished.house_fee) == (400, 40)
    assert finished.tournament.status is TournamentStatus.FINISHED
    assert await storage.balance(GUILD, ALICE) == START - 110 + 260
    assert await storage.balance(GUILD, BOB) == START - 220 + 140
    assert await storage.balance(GUILD, CAROL) == START - 110
    assert await house(storage) == house_before + 40
    assert {entry.user_id: (entry.place, entry.prize) for entry in finished.entries} == {
        ALICE: (1, 260),
        BOB: (2, 140),
        CAROL: (3, 0),
    }
    again = await storage.finish_tournament(tid, places, {ALICE: 260, BOB: 140}, key="fin")
    assert again == finished


@pytest.mark.parametrize("wrong", ["short", "over", "unknown player", "missing place"])
async def test_results_that_do_not_pay_the_pool_exactly_are_refused(
    storage: Storage, state: State, wrong: str
) -> None:
    tid = await sit_and_go(storage)
    for member in (ALICE, BOB):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.start_tournament(tid)
    places: dict[int | str, int] = {ALICE: 1, BOB: 2}
    prizes: dict[int | str, int] = {ALICE: 200}
    match wrong:
        case "short":
            prizes = {ALICE: 199}
        case "over":
            prizes = {ALICE: 200, BOB: 1}
        case "unknown player":
            prizes = {ALICE: 100, CAROL: 100}
        case "missing place":
            places = {ALICE: 1}
    before = state()
    with pytest.raises(InvalidTournamentResults):
        await storage.finish_tournament(tid, places, prizes, key="fin")
    assert state() == before


async def test_bots_are_funded_by_the_house_and_their_prizes_go_back_to_it(
    storage: Storage,
) -> None:
    tid = await sit_and_go(storage, bots_fill=True, fee=0)
    await storage.register_tournament(tid, ALICE, key="reg-a")
    house_before = await house(storage)
    entries = await storage.start_tournament(tid, bots=["Ada", "Bix"])
    assert [entry.player for entry in entries] == [ALICE, "Ada", "Bix"]
    assert await house(storage) == house_before - 200
    await storage.finish_tournament(
        tid, {"Ada": 1, ALICE: 2, "Bix": 3}, {"Ada": 200, ALICE: 100}, key="fin"
    )
    assert await storage.balance(GUILD, ALICE) == START
    assert await house(storage) == house_before


async def test_bots_are_refused_where_the_organiser_did_not_allow_them(
    storage: Storage, state: State
) -> None:
    tid = await sit_and_go(storage)
    await storage.register_tournament(tid, ALICE, key="reg-a")
    before = state()
    with pytest.raises(ValueError, match="bots"):
        await storage.start_tournament(tid, bots=["Ada"])
    with pytest.raises(TooFewEntries):
        await storage.start_tournament(tid)
    assert state() == before


async def test_state_saves_are_compare_and_set(storage: Storage) -> None:
    tid = await sit_and_go(storage)
    for member in (ALICE, BOB):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.start_tournament(tid)
    assert await storage.save_tournament_state(tid, {"level": 1}, 1) == 1
    assert await storage.save_tournament_state(tid, {"level": 1}, 1) == 1  # a re-send
    with pytest.raises(StaleTournamentState):
        await storage.save_tournament_state(tid, {"level": 2}, 1)
    with pytest.raises(StaleTournamentState):
        await storage.save_tournament_state(tid, {"level": 3}, 3)
    await storage.save_tournament_state(tid, {"level": 2}, 2)
    [loaded] = await storage.running_tournaments(GUILD)
    assert (loaded.state, loaded.state_version) == ({"level": 2}, 2)
    assert [entry.user_id for entry in loaded.entries] == [ALICE, BOB]


async def test_hands_are_kept_once_and_read_back_in_order(storage: Storage) -> None:
    tid = await sit_and_go(storage)
    assert await storage.record_tournament_hand(tid, 1, 1, level=1, phh="hand one")
    assert not await storage.record_tournament_hand(tid, 1, 1, level=1, phh="hand one")
    with pytest.raises(ValueError, match="another history"):
        await storage.record_tournament_hand(tid, 1, 1, level=1, phh="other")
    await storage.record_tournament_hand(tid, 2, 1, level=1, phh="hand two")
    assert [hand.phh for hand in await storage.tournament_hands(tid)] == ["hand one", "hand two"]


async def test_check_finds_a_pool_that_lost_chips(storage: Storage, sql: Sql) -> None:
    tid = await sit_and_go(storage)
    await storage.register_tournament(tid, ALICE, key="reg-a")
    assert (await storage.check()).ok
    sql("UPDATE tournament_entries SET paid_in = 50 WHERE tournament_id = ?", tid)
    report = await storage.check()
    assert any(f"tournament {tid}'s pool" in problem.message for problem in report.problems)


async def test_results_and_the_winnings_board_count_finished_tournaments(
    storage: Storage,
) -> None:
    tid = await sit_and_go(storage, fee=0)
    for member in (ALICE, BOB, CAROL):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.start_tournament(tid)
    await storage.finish_tournament(
        tid, {ALICE: 1, BOB: 2, CAROL: 3}, {ALICE: 195, BOB: 105}, key="fin"
    )
    results = await storage.tournament_results(GUILD, ALICE)
    assert (results.played, results.in_the_money, results.wins, results.net) == (1, 1, 1, 95)
    carol = await storage.tournament_results(GUILD, CAROL, season=Period.CURRENT_SEASON)
    assert (carol.played, carol.in_the_money, carol.net) == (1, 0, -100)
    board = await storage.tournament_board(GUILD)
    assert [(e.rank, e.user_id, e.value) for e in board.entries] == [
        (1, ALICE, 95),
        (2, BOB, 5),
        (3, CAROL, -100),
    ]


async def test_a_multi_table_tournament_needs_a_start_time(storage: Storage) -> None:
    with pytest.raises(ValueError, match="start time"):
        await storage.create_tournament(
            GUILD, CHANNEL, ADMIN, "Sunday", TournamentKind.MULTI_TABLE, 100, 0, STRUCTURE,
            9, 100, None, False, key="mtt",
        )  # fmt: skip
    row = await storage.create_tournament(
        GUILD, CHANNEL, ADMIN, "Sunday", TournamentKind.MULTI_TABLE, 100, 0, STRUCTURE,
        9, 100, datetime(2025, 3, 2, 20, tzinfo=UTC), False, key="mtt",
    )  # fmt: skip
    assert row.starts_at == datetime(2025, 3, 2, 20, tzinfo=UTC)
    assert [t.tournament_id for t in await storage.list_tournaments(GUILD)] == [row.tournament_id]


async def test_entry_payments_are_refused_before_the_start_or_for_strangers(
    storage: Storage, state: State
) -> None:
    tid = await sit_and_go(storage)
    await storage.register_tournament(tid, ALICE, key="reg-a")
    await storage.ensure_account(GUILD, CAROL)
    before = state()
    with pytest.raises(TournamentNotOpen):
        await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key="rebuy")
    assert state() == before
    await storage.register_tournament(tid, BOB, key="reg-b")
    await storage.start_tournament(tid)
    before = state()
    with pytest.raises(NotRegistered):
        await storage.pay_tournament_entry(tid, CAROL, EntryPayment.ADD_ON, key="addon")
    assert state() == before


async def test_cancelling_a_running_tournament_refunds_rebuys_and_bots_too(
    storage: Storage,
) -> None:
    tid = await sit_and_go(storage, bots_fill=True)
    await storage.register_tournament(tid, ALICE, key="reg-a")
    house_before = await house(storage)
    await storage.start_tournament(tid, bots=["Ada"])
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.REBUY, key="rebuy-a")
    await storage.pay_tournament_entry(tid, "Ada", EntryPayment.RE_ENTRY, key="reentry-ada")
    cancelled = await storage.cancel_tournament(tid, reason="server down", key="cancel")
    assert cancelled.total == 440
    assert await storage.balance(GUILD, ALICE) == START
    assert await house(storage) == house_before


async def test_every_chip_move_re_sent_with_its_key_applies_once(
    storage: Storage, state: State
) -> None:
    tid = await sit_and_go(storage, bots_fill=True)
    for member in (ALICE, BOB, CAROL):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.unregister_tournament(tid, CAROL, key="unreg-c")
    started = await storage.start_tournament(tid, bots=["Ada"])
    await storage.pay_tournament_entry(tid, ALICE, EntryPayment.ADD_ON, key="addon-a")
    before = state()
    assert (await storage.unregister_tournament(tid, CAROL, key="unreg-c")).total == 110
    assert await storage.start_tournament(tid, bots=["Ada"]) == started
    again = await storage.pay_tournament_entry(tid, ALICE, EntryPayment.ADD_ON, key="addon-a")
    assert again.entry.add_ons == 1
    assert state() == before
    cancelled = await storage.cancel_tournament(tid, reason="test", key="cancel")
    after = state()
    assert await storage.cancel_tournament(tid, reason="test", key="cancel") == cancelled
    assert state() == after
