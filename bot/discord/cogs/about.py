"""``/ping`` and ``/about``: is Felt awake, which version runs, and what it offers."""

from __future__ import annotations

import importlib.metadata
import math
import platform

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import FeltBot

ABOUT = (
    "No-Limit Texas Hold'em and Blackjack for your server, with chips that persist, "
    "bot players in the empty chairs, leaderboards and admin tools. Self-hosted and open source."
)


def felt_version() -> str:
    try:
        return importlib.metadata.version("felt")
    except importlib.metadata.PackageNotFoundError:
        return "development"


def describe_duration(seconds: float) -> str:
    """``3 d 4 h``, ``2 h 5 min``, ``42 s``: the two largest units."""
    seconds = max(0, int(seconds))
    units = (("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1))
    parts: list[str] = []
    for name, size in units:
        amount, seconds = divmod(seconds, size)
        if amount or (name == "s" and not parts):
            parts.append(f"{amount} {name}")
    return " ".join(parts[:2])


class About(commands.Cog):
    """Small commands that prove the bot is wired up."""

    def __init__(self, bot: FeltBot) -> None:
        self.bot = bot

    @app_commands.command(name="ping", description="Check that Felt is awake and how fast it is.")
    async def ping(self, interaction: discord.Interaction[FeltBot]) -> None:
        latency = self.bot.latency
        if math.isfinite(latency):
            text = f"Pong! Gateway heartbeat: {latency * 1000:.0f} ms."
        else:
            text = "Pong!"
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="about", description="What Felt is, its version and its commands.")
    async def about(self, interaction: discord.Interaction[FeltBot]) -> None:
        bot = self.bot
        embed = discord.Embed(title="Felt", description=ABOUT, colour=discord.Colour.dark_green())
        embed.add_field(name="Version", value=felt_version())
        embed.add_field(name="Uptime", value=describe_duration(bot.clock() - bot.started_at))
        embed.add_field(name="Servers", value=str(len(bot.guilds)))
        names = sorted(command.name for command in bot.tree.get_commands())
        embed.add_field(
            name="Commands", value=" ".join(f"`/{name}`" for name in names), inline=False
        )
        shard = interaction.guild.shard_id if interaction.guild is not None else 0
        embed.set_footer(
            text=f"Shard {shard} of {bot.shard_count or 1} · discord.py {discord.__version__} "
            f"· Python {platform.python_version()}"
        )
        await interaction.response.send_message(embed=embed)


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(About(bot))
