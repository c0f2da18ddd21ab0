"""Hold'em tables: seats and their escrow, buy-ins, rebuys, cash-outs, hands and settlement.

A seat row is one seating session with its own escrow account (kind ``seat``); a member's chips
come from their wallet and a bot's from the guild's house. Seat balances change only through
buy-in, rebuy, cash-out and hand settlement; while a hand is in progress the seats in it cannot
rebuy or cash out, so voiding a hand needs no movement at all: every stack still is what it was
at the hand's start.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from storage.backend import Transaction
from storage.errors import (
    AlreadySeated,
    AlreadySettled,
    DuplicateHand,
    EmptySeat,
    HandInProgress,
    InvalidArgument,
    InvalidSettlement,
    SeatInHand,
    SeatTaken,
    StackMismatch,
    TableClosed,
    UnknownHand,
    UnknownTable,
)
from storage.holdem_settlement import bounty_changes
from storage.ledger import Work, parse_time, require_amount, require_text
from storage.models import (
    MAX_CHIPS,
    AccountKind,
    Bounty,
    CashOut,
    ClosedTable,
    HandRecord,
    HandSeat,
    HandStatus,
    LedgerKind,
    OccupiedSeat,
    SeatChange,
    SettledHand,
    StartedHand,
    TableInfo,
    TableOpened,
    TableStatus,
    VoidedHand,
)

MAX_SEAT_NO = 99
MAX_NAME_CHARS = 100
MAX_PERSONALITY_CHARS = 64
"""The longest bot personality text a seat keeps (the schema checks it too)."""


def require_seat_no(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEAT_NO:
        raise InvalidArgument(f"A seat number must be a whole number from 0 to {MAX_SEAT_NO}.")
    return value


def require_hand_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CHIPS:
        raise InvalidArgument("A hand id must be a positive whole number.")
    return value


@dataclass(frozen=True, slots=True)
class _Table:
    table_id: int
    guild_id: int
    channel_id: int
    status: TableStatus


@dataclass(frozen=True, slots=True)
class _SeatRow:
    seat_id: int
    seat_no: int
    account_id: int
    user_id: int | None
    bot_name: str | None
    balance: int


def _table(tx: Transaction, table_id: int, *, must_be_open: bool = True) -> _Table:
    row = tx.one(
        "SELECT guild_id, channel_id, status FROM poker_tables WHERE table_id = ?", (table_id,)
    )
    if row is None:
        raise UnknownTable(table_id)
    table = _Table(table_id, int(row[0]), int(row[1]), TableStatus(row[2]))
    if must_be_open and table.status is TableStatus.CLOSED:
        raise TableClosed(table_id)
    return table


def _occupied(tx: Transaction, table_id: int) -> list[_SeatRow]:
    rows = tx.all(
        "SELECT s.seat_id, s.seat_no, s.account_id, s.user_id, s.bot_name, a.balance "
        "FROM seats s JOIN accounts a ON a.account_id = s.account_id "
        "WHERE s.table_id = ? AND s.left_at IS NULL ORDER BY s.seat_no",
        (table_id,),
    )
    return [_SeatRow(int(r[0]), int(r[1]), int(r[2]), r[3], r[4], int(r[5])) for r in rows]


def _seat(tx: Transaction, table_id: int, seat_no: int) -> _SeatRow:
    for seat in _occupied(tx, table_id):
        if seat.seat_no == seat_no:
            return seat
    raise EmptySeat(table_id, seat_no)


def _hand_holding(tx: Transaction, table_id: int, seat_id: int) -> int | None:
    """The in-progress hand whose chips include this seat's, if any."""
    value = tx.value(
        "SELECT h.hand_id FROM hands h JOIN hand_seats hs "
        "ON hs.table_id = h.table_id AND hs.hand_id = h.hand_id "
        "WHERE h.table_id = ? AND h.status = 'in_progress' AND hs.seat_id = ?",
        (table_id, seat_id),
    )
    return None if value is None else int(value)


