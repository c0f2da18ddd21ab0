"""`felt sim holdem`: bots play a long Hold'em session; report each seat's win rate.

    felt sim holdem --seats smart,random,passive,aggressive,random,passive --hands 20000 \\
        --seed 42 [--blinds 1/2] [--stack 200] [--workers 2] [--json] [--phh hands.phhs]

Stacks reset every hand and the button moves one seat per hand. Each seat is a strategy name
(``random``, ``passive``, ``aggressive``, ``smart``), optionally with a difficulty for ``smart``
(``smart:easy``, ``smart:hard``). The report gives per seat the hands, net chips, big blinds won
per 100 hands and its standard error (and a 95% interval in the text form), and the statistics
that show a style (VPIP, PFR, 3-bet %, aggression factor, went to / won at showdown, the most
raises the seat made in one hand; defined in ``engine.holdem.stats``), plus the 99th percentile
of preflop raises per hand. ``--phh PATH`` writes every hand as PHH (a ``.phhs`` file, hands
numbered from 1), for PokerKit, ``felt replay`` or any tracker to recompute or replay. The
hands are shared between ``--workers`` processes, each with its own seed derived from ``--seed``
and its index, so the same seed and worker count always give the same result; each worker's
table keeps its own player statistics. Progress goes to stderr, as ``felt sim blackjack`` does it.

Home-game options, for PHH files PokerKit can replay: ``--straddle utg|button`` (every hand,
``--straddles N`` for an under-the-gun straddle and its re-straddles), ``--run-it-twice`` (bots
all in before the river always agree), ``--bomb-pot-every N --bomb-pot-ante CHIPS`` with
``--double-board``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bot.cli.common import SEED_HELP, CliError, SubParsers, add_seed_option, whole
from bot.cli.home_options import add_home_options, describe_home, parse_home_options
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
from engine.blackjack.errors import SimulationError
from engine.blackjack.parallel import collect_results, shares, stop_workers
from engine.bots.registry import STRATEGY_NAMES, BotSpec, parse_seats
from engine.bots.simulate import (
    MAX_SEATS,
    MIN_SEATS,
    HoldemSimResult,
    check_setup,
    simulate_holdem,
)
from engine.errors import EngineError
from engine.holdem import phh
from engine.holdem.hand import Hand
from engine.holdem.options import HomeGameOptions

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
    parser.add_argument(
        "--phh", default=None, metavar="PATH", help="also write every hand to PATH (.phhs)"
    )
    add_home_options(parser)
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


# ----------------------------------------------------------------------------------- PHH


class PhhWriter:
    """Writes each finished hand of a share as a ``[number]`` table of a ``.phhs`` file."""

    def __init__(self, path: str, specs: Sequence[BotSpec], first_hand: int) -> None:
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self.labels = [f"Seat {seat + 1} ({spec.label})" for seat, spec in enumerate(specs)]
        self.number = first_hand

    def __call__(self, hand: Hand, order: Sequence[int]) -> None:
        self.number += 1
        history = phh.from_hand(
            hand, hand=self.number, players=[self.labels[seat] for seat in order]
        )
        self.file.write(f"[{self.number}]\n{phh.dumps(history)}\n")

    def close(self) -> None:
        self.file.close()


def check_phh_path(path: str) -> None:
    """Refuse a ``--phh`` path that cannot be written, before any hand is played."""
    try:
        with open(path, "w", encoding="utf-8"):
            pass
    except OSError as error:
        raise CliError(f"--phh: cannot write {path!r}: {error.strerror or error}") from None


def _part(path: str, index: int) -> str:
    return f"{path}.part{index}"


def _chunk(path: str, index: int) -> str:
    return f"{path}.chunk{index}"


def _join_chunks(path: str, done: int) -> None:
    """Write the finished chunks' hands to ``path`` in order; drop an unfinished chunk."""
    with open(path, "w", encoding="utf-8") as out:
        for index in range(done):
            with open(_chunk(path, index), encoding="utf-8") as part:
                shutil.copyfileobj(part, out)
    index = 0
    while os.path.exists(_chunk(path, index)):
        os.remove(_chunk(path, index))
        index += 1


