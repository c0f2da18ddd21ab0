"""Every Hold'em table this process runs: one per channel, opened, restored and shut down here.

Fronts reach a table through ``HoldemTables``: ``open`` for ``/holdem start``, ``get`` for every
other command, ``restore`` after a restart (storage's recovery has already voided unfinished
hands) and ``shutdown`` when the process stops. No Discord import.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable

from bot.holdem.errors import TableError
from bot.holdem.events import HandCancelled, TableEvent
from bot.holdem.host import EquityFunction, HoldemTable
from bot.holdem.seating import BotFactory
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import Scheduler
from bot.tables.events import Notice
from bot.tables.presenter import Presenter
from storage import Storage, TableInfo

_log = logging.getLogger("felt.holdem")

PresenterFactory = Callable[[int, int], Presenter[TableEvent]]
"""Builds the presenter of a table from (guild id, channel id)."""


class TableExistsError(TableError):
    """The channel already has a table."""


class NoTableError(TableError):
    """The channel has no table."""


class HoldemTables:
    """The tables of this process, by channel."""

    def __init__(
        self,
        *,
        storage: Storage,
        scheduler: Scheduler,
        presenters: PresenterFactory,
        bots: BotFactory,
        equity: EquityFunction | None = None,
        rng: Callable[[], random.Random] | None = None,
    ) -> None:
        self._storage = storage
        self._scheduler = scheduler
        self._presenters = presenters
        self._bots = bots
        self._equity = equity
        self._rng = rng
        self._tables: dict[int, HoldemTable] = {}

    def get(self, channel_id: int) -> HoldemTable | None:
        """The open table in a channel, if any."""
        table = self._tables.get(channel_id)
        if table is not None and table.is_closed:
            del self._tables[channel_id]
            return None
        return table

    def host(self, table: HoldemTable) -> None:
        """Route a channel's commands and buttons to a table built elsewhere (a tournament's)."""
        self._tables[table.channel_id] = table

    def require(self, channel_id: int) -> HoldemTable:
        """The open table in a channel, or ``NoTableError`` (each front says how to start one)."""
        table = self.get(channel_id)
        if table is None:
            raise NoTableError("There is no Hold'em table in this channel.")
        return table

    def tables(self) -> list[HoldemTable]:
        """Every open table."""
        return [table for channel in list(self._tables) if (table := self.get(channel))]

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        name: str,
        settings: HoldemSettings,
        key: str,
    ) -> HoldemTable:
        """Open a table in a channel that has none."""
        if self.get(channel_id) is not None:
            raise TableExistsError("This channel already has a table.")
        table = await HoldemTable.create(
            storage=self._storage,
            guild_id=guild_id,
            channel_id=channel_id,
            host_user_id=host_user_id,
            name=name,
            settings=settings,
            key=key,
            scheduler=self._scheduler,
            presenter=self._presenters(guild_id, channel_id),
            bots=self._bots,
            equity=self._equity,
            rng=self._rng() if self._rng else None,
        )
        self._tables[channel_id] = table
        return table

    async def restore(
        self, voided: Iterable[tuple[int, int, str]] = (), *, guild_ids: Iterable[int] | None = None
    ) -> list[HoldemTable]:
        """Rebuild every open table from storage (optionally only some guilds').

        ``voided`` lists (table id, hand id, reason) from storage's recovery, so each table can
        tell its channel. A table that cannot be rebuilt is closed, cashing everyone out.
        """
        wanted = set(guild_ids) if guild_ids is not None else None
        voided_by_table: dict[int, list[tuple[int, str]]] = {}
        for table_id, hand_id, reason in voided:
            voided_by_table.setdefault(table_id, []).append((hand_id, reason))
        restored = []
        for info in await self._storage.list_tables():
            if wanted is not None and info.guild_id not in wanted:
                continue
            if info.channel_id in self._tables:
                continue
            table = await self._restore_one(info)
            if table is None:
                continue
            self._tables[info.channel_id] = table
            restored.append(table)
            for hand_id, reason in voided_by_table.get(info.table_id, []):
                await table.publish(HandCancelled(hand_id, reason))
            await table.publish(
                Notice("Felt restarted: this table is back. Every chip is where it was.")
            )
            await table.resume()
        return restored

    async def _restore_one(self, info: TableInfo) -> HoldemTable | None:
        presenter = self._presenters(info.guild_id, info.channel_id)
        try:
            return await HoldemTable.restore(
                info,
                storage=self._storage,
                scheduler=self._scheduler,
                presenter=presenter,
                bots=self._bots,
                equity=self._equity,
                rng=self._rng() if self._rng else None,
            )
        except Exception:
            _log.exception("could not restore table %s; cashing everyone out", info.table_id)
            closed = await self._storage.close_table(
                info.table_id, key=f"holdem:{info.table_id}:close"
            )
            total = sum(cash.amount for cash in closed.cash_outs)
            await presenter.publish(
                Notice(
                    "Felt restarted but could not reopen this table, so everyone was cashed out "
                    f"({total:,} chips returned)."
                )
            )
            return None

    async def suspend_all(self, reason: str = "Felt is restarting") -> None:
        """For a shutdown: void every unfinished hand; tables stay open for ``restore``."""
        for table in self.tables():
            try:
                await table.suspend(reason)
            except Exception:
                _log.exception("table %s did not suspend cleanly", table.table_id)
        self._tables.clear()
