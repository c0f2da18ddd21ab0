"""A Hold'em table's home-game state that is not chips: members' time banks at a table and
members' consent to the rail. Plain upserts: saving the same value twice changes nothing."""

from __future__ import annotations

from collections.abc import Mapping

from storage.backend import Transaction
from storage.errors import InvalidArgument, UnknownTable
from storage.ledger import Work

MAX_BANK_SECONDS = 86_400
"""A bank longer than a day is a bug in the caller, not a setting."""


def save_time_banks(work: Work, table_id: int, banks: Mapping[int, int]) -> None:
    """Store each member's bank at the table (seconds left), replacing what was stored."""
    if work.tx.value("SELECT 1 FROM poker_tables WHERE table_id = ?", (table_id,)) is None:
        raise UnknownTable(table_id)
    for user_id, seconds in sorted(banks.items()):
        if not isinstance(seconds, int) or not 0 <= seconds <= MAX_BANK_SECONDS:
            raise InvalidArgument(f"A time bank is 0 to {MAX_BANK_SECONDS} seconds.")
        work.tx.execute(
            "INSERT INTO holdem_time_banks (table_id, user_id, seconds, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) "
            "DO UPDATE SET seconds = excluded.seconds, updated_at = excluded.updated_at",
            (table_id, user_id, seconds, work.stamp),
        )


def time_banks(tx: Transaction, table_id: int) -> dict[int, int]:
    """Every member's stored bank at the table, by user id."""
    rows = tx.all("SELECT user_id, seconds FROM holdem_time_banks WHERE table_id = ?", (table_id,))
    return {int(user_id): int(seconds) for user_id, seconds in rows}


def set_rail_consent(work: Work, guild_id: int, user_id: int, allowed: bool) -> None:
    """Whether a member lets the rail see their cards (hands later) at this guild's tables."""
    work.guild(guild_id)
    work.tx.execute(
        "INSERT INTO holdem_rail_consent (guild_id, user_id, allowed, updated_at) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) "
        "DO UPDATE SET allowed = excluded.allowed, updated_at = excluded.updated_at",
        (guild_id, user_id, int(allowed), work.stamp),
    )


def rail_consents(tx: Transaction, guild_id: int, user_ids: tuple[int, ...]) -> set[int]:
    """Which of ``user_ids`` allowed the rail in this guild (nobody has, by default)."""
    if not user_ids:
        return set()
    marks = ", ".join("?" for _ in user_ids)
    rows = tx.all(
        "SELECT user_id FROM holdem_rail_consent WHERE guild_id = ? AND allowed = 1 "
        f"AND user_id IN ({marks})",
        (guild_id, *user_ids),
    )
    return {int(row[0]) for row in rows}
