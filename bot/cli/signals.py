"""SIGINT and SIGTERM for the whole life of `felt run`: a clean stop at any moment.

Before the bot runs, a signal cancels the startup step in progress (opening the database,
connecting) and `felt run` stops with exit status 0. Once a bot is attached, the first signal
starts its graceful shutdown (games finish or are voided) and a second one closes it at once.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Protocol, TypeVar

_log = logging.getLogger("felt.run")

HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM)
T = TypeVar("T")


class Stoppable(Protocol):
    """What a signal needs from the bot: a graceful stop, and an immediate one."""

    async def shutdown(self, reason: str = ...) -> None: ...

    async def close(self) -> None: ...


class Stopped(Exception):
    """A startup step was interrupted by a signal: stop quietly, exit status 0."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(f"stopped by {signal_name}")
        self.signal_name = signal_name


class StopSignals:
    """Installs the handlers on the running loop for the block it is entered for."""

    def __init__(self) -> None:
        self.received: str | None = None
        self._bot: Stoppable | None = None
        self._step: asyncio.Future[Any] | None = None
        self._installed: list[signal.Signals] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def __enter__(self) -> StopSignals:
        loop = asyncio.get_running_loop()
        for handled in HANDLED_SIGNALS:
            try:
                loop.add_signal_handler(handled, self._on_signal, handled.name)
            except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
                continue
            self._installed.append(handled)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        loop = asyncio.get_running_loop()
        for handled in self._installed:
            loop.remove_signal_handler(handled)
        self._installed.clear()

    async def step(self, awaitable: Awaitable[T]) -> T:
        """Run one startup step; a signal meanwhile cancels it and raises ``Stopped``."""
        if self.received is not None:
            raise Stopped(self.received)
        future = asyncio.ensure_future(awaitable)
        self._step = future
        try:
            return await future
        except asyncio.CancelledError:
            if self.received is not None and future.cancelled():
                raise Stopped(self.received) from None
            raise
        finally:
            self._step = None

    @contextmanager
    def attached(self, bot: Stoppable) -> Iterator[None]:
        """While the block runs, signals stop ``bot`` (gracefully first, then at once)."""
        self._bot = bot
        try:
            yield
        finally:
            self._bot = None

    async def finished(self) -> None:
        """Wait for the shutdown that a signal started."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _on_signal(self, name: str) -> None:
        first = self.received is None
        if first:
            self.received = name
        if self._bot is not None:
            if first:
                _log.info("received %s", name)
                self._start(self._bot.shutdown(name))
            else:
                _log.warning("second %s: closing now", name)
                self._start(self._bot.close())
        elif self._step is not None and not self._step.done():
            _log.info("received %s: stopping before the bot runs", name)
            self._step.cancel()

    def _start(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
