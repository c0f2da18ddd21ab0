"""Simulations spread over worker processes, reproducible for a seed and a worker count.

Worker ``k`` plays its share of the rounds with its own generator seeded from a hash of the run's
seed and ``k``, so the same ``(rules, strategy, hands, seed, workers)`` always gives the same
``SimResult``, and the totals add up exactly (``SimResult.combine``). Workers are forked where the
platform allows, so they inherit the basic strategy chart the parent already worked out.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import queue
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.blackjack.counting import BetRamp, CountingError
from engine.blackjack.errors import SimulationError
from engine.blackjack.rules import Rules
from engine.blackjack.sim import SimResult, simulate
from engine.blackjack.strategy import strategy_named

PROGRESS_EVERY = 20_000
"""Rounds between a worker's progress reports."""


def worker_seed(seed: int, worker: int) -> int:
    """The seed of one worker: a hash of the run's seed and the worker's index."""
    digest = hashlib.sha256(f"felt-sim-blackjack:{seed}:{worker}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shares(hands: int, workers: int) -> list[int]:
    """Rounds per worker: as even as possible, the first workers taking the remainder."""
    base, extra = divmod(hands, workers)
    return [base + (1 if index < extra else 0) for index in range(workers)]


def _play_share(
    rules: Rules,
    strategy: str,
    rounds: int,
    seed: int,
    report: Callable[[int], None] | None,
    spread: BetRamp | None = None,
) -> SimResult:
    return simulate(
        rules,
        strategy_named(strategy, rules),
        rounds,
        random.Random(seed),
        spread=spread,
        progress=report,
        progress_every=PROGRESS_EVERY,
    )


def _worker(
    *,
    index: int,
    rules: Rules,
    strategy: str,
    rounds: int,
    seed: int,
    spread: BetRamp | None,
    channel: Any,
) -> None:  # pragma: no cover - runs in a child process
    try:
        result = _play_share(
            rules,
            strategy,
            rounds,
            seed,
            lambda played: channel.put(("progress", index, played)),
            spread,
        )
        channel.put(("done", index, result))
    except BaseException as error:  # the parent reports it; nothing else can
        channel.put(("failed", index, f"{type(error).__name__}: {error}"))


def run_parallel(
    rules: Rules,
    strategy: str,
    hands: int,
    seed: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    spread: BetRamp | None = None,
) -> SimResult:
    """Play ``hands`` rounds over ``workers`` processes; ``progress`` gets the rounds done so far.

    Deterministic for a given ``(rules, strategy, hands, seed, workers, spread)``. Each worker
    plays its own shoe, so a counting strategy counts each worker's shoe.
    """
    played = strategy_named(strategy, rules)  # refuse a bad name here; work out the chart once
    if spread is not None and not spread.is_flat and not hasattr(played, "counter"):
        raise CountingError(f"a bet spread needs a counting strategy, not {strategy!r}")
    counts = shares(hands, workers)
    if workers == 1:
        return _play_share(rules, strategy, hands, worker_seed(seed, 0), progress, spread)
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    channel = context.Queue()
    processes = [
        context.Process(
            target=_worker,
            kwargs={
                "index": index,
                "rules": rules,
                "strategy": strategy,
                "rounds": counts[index],
                "seed": worker_seed(seed, index),
                "spread": spread,
                "channel": channel,
            },
            daemon=True,
        )
        for index in range(workers)
    ]
    for process in processes:
        process.start()
    try:
        done = collect_results(channel, processes, range(workers), counts, progress)
    finally:
        stop_workers(processes)
    return SimResult.combine(done[index] for index in range(workers))


def stop_workers(processes: Sequence[Any]) -> None:
    """End every worker that is still running and wait for all of them."""
    for process in processes:
        if process.is_alive():
            process.terminate()
        process.join()


def collect_results(
    channel: Any,
    processes: Sequence[Any],
    active: Sequence[int],
    counts: Sequence[int],
    progress: Callable[[int], None] | None,
) -> dict[int, Any]:
    """Each worker's result by index (``processes[i]`` is worker ``active[i]``), reporting
    progress as messages arrive; :class:`SimulationError` if a worker fails or dies. Workers send
    ``("progress", index, played)``, ``("done", index, result)`` or ``("error", index, text)``.
    Both simulators (Blackjack here, Hold'em in ``felt sim holdem``) collect through this."""
    done: dict[int, Any] = {}
    played = [0] * len(counts)
    while len(done) < len(active):
        try:
            kind, index, payload = channel.get(timeout=0.5)
        except queue.Empty:
            for index, process in zip(active, processes, strict=True):
                if index not in done and not process.is_alive() and process.exitcode:
                    raise SimulationError(
                        f"worker {index} stopped unexpectedly (exit code {process.exitcode})"
                    ) from None
            continue
        if kind == "progress":
            played[index] = payload
            if progress is not None:
                progress(sum(played))
        elif kind == "done":
            done[index] = payload
            played[index] = counts[index]
        else:
            raise SimulationError(f"worker {index} failed: {payload}")
    return done
