"""The Discord front's table messages and DM notices, kept so a restart can pick up after a crash.

A row per table message the front still manages (it may edit it again), with whether it carries
buttons; the front writes only when that changes, so a hand costs a few rows, not one per edit.
And a row per member already told in a Hold'em table's channel that their DMs are closed.
"""

from __future__ import annotations

from storage.backend import Transaction
from storage.errors import UnknownTable
from storage.ledger import Work
from storage.models import Game, TableMessage


def remember(
    work: Work, guild_id: int, channel_id: int, game: Game, message_id: int, has_buttons: bool
) -> None:
    """Record a table message, or whether it now carries buttons."""
    work.guild(guild_id)
    work.tx.execute(
        "INSERT INTO table_messages "
        "(message_id, guild_id, channel_id, game, has_buttons, posted_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET "
        "has_buttons = excluded.has_buttons",
        (message_id, guild_id, channel_id, game.value, int(has_buttons), work.stamp),
    )


def forget(tx: Transaction, message_ids: tuple[int, ...]) -> int:
    """Stop tracking these messages; how many were tracked."""
    return sum(
        tx.execute("DELETE FROM table_messages WHERE message_id = ?", (message_id,))
        for message_id in message_ids
    )


def read(tx: Transaction, channel_id: int, game: Game) -> list[TableMessage]:
    """The tracked table messages of one game in a channel, oldest first."""
    rows = tx.all(
        "SELECT message_id, guild_id, channel_id, game, has_buttons FROM table_messages "
        "WHERE channel_id = ? AND game = ? ORDER BY message_id",
        (channel_id, game.value),
    )
    return [
        TableMessage(
            message_id=int(message_id),
            guild_id=int(guild_id),
            channel_id=int(channel),
            game=Game(game_name),
            has_buttons=bool(has_buttons),
        )
        for message_id, guild_id, channel, game_name, has_buttons in rows
    ]


def note_dm_refused(work: Work, table_id: int, user_id: int) -> bool:
    """Record that ``user_id`` was told at ``table_id`` that their DMs are closed; True the
    first time only."""
    if work.tx.value("SELECT 1 FROM poker_tables WHERE table_id = ?", (table_id,)) is None:
        raise UnknownTable(table_id)
    return (
        work.tx.execute(
            "INSERT INTO dm_refusal_notices (table_id, user_id, noticed_at) VALUES (?, ?, ?) "
            "ON CONFLICT (table_id, user_id) DO NOTHING",
            (table_id, user_id, work.stamp),
        )
        > 0
    )
