"""``TableCog``: what both game cogs share: loading (buttons, refusals, the render executor,
the shutdown hook), presenters by channel, and the three ways a cog stops (suspend at shutdown,
halt at once, forget a closed table's front).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, ClassVar, Generic, TypeVar

import discord
from discord.ext import commands

from bot.discord.client import FeltBot
from bot.discord.pacing import Pacer, bot_pacer
from bot.discord.presenting import ChannelPresenter, PresenterSetup
from bot.discord.table_components import Handlers, TableButton
from bot.tables.clock import AsyncioScheduler, HaltableScheduler, Scheduler
from bot.tables.errors import TableError

_log = logging.getLogger("felt.discord.tables")

DRAIN_SECONDS = 10.0
"""At shutdown, how long the tables' last messages may take to go out."""


P = TypeVar("P", bound=ChannelPresenter[Any, Any])


class TableCog(commands.Cog, Generic[P]):
    """The lifecycle both game cogs share; each game adds its tables and commands."""

    game: ClassVar[str]
    """The game's name, for the log (``"Hold'em"``)."""
    handlers: ClassVar[Handlers[Any]]
    """Where the game's buttons find this cog."""
    buttons: ClassVar[tuple[type[TableButton], ...]]
    """The game's persistent buttons."""

    def __init__(
        self,
        bot: FeltBot,
        *,
        scheduler: Scheduler | None,
        pacer: Pacer | None,
        tap: Callable[[int, Any], None] | None,
        linger: float,
    ) -> None:
        self.bot = bot
        self.pacer = pacer or bot_pacer(bot)
        self._tap = tap
        self._linger = linger
        self.scheduler = HaltableScheduler(scheduler or AsyncioScheduler())
        self.presenters: dict[int, P] = {}
        """The live presenter of each channel with a table."""
        self._closing: set[P] = set()
        self._executor: Executor | None = None

    async def cog_load(self) -> None:
        self.handlers.register(self.bot, self)
        self.bot.add_dynamic_items(*self.buttons)
        self.bot.error_router.register_refusal(TableError)
        if not self.bot.has_storage:
            _log.warning("no storage: %s tables are unavailable", self.game)
            return
        # The workers that draw table images off the event loop (the bot's, ``painters``).
        self._executor = self.bot.drawing
        await self.open_tables()
        self.bot.add_shutdown_hook(self.suspend)

    async def cog_unload(self) -> None:
        self.handlers.unregister(self.bot)
        self.bot.remove_dynamic_items(*self.buttons)
        self.bot.remove_shutdown_hook(self.suspend)
        await self.halt()

    async def open_tables(self) -> None:
        """Each game: take up what storage's recovery left at startup (tables to restore, rounds
        refunded to tell their channels about)."""

    def presenter_setup(self, guild_id: int, channel_id: int) -> PresenterSetup:
        """How a new presenter of ``channel_id`` shows its table."""
        return PresenterSetup(
            client=self.bot,
            guild_id=guild_id,
            channel_id=channel_id,
            pacer=self.pacer,
            executor=self._executor,
            tap=self._tap,
            linger=self._linger,
        )

    async def defer_click(self, interaction: discord.Interaction[Any]) -> None:
        """Acknowledge a click on a table message without an answer of its own; the table's
        channel may then edit that message through the click (``interaction_edits``)."""
        await interaction.response.defer()
        presenter = self.presenters.get(interaction.channel_id or 0)
        if presenter is not None:
            presenter.channel.hand_over(interaction)

    def adopt(self, presenter: P) -> P:
        """Make ``presenter`` its channel's live one; a previous one finishes its work."""
        previous = self.presenters.get(presenter.channel_id)
        if previous is not None and previous is not presenter:
            self._closing.add(previous)
        self.presenters[presenter.channel_id] = presenter
        return presenter

    def forget(self, presenter: P) -> None:
        """A presenter whose table closed and whose last message went out."""
        self._closing.discard(presenter)
        if self.presenters.get(presenter.channel_id) is presenter:
            del self.presenters[presenter.channel_id]

    async def suspend_tables(self) -> None:
        """Each game: void or refund what is in play, so the tables come back after a restart."""

    async def suspend(self) -> None:
        """The shutdown hook: suspend the tables, let the channels hear it, then stop."""
        await self.suspend_tables()
        presenters = [*self.presenters.values(), *self._closing]
        if presenters:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(DRAIN_SECONDS):
                    await asyncio.gather(*(presenter.drain() for presenter in presenters))
        await self.halt()

    async def halt(self) -> None:
        """Stop everything at once, touching no chips (unload; a test's crash)."""
        self.scheduler.halt()
        presenters = [*self.presenters.values(), *self._closing]
        self.presenters.clear()
        self._closing.clear()
        await asyncio.gather(*(presenter.aclose() for presenter in presenters))
        self._executor = None  # the bot's: it stops the painters when it closes
