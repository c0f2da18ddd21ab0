"""Time for the table hosts: a scheduler that runs callbacks later, real or driven by tests.

Hosts never sleep or read the clock themselves; they ask a ``Scheduler``. ``AsyncioScheduler``
uses the event loop; ``ManualScheduler`` lets a test (or a fast simulation) move time forward
and runs what fell due, so no test waits for a timer.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

_log = logging.getLogger("felt.tables")

Callback = Callable[[], Awaitable[None]]


class TimerHandle(Protocol):
    """A scheduled callback that can still be called off."""

    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Runs coroutine callbacks after a delay and tells the time (Unix seconds)."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callback) -> TimerHandle: ...


class _AsyncioTimer:
    # Its loop handle holds the callback that holds it: the handle is let go once it fired or
    # was cancelled, so that the cycle ends there and reference counting frees the timer (a
    # cycle that lived through a full collection would wait for ``collector``'s hourly thaw).
    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        # A callback already running is not interrupted: it may be mid-way through a chip move.


class AsyncioScheduler:
    """The production scheduler: wall-clock time and the running event loop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        timer = _AsyncioTimer()
        loop = asyncio.get_running_loop()

        def fire() -> None:
            timer.handle = None
            if timer.cancelled:
                return
            task = loop.create_task(_guarded(callback))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        timer.handle = loop.call_later(max(0.0, delay), fire)
        return timer

    async def drain(self) -> None:
        """Wait for callbacks that are running now (used at shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A scheduler whose time only moves when told to: ``await advance(seconds)``.

    Callbacks due at the same moment run in the order they were scheduled; a callback may
    schedule more, and those run too if they fall due within the advance.
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _ManualTimer, Callback]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        timer = _ManualTimer()
        heapq.heappush(
            self._queue, (self._now + max(0.0, delay), next(self._order), timer, callback)
        )
        return timer

    @property
    def pending(self) -> int:
        """How many callbacks are waiting (cancelled ones aside)."""
        return sum(1 for _, _, timer, _ in self._queue if not timer.cancelled)

    def next_due(self) -> float | None:
        """When the next live callback falls due, if any."""
        for due, _, timer, _ in sorted(self._queue):
            if not timer.cancelled:
                return due
        return None

    async def advance(self, seconds: float = 0.0) -> None:
        """Move time forward by ``seconds``, running every callback that falls due."""
        target = self._now + seconds
        while self._queue and self._queue[0][0] <= target:
            due, _, timer, callback = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            if not timer.cancelled:
                await _guarded(callback)
        self._now = target

    async def run_until_idle(self, limit: int = 10_000) -> None:
        """Run callbacks in time order until none is left (time jumps to each one)."""
        for _ in range(limit):
            due = self.next_due()
            if due is None:
                return
            await self.advance(due - self._now)
        raise RuntimeError("the scheduler never went idle")


async def _guarded(callback: Callback) -> None:
    try:
        await callback()
    except Exception:  # a timer must never take the event loop down with it
        _log.exception("scheduled callback failed")


class _NoTimer:
    def cancel(self) -> None:
        pass


class HaltableScheduler:
    """A scheduler that can call off every timer at once (a cog's unload, or a test's crash)."""

    def __init__(self, inner: Scheduler) -> None:
        self.inner = inner
        self.halted = False
        self._timers: weakref.WeakSet[Any] = weakref.WeakSet()

    def now(self) -> float:
        return self.inner.now()

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        if self.halted:
            return _NoTimer()
        timer = self.inner.call_later(delay, callback)
        self._timers.add(timer)
        return timer

    def halt(self) -> None:
        """Cancel every timer and refuse new ones."""
        self.halted = True
        for timer in list(self._timers):
            timer.cancel()
