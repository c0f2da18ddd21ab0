"""``/felt-admin ledger-export`` and ``check``: the chip ledger as a file, and its audit."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import discord
from discord import app_commands

from bot.discord.admin.base import AdminCommands
from bot.discord.attachments import attachment
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.permissions import guild_member
from storage import CheckReport

MAX_PROBLEMS_SHOWN = 10


class LedgerCommands(AdminCommands):
    """Export the ledger and check it."""

    @app_commands.command(name="ledger-export", description="The chip ledger as a CSV file.")
    @app_commands.describe(member="Only this member's rows (default: the whole server)")
    async def ledger_export(
        self, interaction: discord.Interaction[FeltBot], member: discord.Member | None = None
    ) -> None:
        admin = guild_member(interaction)
        guild = admin.guild
        out = io.StringIO()
        rows = await self.storage.export_ledger_csv(
            out, guild.id, user_id=member.id if member is not None else None
        )
        data = out.getvalue().encode("utf-8")
        limit = interaction.filesize_limit
        if len(data) > limit:
            raise Refusal(
                f"The export is {len(data) / 2**20:.1f} MiB, more than Discord accepts here "
                f"({limit / 2**20:.0f} MiB). Whoever runs Felt can export it with "
                f"`felt db export ledger --guild {guild.id}`."
            )
        stamp = datetime.now(UTC).strftime("%Y%m%d")
        scope = f"-{member.id}" if member is not None else ""
        whose = member.mention if member is not None else "this server"
        await interaction.followup.send(
            f"The ledger of {whose}: {rows:,} row(s).",
            file=attachment(data, filename=f"felt-ledger-{guild.id}{scope}-{stamp}.csv"),
            ephemeral=True,
        )

    @app_commands.command(name="check", description="Check that every chip is accounted for.")
    async def check(self, interaction: discord.Interaction[FeltBot]) -> None:
        admin = guild_member(interaction)
        report = await self.storage.check()
        await interaction.followup.send(embed=check_embed(report, admin.guild.id), ephemeral=True)


def check_embed(report: CheckReport, guild_id: int) -> discord.Embed:
    """The check's verdict for one guild; other guilds' problems are counted, not shown."""
    mine = [problem for problem in report.problems if problem.guild_id in (None, guild_id)]
    elsewhere = len(report.problems) - len(mine)
    totals = next((guild for guild in report.guilds if guild.guild_id == guild_id), None)
    if mine:
        title, colour = f"{len(mine)} problem(s) found", discord.Colour.red()
    else:
        title, colour = "Every chip is accounted for", discord.Colour.green()
    embed = discord.Embed(title=title, colour=colour)
    if totals is not None:
        embed.add_field(
            name="This server",
            value=(
                f"Accounts: {totals.accounts:,}\nChips held: {totals.held:,}\n"
                f"Minted: {totals.minted:,}\nBurned: {totals.burned:,}"
            ),
        )
    embed.add_field(
        name="In play",
        value=(
            f"Hands in progress: {report.hands_in_progress:,}\n"
            f"Rounds open: {report.rounds_open:,}\nLedger rows checked: {report.ledger_rows:,}"
        ),
    )
    if mine:
        lines = [f"• {problem.message}" for problem in mine[:MAX_PROBLEMS_SHOWN]]
        if len(mine) > MAX_PROBLEMS_SHOWN:
            lines.append(f"... and {len(mine) - MAX_PROBLEMS_SHOWN} more (`felt db check`).")
        embed.description = "\n".join(lines)[:4000]
    if elsewhere:
        embed.set_footer(
            text=f"The database has {elsewhere} problem(s) in other servers' data: whoever runs "
            "Felt should run `felt db check`."
        )
    return embed
