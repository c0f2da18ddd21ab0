"""Reading settled hands back for export: by guild, table, player and time, in batches.

Only settled hands are read (a voided hand has no history to export). Hands come oldest first in
a fixed order (start time, table, hand), so a long export reads them batch by batch with a
keyset (``after``) and never skips or repeats one; ``newest`` gives a member's latest hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.backend import Transaction
from storage.ledger import parse_time, require_id, stamp

MAX_BATCH = 5_000
"""The most hands one read returns."""


@dataclass(frozen=True, slots=True)
class HandQuery:
    """Which settled hands to read. ``user_id`` keeps the hands that member was dealt into."""

    guild_id: int | None = None
    table_id: int | None = None
    user_id: int | None = None
    since: datetime | None = None
    """Hands that started at or after this moment."""


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One settled hand as stored: where and when, and its full PHH text."""

    table_id: int
    hand_id: int
    guild_id: int
    table_name: str | None
    started_at: datetime
    phh: str
    seat_no: int | None
    """The queried member's seat in this hand (None without ``user_id``)."""

    @property
    def position(self) -> tuple[str, int, int]:
        """Where this hand sits in export order: pass it as ``after`` to read on."""
        return stamp(self.started_at), self.table_id, self.hand_id


def settled_hands(
    tx: Transaction,
    query: HandQuery,
    *,
    after: tuple[str, int, int] | None = None,
    limit: int = 1_000,
    newest: bool = False,
) -> list[StoredHand]:
    """Up to ``limit`` settled hands matching ``query``: oldest first after ``after``, or with
    ``newest`` the latest ones (still returned oldest first)."""
    for value, what in ((query.guild_id, "A guild id"), (query.table_id, "A table id")):
        if value is not None:
            require_id(value, what)
    if query.user_id is not None:
        require_id(query.user_id, "A user id")
    limit = max(1, min(limit, MAX_BATCH))
    params: list[object] = []
    columns = "h.table_id, h.hand_id, h.guild_id, t.name, h.started_at, h.phh"
    joins = " JOIN poker_tables t ON t.table_id = h.table_id"
    if query.user_id is not None:
        columns += ", hs.seat_no"
        joins += (
            " JOIN hand_seats hs ON hs.table_id = h.table_id AND hs.hand_id = h.hand_id"
            " JOIN seats s ON s.seat_id = hs.seat_id AND s.user_id = ?"
        )
        params.append(query.user_id)
    where = ["h.status = 'settled'", "h.phh IS NOT NULL"]
    if query.guild_id is not None:
        where.append("h.guild_id = ?")
        params.append(query.guild_id)
    if query.table_id is not None:
        where.append("h.table_id = ?")
        params.append(query.table_id)
    if query.since is not None:
        where.append("h.started_at >= ?")
        params.append(stamp(query.since))
    if after is not None:
        where.append("(h.started_at, h.table_id, h.hand_id) > (?, ?, ?)")
        params.extend(after)
    order = "DESC" if newest else "ASC"
    sql = (
        f"SELECT {columns} FROM hands h{joins} WHERE {' AND '.join(where)} "
        f"ORDER BY h.started_at {order}, h.table_id {order}, h.hand_id {order} LIMIT ?"
    )
    params.append(limit)
    hands = [
        StoredHand(
            table_id=int(row[0]),
            hand_id=int(row[1]),
            guild_id=int(row[2]),
            table_name=row[3],
            started_at=parse_time(row[4]),
            phh=str(row[5]),
            seat_no=int(row[6]) if len(row) > 6 else None,
        )
        for row in tx.all(sql, params)
    ]
    if newest:
        hands.reverse()
    return hands
