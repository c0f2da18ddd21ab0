"""The terminal player's wallet: the local ids, opening the database, the daily bonus, the
practice wallet of seeded games, and putting back chips that a killed session left at a table.

The terminal plays as one fixed member of one fixed "local" guild, so chips persist between
sessions in the same database as a Discord guild's would (guild ids are Discord snowflakes, which
are never this small, so a shared database keeps them apart).

A game with ``--seed`` deals cards anyone can know in advance (a winning shoe replays), so it is
played from a practice wallet in a guild of its own, reset to the starting grant at every start:
the real wallet never sees a seeded game.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.config import FeltConfig
from storage import (
    BalanceLimitExceeded,
    DailyAlreadyClaimed,
    DailyClaim,
    DailyDisabled,
    Storage,
)
from storage.instances import Claim

LOCAL_GUILD_ID = 1
"""The guild the terminal plays in."""
LOCAL_USER_ID = 1
"""The terminal player's member id."""
PRACTICE_GUILD_ID = 2
"""The guild of the practice wallet that seeded games play from."""
PRACTICE_CHANNEL_OFFSET = 10
"""Practice tables sit in channels of their own (keys derived from a channel never meet)."""


def channel_of(channel_id: int, guild_id: int) -> int:
    """The terminal's channel for a game in ``guild_id`` (the practice guild has its own)."""
    return channel_id + (PRACTICE_CHANNEL_OFFSET if guild_id == PRACTICE_GUILD_ID else 0)


HOLDEM_CHANNEL_ID = 1
BLACKJACK_CHANNEL_ID = 2


async def open_wallet(path: str | Path, config: FeltConfig) -> Storage:
    """Open (creating and migrating) the database and the local player's account."""
    storage = await Storage.open(path, economy=config.economy.settings())
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


async def reset_practice_wallet(storage: Storage, starting_chips: int) -> int:
    """Set the practice wallet to the starting grant; its balance."""
    await storage.ensure_account(PRACTICE_GUILD_ID, LOCAL_USER_ID)
    latest = await storage.ledger(PRACTICE_GUILD_ID, user_id=LOCAL_USER_ID, limit=1)
    after = latest[0].entry_id if latest else 0
    change = await storage.admin_set(
        PRACTICE_GUILD_ID,
        LOCAL_USER_ID,
        starting_chips,
        actor_id=LOCAL_USER_ID,
        key=f"terminal:practice-reset:after:{after}",
    )
    return change.balance


async def put_back_leftovers(storage: Storage) -> int:
    """Close local tables and refund local rounds that a killed session left open.

    Only the local guilds (real and practice) are touched, so a database shared with a running
    Discord bot is safe, and only what belongs to a session that is no longer alive (its lease
    ended or expired), so a game running in another terminal is never touched. Returns how many
    were put back.
    """
    count = 0
    for guild_id in (LOCAL_GUILD_ID, PRACTICE_GUILD_ID):
        for table_id in await storage.abandoned_tables(guild_id):
            await storage.close_table(table_id, key=f"terminal:leftover:{table_id}")
            count += 1
        for round_id in await storage.abandoned_rounds(guild_id):
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
    except BalanceLimitExceeded as error:  # a wallet at the ledger's limit: say so, play on
        return DailyResult(None, str(error))
    return DailyResult(claim, "")


async def daily_available(storage: Storage) -> bool:
    """Whether the local player has not claimed today's bonus yet."""
    account = await storage.get_account(LOCAL_GUILD_ID, LOCAL_USER_ID)
    today = datetime.now(UTC).date()
    economy = await storage.economy(LOCAL_GUILD_ID)
    return economy.daily_amount > 0 and (account is None or account.last_daily_on != today)


async def balance(storage: Storage, guild_id: int = LOCAL_GUILD_ID) -> int:
    """The local player's wallet (``PRACTICE_GUILD_ID``: the practice wallet)."""
    return await storage.balance(guild_id, LOCAL_USER_ID)
