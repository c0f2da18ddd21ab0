"""The rail in Discord: ``/holdem watch``, ``/holdem rail allow:...`` and the watchers' DMs.

The rules are the host's (``bot.holdem.rail``): a watcher gets, by DM, the hole cards of a hand
already settled (``rail_delay`` hands behind), of players who allowed it and of bots. Answers
to both commands are private; the table message lists who is watching.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.discord.holdem.formatting import escape, hole_cards_text
from bot.discord.pacing import Pacer
from bot.discord.permissions import guild_member
from bot.discord.send_failures import SEND_FAILURES
from bot.holdem.host import HoldemTable
from bot.holdem.rail import RailCards
from storage import Storage

_log = logging.getLogger("felt.discord.holdem")


async def toggle_watch(interaction: discord.Interaction[Any], table: HoldemTable) -> None:
    """``/holdem watch``: start watching this channel's table, or stop."""
    name = getattr(interaction.user, "display_name", interaction.user.name)
    watching = await table.watch(interaction.user.id, name)
    if watching:
        delay = table.settings.rail_delay
        text = (
            f"You are on the rail: after each hand, I DM you the cards of the hand {delay} "
            f"hand{'s' if delay > 1 else ''} back (from players who allow it, and bots). "
            "`/holdem watch` again to stop."
        )
    else:
        text = "You left the rail: no more cards by DM."
    await interaction.response.send_message(text, ephemeral=True)


async def set_consent(interaction: discord.Interaction[Any], storage: Storage, allow: bool) -> None:
    """``/holdem rail allow:``: whether the rail may see this member's cards, hands later."""
    guild_id = guild_member(interaction).guild.id
    await storage.set_rail_consent(guild_id, interaction.user.id, allow)
    text = (
        "Watchers on the rail may now see your cards, only of hands already over."
        if allow
        else "Watchers on the rail will not see your cards."
    )
    await interaction.response.send_message(text, ephemeral=True)


def rail_text(cards: RailCards, table_name: str, channel_id: int) -> str:
    """The DM of one settled hand for a watcher."""
    lines = [f"**{escape(table_name)}** · Hand #{cards.hand_id} in <#{channel_id}> (rail)"]
    lines.extend(f"{escape(seat.name)}: **{hole_cards_text(seat.cards)}**" for seat in cards.seats)
    if cards.hidden:
        lines.append("Not shown to the rail: " + ", ".join(escape(n) for n in cards.hidden))
    return "\n".join(lines)


class RailDms:
    """Sends the watchers' DMs of one table, one task each, paced with the table's requests."""

    def __init__(self, client: discord.Client, pacer: Pacer, channel_id: int) -> None:
        self._client = client
        self._pacer = pacer
        self._channel_id = channel_id
        self._tasks: set[asyncio.Task[None]] = set()

    def send(self, cards: RailCards, table_name: str) -> None:
        task = asyncio.get_running_loop().create_task(self._send(cards, table_name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, cards: RailCards, table_name: str) -> None:
        try:
            async with self._pacer.request():
                channel = await self._client.create_dm(discord.Object(cards.watcher_id))
            async with self._pacer.request():
                await channel.send(rail_text(cards, table_name, self._channel_id))
        except SEND_FAILURES as error:
            _log.warning("could not DM the rail: %s", error)

    async def drain(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
