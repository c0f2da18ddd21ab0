"""Checkpoints of the SQLite write-ahead log, taken beside the writer instead of inside its commits.

SQLite's automatic checkpoint runs inside the commit that crosses ``wal_autocheckpoint`` pages:
that commit copies about a thousand pages into the database file and fsyncs both files while
every other write waits. On our 2-core VM one settlement commit in fifty took 5-9 ms that way,
half of all the time spent committing (``bench/storage_throughput.py``, issue 21). So the writer
turns it off (``PRAGMA wal_autocheckpoint = 0``) and a connection of its own, on its own thread,
checkpoints every :data:`CHECKPOINT_EVERY` writes while the writer goes on.

A checkpoint that runs beside writes can never catch up with the last of them, and the log only
starts over from its beginning once every frame in it was copied. So when the log has grown past
:data:`RESTART_FRAMES`, the checkpoint copies the few frames written meanwhile while holding the
backend's write lock: the next write then starts the log over, and the file stays bounded.

Durability does not change: a commit is in the log before it returns either way (fsynced at once
under ``FULL``, within the flush interval under ``NORMAL``), and a process killed between
checkpoints leaves a longer log that the next open reads as it always does.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

CHECKPOINT_EVERY = 256
"""Writes between two checkpoints (about 3,000 log pages of settlements)."""
RESTART_FRAMES = 8192
"""Log frames (pages, 32 MB at 4 KB) beyond which a checkpoint finishes under the write lock so
that the log starts over."""

Call = Callable[..., Awaitable[Any]]


def checkpoint(connection: sqlite3.Connection) -> int:
    """Copy what it can of the log into the database file without waiting for anyone (PASSIVE);
    return the log's length in frames."""
    row = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return int(row[1]) if row is not None else 0


class Checkpointer:
    """Checkpoints the log every ``every`` writes, on ``connection``'s thread (``call`` runs a
    function there), finishing under ``write_lock`` once the log is ``restart_frames`` long."""

    def __init__(
        self,
        call: Call,
        connection: sqlite3.Connection,
        write_lock: asyncio.Lock,
        *,
        every: int = CHECKPOINT_EVERY,
        restart_frames: int = RESTART_FRAMES,
    ) -> None:
        self._call = call
        self._connection = connection
        self._write_lock = write_lock
        self.every = every
        self.restart_frames = restart_frames
        self._since = 0
        self._task: asyncio.Task[None] | None = None
        self.checkpoints = 0
        """Checkpoints taken so far (locked ones included)."""
        self.restarts = 0
        """Checkpoints that finished under the write lock so that the log starts over."""

    def wrote(self) -> None:
        """Count a write; start a checkpoint when it is due and none is running."""
        self._since += 1
        if self._since >= self.every and (self._task is None or self._task.done()):
            self._since = 0
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="felt-storage-checkpoint"
            )

    async def _run(self) -> None:
        try:
            frames = await self._call(checkpoint, self._connection)
            self.checkpoints += 1
            if frames >= self.restart_frames:
                async with self._write_lock:
                    await self._call(checkpoint, self._connection)
                self.restarts += 1
        except sqlite3.Error:
            # Nothing depends on a checkpoint but the log's length: the next one tries again.
            return

    async def wait(self) -> None:
        """Wait for the checkpoint in flight, if any, to end."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def stop(self) -> None:
        """Wait for the checkpoint in flight, if any (the caller holds the write lock, so a
        checkpoint waiting for it is cancelled instead)."""
        task, self._task = self._task, None
        if task is None:
            return
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
