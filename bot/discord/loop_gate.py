"""Table requests admitted one per pass of the event loop, and none while a pass runs long.

Once a member has clicked, a table's edits no longer wait for the bot's global budget
(``interaction_edits``), so with a thousand tables what a process can do is bounded by its CPU:
every edit draws a picture and sends a request, and the event loop that acknowledges clicks
(within 3 s, and Felt's goal is 50 ms) shares the interpreter with all of it. If every table
sent as soon as it could, the loop's queue of ready work would grow until clicks waited behind
it. So a table channel's next request is admitted here first: one per pass of the loop (a new
table's first, then turn offers, then the rest), and only after a pass that took at most
``CONGESTED_SECONDS``; a longer pass means the loop has more work than it can do promptly, and
admissions wait until it caught up. Tables then deal at the pace the process can keep up with,
and clicks keep being answered at once.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable

CONGESTED_SECONDS = 0.01
"""A pass of the event loop longer than this holds the next admission..."""
LONGEST_HOLD_SECONDS = 0.1
"""...but no admission waits longer than this after the one before (a machine busy with other
programs makes every pass long: the tables still go on, slowly)."""


class LoopGate:
    """Admits table requests one per prompt pass of the event loop, turn offers first."""

    def __init__(
        self, congested: float = CONGESTED_SECONDS, clock: Callable[[], float] | None = None
    ) -> None:
        self.congested = congested
        self._clock = clock
        """How passes are timed (None: the event loop's clock)."""
        self._opening: collections.deque[asyncio.Future[None]] = collections.deque()
        self._pressing: collections.deque[asyncio.Future[None]] = collections.deque()
        self._others: collections.deque[asyncio.Future[None]] = collections.deque()
        self._releaser: asyncio.Task[None] | None = None
        self.long_passes = 0
        """Passes of the loop that held an admission (for the load benchmark)."""

    def pressing_waiting(self) -> bool:
        """Whether a turn offer (or a result) waits for its admission."""
        return any(not f.done() for queue in (self._opening, self._pressing) for f in queue)

    async def enter(self, *, pressing: bool, opening: bool = False) -> None:
        """Wait for this request's admission (``pressing``: a turn offer or a result;
        ``opening``: a new table's, before any other: a table starts within seconds)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        queue = self._opening if opening else self._pressing if pressing else self._others
        queue.append(future)
        if self._releaser is None:
            self._releaser = loop.create_task(self._release())
        await future

    async def _release(self) -> None:
        clock = self._clock or asyncio.get_running_loop().time
        try:
            admitted = clock()
            while self._opening or self._pressing or self._others:
                began = clock()
                await asyncio.sleep(0)
                now = clock()
                if now - began > self.congested and now - admitted < LONGEST_HOLD_SECONDS:
                    self.long_passes += 1
                    continue
                self._admit_one()
                admitted = now
        finally:
            self._releaser = None

    def _admit_one(self) -> None:
        for queue in (self._opening, self._pressing, self._others):
            while queue:
                future = queue.popleft()
                if not future.done():
                    future.set_result(None)
                    return
