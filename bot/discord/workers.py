"""Worker tasks of a table's Discord presence: started once, restarted after a failure, drained.

A presenter's ``publish`` only records an event; worker tasks do the Discord requests. Tests and
shutdown ``drain`` (wait until everything published so far went out) and then ``aclose``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

_log = logging.getLogger("felt.discord.presenter")

WORKER_RESTART_SECONDS = 1.0
"""After a worker fails, the pause before it starts again (never a busy loop of failures)."""

Sleep = Callable[[float], Awaitable[object]]
Worker = Callable[[], Awaitable[None]]


class Workers:
    """The worker tasks of one table channel (or its DMs), and the callers waiting on them."""

    def __init__(
        self,
        *,
        client: discord.Client,
        label: str,
        channel_id: int,
        settled: Callable[[], bool],
        failed: Callable[[], None] = lambda: None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client = client
        self.label = label
        self.channel_id = channel_id
        self._settled = settled
        self._failed = failed
        self._sleep = sleep
        self._tasks: list[asyncio.Task[None]] = []
        self._waiters: list[asyncio.Future[None]] = []
        self.closed = False

    @property
    def running(self) -> bool:
        return bool(self._tasks)

    def start(self, **workers: Worker) -> None:
        """Start the workers (once; never again after ``aclose``)."""
        if self._tasks or self.closed:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.run(worker, name)) for name, worker in workers.items()]

    async def drain(self) -> None:
        """Wait until nothing waits to be sent (or the workers are gone)."""
        while not self._settled() and self._tasks:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(future)
            await future

    async def aclose(self) -> None:
        """Stop the workers (what is still queued is dropped)."""
        self.closed = True
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.wake()

    def wake(self) -> None:
        """Release ``drain`` callers once nothing waits (or the workers are gone)."""
        if not self._waiters or (self._tasks and not self._settled()):
            return
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def run(self, worker: Worker, name: str) -> None:
        """Run a worker; if it fails, log it, pause and run it again until the client closes."""
        while not self.client.is_closed():
            try:
                await worker()
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the table's channel alive whatever one request did
                if self.client.is_closed():
                    return
                _log.exception(
                    "%s presenter %s worker failed",
                    self.label,
                    name,
                    extra={"channel_id": self.channel_id},
                )
                self._failed()
                await self._sleep(WORKER_RESTART_SECONDS)
