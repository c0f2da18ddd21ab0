"""Where table pictures are drawn: worker processes in ``felt run``, threads in most tests.

Drawing a table picture is about half of the CPU a hand costs the bot. Drawn in threads, the
pictures share the interpreter's lock with the event loop that acknowledges clicks: the loop
lets the lock go at every socket call and waits for it to come back behind the drawing, so at
a thousand tables a click could wait hundreds of milliseconds to be acknowledged
(``bench/discord_load.py``). Drawn in worker processes (``PainterPool``), the pictures take a
core of their own and the event loop's interpreter does nothing else. A picture's view is a
frozen value and its PNG a few tens of kilobytes, so sending them between processes costs
about half a millisecond of the bot's CPU per picture.

``felt run`` draws in processes (``runner.run_bot``); tests draw in threads unless they ask for
processes (starting a worker and loading its fonts costs about a second of CPU), and one e2e
test plays a hand with them. A worker that dies (killed, out of memory) breaks the pool: the
pictures in flight fail (their messages go out as text) and the next one starts a new pool.
"""

from __future__ import annotations

import enum
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

T = TypeVar("T")

THREADS = 2
"""Drawing threads of a bot (they share the interpreter, so more would not draw faster)."""
NICENESS = 10
"""How much lower a painter's CPU priority is than the bot's. When the machine has more to do
than cores (a thousand tables on two), the kernel gives the core to the event loop that
acknowledges clicks, and the pictures (which can wait: a turn offer goes without its new
picture while the painters are full) draw in what is left."""


class Painters(enum.Enum):
    """Where a bot's table pictures are drawn."""

    THREADS = "threads"
    PROCESSES = "processes"


def painter_count() -> int:
    """A bot's painter processes: every core but one, which the event loop keeps."""
    return max(1, (os.cpu_count() or 2) - 1)


def open_painters(painters: Painters, name: str) -> Executor:
    """A bot's drawing executor, shared by its games (``name`` names its threads)."""
    if painters is Painters.THREADS:
        return ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix=name)
    return PainterPool(painter_count())


class PainterPool(Executor):
    """Worker processes that draw pictures, started again if one of them dies."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._pool = self._open()
        self.restarts = 0
        """How many times a broken pool was replaced (for tests and logs)."""

    def _open(self) -> ProcessPoolExecutor:
        # forkserver: a fork of this process would copy its threads' locks in whatever state
        # they were; the fork server is a fresh interpreter that forks the workers.
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=_prepare)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            try:
                return self._pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._open()
                self.restarts += 1
                return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def pids(self) -> list[int]:
        """The workers' process ids (the load benchmark reads their CPU and memory)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return list(processes)


def _prepare() -> None:
    """In each worker: give way to the bot (``NICENESS``), leave the signals to it (Ctrl-C or
    SIGTERM start its graceful shutdown, which ends the workers), end with it however it ends,
    and load the fonts and card faces before the first picture a member waits for."""
    os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    from bot.render import render_holdem_table  # noqa: PLC0415
    from bot.render.samples import six_max_mid_hand  # noqa: PLC0415

    render_holdem_table(six_max_mid_hand())


def _end_with(parent: BaseProcess) -> None:
    """Exit as soon as the bot is gone. A bot killed outright (SIGKILL, the kernel's OOM killer)
    cannot shut its pool down, and a worker waiting for its next picture would wait forever,
    holding the bot's output pipes open (whoever waits for the bot's exit would wait too)."""
    parent.join()
    os._exit(0)