def _join_parts(path: str, indices: Sequence[int]) -> None:
    """Concatenate the workers' PHH parts in order (their hands are numbered already)."""
    with open(path, "w", encoding="utf-8") as out:
        for index in indices:
            with open(_part(path, index), encoding="utf-8") as part:
                shutil.copyfileobj(part, out)
            os.remove(_part(path, index))


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
    phh_path: str | None = None,
    phh_first_number: int = 0,
    home: HomeGameOptions | None = None,
) -> HoldemSimResult:
    writer = (
        PhhWriter(phh_path, specs, phh_first_number + first_hand) if phh_path is not None else None
    )
    try:
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
            on_hand=writer,
            home=home,
        )
    finally:
        if writer is not None:
            writer.close()


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
    phh_path: str | None = None,
    phh_first_number: int = 0,
    home: HomeGameOptions | None = None,
) -> HoldemSimResult:
    """Play ``hands`` hands over ``workers`` processes; deterministic for the same arguments.

    Worker ``i`` plays its share with its own seed, its button starting where the shares before
    it end. With ``phh_path`` every hand is written there (each worker writes a part, joined in
    order at the end), numbered from ``phh_first_number + 1``; ``home`` sets home-game options."""
    _check_setup(specs, hands, blinds, stack)
    counts = shares(hands, workers)
    starts = [sum(counts[:index]) for index in range(workers)]
    if workers == 1:
        return _play_share(
            specs, hands, seed, 0, blinds, stack, progress, phh_path, phh_first_number, home
        )
    context = _process_context()
    channel = context.Queue()
    active = [index for index in range(workers) if counts[index] > 0]
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
                "phh_path": _part(phh_path, index) if phh_path is not None else None,
                "phh_first_number": phh_first_number,
                "home": home,
            },
            daemon=True,
        )
        for index in active
    ]
    for process in processes:
        process.start()
    try:
        done = collect_results(channel, processes, active, counts, progress)
    except SimulationError as error:
        raise CliError(str(error)) from None
    finally:
        stop_workers(processes)
    if phh_path is not None:
        _join_parts(phh_path, active)
    return HoldemSimResult.combine(done[index] for index in active)


def _check_setup(specs: Sequence[BotSpec], hands: int, blinds: tuple[int, int], stack: int) -> None:
    """Refuse, in the command line's words, a session the engine cannot play."""
    try:
        check_setup(specs, hands, blinds[0], blinds[1], stack)
    except EngineError as error:
        raise CliError(str(error)) from None


def _process_context() -> Any:
    """Fork where the platform has it (fast to start), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


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
        f"  {'95% interval':<16} {'VPIP':>5} {'PFR':>5} {'3bet':>5} {'AF':>5} {'WTSD':>5} "
        f"{'W$SD':>5} {'max raises':>10}",
    ]
    for seat in result.seats:
        low, high = seat.interval_95
        style = seat.style
        interval = f"[{low:+.1f}, {high:+.1f}]"
        lines.append(
            f"{seat.seat:>4}  {seat.strategy:<12} {seat.hands:>8,} {seat.net:>+11,} "
            f"{seat.bb_per_100:>+9.2f} {seat.stderr_bb_per_100:>8.2f}  {interval:<16} "
            f"{_figure(style.vpip_pct)} {_figure(style.pfr_pct)} "
            f"{_figure(style.three_bet_pct)} {_figure(style.af, 2)} "
            f"{_figure(style.wtsd_pct)} {_figure(style.wsd_pct)} "
            f"{style.max_raises_in_a_hand:>10}"
        )
    lines.append(
        f"preflop raises per hand, 99th percentile (all players): {result.preflop_raises_p99}"
    )
    return "\n".join(lines)


def _figure(value: float | None, decimals: int = 1) -> str:
    """A percentage or factor in five columns; ``-`` when there was nothing to measure."""
    return f"{'-':>5}" if value is None else f"{value:>5.{decimals}f}"


def run(args: argparse.Namespace) -> int:
    """The handler of `felt sim holdem`."""
    specs = parse_seat_list(args.seats)
    hands = parse_count(args.hands, "--hands")
    blinds = parse_blinds(args.blinds)
    stack = parse_stack(args.stack, blinds[1])
    seed, chosen = parse_seed(args.seed)
    workers = parse_workers(args.workers)
    home = parse_home_options(args, len(specs))
    if args.phh is not None:
        check_phh_path(args.phh)
    err = sys.stderr
    if chosen:
        print(f"felt sim holdem: no --seed given, using --seed {seed}", file=err)

    done_chunks: list[int] = []

    def play(
        index: int, count: int, _: int, report: Callable[[int], None] | None
    ) -> HoldemSimResult:
        seed_of_chunk = chunk_seed(seed, index)
        result = run_simulation(
            specs, count, seed_of_chunk, blinds=blinds, stack=stack, workers=workers,
            progress=report, phh_path=_chunk(args.phh, index) if args.phh else None,
            phh_first_number=sum(done_chunks), home=home,
        )  # fmt: skip
        done_chunks.append(count)
        return result

    try:
        outcome, elapsed = run_with_progress(
            SHAPE, hands, workers, args.progress, play, HoldemSimResult.combine, err
        )
    finally:
        if args.phh is not None:
            _join_chunks(args.phh, len(done_chunks))
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
        extra: dict[str, Any] = {"interrupted": True} if outcome.interrupted else {}
        if describe_home(home):
            extra["home_game"] = describe_home(home)
        print(json.dumps({**result.summary(), **setup, **extra}))
    else:
        report = format_report(result, seed=seed, blinds=blinds, stack=stack, workers=workers)
        if describe_home(home):
            title, rest = report.split("\n", 1)
            report = f"{title}, {describe_home(home)}\n{rest}"
        print(report)
    return finish_run(SHAPE, outcome, hands, elapsed, workers, err)
