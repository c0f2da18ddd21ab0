"""Where a Discord tournament's tables play: a public thread of the tournament's channel each, or
a text channel of its own each (``t12-table-3``, in the tournament channel's category), as the
tournament chose when it was created (``storage/tournament_messages.py``).

Each home is stored the moment it is made, so a restart (graceful or a crash, even one before
the tournament's next saved state) reuses it instead of making a second. A table channel is
deleted ``CHANNEL_LINGER_SECONDS`` after its table closed (it broke, or the tournament is over),
so its players can read the last hand; channels a restart kept from being deleted are deleted
once the tournament's tables are open again, or at startup if the tournament has ended
(``sweep_ended``). Threads stay, as a record of the table. Without
Manage Channels a table opens in a thread instead, and the tournament's channel is told why.
"""

from __future__ import annotations

import logging

import discord

from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.guild_settings import tournament_tables
from bot.tables.clock import Scheduler
from storage.tournament_messages import TableHomeKind
from storage.tournaments import TournamentRow

_log = logging.getLogger("felt.discord.tournament")

CHANNEL_LINGER_SECONDS = 60.0
NO_MANAGE_CHANNELS = (
    "I lack the Manage Channels permission, so table {table} plays in a thread instead of a "
    "channel of its own."
)


def channel_name(tournament_id: int, table_no: int) -> str:
    """A table channel's name, as Discord stores it (lowercase, no spaces)."""
    return f"t{tournament_id}-table-{table_no}"


class TableHomes:
    """One tournament's table threads or channels."""

    def __init__(self, client: FeltBot, row: TournamentRow, scheduler: Scheduler) -> None:
        self.client = client
        self.row = row
        self._scheduler = scheduler
        self._kind: TableHomeKind | None = None
        self._channels: dict[int, int] = {}
        """Table channels (not threads) by table number, whatever their state."""
        self._opened: set[int] = set()
        self._swept = False

    async def kind(self) -> TableHomeKind:
        """Where this tournament's new tables play."""
        if self._kind is None:
            self._kind = (await self.client.storage.tournament_front(self.row.tournament_id)).tables
        return self._kind

    async def open(self, table_no: int, known: int | None) -> int:
        """The channel id of table ``table_no``'s home: ``known`` (from the saved state), the
        stored one, or a new thread or channel."""
        storage, tournament_id = self.client.storage, self.row.tournament_id
        stored = await storage.tournament_table_homes(tournament_id)
        homes = {home.table_no: home for home in stored}
        for other in homes.values():
            if other.kind is TableHomeKind.CHANNEL and not other.removed:
                self._channels.setdefault(other.table_no, other.channel_id)
        self._opened.add(table_no)
        home = homes.get(table_no)
        if known is not None:
            return known
        if home is not None and not home.removed:
            return home.channel_id
        kind = await self.kind()
        channel_id = None
        if kind is TableHomeKind.CHANNEL:
            channel_id = await self._new_channel(table_no)
        if channel_id is None:
            kind, channel_id = TableHomeKind.THREAD, await self._new_thread(table_no)
        else:
            self._channels[table_no] = channel_id
        await storage.remember_tournament_table_home(tournament_id, table_no, channel_id, kind)
        return channel_id

    async def _lobby_channel(self) -> discord.abc.GuildChannel | discord.Thread:
        channel = self.client.get_channel(self.row.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(self.row.channel_id)
        if isinstance(channel, discord.abc.PrivateChannel):
            raise RuntimeError(f"tournament {self.row.tournament_id}: its channel is not a guild's")
        return channel

    async def _new_thread(self, table_no: int) -> int:
        channel = await self._lobby_channel()
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"tournament {self.row.tournament_id}: its channel has no threads")
        thread = await channel.create_thread(
            name=f"{self.row.name} · table {table_no}", type=discord.ChannelType.public_thread
        )
        return thread.id

    async def _new_channel(self, table_no: int) -> int | None:
        """A text channel for the table, or None (and the tournament's channel told) when Felt
        may not make one."""
        lobby = await self._lobby_channel()
        # Asked, not checked in the cache first: Discord's answer is the one that counts (the
        # permission may have been taken away since /tournament create checked it).
        try:
            made = await lobby.guild.create_text_channel(
                channel_name(self.row.tournament_id, table_no),
                category=lobby.category,
                topic=f"{self.row.name} (tournament #{self.row.tournament_id}): table "
                f"{table_no}. Deleted when the table closes.",
                reason=f"Felt tournament #{self.row.tournament_id}, table {table_no}",
            )
            return made.id
        except discord.Forbidden:
            pass
        _log.warning(
            "no Manage Channels: a tournament table plays in a thread",
            extra={"tournament_id": self.row.tournament_id},
        )
        try:
            await self.client.get_partial_messageable(self.row.channel_id).send(
                NO_MANAGE_CHANNELS.format(table=table_no)
            )
        except discord.HTTPException:
            _log.warning("could not say why a table plays in a thread", exc_info=True)
        return None

    def closed(self, table_no: int) -> None:
        """Table ``table_no`` closed: delete its channel (if it has one) after a while."""
        if table_no in self._channels:
            self._scheduler.call_later(CHANNEL_LINGER_SECONDS, lambda: self._delete(table_no))

    def sweep(self) -> None:
        """Once the tables are open after a (re)start: delete the channels of tables that closed
        before it and whose deletion the restart cut short."""
        if self._swept:
            return
        self._swept = True
        for table_no in set(self._channels) - self._opened:
            self.closed(table_no)

    async def _delete(self, table_no: int) -> None:
        channel_id = self._channels.get(table_no)
        if channel_id is None:
            return
        if await delete_table_channel(self.client, self.row.tournament_id, table_no, channel_id):
            del self._channels[table_no]


