"""`felt sim holdem`: bots play a long Hold'em session; report each seat's win rate.

    felt sim holdem --seats smart,random,passive,aggressive,random,passive --hands 20000 \\
        --seed 42 [--blinds 1/2] [--stack 200] [--workers 2] [--json]

Stacks reset every hand and the button moves one seat per hand. Each seat is a strategy name
(``random``, ``passive``, ``aggressive``, ``smart``), optionally with a difficulty for ``smart``
(``smart:easy``, ``smart:hard``). The report gives per seat the hands, net chips, big blinds won
per 100 hands and its standard error (and a 95% interval in the text form). The hands are shared
between ``--workers`` processes, each with its own seed derived from ``--seed`` and its index,
so the same seed and worker count always give the same result; each worker's table keeps its
own player statistics. Progress goes to stderr, as ``felt sim blackjack`` does it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import queue
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bot.cli.common import SEED_HELP, CliError, SubParsers, add_seed_option, whole
from bot.cli.simulation import (
    RunShape,
    add_run_options,
    chunk_seed,
    finish_run,
    nothing_finished,
    parse_count,
    parse_seed,
    parse_workers,
    run_with_progress,
)
from bot.numbers import NumberError, quote, read_whole
from engine.blackjack.parallel import shares
from engine.bots.registry import STRATEGY_NAMES, BotSpec, parse_seats
from engine.bots.simulate import (
    MAX_SEATS,
    MIN_SEATS,
    HoldemSimResult,
    check_setup,
    simulate_holdem,
)
from engine.errors import EngineError

DEFAULT_SEATS = "smart,random,passive,aggressive,random,passive"
CHUNK_HANDS = 20_000
"""Hands per worker in each chunk of a run: Ctrl-C loses at most the chunk in progress. Each
chunk starts the bots' opponent statistics afresh, as each worker does, so chunks are long."""
LONG_RUN_HANDS = 20_000
"""Runs at least this long report progress on stderr even when it is not a terminal."""
SHAPE = RunShape("holdem", "hands", CHUNK_HANDS, LONG_RUN_HANDS)
_PROGRESS_EVERY = 50


def register(subparsers: SubParsers) -> None:
    """Add the `sim holdem` subcommand."""
    parser = subparsers.add_parser(
        "holdem",
        help="simulate Hold'em between bots and report each seat's win rate",
        description="Seat bots at a No-Limit Hold'em table, play many hands (stacks reset "
        "every hand, the button moves) and report each seat's net, bb/100 and standard error.",
        epilog="example:\n  felt sim holdem --seats smart,random,passive --hands 20k --seed 7",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--seats",
        default=DEFAULT_SEATS,
        metavar="LIST",
        help=f"comma-separated strategies, {MIN_SEATS} to {MAX_SEATS}: "
        f"{', '.join(STRATEGY_NAMES)}; smart:easy / smart:hard set a difficulty "
        f"(default: {DEFAULT_SEATS})",
    )
    parser.add_argument(
        "--hands",
        default="10000",
        metavar="N",
        help="hands to play, e.g. 20000, 20_000, 20k (default: 10000)",
    )
    add_seed_option(parser, f"{SEED_HELP} (default: a random seed, printed)")
    parser.add_argument(
        "--blinds", default="1/2", metavar="SB/BB", help="small/big blind (default: 1/2)"
    )
    parser.add_argument(
        "--stack", default="200", metavar="CHIPS", help="every stack, each hand (default: 200)"
    )
    add_run_options(parser)
    parser.set_defaults(handler=run)


# ----------------------------------------------------------------------------------- options


def parse_seat_list(text: str) -> tuple[BotSpec, ...]:
    """The seats' strategies, or a ``CliError`` naming the bad one."""
    try:
        specs = parse_seats(text)
    except EngineError as error:
        raise CliError(f"--seats: {error}") from None
    if not MIN_SEATS <= len(specs) <= MAX_SEATS:
        raise CliError(f"--seats must list {MIN_SEATS} to {MAX_SEATS} strategies, not {len(specs)}")
    return specs


def parse_blinds(text: str) -> tuple[int, int]:
    """``"1/2"`` as (small blind, big blind): whole numbers, 1 <= small <= big."""
    small_text, slash, big_text = text.partition("/")
    try:
        if not slash:
            raise NumberError(text)
        small, big = read_whole(small_text), read_whole(big_text)
    except NumberError:
        raise CliError(f"--blinds must look like 1/2 (small/big), not {quote(text)}") from None
    if small < 1:
        raise CliError(f"--blinds: the small blind must be at least 1, not {quote(text)}")
    if small > big:
        raise CliError(f"--blinds: the small blind cannot exceed the big blind, not {quote(text)}")
    return small, big


def parse_stack(text: str, big_blind: int) -> int:
    """A stack of at least one big blind."""
    stack = whole(text, "--stack", 1)
    if stack < big_blind:
        raise CliError(f"--stack must cover the big blind ({big_blind}), not {quote(text)}")
    return stack


# ----------------------------------------------------------------------------------- running


