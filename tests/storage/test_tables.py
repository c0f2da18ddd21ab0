"""Hold'em tables: seats and escrow, bots funded by the house, hands started durably and settled
once, voids, closing, hand histories and the PokerNow-style session ledger."""

from __future__ import annotations

import csv
import io

import pytest

from storage.errors import (
    AlreadySeated,
    AlreadySettled,
    DuplicateHand,
    EmptySeat,
    HandInProgress,
    IdempotencyConflict,
    InsufficientChips,
    InvalidAmount,
    InvalidArgument,
    InvalidSettlement,
    SeatInHand,
    SeatTaken,
    StackMismatch,
    TableClosed,
    UnknownHand,
    UnknownTable,
)
from storage.models import HandStatus, SeatResult, TableStatus
from storage.store import Storage
from tests.storage.support import FakeClock, Sql, State

GUILD = 111_111_111_111_111_111
CHANNEL = 555_555
ALICE, BOB, CAROL = 1_001, 1_002, 1_003
PHH = 'variant = "NT"\nstarting_stacks = [500, 400]\n'


async def open_table(storage: Storage) -> int:
    opened = await storage.open_table(
        GUILD, CHANNEL, settings={"small_blind": 5, "big_blind": 10}, name="Main", key="open"
    )
    return opened.table_id


async def seated_table(storage: Storage) -> int:
    """A table with Alice (seat 0, 500), Bob (seat 1, 400) and the bot Ada (seat 2, 300)."""
    table = await open_table(storage)
    await storage.buy_in(table, 0, ALICE, 500, key="in-a", display_name="alice")
    await storage.buy_in(table, 1, BOB, 400, key="in-b")
    await storage.seat_bot(table, 2, "Ada", 300, key="in-ada")
    return table


async def house_balance(sql: Sql) -> int:
    balance: int = sql("SELECT balance FROM accounts WHERE kind = 'house'")[0][0]
    return balance


async def test_open_table_keeps_the_hosts_settings(storage: Storage) -> None:
    table = await open_table(storage)

    info = await storage.get_table(table)

    assert info is not None
    assert info.settings == {"small_blind": 5, "big_blind": 10}
    assert (info.guild_id, info.channel_id, info.name) == (GUILD, CHANNEL, "Main")
    assert info.status is TableStatus.OPEN
    assert info.seats == ()
    assert [t.table_id for t in await storage.list_tables(GUILD)] == [table]


async def test_open_table_refuses_settings_that_are_not_json(
    storage: Storage, state: State
) -> None:
    before = state()
    with pytest.raises(InvalidArgument):
        await storage.open_table(GUILD, CHANNEL, settings={"x": object()}, key="o")
    assert state() == before


async def test_buy_in_moves_chips_from_wallet_to_seat(storage: Storage, sql: Sql) -> None:
    table = await seated_table(storage)

    alice = await storage.get_account(GUILD, ALICE)
    info = await storage.get_table(table)

    assert alice is not None
    assert (alice.balance, alice.at_tables, alice.total) == (500, 500, 1_000)
    assert info is not None
    assert [(s.seat_no, s.stack, s.user_id, s.bot_name) for s in info.seats] == [
        (0, 500, ALICE, None),
        (1, 400, BOB, None),
        (2, 300, None, "Ada"),
    ]
    first = info.seat(0)
    assert first is not None and first.name == "alice"
    assert info.seat(5) is None
    assert await house_balance(sql) == -300


async def test_buy_in_refusals_change_nothing(storage: Storage, state: State) -> None:
    table = await seated_table(storage)
    await storage.ensure_account(GUILD, CAROL)
    before = state()

    with pytest.raises(SeatTaken):
        await storage.buy_in(table, 0, CAROL, 100, key="x1")
    with pytest.raises(AlreadySeated) as seated:
        await storage.buy_in(table, 5, ALICE, 100, key="x2")
    with pytest.raises(AlreadySeated):
        await storage.seat_bot(table, 5, "Ada", 100, key="x3")
    with pytest.raises(InsufficientChips):
        await storage.buy_in(table, 5, CAROL, 1_001, key="x4")
    with pytest.raises(UnknownTable):
        await storage.buy_in(table + 1, 5, CAROL, 100, key="x5")
    with pytest.raises(InvalidAmount):
        await storage.buy_in(table, 5, CAROL, 0, key="x6")
    with pytest.raises(InvalidArgument):
        await storage.buy_in(table, -1, CAROL, 100, key="x7")
    with pytest.raises(InvalidArgument):
        await storage.buy_in(table, 100, CAROL, 100, key="x8")

    assert seated.value.seat_no == 0
    assert state() == before


