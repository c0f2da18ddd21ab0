"""One budget of channel requests for the whole bot, shared by every game's presenter.

Discord allows a bot 50 requests a second in all. Each table's presenter takes a token from the
bot's one ``Pacer`` before each request, so Hold'em and Blackjack tables together stay under it.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable
from typing import Any


class Pacer:
    """A bot-wide budget of channel requests (Discord allows 50 per second in all).

    A token bucket refilled at ``per_second``: no second sees more than ``per_second + burst``
    requests (45 by default, under the 50 that would get a 429). Waiting requests are served
    in order, urgent ones first: a table message that offers a member their turn goes out
    before posts, DMs and redraws of bot moves, so a busy bot stays playable; one request in
    ``NORMAL_SHARE`` is a normal one whenever any waits, so the channel's story is never
    starved.
    """

    NORMAL_SHARE = 4

    def __init__(
        self,
        per_second: float = 40.0,
        burst: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._updated = clock()
        self._urgent: collections.deque[asyncio.Future[None]] = collections.deque()
        self._normal: collections.deque[asyncio.Future[None]] = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self._granted = 0
        self.waited = 0.0
        """Seconds callers spent waiting for a token, in total (for the load benchmark)."""

    async def acquire(self, *, urgent: bool = False) -> None:
        if self.per_second <= 0:
            return
        self._refill()
        if self._tokens >= 1.0 and not self._urgent and not self._normal:
            self._tokens -= 1.0
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        (self._urgent if urgent else self._normal).append(future)
        self._schedule(loop)
        began = self._clock()
        try:
            await future
        finally:
            self.waited += self._clock() - began
            if not future.done():
                future.cancel()

    def _refill(self) -> None:
        now = self._clock()
        refilled = self._tokens + (now - self._updated) * self.per_second
        self._tokens = min(float(self.burst), refilled)
        self._updated = now

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None and (self._urgent or self._normal):
            delay = max(0.0, (1.0 - self._tokens) / self.per_second)
            self._timer = loop.call_later(delay, self._release, loop)

    def _release(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        self._refill()
        while self._tokens >= 1.0:
            future = self._next()
            if future is None:
                break
            self._tokens -= 1.0
            future.set_result(None)
        self._schedule(loop)

    def _next(self) -> asyncio.Future[None] | None:
        self._granted += 1
        first, second = self._urgent, self._normal
        if self._granted % self.NORMAL_SHARE == 0:
            first, second = second, first
        for queue in (first, second):
            while queue:
                future = queue.popleft()
                if not future.done():
                    return future
        return None


def bot_pacer(bot: Any) -> Pacer:
    """The bot's one ``Pacer``, made on first use (every game cog asks for the same one)."""
    pacer = getattr(bot, "_felt_pacer", None)
    if pacer is None:
        pacer = Pacer()
        bot._felt_pacer = pacer
    return pacer