def worker_seed(seed: int, worker: int, workers: int) -> int:
    """The seed of one worker: the run's seed when there is one worker, else derived."""
    if workers == 1:
        return seed
    digest = hashlib.sha256(f"felt-sim-holdem:{seed}:{worker}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _play_share(
    specs: Sequence[BotSpec],
    hands: int,
    seed: int,
    first_hand: int,
    blinds: tuple[int, int],
    stack: int,
    report: Callable[[int], None] | None,
) -> HoldemSimResult:
    return simulate_holdem(
        specs,
        hands,
        seed,
        small_blind=blinds[0],
        big_blind=blinds[1],
        stack=stack,
        first_hand=first_hand,
        progress=report,
        progress_every=_PROGRESS_EVERY,
    )


def _worker(*, index: int, channel: Any, **share: Any) -> None:  # pragma: no cover - child
    try:
        result = _play_share(
            **share, report=lambda played: channel.put(("progress", index, played))
        )
        channel.put(("done", index, result))
    except BaseException as error:  # the parent reports it; nothing else can
        channel.put(("failed", index, f"{type(error).__name__}: {error}"))


def run_simulation(
    specs: Sequence[BotSpec],
    hands: int,
    seed: int,
    *,
    blinds: tuple[int, int] = (1, 2),
    stack: int = 200,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> HoldemSimResult:
    """Play ``hands`` hands over ``workers`` processes; deterministic for the same arguments.

    Worker ``i`` plays its share with its own seed, and its button starts where the shares
    before it end, so the button still moves round the table evenly."""
    try:
        check_setup(specs, hands, blinds[0], blinds[1], stack)
    except EngineError as error:
        raise CliError(str(error)) from None
    counts = shares(hands, workers)
    starts = [sum(counts[:index]) for index in range(workers)]
    if workers == 1:
        return _play_share(specs, hands, seed, 0, blinds, stack, progress)
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    channel = context.Queue()
    processes = [
        context.Process(
            target=_worker,
            kwargs={
                "index": index,
                "channel": channel,
                "specs": tuple(specs),
                "hands": counts[index],
                "seed": worker_seed(seed, index, workers),
                "first_hand": starts[index],
                "blinds": blinds,
                "stack": stack,
            },
            daemon=True,
        )
        for index in range(workers)
        if counts[index] > 0
    ]
    active = [index for index in range(workers) if counts[index] > 0]
    for process in processes:
        process.start()
    done: dict[int, HoldemSimResult] = {}
    played = [0] * workers
    try:
        while len(done) < len(active):
            try:
                kind, index, payload = channel.get(timeout=0.5)
            except queue.Empty:
                for index, process in zip(active, processes, strict=True):
                    if index not in done and not process.is_alive() and process.exitcode:
                        raise CliError(
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
                raise CliError(f"worker {index} failed: {payload}")
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()
    return HoldemSimResult.combine(done[index] for index in active)


# ----------------------------------------------------------------------------------- progress


def format_report(
    result: HoldemSimResult,
    *,
    seed: int,
    blinds: tuple[int, int],
    stack: int,
    workers: int,
) -> str:
    """The text report printed on stdout."""
    seats = len(result.seats)
    lines = [
        f"Hold'em: {result.hands:,} hands, {seats} seats, blinds {blinds[0]:,}/{blinds[1]:,}, "
        f"stacks {stack:,} ({stack / blinds[1]:g} bb, reset every hand), seed {seed:,}, "
        f"{workers} worker{'s' if workers > 1 else ''}",
        f"{'seat':>4}  {'strategy':<12} {'hands':>8} {'net':>11} {'bb/100':>9} {'± s.e.':>8}"
        "  95% interval",
    ]
    for seat in result.seats:
        low, high = seat.interval_95
        lines.append(
            f"{seat.seat:>4}  {seat.strategy:<12} {seat.hands:>8,} {seat.net:>+11,} "
            f"{seat.bb_per_100:>+9.2f} {seat.stderr_bb_per_100:>8.2f}  "
            f"[{low:+.1f}, {high:+.1f}]"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """The handler of `felt sim holdem`."""
    specs = parse_seat_list(args.seats)
    hands = parse_count(args.hands, "--hands")
    blinds = parse_blinds(args.blinds)
    stack = parse_stack(args.stack, blinds[1])
    seed, chosen = parse_seed(args.seed)
    workers = parse_workers(args.workers)
    err = sys.stderr
    if chosen:
        print(f"felt sim holdem: no --seed given, using --seed {seed}", file=err)

    def play(
        index: int, count: int, _: int, report: Callable[[int], None] | None
    ) -> HoldemSimResult:
        seed_of_chunk = chunk_seed(seed, index)
        return run_simulation(
            specs, count, seed_of_chunk, blinds=blinds, stack=stack, workers=workers,
            progress=report,
        )  # fmt: skip

    outcome, elapsed = run_with_progress(
        SHAPE, hands, workers, args.progress, play, HoldemSimResult.combine, err
    )
    result = outcome.result
    if result is None:
        return nothing_finished(SHAPE, err)
    if args.json:
        setup = {
            "seat_strategies": [spec.label for spec in specs],
            "blinds": list(blinds),
            "stack": stack,
            "seed": seed,
            "workers": workers,
        }
        extra = {"interrupted": True} if outcome.interrupted else {}
        print(json.dumps({**result.summary(), **setup, **extra}))
    else:
        print(format_report(result, seed=seed, blinds=blinds, stack=stack, workers=workers))
    return finish_run(SHAPE, outcome, hands, elapsed, workers, err)
