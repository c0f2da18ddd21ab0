"""The bot's table pictures by priority: a redraw is drawn only while no other picture is.

Drawing a table picture is most of the CPU a hand costs the bot (several milliseconds each, in
the two drawing threads, which share the interpreter with the event loop). With a thousand
tables the pictures asked for can exceed what one process can draw; then the queue of the
drawing threads, first come first served, would make a turn offer wait behind other tables'
redraws. So the pictures a member waits for (a turn offer, a result, a new table message) draw
at once, and a redraw (a bot's move, a log line) only while nothing else is drawn, one at a
time bot-wide. A table channel waiting to redraw waits on its own event, which is set when the
drawing threads are free (one waiting channel at a time, first come first served) or when its
table changes (the change may be its own turn offer, which must not wait): a redraw that waits
long is merged with the table's next change.

The drawing threads are not the only thing a picture competes with: the event loop answers
clicks and sends the offers in the same interpreter. So while the event loop runs late (its
ticks come more than ``LATE_SECONDS`` after they were due: the process has no CPU to spare), or
turn offers wait for their admission (``loop_gate``), no redraw is drawn at all; the bots'
moves then reach the table with the next turn offer.

Nor may a turn offer wait long for its picture: once as many pictures are being drawn as the
painters can take at once (``slots``: two per painter, one drawing and one ready), the drawing
is ``congested`` and a turn offer goes out at once with the buttons, the text and the picture
the message already had; its new picture follows as a redraw (``table_channel``). Otherwise a
thousand tables' offers would queue in the painters, each drawn from a state that was old by
the time its turn came.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator, Callable

from bot.discord.loop_gate import CONGESTED_SECONDS
from bot.discord.painters import painter_count

TICK_SECONDS = 0.25
"""How often the event loop's lateness is looked at."""
LATE_SECONDS = CONGESTED_SECONDS
"""A tick this late (smoothed) means the process has no CPU to spare for redraws."""
SMOOTHING = 0.3


class DrawingTurns:
    """Who draws next, bot-wide: ``pressing`` pictures at once, a ``redraw`` when ``free``."""

    def __init__(
        self, others_waiting: Callable[[], bool] = lambda: False, slots: int | None = None
    ) -> None:
        self._others_waiting = others_waiting
        self.slots = slots if slots is not None else 2 * painter_count()
        """Pictures drawn at once before the drawing is ``congested``."""
        """Whether pressing requests wait for their admission (``loop_gate``): then no redraw."""
        self._pressing = 0
        self._redrawing = 0
        self._waiting: collections.deque[asyncio.Event] = collections.deque()
        self.redraws_waited = 0
        """Redraws that found the drawing threads busy (for the load benchmark)."""
        self.lateness = 0.0
        """The event loop's smoothed lateness, in seconds (``note_lateness``)."""
        self._ticking: asyncio.TimerHandle | None = None

    @property
    def free(self) -> bool:
        """Whether a redraw may be drawn now: nothing else is being drawn."""
        return (
            not self._pressing
            and not self._redrawing
            and self.lateness <= LATE_SECONDS
            and not self._others_waiting()
        )

    @property
    def congested(self) -> bool:
        """Whether the painters have all the pictures they can take: a turn offer then goes
        out with the picture its message had, and its own follows as a redraw."""
        return self._pressing + self._redrawing >= self.slots

    def note_lateness(self, seconds: float) -> None:
        """A tick of the event loop came ``seconds`` after it was due."""
        self.lateness += SMOOTHING * (max(0.0, seconds) - self.lateness)
        self.pass_on()

    def _watch(self) -> None:
        """Tick while redraws wait, to see when the event loop catches up."""
        if self._ticking is not None:
            return
        loop = asyncio.get_running_loop()
        due = loop.time() + TICK_SECONDS

        def tick() -> None:
            self._ticking = None
            self.note_lateness(loop.time() - due)
            if self._waiting:
                self._watch()

        self._ticking = loop.call_at(due, tick)

    @contextlib.asynccontextmanager
    async def pressing(self) -> AsyncIterator[None]:
        """Draw a picture a member waits for, now."""
        self._pressing += 1
        try:
            yield
        finally:
            self._pressing -= 1
            self.pass_on()

    @contextlib.asynccontextmanager
    async def redraw(self) -> AsyncIterator[None]:
        """Draw a redraw (ask ``free`` first, or ``when_free``)."""
        self._redrawing += 1
        try:
            yield
        finally:
            self._redrawing -= 1
            self.pass_on()

    def when_free(self, event: asyncio.Event) -> None:
        """Set ``event`` when it is this waiter's turn to redraw (at once if ``free``)."""
        if self.free:
            event.set()
            return
        self.redraws_waited += 1
        self._waiting.append(event)
        self._watch()

    def pass_on(self) -> None:
        """If the drawing threads are free, wake the first channel waiting to redraw (a channel
        woken that no longer redraws calls this, so the turn is never lost)."""
        while self.free and self._waiting:
            event = self._waiting.popleft()
            if not event.is_set():
                event.set()
                return
