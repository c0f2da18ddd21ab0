"""``/tournament hands``: every hand a tournament has played, all its tables, as one private
file (PHH, PokerStars text or Open Hand History), as `felt db export hands --tournament` writes
it: the cards shown at showdown and nobody's folded cards, so any member may have it."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.errors import Refusal
from bot.holdem.hand_files import HandFormat, tournament_hands, write_hands
from storage import Storage
from storage.tournaments import TournamentRow

DEFAULT_ATTACHMENT_LIMIT = 8 * 1024 * 1024


async def send_tournament_hands(
    interaction: discord.Interaction[Any], storage: Storage, row: TournamentRow, kind: HandFormat
) -> None:
    """Send ``row``'s hands in ``kind`` to the member who asked (the interaction is already
    deferred, ephemeral)."""
    kept = await storage.tournament_hands(row.tournament_id)
    if not kept:
        raise Refusal(f"Tournament #{row.tournament_id} has no finished hand yet.")
    out = io.StringIO()
    count = await asyncio.to_thread(write_hands, tournament_hands(row, kept), kind, out)
    data = out.getvalue().encode()
    limit = getattr(interaction, "attachment_size_limit", None) or DEFAULT_ATTACHMENT_LIMIT
    if len(data) > limit:
        raise Refusal(
            f"Tournament #{row.tournament_id}'s {count:,} hands make a file too big for Discord "
            f"here ({len(data) / 2**20:.1f} MiB). Whoever runs Felt can export them with "
            f"`felt db export hands --tournament {row.tournament_id}`."
        )
    await interaction.followup.send(
        f"The {count:,} hand(s) of **{row.name}** (#{row.tournament_id}), every table, in the "
        f"order they ended, as {kind.value}: the cards shown at showdown, nobody's folded cards.",
        file=attachment(data, filename=f"felt-tournament-{row.tournament_id}.{kind.extension}"),
        ephemeral=True,
    )
