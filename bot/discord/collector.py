"""Python's cyclic garbage collector kept to short pauses in a bot process that holds many tables.

A full collection walks every object Python tracks, and the event loop stands still meanwhile.
With a thousand tables (millions of objects) one took 4.6 s on a loaded machine
(``bench/discord_load.py --tables 1000``): interactions missed Discord's 3 s to be
acknowledged. So what survives a middle collection is frozen (``gc.freeze``, ``FREEZE_FROM``):
the long-lived objects (tables, seats, presenters, discord.py's caches) are not walked again,
and a full collection has little left to walk. Frozen objects are still freed by reference
counting as usual; only garbage *cycles* among them wait, until everything is thawed once every
``THAW_SECONDS`` for one full collection (one long pause an hour instead of one every minute or
so). So what a busy bot makes by the thousand leaves no cycle behind (``tests/bot/
test_cycles.py``). ``felt run`` runs the bot within ``short_pauses`` (``runner.run_bot``).

The other pause is the interpreter's lock: the event loop's thread lets it go at every socket
call, and while the drawing threads draw it waits for its turn to take it back, up to the
switch interval each time (5 ms by default: a pass with dozens of sends and receives could
stand 100 ms behind the pictures). Within ``short_pauses`` the interval is ``SWITCH_SECONDS``.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

THRESHOLDS = (700, 10, 100)
"""``gc.set_threshold`` within ``short_pauses``: Python's young and middle thresholds, and a
full collection every 100 middle ones instead of 10. Once the per-click and per-edit reference
cycles were gone, what a full collection walks is what came since the last freeze and still
lives, much the same however often it runs: at 500 tables it stood the loop still for about
100 ms seven times a minute, and now about once a minute or two (``bench/discord_load.py
--gc-thresholds``). A middle threshold of 5 did not make the middle collections shorter."""
THAW_SECONDS = 3600.0
"""How often frozen objects are thawed, so that garbage cycles among them are collected."""
FULL_COLLECTION = 2
FREEZE_FROM = 1
"""What survives a middle collection is frozen already, so a full collection has nothing left
to walk until the hourly thaw. This waits for no cycle: a thousand tables leave none behind
(``bench/discord_load.py --cycles`` counts them: none at the end of a 1,000-table run), and
freezing only after full collections left each of those walking a minute's survivors (339 ms
at 1,000 tables)."""
SWITCH_SECONDS = 0.001
"""How long a thread holding the interpreter's lock runs before one waiting for it gets it."""


class Freezer:
    """A ``gc.callbacks`` entry: after each collection of generation ``from_generation`` or
    older, freeze what survived it (or, once ``thaw_seconds`` have passed since the last thaw,
    thaw everything instead, and freeze again only after the next full collection, which walks
    it all once)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        thaw_seconds: float = THAW_SECONDS,
        from_generation: int = FREEZE_FROM,
    ) -> None:
        self._clock = clock
        self.thaw_seconds = thaw_seconds
        self.from_generation = from_generation
        self.thawed_at = clock()
        self.thawing = False
        self.freezes = 0
        self.thaws = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info.get("generation")
        if phase != "stop" or not isinstance(generation, int):
            return
        if generation < self.from_generation:
            return
        if self.thawing:
            if generation == FULL_COLLECTION:
                self.thawing = False  # everything was walked once
                self._freeze()
            return
        now = self._clock()
        if now - self.thawed_at >= self.thaw_seconds:
            gc.unfreeze()  # the next full collection walks (and can free) everything once
            self.thawed_at = now
            self.thawing = True
            self.thaws += 1
        else:
            self._freeze()

    def _freeze(self) -> None:
        gc.freeze()
        self.freezes += 1


@contextlib.contextmanager
def short_pauses(
    thresholds: tuple[int, int, int] = THRESHOLDS, freeze_from: int = FREEZE_FROM
) -> Iterator[Freezer]:
    """Within the block, a ``Freezer`` runs after each collection, collections come at
    ``thresholds`` and the interpreter switches threads every ``SWITCH_SECONDS``; at its end all
    three are undone (a process that goes on, such as a test's, is as before)."""
    freezer = Freezer(from_generation=freeze_from)
    gc.callbacks.append(freezer)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    before = gc.get_threshold()
    gc.set_threshold(*thresholds)
    try:
        yield freezer
    finally:
        gc.set_threshold(*before)
        sys.setswitchinterval(interval)
        gc.callbacks.remove(freezer)
        gc.unfreeze()
