"""Reading the ledger back, and CSV exports: a guild's or member's ledger, a table's sessions."""

from __future__ import annotations

import csv
from typing import Any, TextIO

from engine.settle import LedgerRow, ledger_csv
from storage.backend import Transaction
from storage.ledger import parse_time
from storage.models import AccountKind, LedgerEntry, LedgerKind, SessionLine

LEDGER_COLUMNS = (
    "entry_id",
    "time",
    "guild_id",
    "account",
    "user_id",
    "kind",
    "delta",
    "balance_after",
    "operation",
    "key",
    "actor_id",
    "table_id",
    "hand_id",
    "round_id",
    "note",
)

_ENTRY_SELECT = (
    "SELECT l.entry_id, l.created_at, l.guild_id, a.kind, a.user_id, l.kind, l.delta, "
    "l.balance_after, o.name, o.op_key, o.actor_id, o.table_id, o.hand_id, o.round_id, o.note "
    "FROM ledger l JOIN accounts a ON a.account_id = l.account_id "
    "JOIN operations o ON o.op_id = l.op_id WHERE l.guild_id = ?"
)


def _entry(row: tuple[object, ...]) -> LedgerEntry:
    def optional(value: object) -> int | None:
        return None if value is None else int(value)  # type: ignore[call-overload]

    return LedgerEntry(
        entry_id=int(row[0]),  # type: ignore[call-overload]
        created_at=parse_time(str(row[1])),
        guild_id=int(row[2]),  # type: ignore[call-overload]
        account_kind=AccountKind(str(row[3])),
        user_id=optional(row[4]),
        kind=LedgerKind(str(row[5])),
        delta=int(row[6]),  # type: ignore[call-overload]
        balance_after=int(row[7]),  # type: ignore[call-overload]
        operation=str(row[8]),
        key=str(row[9]),
        actor_id=optional(row[10]),
        table_id=optional(row[11]),
        hand_id=optional(row[12]),
        round_id=optional(row[13]),
        note=None if row[14] is None else str(row[14]),
    )


def read_ledger(
    tx: Transaction,
    guild_id: int,
    user_id: int | None,
    *,
    after: int = 0,
    up_to: int | None = None,
    limit: int = 1000,
    newest_first: bool = False,
) -> list[LedgerEntry]:
    """Ledger rows of a guild (or of one member's wallet, seats and bets), by entry id."""
    sql = _ENTRY_SELECT
    params: list[object] = [guild_id]
    if user_id is not None:
        sql += " AND a.user_id = ?"
        params.append(user_id)
    if after:
        sql += " AND l.entry_id > ?"
        params.append(after)
    if up_to is not None:
        sql += " AND l.entry_id <= ?"
        params.append(up_to)
    sql += f" ORDER BY l.entry_id {'DESC' if newest_first else 'ASC'} LIMIT ?"
    params.append(limit)
    return [_entry(row) for row in tx.all(sql, params)]


def last_entry_id(tx: Transaction) -> int:
    return int(tx.value("SELECT COALESCE(MAX(entry_id), 0) FROM ledger"))


def ledger_header(out: TextIO) -> Any:
    """A CSV writer on ``out`` that already wrote the ledger's header row."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEDGER_COLUMNS)
    return writer


def ledger_rows(entries: list[LedgerEntry]) -> list[list[object]]:
    return [
        [
            e.entry_id,
            e.created_at.isoformat(),
            e.guild_id,
            e.account_kind.value,
            "" if e.user_id is None else e.user_id,
            e.kind.value,
            e.delta,
            e.balance_after,
            e.operation,
            e.key,
            "" if e.actor_id is None else e.actor_id,
            "" if e.table_id is None else e.table_id,
            "" if e.hand_id is None else e.hand_id,
            "" if e.round_id is None else e.round_id,
            e.note or "",
        ]
        for e in entries
    ]


def ledger_rows_of(lines: list[SessionLine]) -> list[LedgerRow]:
    """Seatings as the rows of PokerNow's ledger (``engine.settle`` owns its columns)."""
    return [
        LedgerRow(
            player_nickname=line.player_name,
            player_id=line.player_id,
            session_start_at=line.session_start,
            session_end_at=line.session_end,
            buy_in=line.buy_in,
            buy_out=None if line.session_end is None else line.buy_out,
            stack=line.stack,
        )
        for line in lines
    ]


def write_sessions(out: TextIO, lines: list[SessionLine]) -> int:
    """Write a table's session ledger as PokerNow's CSV; return the number of rows."""
    out.write(ledger_csv(ledger_rows_of(lines)))
    return len(lines)
