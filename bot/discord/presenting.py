"""What every table presenter shares: its worker tasks, and waiting until all is sent.

A presenter's ``publish`` only records an event; worker tasks do the Discord requests. Tests
and shutdown ``drain`` a presenter (wait until everything published so far went out) and then
``aclose`` it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

_log = logging.getLogger("felt.discord.presenter")

WORKER_RESTART_SECONDS = 1.0
"""After a worker fails, the pause before it starts again (never a busy loop of failures)."""


class WorkerPresenter:
    """Base of the Hold'em and Blackjack presenters. Subclasses define ``settled`` and set
    ``client``, ``channel_id`` and ``label`` (the game, for logs)."""

    client: discord.Client
    channel_id: int
    label = "table"

    def __init__(self) -> None:
        self._settled_waiters: list[asyncio.Future[None]] = []
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def settled(self) -> bool:
        """Nothing waits to be sent."""
        raise NotImplementedError

    async def drain(self) -> None:
        """Wait until everything published so far has been sent (or given up on)."""
        while not self.settled and self._tasks:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._settled_waiters.append(future)
            await future

    async def aclose(self) -> None:
        """Stop the worker tasks (what is still queued is dropped)."""
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._wake_settled()

    async def _run(self, worker: Callable[[], Any], name: str) -> None:
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
                self._worker_failed()
                await asyncio.sleep(WORKER_RESTART_SECONDS)

    def _worker_failed(self) -> None:
        """Reset what a failed worker may have left half-counted."""

    def _wake_settled(self) -> None:
        """Release ``drain`` callers once nothing waits (or the workers are gone)."""
        if not self._settled_waiters or (self._tasks and not self.settled):
            return
        waiters, self._settled_waiters = self._settled_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)
