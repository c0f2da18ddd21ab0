"""Stepped table timers for Hold'em tests: short delays run at once, turn timers wait for the
test (no test waits for a timer)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable


class _Timer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class SteppedScheduler:
    """Delays below ``threshold`` run on the event loop at once; longer ones (turn timers) wait
    for ``expire_turn``/``advance``. ``now()`` is wall-clock time plus what was advanced."""

    def __init__(self, threshold: float = 1.0) -> None:
        self.threshold = threshold
        self.offset = 0.0
        self._held: list[tuple[float, int, _Timer, Callable[[], Awaitable[None]]]] = []
        self._order = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time() + self.offset

    def call_later(self, delay: float, callback: Callable[[], Awaitable[None]]) -> _Timer:
        timer = _Timer()
        if delay < self.threshold:
            loop = asyncio.get_running_loop()

            def fire() -> None:
                if not timer.cancelled:
                    task = loop.create_task(self._guarded(callback))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

            loop.call_soon(fire)
        else:
            heapq.heappush(self._held, (self.now() + delay, next(self._order), timer, callback))
        return timer

    @property
    def held(self) -> int:
        return sum(1 for *_, timer, _cb in self._held if not timer.cancelled)

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` and run the held timers that fell due, in order."""
        self.offset += seconds
        now = self.now()
        while self._held and self._held[0][0] <= now:
            _due, _, timer, callback = heapq.heappop(self._held)
            if not timer.cancelled:
                await self._guarded(callback)

    async def expire_turn(self) -> None:
        """Jump to the next live held timer (a turn timeout) and run it."""
        live = [entry for entry in self._held if not entry[2].cancelled]
        if not live:
            raise AssertionError("no turn timer is running")
        due = min(live)[0]
        await self.advance(max(0.0, due - self.now()) + 0.001)

    @staticmethod
    async def _guarded(callback: Callable[[], Awaitable[None]]) -> None:
        try:
            await callback()
        except Exception as error:  # a failing timer must fail the test, not vanish
            raise AssertionError(f"a table timer failed: {error!r}") from error