async def test_buy_in_at_a_closed_table_is_refused(storage: Storage, state: State) -> None:
    table = await open_table(storage)
    await storage.close_table(table, key="close")
    await storage.ensure_account(GUILD, ALICE)
    before = state()

    with pytest.raises(TableClosed):
        await storage.buy_in(table, 0, ALICE, 100, key="x")
    assert state() == before


async def test_rebuy_tops_up_a_member_from_the_wallet_and_a_bot_from_the_house(
    storage: Storage, sql: Sql
) -> None:
    table = await seated_table(storage)

    member = await storage.rebuy(table, 0, 200, key="r1")
    bot = await storage.rebuy(table, 2, 100, key="r2")

    assert (member.stack, member.wallet_balance) == (700, 300)
    assert (bot.stack, bot.wallet_balance) == (400, None)
    assert await house_balance(sql) == -400


async def test_rebuy_of_an_empty_seat_or_beyond_the_wallet_is_refused(
    storage: Storage, state: State
) -> None:
    table = await seated_table(storage)
    before = state()

    with pytest.raises(EmptySeat):
        await storage.rebuy(table, 4, 100, key="r1")
    with pytest.raises(InsufficientChips):
        await storage.rebuy(table, 0, 501, key="r2")
    assert state() == before


async def test_cash_out_returns_the_stack_and_frees_the_seat(storage: Storage, sql: Sql) -> None:
    table = await seated_table(storage)

    member = await storage.cash_out(table, 0, key="c1")
    bot = await storage.cash_out(table, 2, key="c2")
    info = await storage.get_table(table)

    assert (member.amount, member.wallet_balance, member.user_id) == (500, 1_000, ALICE)
    assert (bot.amount, bot.wallet_balance, bot.bot_name) == (300, None, "Ada")
    assert info is not None
    assert [s.seat_no for s in info.seats] == [1]
    assert await house_balance(sql) == 0
    with pytest.raises(EmptySeat):
        await storage.cash_out(table, 0, key="c3")
    # The seat is free again, for anybody.
    again = await storage.buy_in(table, 0, ALICE, 100, key="again")
    assert again.wallet_balance == 900


async def test_start_hand_records_the_starting_stacks(storage: Storage, sql: Sql) -> None:
    table = await seated_table(storage)

    started = await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")
    info = await storage.get_table(table)
    record = await storage.get_hand(table, 1)

    assert started.stacks == {0: 500, 1: 400, 2: 300}
    assert info is not None
    assert (info.hand_in_progress, info.last_hand_id) == (1, 1)
    assert record is not None
    assert record.status is HandStatus.IN_PROGRESS
    assert [(s.seat_no, s.start_stack, s.final_stack) for s in record.seats] == [
        (0, 500, None),
        (1, 400, None),
        (2, 300, None),
    ]
    assert sql("SELECT COUNT(*) FROM ledger WHERE kind = 'hand_result'") == [(0,)]


async def test_start_hand_refusals_change_nothing(storage: Storage, state: State) -> None:
    table = await seated_table(storage)
    before = state()

    with pytest.raises(StackMismatch):
        await storage.start_hand(table, 1, {0: 500, 1: 401}, key="a")
    with pytest.raises(StackMismatch):
        await storage.start_hand(table, 1, {0: 500}, key="b")
    with pytest.raises(EmptySeat):
        await storage.start_hand(table, 1, {0: 500, 7: 400}, key="c")
    with pytest.raises(InvalidAmount):
        await storage.start_hand(table, 1, {0: 500, 1: 0}, key="d")
    with pytest.raises(InvalidArgument):
        await storage.start_hand(table, 0, {0: 500, 1: 400}, key="e")
    with pytest.raises(UnknownTable):
        await storage.start_hand(table + 9, 1, {0: 500, 1: 400}, key="f")
    assert state() == before


