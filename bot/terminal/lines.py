"""Typed lines without blocking the event loop: a daemon thread reads standard input and hands
each line to the loop, so timers and bots keep running while the player thinks.

The thread uses ``os.read`` on the file descriptor rather than ``sys.stdin``: a daemon thread
blocked inside a buffered reader holds its lock, and the interpreter's shutdown would then abort
trying to take it. A raw read holds nothing, so the process can exit while the thread waits.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

CHUNK = 4096


@dataclass(frozen=True, slots=True)
class Line:
    """One line the player typed (without its newline)."""

    text: str


@dataclass(frozen=True, slots=True)
class EndOfInput:
    """Standard input closed (Ctrl-D, or the end of a pipe)."""


class LineReader:
    """Reads lines on a daemon thread and posts them with ``post`` on the event loop."""

    def __init__(self, post: Callable[[Line | EndOfInput], None], fd: int = 0) -> None:
        self._post = post
        self._fd = fd
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start reading (call from the event loop)."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="felt-input", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        assert self._loop is not None
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(self._fd, CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                if pending:
                    self._send(Line(pending.rstrip("\r")))
                self._send(EndOfInput())
                return
            pending += decoder.decode(chunk)
            *lines, pending = pending.split("\n")
            for line in lines:
                self._send(Line(line.rstrip("\r")))

    def _send(self, item: Line | EndOfInput) -> None:
        assert self._loop is not None
        # RuntimeError: the loop has closed, so nobody is listening any more.
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._post, item)
