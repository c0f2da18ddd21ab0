"""The bot's table pictures by priority: a redraw is drawn only while no other picture is.

Drawing a table picture is most of the CPU a hand costs the bot (several milliseconds each, in
the two drawing threads, which share the interpreter with the event loop). With a thousand
tables the pictures asked for can exceed what one process can draw; then the queue of the
drawing threads, first come first served, would make a turn offer wait behind other tables'
redraws. So the pictures a member waits for (a turn offer, a result, a new table message) draw
at once, and a redraw (a bot's move, a log line) waits until none of those is being drawn, one
redraw at a time bot-wide. A redraw that waits long is merged with the table's next change.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class DrawingTurns:
    """Who draws next, bot-wide: ``pressing`` pictures at once, ``redraw``s when those are done."""

    def __init__(self) -> None:
        self._pressing = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._redraw = asyncio.Lock()
        self._waiting: list[asyncio.Event] = []
        self.redraws_waited = 0
        """Redraws that found a pressing picture being drawn (for the load benchmark)."""

    @contextlib.asynccontextmanager
    async def pressing(self) -> AsyncIterator[None]:
        """Draw a picture a member waits for, now."""
        self._pressing += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._pressing -= 1
            if not self._pressing:
                self._idle.set()
                waiting, self._waiting = self._waiting, []
                for event in waiting:
                    event.set()

    @contextlib.asynccontextmanager
    async def redraw(self) -> AsyncIterator[None]:
        """Draw a redraw once no pressing picture is being drawn (one redraw at a time)."""
        async with self._redraw:
            if not self._idle.is_set():
                self.redraws_waited += 1
                await self._idle.wait()
            yield

    def when_idle(self, event: asyncio.Event) -> None:
        """Set ``event`` once no pressing picture is being drawn (at once if none is): a table
        channel waits on its own event, which its table's next change also sets."""
        if self._idle.is_set():
            event.set()
        else:
            self._waiting.append(event)

    @property
    def busy(self) -> bool:
        """Whether a pressing picture is being drawn."""
        return not self._idle.is_set()
