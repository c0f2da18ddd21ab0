"""``TableCog``: what both game cogs share: presenters by channel, the render executor, and
the three ways a cog stops (suspend at shutdown, halt at once, forget a closed table's front).
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, Protocol, TypeVar

from discord.ext import commands

from bot.tables.clock import AsyncioScheduler, HaltableScheduler, Scheduler

DRAIN_SECONDS = 10.0
"""At shutdown, how long the tables' last messages may take to go out."""


class ChannelPresenter(Protocol):
    """What the cog needs of a table's presenter."""

    @property
    def channel_id(self) -> int: ...

    async def drain(self) -> None: ...

    async def aclose(self) -> None: ...


P = TypeVar("P", bound=ChannelPresenter)


class TableCog(commands.Cog, Generic[P]):
    """The lifecycle both game cogs share; each game adds its tables and commands."""

    def __init__(self, scheduler: Scheduler | None) -> None:
        self.scheduler = HaltableScheduler(scheduler or AsyncioScheduler())
        self.presenters: dict[int, P] = {}
        """The live presenter of each channel with a table."""
        self._closing: set[P] = set()
        self._executor: ThreadPoolExecutor | None = None

    def start_rendering(self, thread_prefix: str) -> None:
        """Start the worker threads that draw table images off the event loop."""
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix=thread_prefix)

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
                await asyncio.wait_for(
                    asyncio.gather(*(presenter.drain() for presenter in presenters)),
                    DRAIN_SECONDS,
                )
        await self.halt()

    async def halt(self) -> None:
        """Stop everything at once, touching no chips (unload; a test's crash)."""
        self.scheduler.halt()
        presenters = [*self.presenters.values(), *self._closing]
        self.presenters.clear()
        self._closing.clear()
        await asyncio.gather(*(presenter.aclose() for presenter in presenters))
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