def _free_chair(tx: Transaction, table_id: int, seat_no: int) -> None:
    if any(seat.seat_no == seat_no for seat in _occupied(tx, table_id)):
        raise SeatTaken(table_id, seat_no)


def open_table(
    work: Work, guild_id: int, channel_id: int, name: str | None, settings: Mapping[str, object]
) -> TableOpened:
    require_text(name, "The table name", limit=MAX_NAME_CHARS, optional=True)
    settings_text = _settings_text(settings)
    work.guild(guild_id)
    table_id = int(
        work.tx.value(
            "INSERT INTO poker_tables (guild_id, channel_id, name, settings, status, opened_at, "
            "instance_id) VALUES (?, ?, ?, ?, 'open', ?, ?) RETURNING table_id",
            (guild_id, channel_id, name, settings_text, work.stamp, work.instance_id),
        )
    )
    work.guild_id, work.table_id = guild_id, table_id
    return TableOpened(table_id, guild_id, channel_id)


def change_table_settings(work: Work, table_id: int, settings: Mapping[str, object]) -> None:
    """Replace an open table's stored settings (its host changed an option)."""
    table = _table(work.tx, table_id)
    work.guild_id, work.table_id = table.guild_id, table_id
    work.tx.execute(
        "UPDATE poker_tables SET settings = ? WHERE table_id = ?",
        (_settings_text(settings), table_id),
    )


