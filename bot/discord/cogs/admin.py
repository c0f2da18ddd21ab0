"""``/felt-admin``: grant, take and set chips, start seasons, change the server's settings, export
the ledger and check it.

The commands live by job in ``bot/discord/admin/`` (chips, seasons, ledger, settings); this cog
joins them under one group. Every subcommand is checked on the server side in
:meth:`Admin.interaction_check` (Manage Server, or the admin role set with ``config admin-role``):
``default_permissions`` only hides the group in clients, and a modified client can send it
anyway. The check defers first (ephemerally; every answer here is for the admin only) because
looking up the admin role reads the database. Setting a balance and resetting balances with a new
season ask for confirmation first.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.admin.chips import ChipCommands
from bot.discord.admin.ledger import LedgerCommands
from bot.discord.admin.seasons import SeasonCommands
from bot.discord.admin.settings import SettingsCommands
from bot.discord.client import FeltBot
from bot.discord.permissions import guild_member, require_admin
from bot.discord.replies import acknowledge


# discord.py lists a group's subcommands base class first: config, chips, seasons, then ledger.
@app_commands.default_permissions(manage_guild=True)
class Admin(
    LedgerCommands,
    SeasonCommands,
    ChipCommands,
    SettingsCommands,
    commands.GroupCog,
    group_name="felt-admin",
    group_description="Felt's admin tools: chips, seasons, settings, exports and checks.",
):
    """Tools for the server's Felt admins."""

    def __init__(self, bot: FeltBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        guild_member(interaction)
        if interaction.type is discord.InteractionType.application_command:
            await acknowledge(interaction, ephemeral=True, thinking=True)
        await require_admin(interaction)
        return True


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(Admin(bot))
