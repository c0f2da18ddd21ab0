"""``/felt-admin new-season``: end this season and start the next, resetting wallets if asked."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.admin.base import AdminCommands
from bot.discord.chips import checked_amount, chips
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.permissions import guild_member
from storage import MAX_CHIPS

MAX_SEASON_NAME = 100


class SeasonCommands(AdminCommands):
    """Start seasons."""

    @app_commands.command(name="new-season", description="End this season and start the next.")
    @app_commands.describe(
        name="The new season's name (default: Season N)",
        reset="Also reset every wallet (asks first; default: no)",
        reset_to="Chips every wallet is reset to (default: the starting chips); implies reset",
    )
    async def new_season(
        self,
        interaction: discord.Interaction[FeltBot],
        name: app_commands.Range[str, 1, MAX_SEASON_NAME] | None = None,
        reset: bool = False,
        reset_to: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
    ) -> None:
        admin = guild_member(interaction)
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise Refusal("A season name needs some text.")
        if name is not None and len(name) > MAX_SEASON_NAME:
            raise Refusal(f"A season name has at most {MAX_SEASON_NAME} characters.")
        if reset_to is not None:
            reset_to = checked_amount(reset_to, what="reset balance", allow_zero=True)
            reset = True
        if reset:
            await self._new_season_with_reset(interaction, admin, name, reset_to)
            return
        started = await self.storage.start_season(
            admin.guild.id, name=name, actor_id=admin.id, key=str(interaction.id)
        )
        await interaction.followup.send(
            f"{started.current.name} has begun; {started.previous.name} is archived.",
            ephemeral=True,
        )
        await interaction.followup.send(
            season_announcement(
                started.previous.name, started.previous.number, started.current.name, None
            )
        )

    async def _new_season_with_reset(
        self,
        interaction: discord.Interaction[FeltBot],
        admin: discord.Member,
        name: str | None,
        reset_to: int | None,
    ) -> None:
        """Ask first, then start the season and reset every wallet to ``reset_to``."""
        storage, guild, key = self.storage, admin.guild, str(interaction.id)
        target = reset_to
        if target is None:
            target = (await storage.economy(guild.id)).starting_chips
        current = await storage.current_season(guild.id)

        async def apply(click: discord.Interaction[Any]) -> str:
            started = await storage.start_season(
                guild.id, name=name, reset_to=target, actor_id=admin.id, key=key
            )
            await click.followup.send(
                season_announcement(
                    started.previous.name, started.previous.number, started.current.name, target
                )
            )
            return (
                f"{started.current.name} has begun: {started.balances_reset:,} wallet(s) were "
                f"reset to {chips(target)}."
            )

        await self.bot.confirmations.ask(
            interaction,
            f"End **{current.name}** and reset **every wallet** on this server to "
            f"**{chips(target)}**? This cannot be undone (the season's final balances stay on "
            f"its leaderboard).",
            apply,
            confirm_label="Reset balances",
        )


def season_announcement(
    previous_name: str, previous_number: int, current_name: str, reset_to: int | None
) -> str:
    text = (
        f"🏁 **{current_name}** has begun! {previous_name} is over; its final standings stay on "
        f"`/leaderboard season:{previous_number}`."
    )
    if reset_to is not None:
        text += f" Every wallet starts again with {chips(reset_to)}."
    return text