def _settings_text(settings: Mapping[str, object]) -> str:
    try:
        return json.dumps(dict(settings), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidArgument(f"Table settings must be plain JSON data ({error}).") from error


def _new_seat(
    work: Work,
    table: _Table,
    seat_no: int,
    *,
    user_id: int | None,
    bot_name: str | None,
    display_name: str | None,
    bot_personality: str | None = None,
) -> tuple[int, int]:
    account = work.new_account(table.guild_id, AccountKind.SEAT, user_id)
    seat_id = int(
        work.tx.value(
            "INSERT INTO seats (table_id, seat_no, account_id, user_id, bot_name, display_name, "
            "joined_at, bot_personality) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seat_id",
            (
                table.table_id,
                seat_no,
                account,
                user_id,
                bot_name,
                display_name,
                work.stamp,
                bot_personality,
            ),
        )
    )
    return seat_id, account


def buy_in(
    work: Work,
    table_id: int,
    seat_no: int,
    user_id: int,
    amount: int,
    *,
    display_name: str | None,
) -> SeatChange:
    """Seat a member with ``amount`` chips from their wallet."""
    require_seat_no(seat_no)
    require_amount(amount, what="buy-in")
    require_text(display_name, "The display name", limit=MAX_NAME_CHARS, optional=True)
    table = _table(work.tx, table_id)
    work.guild_id, work.actor_id, work.table_id = table.guild_id, user_id, table_id
    for seat in _occupied(work.tx, table_id):
        if seat.user_id == user_id:
            raise AlreadySeated(table_id, seat.seat_no)
    _free_chair(work.tx, table_id, seat_no)
    wallet = work.open_member(table.guild_id, user_id)
    _seat_id, account = _new_seat(
        work, table, seat_no, user_id=user_id, bot_name=None, display_name=display_name
    )
    wallet_balance, stack = work.transfer(
        table.guild_id, wallet.account_id, account, amount, LedgerKind.BUY_IN, user_id=user_id
    )
    return SeatChange(table_id, seat_no, amount, stack, wallet_balance)


def seat_bot(
    work: Work,
    table_id: int,
    seat_no: int,
    bot_name: str,
    amount: int,
    personality: str | None = None,
) -> SeatChange:
    """Seat a named bot with ``amount`` chips from the guild's house; ``personality`` is the
    host's text for how the bot plays, kept with the seat for a restart."""
    require_seat_no(seat_no)
    require_amount(amount, what="buy-in")
    require_text(bot_name, "The bot's name", limit=MAX_NAME_CHARS)
    require_text(personality, "The bot's personality", limit=MAX_PERSONALITY_CHARS, optional=True)
    table = _table(work.tx, table_id)
    work.guild_id, work.table_id, work.note = table.guild_id, table_id, f"bot {bot_name}"
    for seat in _occupied(work.tx, table_id):
        if seat.bot_name == bot_name:
            raise AlreadySeated(table_id, seat.seat_no)
    _free_chair(work.tx, table_id, seat_no)
    house = work.guild(table.guild_id).house_account_id
    _seat_id, account = _new_seat(
        work,
        table,
        seat_no,
        user_id=None,
        bot_name=bot_name,
        display_name=bot_name,
        bot_personality=personality,
    )
    _house, stack = work.transfer(table.guild_id, house, account, amount, LedgerKind.BUY_IN)
    return SeatChange(table_id, seat_no, amount, stack, None)


def rebuy(work: Work, table_id: int, seat_no: int, amount: int) -> SeatChange:
    """Add chips to an occupied seat (a top-up), from the wallet or, for a bot, the house."""
    require_seat_no(seat_no)
    require_amount(amount, what="rebuy")
    table = _table(work.tx, table_id)
    seat = _seat(work.tx, table_id, seat_no)
    work.guild_id, work.actor_id, work.table_id = table.guild_id, seat.user_id, table_id
    hand = _hand_holding(work.tx, table_id, seat.seat_id)
    if hand is not None:
        raise SeatInHand(table_id, seat_no, hand)
    if seat.user_id is None:
        source = work.guild(table.guild_id).house_account_id
        wallet_balance: int | None = None
        _house, stack = work.transfer(
            table.guild_id, source, seat.account_id, amount, LedgerKind.REBUY
        )
    else:
        source = work.member(table.guild_id, seat.user_id).account_id
        wallet_balance, stack = work.transfer(
            table.guild_id, source, seat.account_id, amount, LedgerKind.REBUY, user_id=seat.user_id
        )
    return SeatChange(table_id, seat_no, amount, stack, wallet_balance)


def _cash_out(work: Work, table: _Table, seat: _SeatRow) -> CashOut:
    if seat.user_id is None:
        destination = work.guild(table.guild_id).house_account_id
    else:
        destination = work.member(table.guild_id, seat.user_id).account_id
    wallet_balance: int | None = None
    if seat.balance > 0:
        _stack, after = work.transfer(
            table.guild_id, seat.account_id, destination, seat.balance, LedgerKind.CASH_OUT
        )
        wallet_balance = after if seat.user_id is not None else None
    elif seat.user_id is not None:
        wallet_balance = work.balance(destination)
    work.tx.execute("UPDATE seats SET left_at = ? WHERE seat_id = ?", (work.stamp, seat.seat_id))
    return CashOut(
        table.table_id, seat.seat_no, seat.user_id, seat.bot_name, seat.balance, wallet_balance
    )


def cash_out(work: Work, table_id: int, seat_no: int) -> CashOut:
    """Leave a seat: its whole stack goes to the wallet (or the house for a bot)."""
    require_seat_no(seat_no)
    table = _table(work.tx, table_id)
    seat = _seat(work.tx, table_id, seat_no)
    work.guild_id, work.actor_id, work.table_id = table.guild_id, seat.user_id, table_id
    hand = _hand_holding(work.tx, table_id, seat.seat_id)
    if hand is not None:
        raise SeatInHand(table_id, seat_no, hand)
    return _cash_out(work, table, seat)


def start_hand(work: Work, table_id: int, hand_id: int, stacks: Mapping[int, int]) -> StartedHand:
    """Record a hand and its starting stacks, durably, before its first action."""
    require_hand_id(hand_id)
    if not isinstance(stacks, Mapping) or len(stacks) < 2:
        raise StackMismatch("A hand needs at least two seats with chips.")
    table = _table(work.tx, table_id)
    work.guild_id, work.table_id, work.hand_id = table.guild_id, table_id, hand_id
    exists = work.tx.value(
        "SELECT status FROM hands WHERE table_id = ? AND hand_id = ?", (table_id, hand_id)
    )
    if exists is not None:
        raise DuplicateHand(table_id, hand_id)
    running = work.tx.value(
        "SELECT hand_id FROM hands WHERE table_id = ? AND status = 'in_progress'", (table_id,)
    )
    if running is not None:
        raise HandInProgress(table_id, int(running))
    seats = {seat.seat_no: seat for seat in _occupied(work.tx, table_id)}
    rows: list[tuple[object, ...]] = []
    for seat_no, stack in sorted(stacks.items()):
        require_seat_no(seat_no)
        require_amount(stack, what="starting stack")
        seat = seats.get(seat_no)
        if seat is None:
            raise EmptySeat(table_id, seat_no)
        if seat.balance != stack:
            raise StackMismatch(
                f"Seat {seat_no} holds {seat.balance:,} chips, not the {stack:,} the hand "
                "started with."
            )
        rows.append((table_id, hand_id, seat_no, seat.seat_id, stack))
    work.tx.execute(
        "INSERT INTO hands (table_id, hand_id, guild_id, status, started_at, instance_id) "
        "VALUES (?, ?, ?, 'in_progress', ?, ?)",
        (table_id, hand_id, table.guild_id, work.stamp, work.instance_id),
    )
    work.tx.executemany(
        "INSERT INTO hand_seats (table_id, hand_id, seat_no, seat_id, start_stack) "
        "VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    return StartedHand(table_id, hand_id, dict(sorted(stacks.items())))


@dataclass(frozen=True, slots=True)
class _HandSeatRow:
    seat_no: int
    seat_id: int
    account_id: int
    user_id: int | None
    start_stack: int


def _running_hand(work: Work, table_id: int, hand_id: int) -> list[_HandSeatRow]:
    require_hand_id(hand_id)
    status = work.tx.value(
        "SELECT status FROM hands WHERE table_id = ? AND hand_id = ?", (table_id, hand_id)
    )
    if status is None:
        _table(work.tx, table_id, must_be_open=False)
        raise UnknownHand(table_id, hand_id)
    if status != HandStatus.IN_PROGRESS.value:
        raise AlreadySettled(f"Hand #{hand_id}", str(status).replace("_", " "))
    rows = work.tx.all(
        "SELECT hs.seat_no, hs.seat_id, s.account_id, s.user_id, hs.start_stack "
        "FROM hand_seats hs JOIN seats s ON s.seat_id = hs.seat_id "
        "WHERE hs.table_id = ? AND hs.hand_id = ? ORDER BY hs.seat_no",
        (table_id, hand_id),
    )
    return [_HandSeatRow(int(r[0]), int(r[1]), int(r[2]), r[3], int(r[4])) for r in rows]


def _move_bounties(
    work: Work,
    guild_id: int,
    accounts: Mapping[int, tuple[int, int | None]],
    stacks: Mapping[int, int],
    bounties: Sequence[Bounty],
) -> list[tuple[int, int]]:
    """Check and move ``bounties`` between seat escrows; ``(seat, change)`` for each seat."""
    moved = bounty_changes(accounts, stacks, bounties)
    for seat_no, amount in moved:
        account_id, user_id = accounts[seat_no]
        work.move(guild_id, account_id, amount, LedgerKind.HAND_RESULT, user_id)
    return moved


def pay_bounty(work: Work, table_id: int, hand_id: int, bounties: Sequence[Bounty]) -> SettledHand:
    """Move 7-2 bounties claimed after a settled hand (the winner showed 7-2 later), between
    the seats still at the table; each payer pays at most what its seat holds now. Returns the
    seats' stacks after it and what each paid or won."""
    table = _table(work.tx, table_id)
    work.guild_id, work.table_id, work.hand_id = table.guild_id, table_id, hand_id
    status = work.tx.value(
        "SELECT status FROM hands WHERE table_id = ? AND hand_id = ?", (table_id, hand_id)
    )
    if status != HandStatus.SETTLED.value:
        raise InvalidSettlement(f"Hand #{hand_id} is not a settled hand of this table.")
    seated = {seat.seat_no: seat for seat in _occupied(work.tx, table_id)}
    dealt = {
        int(row[0])
        for row in work.tx.all(
            "SELECT seat_no FROM hand_seats WHERE table_id = ? AND hand_id = ?",
            (table_id, hand_id),
        )
    }
    payable = []
    for bounty in bounties:
        if bounty.payer not in dealt or bounty.winner not in dealt:
            raise InvalidSettlement("A bounty names a seat that was not in the hand.")
        payer = seated.get(bounty.payer)
        if bounty.winner not in seated or payer is None:
            continue  # a player who has left pays or collects nothing more
        amount = min(bounty.amount, payer.balance)
        if amount:
            payable.append(Bounty(bounty.payer, bounty.winner, amount))
    accounts = {n: (seat.account_id, seat.user_id) for n, seat in seated.items()}
    stacks = {n: seat.balance for n, seat in seated.items()}
    moved = _move_bounties(work, table.guild_id, accounts, stacks, payable)
    deltas = dict(moved)
    after = {n: stacks[n] + deltas.get(n, 0) for n in sorted(stacks)}
    return SettledHand(table_id, hand_id, after, deltas)


def void_hand(work: Work, table_id: int, hand_id: int, reason: str) -> VoidedHand:
    """Cancel an unfinished hand: every seat keeps the stack it started with."""
    require_text(reason, "The reason", limit=500)
    table = _table(work.tx, table_id, must_be_open=False)
    work.guild_id, work.table_id, work.hand_id, work.note = (
        table.guild_id,
        table_id,
        hand_id,
        reason,
    )
    seats = _running_hand(work, table_id, hand_id)
    _mark_voided(work, table_id, hand_id, reason)
    return VoidedHand(table_id, hand_id, {s.seat_no: s.start_stack for s in seats}, reason)


def _mark_voided(work: Work, table_id: int, hand_id: int, reason: str) -> None:
    work.tx.execute(
        "UPDATE hands SET status = 'voided', ended_at = ?, void_reason = ? "
        "WHERE table_id = ? AND hand_id = ?",
        (work.stamp, reason, table_id, hand_id),
    )


def close_table(work: Work, table_id: int, actor_id: int | None) -> ClosedTable:
    """Close a table: void its unfinished hand, if any, and cash every seat out."""
    table = _table(work.tx, table_id)
    work.guild_id, work.actor_id, work.table_id = table.guild_id, actor_id, table_id
    running = work.tx.value(
        "SELECT hand_id FROM hands WHERE table_id = ? AND status = 'in_progress'", (table_id,)
    )
    voided = None
    if running is not None:
        voided = int(running)
        _mark_voided(work, table_id, voided, "the table was closed")
    cash_outs = tuple(_cash_out(work, table, seat) for seat in _occupied(work.tx, table_id))
    work.tx.execute(
        "UPDATE poker_tables SET status = 'closed', closed_at = ? WHERE table_id = ?",
        (work.stamp, table_id),
    )
    return ClosedTable(table_id, voided, cash_outs)


# --- reading ---------------------------------------------------------------------------------


def read_table(tx: Transaction, table_id: int) -> TableInfo | None:
    row = tx.one(
        "SELECT guild_id, channel_id, name, settings, status, opened_at, closed_at "
        "FROM poker_tables WHERE table_id = ?",
        (table_id,),
    )
    if row is None:
        return None
    seats = tx.all(
        "SELECT s.seat_no, a.balance, s.user_id, s.bot_name, s.display_name, s.joined_at, "
        "s.bot_personality FROM seats s JOIN accounts a ON a.account_id = s.account_id "
        "WHERE s.table_id = ? AND s.left_at IS NULL ORDER BY s.seat_no",
        (table_id,),
    )
    running = tx.value(
        "SELECT hand_id FROM hands WHERE table_id = ? AND status = 'in_progress'", (table_id,)
    )
    last = tx.value("SELECT MAX(hand_id) FROM hands WHERE table_id = ?", (table_id,))
    return TableInfo(
        table_id=table_id,
        guild_id=int(row[0]),
        channel_id=int(row[1]),
        name=row[2],
        settings=json.loads(row[3]),
        status=TableStatus(row[4]),
        opened_at=parse_time(row[5]),
        closed_at=None if row[6] is None else parse_time(row[6]),
        seats=tuple(
            OccupiedSeat(table_id, int(s[0]), int(s[1]), s[2], s[3], s[4], parse_time(s[5]), s[6])
            for s in seats
        ),
        hand_in_progress=None if running is None else int(running),
        last_hand_id=None if last is None else int(last),
    )


def list_tables(
    tx: Transaction,
    guild_id: int | None,
    open_only: bool,
    owns: Callable[[int], bool] | None = None,
) -> list[TableInfo]:
    """Tables by id; ``owns`` keeps only those of the guilds it accepts."""
    sql = "SELECT table_id, guild_id FROM poker_tables WHERE 1 = 1"
    params: list[object] = []
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    if open_only:
        sql += " AND status = 'open'"
    ids = [
        int(row[0])
        for row in tx.all(sql + " ORDER BY table_id", params)
        if owns is None or owns(int(row[1]))
    ]
    tables = [read_table(tx, table_id) for table_id in ids]
    return [table for table in tables if table is not None]


def read_hand(tx: Transaction, table_id: int, hand_id: int) -> HandRecord | None:
    row = tx.one(
        "SELECT h.guild_id, t.channel_id, h.status, h.started_at, h.ended_at, h.phh, "
        "h.void_reason FROM hands h JOIN poker_tables t ON t.table_id = h.table_id "
        "WHERE h.table_id = ? AND h.hand_id = ?",
        (table_id, hand_id),
    )
    if row is None:
        return None
    seats = tx.all(
        "SELECT hs.seat_no, s.user_id, s.bot_name, s.display_name, hs.start_stack, "
        "hs.final_stack, hs.won, hs.pot_won FROM hand_seats hs "
        "JOIN seats s ON s.seat_id = hs.seat_id "
        "WHERE hs.table_id = ? AND hs.hand_id = ? ORDER BY hs.seat_no",
        (table_id, hand_id),
    )
    return HandRecord(
        table_id=table_id,
        hand_id=hand_id,
        guild_id=int(row[0]),
        channel_id=int(row[1]),
        status=HandStatus(row[2]),
        started_at=parse_time(row[3]),
        ended_at=None if row[4] is None else parse_time(row[4]),
        phh=row[5],
        void_reason=row[6],
        seats=tuple(
            HandSeat(
                seat_no=int(s[0]),
                user_id=s[1],
                bot_name=s[2],
                display_name=s[3],
                start_stack=int(s[4]),
                final_stack=None if s[5] is None else int(s[5]),
                won=bool(s[6]),
                pot_won=int(s[7]),
            )
            for s in seats
        ),
    )


def list_hands(
    tx: Transaction,
    guild_id: int,
    *,
    user_id: int | None,
    table_id: int | None,
    limit: int,
    offset: int,
) -> list[HandRecord]:
    """Finished and unfinished hands, newest first, optionally one member's or one table's."""
    sql = "SELECT DISTINCT h.table_id, h.hand_id, h.started_at FROM hands h"
    params: list[object] = []
    if user_id is not None:
        sql += (
            " JOIN hand_seats hs ON hs.table_id = h.table_id AND hs.hand_id = h.hand_id"
            " JOIN seats s ON s.seat_id = hs.seat_id AND s.user_id = ?"
        )
        params.append(user_id)
    sql += " WHERE h.guild_id = ?"
    params.append(guild_id)
    if table_id is not None:
        sql += " AND h.table_id = ?"
        params.append(table_id)
    sql += " ORDER BY h.started_at DESC, h.table_id DESC, h.hand_id DESC LIMIT ? OFFSET ?"
    params.extend([limit, offset])
    records = [read_hand(tx, int(row[0]), int(row[1])) for row in tx.all(sql, params)]
    return [record for record in records if record is not None]
