"""One budget of channel requests for the whole bot, shared by every game's presenter.

Discord allows a bot 50 requests a second in all, and (commonly) 5 message posts and 5 edits per
5 seconds in one channel. Each table's channel is granted each request by the bot's one ``Pacer``,
so Hold'em and Blackjack tables together stay under the global limit; and it asks its channel's
``ChannelBudget`` (one per channel, shared by both games) when the next post or edit may go, so
it can wait *before* it builds the request and send the latest state. Both count a request until
a window after its answer: when it reached Discord in between is not known.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from bot.discord.drawing import DrawingTurns
from bot.discord.loop_gate import LoopGate

if TYPE_CHECKING:
    from bot.discord.table_edits import EditPolicy

CHANNEL_LIMIT = 5
CHANNEL_WINDOW_SECONDS = 5.0
"""Discord's commonly observed per-channel limit: 5 message posts (and 5 edits) per 5 s."""


class RequestKind(enum.Enum):
    """Discord counts these in separate per-channel buckets."""

    POST = "post"
    EDIT = "edit"


class ChannelBudget:
    """Discord's per-channel limits as Felt keeps to them: at most ``limit`` requests of a kind
    reach Discord in any ``window`` seconds.

    A request counts from when it is sent until a ``window`` after its answer came back: it
    reached Discord somewhere in between, so a request sent once fewer than ``limit`` count
    reaches Discord after every window the counted ones opened has closed, however long any of
    them took on the way, and whatever order they arrived in (two games' tables in one channel
    send side by side). Discord's own headers still pace discord.py underneath; this lets the
    table channel wait before it builds a payload, not after.
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._counts = {kind: _Counted(window) for kind in RequestKind}
        self._reconciled: set[str] = set()

    def ready_in(self, kind: RequestKind, *, reserve: int = 0) -> float:
        """Seconds until a request of ``kind`` may be sent (0: now) leaving ``reserve`` of the
        window's requests free."""
        return self._counts[kind].ready_in(max(1, self.limit - reserve), self._clock())

    def spend(self, kind: RequestKind) -> None:
        """Count a request of ``kind`` sent now; call ``answered`` when its answer is back."""
        self._counts[kind].open += 1

    def answered(self, kind: RequestKind) -> None:
        """The answer to a request of ``kind`` came back (or it failed): it counts a window more."""
        self._counts[kind].answered(self._clock())

    def assume_spent(self) -> None:
        """Start as if every request of the window had just been answered (after a restart,
        what the process before it sent is unknown; Discord's buckets may still be full)."""
        now = self._clock()
        for counted in self._counts.values():
            counted.answers.extend(now for _ in range(self.limit))

    def first_contact(self, game: str) -> bool:
        """True once per game and channel in this process: the first table channel of ``game``
        here reconciles with what storage kept from before a restart."""
        if game in self._reconciled:
            return False
        self._reconciled.add(game)
        return True


class _Counted:
    """Requests that count against a limit: those in flight, and those answered less than a
    ``window`` ago (their answer times, oldest first)."""

    __slots__ = ("answers", "open", "window")

    def __init__(self, window: float) -> None:
        self.window = window
        self.open = 0
        self.answers: collections.deque[float] = collections.deque()

    def answered(self, now: float) -> None:
        self.open = max(0, self.open - 1)
        self.answers.append(now)

    def ready_in(self, limit: int, now: float) -> float:
        """Seconds until fewer than ``limit`` count (a ``window`` if those in flight fill it:
        none of them can stop counting sooner)."""
        while self.answers and self.answers[0] + self.window <= now:
            self.answers.popleft()
        over = self.open + len(self.answers) - limit
        if over < 0:
            return 0.0
        if over < len(self.answers):
            return self.answers[over] + self.window - now
        return self.window


