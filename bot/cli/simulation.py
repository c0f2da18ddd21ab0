"""What both simulators' command lines share: counts, seeds, workers, progress on stderr, and
running in chunks so that Ctrl-C keeps the results finished so far."""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TextIO, TypeVar

from bot.cli.common import seed_value, whole

MAX_WORKERS = 64
INTERRUPTED = 130
"""The exit status after Ctrl-C (the shell's convention for SIGINT)."""


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options every simulator takes: ``--workers``, ``--json``, ``--[no-]progress``."""
    parser.add_argument("--workers", default="1", metavar="K", help="processes (default: 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="always show progress on stderr",
    )
    progress.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show progress"
    )


def parse_count(text: str, option: str) -> int:
    """A positive whole number written ``1000000``, ``1_000_000``, ``1,000,000``, ``1e6`` or
    ``5M`` / ``250k`` (the grammar of :func:`bot.numbers.read_whole` with suffixes)."""
    return whole(text, option, 1, suffixes=True)


def parse_seed(text: str | None) -> tuple[int, bool]:
    """The seed and whether it was chosen here (no ``--seed``)."""
    seed = seed_value(text)
    if seed is None:
        return secrets.randbelow(2**32), True
    return seed, False


def parse_workers(text: str) -> int:
    """A worker count from 1 to ``MAX_WORKERS``."""
    return whole(text, "--workers", 1, MAX_WORKERS)


class Progress:
    """Progress on stderr: a redrawn bar on a terminal, or a line every 10% for a log file."""

    def __init__(
        self,
        total: int,
        stream: TextIO,
        *,
        bar: bool,
        unit: str = "rounds",
        clock: Callable[[], float] = time.monotonic,
        min_interval: float = 0.2,
    ) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream
        self.bar = bar
        self.clock = clock
        self.min_interval = min_interval
        self.started = clock()
        self._last_draw = -1e9
        self._last_tenth = 0

    def update(self, done: int) -> None:
        """Report ``done`` units (rounds, hands) out of ``total``."""
        now = self.clock()
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        if self.bar:
            if now - self._last_draw < self.min_interval and done < self.total:
                return
            self._last_draw = now
            fraction = done / self.total if self.total else 1.0
            filled = int(30 * fraction)
            eta = (self.total - done) / rate if rate > 0 else 0.0
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {fraction:6.1%} "
                f"{done:,}/{self.total:,} {self.unit}  {rate:,.0f}/s  ETA {eta:4.0f}s "
            )
            self.stream.flush()
            return
        tenth = 10 * done // self.total if self.total else 10
        if tenth > self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(f"{done:,}/{self.total:,} {self.unit} ({rate:,.0f}/s)\n")
            self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.bar:
            self.stream.write("\n")
            self.stream.flush()


def wants_progress(
    flag: bool | None, hands: int, stream: TextIO, *, long_run: int
) -> tuple[bool, bool]:
    """``(show progress, as a bar)`` for the ``--progress`` flag, run length and stream: a
    terminal gets a bar, a long run (``long_run`` or more) a log line every 10%."""
    is_tty = bool(getattr(stream, "isatty", lambda: False)())
    if flag is False:
        return False, False
    if flag is True:
        return True, is_tty
    return is_tty or hands >= long_run, is_tty


R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Chunked(Generic[R]):
    """What a chunked run finished: the combined result (None if not even one chunk), how many
    units it covers, and whether Ctrl-C stopped the run early."""

    result: R | None
    done: int
    interrupted: bool


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index``: the run's own seed for the first chunk (so a run that fits
    in one chunk gives what an unchunked run gives), a hash of both after."""
    if index == 0:
        return seed
    digest = hashlib.sha256(f"felt-sim-chunk:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def run_in_chunks(
    total: int,
    chunk: int,
    play: Callable[[int, int, int, Callable[[int], None] | None], R],
    combine: Callable[[Iterable[R]], R],
    progress: Callable[[int], None] | None = None,
) -> Chunked[R]:
    """Play ``total`` units as ``play(index, count, seed_index, progress)`` chunks of at most
    ``chunk``, combining the results. Ctrl-C during a chunk drops only that chunk: the chunks
    finished before it are returned, with ``interrupted`` set, for the caller to report."""
    counts = [min(chunk, total - start) for start in range(0, total, chunk)]
    results: list[R] = []
    try:
        for index, count in enumerate(counts):
            offset = sum(counts[:index])

            def report(played: int, offset: int = offset) -> None:
                if progress is not None:
                    progress(offset + played)

            results.append(play(index, count, index, report if progress else None))
    except KeyboardInterrupt:
        # What finished is what was appended, whenever the interrupt landed.
        done = sum(counts[: len(results)])
        return Chunked(combine(results) if results else None, done, True)
    return Chunked(combine(results), total, False)


@dataclass(frozen=True, slots=True)
class RunShape:
    """What the chunked run of one simulator looks like on stderr."""

    name: str
    """``"blackjack"`` or ``"holdem"``: messages start ``felt sim NAME:``."""
    unit: str
    """``"rounds"`` or ``"hands"``."""
    chunk: int
    """Units per worker in a chunk."""
    long_run: int
    """Runs this long show progress even when stderr is not a terminal."""


def run_with_progress(
    shape: RunShape,
    total: int,
    workers: int,
    flag: bool | None,
    play: Callable[[int, int, int, Callable[[int], None] | None], R],
    combine: Callable[[Iterable[R]], R],
    err: TextIO,
) -> tuple[Chunked[R], float]:
    """Run in chunks with progress on ``err``; the outcome and the seconds it took."""
    show, as_bar = wants_progress(flag, total, err, long_run=shape.long_run)
    progress = Progress(total, err, bar=as_bar, unit=shape.unit) if show else None
    started = time.monotonic()
    try:
        outcome = run_in_chunks(
            total,
            shape.chunk * workers,
            play,
            combine,
            progress.update if progress is not None else None,
        )
    finally:
        if progress is not None:
            progress.close()
    return outcome, time.monotonic() - started


def finish_run(
    shape: RunShape, outcome: Chunked[R], total: int, elapsed: float, workers: int, err: TextIO
) -> int:
    """The timing line on ``err`` (and what an interruption left out); the exit status."""
    played = outcome.done
    rate = played / elapsed if elapsed > 0 else 0.0
    print(
        f"felt sim {shape.name}: {played:,} {shape.unit} in {elapsed:.1f}s ({rate:,.0f} "
        f"{shape.unit}/s, {workers} worker{'s' if workers > 1 else ''}, {os.cpu_count()} CPUs)",
        file=err,
    )
    if not outcome.interrupted:
        return 0
    print(
        f"felt sim {shape.name}: interrupted; the report covers the first {played:,} of "
        f"{total:,} {shape.unit}",
        file=err,
    )
    return INTERRUPTED


def nothing_finished(shape: RunShape, err: TextIO) -> int:
    """Ctrl-C before the first chunk finished: nothing to report."""
    print(f"felt sim {shape.name}: interrupted before any {shape.unit} finished", file=err)
    return INTERRUPTED
