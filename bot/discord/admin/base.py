"""What every ``/felt-admin`` command group shares: the bot, its storage, and the small refusals."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from storage import Storage

_log = logging.getLogger("felt.discord.admin")


class AdminCommands(commands.Cog):
    """The base of each admin command group; :class:`bot.discord.cogs.admin.Admin` joins them."""

    bot: FeltBot

    @property
    def storage(self) -> Storage:
        return self.bot.storage


def refuse_bot(member: discord.Member) -> None:
    if member.bot:
        raise Refusal("Bots do not hold chips.")


def require_manage_guild(interaction: discord.Interaction[Any]) -> None:
    # The admin role may not hand out (or take away) the admin role itself.
    if not (interaction.permissions.manage_guild or interaction.permissions.administrator):
        raise Refusal("Only members with the Manage Server permission can change the admin role.")


async def tell(member: discord.Member, notify: bool, text: str) -> str:
    """DM ``member``; returns a note for the admin when that was not possible."""
    if not notify:
        return ""
    try:
        await member.send(text)
    except discord.Forbidden:
        return f"\n({member.mention} was not told: they do not accept DMs from me.)"
    except discord.HTTPException as error:
        _log.warning("could not DM a member", extra={"user_id": member.id, "status": error.status})
        return f"\n(I could not DM {member.mention}.)"
    return ""
