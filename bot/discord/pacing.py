"""One budget of channel requests for the whole bot, shared by every game's presenter.

Discord allows a bot 50 requests a second in all, and (commonly) 5 message posts and 5 edits per
5 seconds in one channel. Each table's channel takes a token from the bot's one ``Pacer`` before
each request, so Hold'em and Blackjack tables together stay under the global limit; and it asks
its channel's ``ChannelBudget`` (one per channel, shared by both games) when the next post or
edit may go, so it can wait *before* it builds the request and send the latest state.
"""

from __future__ import annotations

import asyncio
import collections
import enum
import time
from collections.abc import Callable
from typing import Any

CHANNEL_LIMIT = 5
CHANNEL_WINDOW_SECONDS = 5.0
"""Discord's commonly observed per-channel limit: 5 message posts (and 5 edits) per 5 s."""


class RequestKind(enum.Enum):
    """Discord counts these in separate per-channel buckets."""

    POST = "post"
    EDIT = "edit"


class ChannelBudget:
    """Discord's per-channel limits as Felt keeps to them: at most ``limit`` requests of a kind
    in any ``window`` seconds.

    Each request is stamped when its answer came back: the request ``limit`` places later is sent
    only a ``window`` after that, so it reaches Discord after the window the first one opened has
    closed, however long either took on the way. Discord's own headers still pace discord.py
    underneath; this lets the table channel wait before it builds a payload, not after.
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._stamps = {kind: collections.deque[list[float]](maxlen=limit) for kind in RequestKind}
        self._reconciled: set[str] = set()

    def ready_in(self, kind: RequestKind) -> float:
        """Seconds until a request of ``kind`` may be sent (0: now)."""
        stamps = self._stamps[kind]
        if len(stamps) < self.limit:
            return 0.0
        return max(0.0, stamps[0][0] + self.window - self._clock())

    def spend(self, kind: RequestKind) -> list[float]:
        """Count a request sent now; pass the stamp to ``answered`` when its answer is back."""
        stamp = [self._clock()]
        self._stamps[kind].append(stamp)
        return stamp

    def answered(self, stamp: list[float]) -> None:
        stamp[0] = max(stamp[0], self._clock())

    def assume_spent(self) -> None:
        """Start as if every request of the window had just been sent (after a restart, what
        the process before it sent is unknown; Discord's buckets may still be full)."""
        now = self._clock()
        for stamps in self._stamps.values():
            stamps.extend([now] for _ in range(self.limit))

    def first_contact(self, game: str) -> bool:
        """True once per game and channel in this process: the first table channel of ``game``
        here reconciles with what storage kept from before a restart."""
        if game in self._reconciled:
            return False
        self._reconciled.add(game)
        return True


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
        *,
        channel_limit: int = CHANNEL_LIMIT,
        channel_window: float = CHANNEL_WINDOW_SECONDS,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.channel_limit = channel_limit
        self.channel_window = channel_window
        self._clock = clock
        self._channels: dict[int, ChannelBudget] = {}
        self._tokens = float(burst)
        self._updated = clock()
        self._urgent: collections.deque[asyncio.Future[None]] = collections.deque()
        self._normal: collections.deque[asyncio.Future[None]] = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self._granted = 0
        self.waited = 0.0
        """Seconds callers spent waiting for a token, in total (for the load benchmark)."""

    def channel(self, channel_id: int) -> ChannelBudget:
        """The per-channel budget of ``channel_id`` (one for every game's table there)."""
        budget = self._channels.get(channel_id)
        if budget is None:
            budget = ChannelBudget(self.channel_limit, self.channel_window, self._clock)
            self._channels[channel_id] = budget
        return budget

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
