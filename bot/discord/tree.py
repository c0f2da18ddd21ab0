"""Felt's command tree: every slash command's error goes through the bot's ``ErrorRouter``.

Also the base classes for views and modals, whose errors discord.py would otherwise only log,
leaving the member's click to fail; and ``route_errors`` for ``DynamicItem`` callbacks, whose
errors discord.py swallows entirely.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands

from bot.discord.errors import ErrorRouter, ErrorRoutingClient, ShuttingDown
from bot.discord.interaction_edits import release
from bot.discord.replies import Interaction

_log = logging.getLogger("felt.discord.tree")
_FALLBACK_ROUTER = ErrorRouter()


def router_for(interaction: Interaction) -> ErrorRouter:
    """The error router of the bot that received ``interaction``."""
    client = interaction.client
    return client.error_router if isinstance(client, ErrorRoutingClient) else _FALLBACK_ROUTER


class FeltCommandTree(app_commands.CommandTree[discord.Client]):
    """Routes command errors to the error router and refuses new commands during shutdown."""

    async def interaction_check(self, interaction: Interaction) -> bool:
        client = interaction.client
        if isinstance(client, ErrorRoutingClient) and client.shutting_down:
            raise ShuttingDown()
        return True

    async def _call(self, interaction: Interaction) -> None:
        try:
            await super()._call(interaction)
        finally:
            release(interaction)  # its handler is done: its reference cycle ends here

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        command = interaction.command
        where = f"/{command.qualified_name}" if command is not None else "a command"
        await router_for(interaction).handle(interaction, error, where=where)


class FeltView(discord.ui.View):
    """A view whose callback errors are answered like command errors."""

    async def on_error(
        self,
        interaction: Interaction,
        error: Exception,
        item: discord.ui.Item[Any],
    ) -> None:
        custom_id = getattr(item, "custom_id", None)
        await router_for(interaction).handle(
            interaction, error, where=f"{type(self).__name__} item {custom_id or item!r}"
        )


class FeltModal(discord.ui.Modal):
    """A modal whose submit errors are answered like command errors."""

    async def on_error(  # type: ignore[override]
        self, interaction: Interaction, error: Exception, /
    ) -> None:
        await router_for(interaction).handle(
            interaction, error, where=f"modal {type(self).__name__}"
        )


@contextlib.asynccontextmanager
async def route_errors(interaction: Interaction, where: str) -> AsyncIterator[None]:
    """Answer any error raised in the block like a command error.

    For ``DynamicItem.callback`` (persistent buttons that survive restarts), whose exceptions
    discord.py only logs::

        async def callback(self, interaction):
            async with route_errors(interaction, "holdem action"):
                ...
    """
    try:
        yield
    except Exception as error:
        await router_for(interaction).handle(interaction, error, where=where)