class Pacer:
    """A bot-wide budget of requests (Discord allows 50 per second in all).

    Two rules. A token bucket refilled at ``per_second`` spreads grants out (at most
    ``per_second + burst`` in any second). And at most ``limit`` requests count at once, each
    from its grant until a second after its answer: a request reaches Discord somewhere in
    between, and how long after its grant depends on the bot (a picture drawn, a loaded
    machine), so grants alone say little about Discord's second; with every request counted
    until a second after its answer, no second at Discord sees more than ``limit`` of them
    (the last granted of any ``limit + 1`` would have found the others still counted).

    Waiting requests are served in order, urgent ones first: a table message that offers a
    member their turn goes out before posts (results included) and DMs, so a busy bot stays
    playable; one request in ``NORMAL_SHARE`` is a normal one whenever any waits, so the
    channel's story is never starved. Cosmetic requests (a table message redrawn for a bot's
    move, a log line) come last: one is granted only when nothing else waits and
    ``COSMETIC_HEADROOM`` of the ``limit`` stay free for the turns and results that may come
    next, so no table's turn or result ever waits behind another table's redraw (a redraw that
    waits is coalesced with the next change by its channel). Every ``acquire`` is followed by
    ``answered`` once the request's answer is back (or it failed), or by ``unused`` if no
    request was sent.
    """

    NORMAL_SHARE = 4
    COSMETIC_HEADROOM = 5
    GLOBAL_WINDOW_SECONDS = 1.0

    def __init__(
        self,
        per_second: float = 40.0,
        burst: int = 5,
        clock: Callable[[], float] = time.monotonic,
        *,
        limit: int = 45,
        channel_limit: int = CHANNEL_LIMIT,
        channel_window: float = CHANNEL_WINDOW_SECONDS,
        edit_policy: EditPolicy | None = None,
    ) -> None:
        self.per_second = per_second
        self.edit_policy = edit_policy
        """How table channels spend their edits (None: ``table_edits.EditPolicy()``)."""
        self.burst = burst
        self.limit = limit
        self.channel_limit = channel_limit
        self.channel_window = channel_window
        self._clock = clock
        self._channels: dict[int, ChannelBudget] = {}
        self._tokens = float(burst)
        self._updated = clock()
        self._counted = _Counted(self.GLOBAL_WINDOW_SECONDS)
        self._urgent: collections.deque[asyncio.Future[None]] = collections.deque()
        self._normal: collections.deque[asyncio.Future[None]] = collections.deque()
        self._cosmetic: collections.deque[asyncio.Future[None]] = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self._granted = 0
        self.waited = 0.0
        """Seconds callers spent waiting for a token, in total (for the load benchmark)."""
        self.admission = LoopGate()
        """Table requests admitted one per prompt pass of the event loop (``loop_gate``)."""
        self.drawing = DrawingTurns(self.admission.pressing_waiting)
        """Table pictures by priority, bot-wide: a redraw's picture is drawn only while no
        turn offer's is, so the drawing threads never queue an offer behind redraws."""
        self.granted: collections.Counter[str] = collections.Counter()
        """Grants by kind of request ("urgent", "normal", "cosmetic"), for the benchmarks."""

    @property
    def clock(self) -> Callable[[], float]:
        """The clock budgets are kept on."""
        return self._clock

    def channel(self, channel_id: int) -> ChannelBudget:
        """The per-channel budget of ``channel_id`` (one for every game's table there)."""
        budget = self._channels.get(channel_id)
        if budget is None:
            budget = ChannelBudget(self.channel_limit, self.channel_window, self._clock)
            self._channels[channel_id] = budget
        return budget

    @contextlib.asynccontextmanager
    async def request(self, *, urgent: bool = False) -> AsyncIterator[None]:
        """Wait for the budget, then send one request in the block (counted until its end)."""
        await self.acquire(urgent=urgent)
        try:
            yield
        finally:
            self.answered()

    async def acquire(self, *, urgent: bool = False, cosmetic: bool = False) -> None:
        """Wait until a request may be sent: ``urgent`` (a turn offered) before the others,
        ``cosmetic`` (a redraw that can wait for the next change) after all of them."""
        kind = "urgent" if urgent else "cosmetic" if cosmetic else "normal"
        self.granted[kind] += 1
        if self.per_second <= 0:
            return
        self._refill()
        queue = self._urgent if urgent else self._cosmetic if cosmetic else self._normal
        if not self._waiting() and self._grantable(cosmetic=cosmetic):
            self._take()
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        queue.append(future)
        self._schedule(loop)
        began = self._clock()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.unused()  # granted as the caller was cancelled: the grant goes back
            raise
        finally:
            self.waited += self._clock() - began
            if not future.done():
                future.cancel()

    def _waiting(self) -> bool:
        return bool(self._urgent or self._normal or self._cosmetic)

    def answered(self) -> None:
        """The answer to a granted request came back (or it failed): it counts a second more."""
        if self.per_second > 0:
            self._counted.answered(self._clock())
            self._wake()

    def unused(self) -> None:
        """A grant was not used for a request after all."""
        if self.per_second > 0:
            self._counted.open = max(0, self._counted.open - 1)
            self._wake()

    def _grantable(self, *, cosmetic: bool = False) -> bool:
        # A token short only by rounding counts as whole: waiting for it would wait for nothing.
        limit = self.limit - self.COSMETIC_HEADROOM if cosmetic else self.limit
        return self._tokens >= 1.0 - 1e-9 and self._counted.ready_in(limit, self._clock()) <= 0

    def _take(self) -> None:
        self._tokens -= 1.0
        self._counted.open += 1

    def _refill(self) -> None:
        now = self._clock()
        refilled = self._tokens + (now - self._updated) * self.per_second
        self._tokens = min(float(self.burst), refilled)
        self._updated = now

    def _wake(self) -> None:
        """A request stopped counting, or will sooner than thought: look at the waiters again."""
        if not self._waiting():
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._release(asyncio.get_running_loop())

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is not None or not self._waiting():
            return
        token_in = max(0.0, (1.0 - self._tokens) / self.per_second)
        only_cosmetic = not (self._urgent or self._normal)
        limit = self.limit - self.COSMETIC_HEADROOM if only_cosmetic else self.limit
        counted_in = self._counted.ready_in(limit, self._clock())
        if self._counted.open >= self.limit:
            return  # every counted request is in flight: its answer calls ``_wake``
        self._timer = loop.call_later(max(token_in, counted_in), self._release, loop)

    def _release(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        self._refill()
        while self._grantable():
            future = self._next()
            if future is None:
                break
            self._take()
            future.set_result(None)
        self._schedule(loop)

    def _next(self) -> asyncio.Future[None] | None:
        first, second = self._urgent, self._normal
        if first or second:
            self._granted += 1
            if self._granted % self.NORMAL_SHARE == 0:
                first, second = second, first
            for queue in (first, second):
                while queue:
                    future = queue.popleft()
                    if not future.done():
                        return future
        if not self._grantable(cosmetic=True):
            return None
        while self._cosmetic:
            future = self._cosmetic.popleft()
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
