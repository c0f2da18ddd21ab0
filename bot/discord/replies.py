"""Answering interactions correctly whatever state they are in: in time, once, and privately.

Discord's rules these helpers encode: an interaction must be acknowledged within 3 s and only
once; after a deferral, followups and edits work for 15 minutes; and the first followup after a
"thinking..." deferral replaces that message and keeps its visibility, so an ephemeral followup
after a public deferral would be shown to the whole channel. ``send_ephemeral`` handles that.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

_log = logging.getLogger("felt.discord.replies")

T = TypeVar("T")

Interaction = discord.Interaction[discord.Client]
"""An interaction on any client: the helpers of the front need nothing of Felt's own bot."""


async def acknowledge(
    interaction: Interaction,
    *,
    ephemeral: bool = False,
    thinking: bool = False,
) -> bool:
    """Defer ``interaction`` unless it was already answered; True if this call deferred it.

    For a slash command this shows "Felt is thinking..." (ephemerally if asked) until the
    first followup; for a button or modal without ``thinking`` it acknowledges silently and the
    message can then be edited with ``interaction.edit_original_response``.
    """
    if interaction.response.is_done():
        return False
    await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    return True


def defer_first(*, ephemeral: bool = False) -> Callable[[T], T]:
    """Decorate a slash command whose work may take more than a moment (database, rendering).

    The command is deferred ("thinking...") as soon as its options are parsed and its other
    checks passed, before its body runs, so it never misses Discord's 3 s deadline; the body
    then answers with ``interaction.followup.send`` (or ``edit_original_response``) and has
    15 minutes to do so. Implemented as a check, so it keeps the command's signature intact;
    place it above the command's other checks so refusals from those stay un-deferred.
    """

    async def predicate(interaction: Interaction) -> bool:
        await acknowledge(interaction, ephemeral=ephemeral, thinking=True)
        return True

    return app_commands.check(predicate)


async def send_ephemeral(
    interaction: Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
) -> None:
    """Show ``content`` to the member who interacted, and only to them, in any response state.

    - not answered yet: an ephemeral response;
    - deferred with "thinking..." that is still showing: if the deferral was ephemeral its
      message becomes this one; if it was public, the public "thinking..." message is deleted
      first, so that the answer is not shown to everyone (Discord would make the first
      followup public);
    - otherwise: an ephemeral followup.
    """
    embeds = [embed] if embed is not None else []
    response = interaction.response
    if not response.is_done():
        await response.send_message(content, embeds=embeds, ephemeral=True)
        return
    if response.type is discord.InteractionResponseType.deferred_channel_message:
        original = await interaction.original_response()
        if original.flags.loading:
            if original.flags.ephemeral:
                await interaction.edit_original_response(content=content, embeds=embeds)
                return
            await interaction.delete_original_response()
    await interaction.followup.send(content or "", embeds=embeds, ephemeral=True)
