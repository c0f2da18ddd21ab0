"""What a table channel keeps in storage about its table messages, so a restart can take over.

A message is kept while the channel may edit it, with whether it carries buttons (written only
when that changes). The first table channel of a game in a channel after a restart finds what
the process before left: messages with buttons are to be retired (buttons taken off), and the
channel's budget starts spent, since Discord's buckets may still be full from before.
"""

from __future__ import annotations

import logging

import discord

from bot.discord.client import FeltBot
from bot.discord.pacing import ChannelBudget
from storage import Game, Storage, StorageError, TableMessage

_log = logging.getLogger("felt.discord.channel")


def storage_of(client: discord.Client) -> Storage | None:
    """The bot's storage, where table channels keep their messages (None: a bot without)."""
    return client.storage if isinstance(client, FeltBot) and client.has_storage else None


class KeptMessages:
    """One table channel's kept messages (a no-op without storage)."""

    def __init__(self, storage: Storage | None, guild_id: int, channel_id: int, game: Game) -> None:
        self._storage = storage
        self._guild_id = guild_id
        self._channel_id = channel_id
        self._game = game
        self.leftovers: list[TableMessage] = []
        """Messages from before a restart that still have buttons."""
        self.forgotten: list[int] = []
        """Message ids to stop keeping, at the next ``flush``."""

    async def take_over(self, budget: ChannelBudget) -> None:
        """At the first contact after a restart: take over what the process before left."""
        if self._storage is None or not budget.first_contact(self._game.value):
            return
        try:
            stored = await self._storage.table_messages(self._channel_id, self._game)
        except StorageError:
            _log.exception("could not read the table messages kept from before")
            return
        if stored:
            budget.assume_spent()
        self.leftovers = [message for message in stored if message.has_buttons]
        self.forgotten += [message.message_id for message in stored if not message.has_buttons]

    async def keep(self, message_id: int, *, has_buttons: bool) -> None:
        if self._storage is None:
            return
        try:
            await self._storage.remember_table_message(
                self._guild_id, self._channel_id, self._game, message_id, has_buttons=has_buttons
            )
        except StorageError:
            _log.exception("could not keep a table message", extra={"channel_id": self._channel_id})

    async def flush(self) -> None:
        """Stop keeping the messages the channel is done with."""
        if not self.forgotten:
            return
        forgotten, self.forgotten = self.forgotten, []
        if self._storage is None:
            return
        try:
            await self._storage.forget_table_messages(self._guild_id, *forgotten)
        except StorageError:
            _log.exception(
                "could not forget table messages", extra={"channel_id": self._channel_id}
            )
