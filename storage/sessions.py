"""A table session's ledger read from the escrow records: who bought in, rebought, cashed out.

A session is a table's life, from ``open_table`` to ``close_table``. Each seat row is one
seating (buy-in to cash-out) with its own escrow account, so a seating's chips in are its
``buy_in`` and ``rebuy`` ledger rows, its chips out its ``cash_out`` rows, and what it still holds
is the account's balance. Hands move chips between seats' escrows only (a 7-2 bounty too), and
Felt takes no rake, so the nets of every seating at a table, bots included, sum to zero.
"""

from __future__ import annotations

from storage.backend import Transaction
from storage.errors import UnknownTable
from storage.ledger import parse_time
from storage.models import SessionLine, TableSession


def table_session(tx: Transaction, table_id: int) -> TableSession:
    """The session of a table (open or closed): its times and one line per seating."""
    table = tx.one(
        "SELECT guild_id, name, opened_at, closed_at FROM poker_tables WHERE table_id = ?",
        (table_id,),
    )
    if table is None:
        raise UnknownTable(table_id)
    guild_id, name, opened_at, closed_at = table
    return TableSession(
        table_id=table_id,
        guild_id=int(guild_id),
        name=name,
        opened_at=parse_time(opened_at),
        closed_at=None if closed_at is None else parse_time(closed_at),
        lines=tuple(_lines(tx, table_id)),
    )


def _lines(tx: Transaction, table_id: int) -> list[SessionLine]:
    rows = tx.all(
        "SELECT s.seat_id, s.user_id, s.bot_name, s.display_name, s.joined_at, s.left_at, "
        "a.balance, "
        "COALESCE(SUM(CASE WHEN l.kind = 'buy_in' THEN l.delta ELSE 0 END), 0), "
        "COALESCE(SUM(CASE WHEN l.kind = 'rebuy' THEN l.delta ELSE 0 END), 0), "
        "COALESCE(SUM(CASE WHEN l.kind = 'cash_out' THEN -l.delta ELSE 0 END), 0) "
        "FROM seats s JOIN accounts a ON a.account_id = s.account_id "
        "LEFT JOIN ledger l ON l.account_id = s.account_id "
        "WHERE s.table_id = ? "
        "GROUP BY s.seat_id, s.user_id, s.bot_name, s.display_name, s.joined_at, s.left_at, "
        "a.balance ORDER BY s.joined_at, s.seat_id",
        (table_id,),
    )
    lines = []
    for _seat, user_id, bot_name, display_name, joined, left, stack, first, rebuys, out in rows:
        bought = int(first) + int(rebuys)
        lines.append(
            SessionLine(
                player_name=display_name or bot_name or str(user_id),
                player_id=str(user_id) if user_id is not None else f"bot:{bot_name}",
                session_start=parse_time(joined),
                session_end=None if left is None else parse_time(left),
                buy_in=bought,
                rebuys=int(rebuys),
                buy_out=int(out),
                stack=int(stack),
                net=int(out) + int(stack) - bought,
            )
        )
    return lines