async def delete_table_channel(
    client: FeltBot, tournament_id: int, table_no: int, channel_id: int
) -> bool:
    """Delete a closed table's channel and record it; False (logged) if Discord refused."""
    try:
        await client.http.delete_channel(
            channel_id, reason=f"Felt tournament #{tournament_id}: table closed"
        )
    except discord.NotFound:
        pass  # deleted already, by someone
    except discord.HTTPException:
        _log.warning("could not delete a table channel", exc_info=True)
        return False
    await client.storage.mark_tournament_table_home_removed(tournament_id, table_no)
    return True


async def sweep_ended(client: FeltBot) -> int:
    """At startup: delete the table channels of tournaments that ended before a crash or a
    stop could delete them (a running tournament's are swept by its ``TableHomes``); how many."""
    swept = 0
    for home in await client.storage.leftover_tournament_channels():
        swept += await delete_table_channel(
            client, home.tournament_id, home.table_no, home.channel_id
        )
    return swept


NEEDS_MANAGE_CHANNELS = (
    "Tables in channels of their own need me to have the Manage Channels permission: "
    "grant it, or choose tables: thread."
)


async def chosen_tables(
    interaction: discord.Interaction[FeltBot], asked: str | None
) -> TableHomeKind:
    """Where a tournament being created will play: what ``/tournament create tables:`` asked,
    else the server's setting; refused (nothing created) for channels Felt may not make."""
    bot = interaction.client
    assert interaction.guild_id is not None
    if asked is None:
        kind = await tournament_tables(bot.storage, interaction.guild_id, bot.config)
    else:
        known = {kind.value: kind for kind in TableHomeKind}
        if asked not in known:
            raise Refusal(f"Tables play in a {' or a '.join(known)}, not {asked!r}.")
        kind = known[asked]
    if kind is TableHomeKind.CHANNEL and not interaction.app_permissions.manage_channels:
        raise Refusal(NEEDS_MANAGE_CHANNELS)
    return kind
