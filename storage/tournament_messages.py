"""Where a running tournament shows itself in Discord (migration 0009): whether its tables live
in threads or channels, its tournament message, and each table's thread or channel, so a
restart edits the same message and reuses the same table homes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from storage.backend import Transaction
from storage.errors import InvalidArgument
from storage.ledger import Work
from storage.tournaments import TournamentStatus, UnknownTournament


class TableHomeKind(StrEnum):
    """What a tournament table lives in."""

    THREAD = "thread"
    """A public thread of the tournament's channel (the default)."""
    CHANNEL = "channel"
    """A text channel of its own, in the tournament channel's category."""


def table_home_kind(value: object) -> TableHomeKind:
    """``value`` as a table home kind (:class:`InvalidArgument` for anything else)."""
    for kind in TableHomeKind:
        if value == kind.value:
            return kind
    choices = ", ".join(kind.value for kind in TableHomeKind)
    raise InvalidArgument(f"Tables live in one of: {choices}; not {value!r}.")


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A message the front posted: its channel and its id."""

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class TournamentFront:
    """What the front of one tournament keeps."""

    tournament_id: int
    tables: TableHomeKind
    clock: MessageRef | None
    """The tournament message (None until it is first posted)."""


@dataclass(frozen=True, slots=True)
class TableHomeRow:
    """One table's thread or channel."""

    tournament_id: int
    table_no: int
    channel_id: int
    kind: TableHomeKind
    removed: bool
    """The front deleted this table's channel (its table broke or the tournament ended)."""


def _exists(tx: Transaction, tournament_id: int) -> None:
    if tx.value("SELECT 1 FROM tournaments WHERE tournament_id = ?", (tournament_id,)) is None:
        raise UnknownTournament(tournament_id)


def set_tables(work: Work, tournament_id: int, kind: TableHomeKind) -> None:
    """Choose where the tournament's tables live (set when it is created)."""
    _exists(work.tx, tournament_id)
    work.tx.execute(
        "INSERT INTO tournament_fronts (tournament_id, tables) VALUES (?, ?) "
        "ON CONFLICT (tournament_id) DO UPDATE SET tables = excluded.tables",
        (tournament_id, kind.value),
    )


def set_clock_message(work: Work, tournament_id: int, message: MessageRef) -> None:
    """Remember the tournament message the front posted (or posted again)."""
    _exists(work.tx, tournament_id)
    work.tx.execute(
        "INSERT INTO tournament_fronts (tournament_id, clock_channel_id, clock_message_id) "
        "VALUES (?, ?, ?) ON CONFLICT (tournament_id) DO UPDATE SET "
        "clock_channel_id = excluded.clock_channel_id, "
        "clock_message_id = excluded.clock_message_id",
        (tournament_id, message.channel_id, message.message_id),
    )


def read_front(tx: Transaction, tournament_id: int) -> TournamentFront:
    """The tournament's front (threads and no message for one that chose nothing)."""
    _exists(tx, tournament_id)
    row = tx.one(
        "SELECT tables, clock_channel_id, clock_message_id FROM tournament_fronts "
        "WHERE tournament_id = ?",
        (tournament_id,),
    )
    if row is None:
        return TournamentFront(tournament_id, TableHomeKind.THREAD, None)
    tables, channel_id, message_id = row
    clock = None if message_id is None else MessageRef(int(channel_id), int(message_id))
    return TournamentFront(tournament_id, TableHomeKind(tables), clock)


def remember_table_home(
    work: Work, tournament_id: int, table_no: int, channel_id: int, kind: TableHomeKind
) -> None:
    """Record the thread or channel just created for a table (a table has one home)."""
    _exists(work.tx, tournament_id)
    work.tx.execute(
        "INSERT INTO tournament_table_homes "
        "(tournament_id, table_no, channel_id, kind, opened_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (tournament_id, table_no) DO UPDATE SET "
        "channel_id = excluded.channel_id, kind = excluded.kind, "
        "opened_at = excluded.opened_at, removed_at = NULL",
        (tournament_id, table_no, channel_id, kind.value, work.stamp),
    )


def mark_table_home_removed(work: Work, tournament_id: int, table_no: int) -> bool:
    """Record that a table's channel was deleted; False if it was already (or never known)."""
    _exists(work.tx, tournament_id)
    changed = work.tx.execute(
        "UPDATE tournament_table_homes SET removed_at = ? "
        "WHERE tournament_id = ? AND table_no = ? AND removed_at IS NULL",
        (work.stamp, tournament_id, table_no),
    )
    return changed > 0


def read_table_homes(tx: Transaction, tournament_id: int) -> list[TableHomeRow]:
    """Every table home the tournament ever had, by table number."""
    _exists(tx, tournament_id)
    rows = tx.all(
        "SELECT table_no, channel_id, kind, removed_at FROM tournament_table_homes "
        "WHERE tournament_id = ? ORDER BY table_no",
        (tournament_id,),
    )
    return [
        TableHomeRow(
            tournament_id, int(table_no), int(channel_id), TableHomeKind(kind), removed is not None
        )
        for table_no, channel_id, kind, removed in rows
    ]


def read_leftover_channels(
    tx: Transaction, owns: Callable[[int], bool] | None = None
) -> list[TableHomeRow]:
    """Table channels of finished or cancelled tournaments not yet deleted (a crash or a stop
    came between the tournament's end and the deletion), of the guilds ``owns`` accepts."""
    rows = tx.all(
        "SELECT h.tournament_id, t.guild_id, h.table_no, h.channel_id "
        "FROM tournament_table_homes h JOIN tournaments t ON t.tournament_id = h.tournament_id "
        "WHERE h.kind = ? AND h.removed_at IS NULL AND t.status IN (?, ?) "
        "ORDER BY h.tournament_id, h.table_no",
        (
            TableHomeKind.CHANNEL.value,
            TournamentStatus.FINISHED.value,
            TournamentStatus.CANCELLED.value,
        ),
    )
    return [
        TableHomeRow(int(tid), int(table_no), int(channel_id), TableHomeKind.CHANNEL, False)
        for tid, guild_id, table_no, channel_id in rows
        if owns is None or owns(int(guild_id))
    ]
