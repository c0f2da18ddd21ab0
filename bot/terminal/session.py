"""What drives a terminal game: one inbox where typed lines, Ctrl-C and the table's wake-ups
arrive in order, and a scheduler the player can hurry once they have decided to leave.

Everything the player does reaches the table from one loop reading this inbox, so a line typed
while a bot thinks, a Ctrl-C and the table asking for a decision never race each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import dataclass

from bot.tables.clock import AsyncioScheduler, Callback, TimerHandle
from bot.terminal.lines import EndOfInput, Line, LineReader


@dataclass(frozen=True, slots=True)
class Interrupted:
    """The player pressed Ctrl-C."""


@dataclass(frozen=True, slots=True)
class Wake:
    """The table needs the session's attention (a decision, or the table closed)."""


Item = Line | EndOfInput | Interrupted | Wake


class Inbox:
    """Typed lines, Ctrl-C and wake-ups, in the order they happened."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[Item] = asyncio.Queue()
        self._catching = False

    def post(self, item: Item) -> None:
        """Add an item (on the event loop's thread)."""
        self._queue.put_nowait(item)

    def wake(self) -> None:
        """Ask the session to look at the table again."""
        self.post(Wake())

    async def get(self) -> Item:
        """The next item, waiting for one."""
        return await self._queue.get()

    def pending(self) -> bool:
        """Whether anything arrived that nobody took yet (a Ctrl-C, for a session that only
        looks at the end)."""
        return not self._queue.empty()

    def start_reading(self) -> None:
        """Read standard input from now on."""
        LineReader(self.post).start()

    def catch_interrupts(self) -> None:
        """Turn the first Ctrl-C into an ``Interrupted`` item; a second one stops at once
        (chips left at the table go back at the next start)."""
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self._interrupted)
        except (NotImplementedError, RuntimeError):  # Windows: Ctrl-C stays KeyboardInterrupt
            return
        self._catching = True

    def _interrupted(self) -> None:
        self.post(Interrupted())
        self.stop_catching()

    def stop_catching(self) -> None:
        """Give Ctrl-C back its usual meaning."""
        if self._catching:
            self._catching = False
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)


class HurryingScheduler(AsyncioScheduler):
    """Real time, until ``hurry``: from then on every delay is zero (the player is leaving and
    only waits for the bots to finish the hand)."""

    def __init__(self) -> None:
        super().__init__()
        self._hurried = False

    def hurry(self) -> None:
        """Run every later callback without its delay."""
        self._hurried = True

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        return super().call_later(0.0 if self._hurried else delay, callback)
