"""The terminal player's wallet: the local ids, opening the database, the daily bonus, and
putting back chips that a killed session left at a table.

The terminal plays as one fixed member of one fixed "local" guild, so chips persist between
sessions in the same database as a Discord guild's would (guild ids are Discord snowflakes, which
are never this small, so a shared database keeps them apart).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.config import FeltConfig
from storage import (
    DailyAlreadyClaimed,
    DailyClaim,
    DailyDisabled,
    EconomySettings,
    Storage,
)
from storage.instances import Claim

LOCAL_GUILD_ID = 1
"""The guild the terminal plays in."""
LOCAL_USER_ID = 1
"""The terminal player's member id."""
HOLDEM_CHANNEL_ID = 1
BLACKJACK_CHANNEL_ID = 2


def economy_settings(config: FeltConfig) -> EconomySettings:
    """The starting grant and daily bonus the Discord bot uses for the same config."""
    # The same mapping as bot.discord.database.economy_defaults, which imports discord.py.
    economy = config.economy
    return EconomySettings(
        starting_chips=economy.starting_chips,
        daily_amount=economy.daily_amount,
        transfers_enabled=economy.transfers,
    )


async def open_wallet(path: Path, config: FeltConfig) -> Storage:
    """Open (creating and migrating) the database and the local player's account."""
    storage = await Storage.open(path, economy=economy_settings(config))
    try:
        await storage.ensure_account(LOCAL_GUILD_ID, LOCAL_USER_ID)
    except BaseException:
        await storage.close()
        raise
    return storage


async def take_lease(storage: Storage) -> None:
    """This session's lease: what it opens belongs to it, and no other session puts it back
    while it lives (several terminal games may run side by side on one database)."""
    await storage.acquire_lease(Claim.terminal())


async def put_back_leftovers(storage: Storage) -> int:
    """Close local tables and refund local rounds that a killed session left open.

    Only the local guild is touched, so a database shared with a running Discord bot is safe,
    and only what belongs to a session that is no longer alive (its lease ended or expired), so
    a game running in another terminal is never touched. Returns how many were put back.
    """
    count = 0
    for table_id in await storage.abandoned_tables(LOCAL_GUILD_ID):
        await storage.close_table(table_id, key=f"terminal:leftover:{table_id}")
        count += 1
    for round_id in await storage.abandoned_rounds(LOCAL_GUILD_ID):
        await storage.refund_round(
            round_id,
            reason="the terminal session ended",
            key=f"terminal:leftover-round:{round_id}",
        )
        count += 1
    return count


@dataclass(frozen=True, slots=True)
class DailyResult:
    """What claiming the daily bonus did."""

    claim: DailyClaim | None
    refusal: str
    """Why nothing was claimed ("" when ``claim`` is set)."""


async def claim_daily(storage: Storage) -> DailyResult:
    """Claim today's bonus for the local player."""
    try:
        claim = await storage.claim_daily(
            LOCAL_GUILD_ID, LOCAL_USER_ID, key=f"terminal:daily:{uuid.uuid4().hex}"
        )
    except DailyAlreadyClaimed as error:
        wait = error.next_claim_at - datetime.now(UTC)
        hours, minutes = divmod(max(0, int(wait.total_seconds())) // 60, 60)
        later = f"next in {hours}h {minutes:02}m"
        return DailyResult(None, f"Today's bonus is already claimed; {later}.")
    except DailyDisabled:
        return DailyResult(None, "The daily bonus is turned off.")
    return DailyResult(claim, "")


async def daily_available(storage: Storage) -> bool:
    """Whether the local player has not claimed today's bonus yet."""
    account = await storage.get_account(LOCAL_GUILD_ID, LOCAL_USER_ID)
    today = datetime.now(UTC).date()
    economy = await storage.economy(LOCAL_GUILD_ID)
    return economy.daily_amount > 0 and (account is None or account.last_daily_on != today)


async def balance(storage: Storage) -> int:
    """The local player's wallet."""
    return await storage.balance(LOCAL_GUILD_ID, LOCAL_USER_ID)
