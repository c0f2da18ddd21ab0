"""Opening a Hold'em table for ``/holdem start``: the table, its announcement, the opener seated."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.discord.errors import Refusal
from bot.discord.holdem import formatting
from bot.discord.holdem.presenter import TablePresenter
from bot.discord.replies import acknowledge
from bot.holdem.manager import HoldemTables
from bot.holdem.settings import HoldemSettings
from storage import Storage


async def open_and_sit(
    interaction: discord.Interaction[Any],
    member: discord.Member,
    settings: HoldemSettings,
    amount: int,
    storage: Storage,
    manager: HoldemTables,
    presenters: Mapping[int, TablePresenter],
) -> None:
    """Open the channel's table and seat its opener (closing it if they cannot sit)."""
    await acknowledge(interaction, ephemeral=True, thinking=True)
    account = await storage.ensure_account(member.guild.id, member.id)
    if account.balance < amount:
        raise Refusal(f"You have {account.balance:,} chips: a buy-in of {amount:,} needs more.")
    assert interaction.channel_id is not None
    table = await manager.open(
        guild_id=member.guild.id,
        channel_id=interaction.channel_id,
        host_user_id=member.id,
        name=f"{member.display_name}'s table",
        settings=settings,
        key=f"holdem:open:{interaction.id}",
    )
    presenters[interaction.channel_id].announce(
        formatting.opened_line(member.display_name, settings)
    )
    try:
        await table.join(
            member.id, member.display_name, amount, key=f"holdem:join:{interaction.id}"
        )
    except Exception:
        await table.close("the player who opened it could not sit down")
        raise