async def test_only_one_hand_at_a_time_and_hand_ids_are_not_reused(
    storage: Storage, state: State
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")
    before = state()

    with pytest.raises(HandInProgress) as running:
        await storage.start_hand(table, 2, {0: 500, 1: 400}, key="h2")
    with pytest.raises(DuplicateHand):
        await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1-again")
    assert running.value.hand_id == 1
    assert state() == before


async def test_seats_in_a_hand_cannot_rebuy_or_cash_out_but_others_can(
    storage: Storage, state: State
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")
    before = state()

    with pytest.raises(SeatInHand) as busy:
        await storage.cash_out(table, 0, key="c")
    with pytest.raises(SeatInHand):
        await storage.rebuy(table, 1, 10, key="r")
    assert busy.value.hand_id == 1
    assert state() == before

    # Ada sits this hand out, so her chips are free to move.
    assert (await storage.rebuy(table, 2, 50, key="r-ada")).stack == 350
    assert (await storage.cash_out(table, 2, key="c-ada")).amount == 350


async def test_settle_hand_applies_final_stacks_with_rows_for_changed_seats(
    storage: Storage, sql: Sql
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")

    settled = await storage.settle_hand(
        table,
        1,
        {0: 800, 1: 100, 2: 300},
        phh=PHH,
        results={0: SeatResult(won=True, pot_won=650)},
        key="h1-settle",
    )

    assert settled.deltas == {0: 300, 1: -300, 2: 0}
    assert sql(
        "SELECT l.kind, l.delta, l.balance_after FROM ledger l WHERE l.kind = 'hand_result' "
        "ORDER BY l.entry_id"
    ) == [("hand_result", 300, 800), ("hand_result", -300, 100)]
    info = await storage.get_table(table)
    assert info is not None
    assert [s.stack for s in info.seats] == [800, 100, 300]
    assert info.hand_in_progress is None
    record = await storage.get_hand(table, 1)
    assert record is not None
    assert (record.status, record.phh) == (HandStatus.SETTLED, PHH)
    assert [(s.final_stack, s.won, s.pot_won) for s in record.seats] == [
        (800, True, 650),
        (100, False, 0),
        (300, False, 0),
    ]


async def test_a_hand_is_settled_only_once(storage: Storage, state: State) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")
    first = await storage.settle_hand(table, 1, {0: 900, 1: 0}, phh=PHH, key="s1")
    before = state()

    with pytest.raises(AlreadySettled) as twice:
        await storage.settle_hand(table, 1, {0: 900, 1: 0}, phh=PHH, key="s2")
    with pytest.raises(AlreadySettled):
        await storage.settle_hand(table, 1, {0: 0, 1: 900}, phh=PHH, key="s3")
    with pytest.raises(IdempotencyConflict):
        await storage.settle_hand(table, 1, {0: 0, 1: 900}, phh=PHH, key="s1")
    replay = await storage.settle_hand(table, 1, {0: 900, 1: 0}, phh=PHH, key="s1")

    assert "already settled" in str(twice.value)
    assert replay == first
    assert state() == before


async def test_settlement_refusals_change_nothing(storage: Storage, state: State) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")
    before = state()

    with pytest.raises(InvalidSettlement, match="add up"):
        await storage.settle_hand(table, 1, {0: 901, 1: 0}, phh=PHH, key="a")
    with pytest.raises(InvalidSettlement, match="seats 0, 1"):
        await storage.settle_hand(table, 1, {0: 900}, phh=PHH, key="b")
    with pytest.raises(InvalidSettlement):
        await storage.settle_hand(table, 1, {0: 600, 1: 200, 2: 100}, phh=PHH, key="c")
    with pytest.raises(InvalidAmount):
        await storage.settle_hand(table, 1, {0: 1_000, 1: -100}, phh=PHH, key="d")
    with pytest.raises(InvalidSettlement):
        await storage.settle_hand(
            table, 1, {0: 900, 1: 0}, phh=PHH, results={2: SeatResult(True, 1)}, key="e"
        )
    with pytest.raises(InvalidSettlement):
        await storage.settle_hand(
            table, 1, {0: 900, 1: 0}, phh=PHH, results={0: SeatResult(True, 901)}, key="f"
        )
    with pytest.raises(UnknownHand):
        await storage.settle_hand(table, 2, {0: 900, 1: 0}, phh=PHH, key="g")
    with pytest.raises(InvalidArgument):
        await storage.settle_hand(table, 1, {0: 900, 1: 0}, phh="", key="h")
    assert state() == before


async def test_void_hand_keeps_starting_stacks_and_frees_the_table(
    storage: Storage, sql: Sql
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")

    voided = await storage.void_hand(table, 1, reason="dealer error", key="v1")

    assert voided.stacks == {0: 500, 1: 400}
    record = await storage.get_hand(table, 1)
    assert record is not None
    assert (record.status, record.void_reason) == (HandStatus.VOIDED, "dealer error")
    with pytest.raises(AlreadySettled, match="voided"):
        await storage.settle_hand(table, 1, {0: 900, 1: 0}, phh=PHH, key="s")
    await storage.start_hand(table, 2, {0: 500, 1: 400}, key="h2")
    assert sql("SELECT note FROM operations WHERE name = 'void_hand'") == [("dealer error",)]


async def test_close_table_voids_the_hand_and_cashes_everyone_out(
    storage: Storage, sql: Sql
) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")

    closed = await storage.close_table(table, key="close")

    assert closed.voided_hand_id == 1
    assert [(c.seat_no, c.amount, c.wallet_balance) for c in closed.cash_outs] == [
        (0, 500, 1_000),
        (1, 400, 1_000),
        (2, 300, None),
    ]
    assert await house_balance(sql) == 0
    info = await storage.get_table(table)
    assert info is not None
    assert info.status is TableStatus.CLOSED
    assert info.seats == ()
    assert await storage.list_tables(GUILD) == []
    assert len(await storage.list_tables(GUILD, open_only=False)) == 1
    with pytest.raises(TableClosed):
        await storage.close_table(table, key="close-again")
    assert (await storage.check()).ok


async def test_hand_history_lookup_by_member_and_table(storage: Storage, clock: FakeClock) -> None:
    table = await seated_table(storage)
    for hand in (1, 2, 3):
        clock.advance(minutes=1)
        stacks = {0: 500, 2: 300} if hand == 2 else {0: 500, 1: 400}
        await storage.start_hand(table, hand, stacks, key=f"h{hand}")
        await storage.settle_hand(table, hand, stacks, phh=f"# hand {hand}", key=f"s{hand}")

    bobs = await storage.list_hands(GUILD, user_id=BOB)
    all_hands = await storage.list_hands(GUILD, table_id=table, limit=2, offset=1)

    assert [h.hand_id for h in bobs] == [3, 1]
    assert [h.hand_id for h in all_hands] == [2, 1]
    assert bobs[0].phh == "# hand 3"
    with pytest.raises(InvalidArgument):
        await storage.list_hands(GUILD, limit=0)


async def test_session_ledger_is_pokernow_style(storage: Storage) -> None:
    table = await seated_table(storage)
    await storage.rebuy(table, 1, 100, key="r")
    await storage.start_hand(table, 1, {0: 500, 1: 500}, key="h1")
    await storage.settle_hand(table, 1, {0: 750, 1: 250}, phh=PHH, key="s1")
    await storage.cash_out(table, 0, key="c")

    lines = (await storage.table_session(table)).lines
    out = io.StringIO()
    written = await storage.export_sessions_csv(out, table)

    assert [
        (x.player_name, x.player_id, x.buy_in, x.rebuys, x.buy_out, x.stack, x.net) for x in lines
    ] == [
        ("alice", str(ALICE), 500, 0, 750, 0, 250),
        (str(BOB), str(BOB), 500, 100, 0, 250, -250),
        ("Ada", "bot:Ada", 300, 0, 0, 300, 0),
    ]
    assert lines[0].session_end is not None
    assert lines[1].session_end is None
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert written == 3
    assert rows[0] == [
        "player_nickname",
        "player_id",
        "session_start_at",
        "session_end_at",
        "buy_in",
        "buy_out",
        "stack",
        "net",
    ]
    assert rows[1][0:2] == ["alice", str(ALICE)]
    assert rows[1][4:] == ["500", "750", "0", "250"]
    assert sum(int(row[7]) for row in rows[1:]) == 0
    with pytest.raises(UnknownTable):
        await storage.table_session(table + 1)


async def test_table_chips_stay_in_the_check(storage: Storage) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400, 2: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 0, 1: 0, 2: 1_200}, phh=PHH, key="s1")

    report = await storage.check()

    assert report.ok, report.problems
    assert report.guilds[0].held == report.guilds[0].minted == 2_000


async def test_void_close_and_bot_refusals_change_nothing(storage: Storage, state: State) -> None:
    table = await seated_table(storage)
    await storage.start_hand(table, 1, {0: 500, 1: 400}, key="h1")
    await storage.settle_hand(table, 1, {0: 600, 1: 300}, phh=PHH, key="s1")
    before = state()

    with pytest.raises(AlreadySettled):
        await storage.void_hand(table, 1, reason="late", key="v1")
    with pytest.raises(UnknownHand):
        await storage.void_hand(table, 2, reason="none", key="v2")
    with pytest.raises(InvalidArgument):
        await storage.void_hand(table, 1, reason="", key="v3")
    with pytest.raises(UnknownTable):
        await storage.close_table(table + 7, key="c1")
    with pytest.raises(InvalidArgument):
        await storage.seat_bot(table, 4, "", 100, key="b1")
    with pytest.raises(InvalidArgument):
        await storage.seat_bot(table, 4, "x" * 101, 100, key="b2")
    with pytest.raises(SeatTaken):
        await storage.seat_bot(table, 0, "Bo", 100, key="b3")
    assert state() == before
