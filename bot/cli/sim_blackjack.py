"""`felt sim blackjack`: play many rounds for one seat and report the house edge and win ratio.

    felt sim blackjack --rules casino --rule decks=1 --rule h17=true --strategy basic \\
        --hands 1000000 --seed 42 --workers 2 [--json]

The rounds are shared between ``--workers`` processes, each with its own seed derived from
``--seed`` and its index, so the same seed and worker count always give the same result. The
report goes to stdout (one JSON line with ``--json``); progress and timing go to stderr, as a
bar when stderr is a terminal, and as occasional lines for long runs otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from bot.cli.common import SEED_HELP, CliError, SubParsers, add_seed_option
from bot.cli.simulation import (
    MAX_WORKERS,
    Progress,
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
from bot.cli.simulation import wants_progress as _wants_progress
from bot.numbers import quote
from engine.blackjack.analysis import house_edge
from engine.blackjack.errors import SimulationError
from engine.blackjack.parallel import run_parallel, shares, worker_seed
from engine.blackjack.rules import PRESETS, Rules, preset
from engine.blackjack.sim import SimResult
from engine.blackjack.strategy import STRATEGIES
from engine.errors import EngineError

__all__ = [
    "LONG_RUN_HANDS",
    "MAX_WORKERS",
    "Progress",
    "build_rules",
    "format_report",
    "parse_count",
    "parse_seed",
    "parse_workers",
    "register",
    "run",
    "run_simulation",
    "shares",
    "wants_progress",
    "worker_seed",
]
"""Also used by ``felt sim holdem`` for the options the two simulators share."""

RULE_LIMIT = 60
"""The longest ``--rule NAME=VALUE`` that can mean anything."""
CHUNK_ROUNDS = 100_000
"""Rounds per worker in each chunk of a run: Ctrl-C loses at most the chunk in progress."""
LONG_RUN_HANDS = 1_000_000
"""Runs at least this long report progress on stderr even when it is not a terminal."""
SHAPE = RunShape("blackjack", "rounds", CHUNK_ROUNDS, LONG_RUN_HANDS)


def wants_progress(flag: bool | None, hands: int, stream: TextIO) -> tuple[bool, bool]:
    """``(show progress, as a bar)`` for a blackjack run of ``hands`` rounds."""
    return _wants_progress(flag, hands, stream, long_run=LONG_RUN_HANDS)


def register(subparsers: SubParsers) -> None:
    """Add the `sim blackjack` subcommand."""
    parser = subparsers.add_parser(
        "blackjack",
        help="simulate Blackjack rounds and report the house edge",
        description="Play many Blackjack rounds for one seat with a strategy and report the "
        "house edge (with its standard error), win/push/loss rates and the win ratio.",
        epilog="example:\n  felt sim blackjack --rules casino --rule decks=1 --hands 1M "
        "--seed 42 --workers 2 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--rules",
        default="casino",
        metavar="PRESET",
        help=f"rule preset: {', '.join(PRESETS)} (default: casino)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule, e.g. decks=1 or h17=true (repeatable)",
    )
    parser.add_argument(
        "--strategy",
        default="basic",
        help=f"player strategy: {', '.join(STRATEGIES)} (default: basic)",
    )
    parser.add_argument(
        "--hands",
        default="100000",
        metavar="N",
        help="rounds to play, e.g. 1000000, 1_000_000, 5M (default: 100000)",
    )
    add_seed_option(parser, f"{SEED_HELP} (default: a random seed, printed)")
    add_run_options(parser)
    parser.set_defaults(handler=run)


# ----------------------------------------------------------------------------------- options


def build_rules(preset_name: str, overrides: list[str]) -> Rules:
    """The preset with the ``--rule`` overrides applied, or a ``CliError`` saying what is wrong."""
    for override in overrides:
        if len(override) > RULE_LIMIT:  # no rule is this long; the engine would echo it whole
            raise CliError(f"--rule {quote(override, limit=40)} is not a rule (name=value)")
    try:
        return preset(preset_name).with_overrides(overrides)
    except EngineError as error:
        raise CliError(str(error)) from None


# ----------------------------------------------------------------------------------- running


def run_simulation(
    rules: Rules,
    strategy: str,
    hands: int,
    seed: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """``engine.blackjack.parallel.run_parallel``, with a failed worker as a ``CliError``."""
    try:
        return run_parallel(rules, strategy, hands, seed, workers=workers, progress=progress)
    except SimulationError as error:
        raise CliError(str(error)) from None


# ----------------------------------------------------------------------------------- progress


# ----------------------------------------------------------------------------------- report


def format_report(
    result: SimResult,
    *,
    rules: Rules,
    preset_name: str,
    strategy: str,
    seed: int,
    workers: int,
    expected_edge: float | None,
) -> str:
    """The text report printed on stdout."""
    lines = [
        f"Blackjack: {result.rounds:,} rounds, strategy {strategy}, seed {seed:,}, "
        f"{workers} worker{'s' if workers > 1 else ''}",
        f"Rules: {preset_name}: {rules.describe()}",
        f"Net: {result.net_units:+,.1f} units (bets of {result.bet} chips)",
        f"House edge: {result.house_edge_pct:.3f}% ± {result.stderr_pct:.3f}% (standard error)",
    ]
    if expected_edge is not None:
        lines.append(f"Basic strategy, calculated for a fresh shoe: {expected_edge:.3f}%")
    lines += [
        f"Rounds won {result.win_pct:.2f}%, pushed {result.push_pct:.2f}%, "
        f"lost {result.loss_pct:.2f}%",
        # The original exercise's line, kept word for word (scripts compare it).
        f"Wins: {result.wins} Losses: {result.losses} Win ratio: {result.win_ratio:.4f}",
    ]
    return "\n".join(lines)


def json_report(result: SimResult, rules: Rules, setup: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` line: the figures, and everything needed to run it again (the seed, the
    rules in full, the strategy and the worker count). ``hands`` counts rounds, as ``rounds``
    does; it stays for scripts written before ``rounds`` existed."""
    return {**result.summary(), "rounds": result.rounds, **setup, "rules": rules.options()}


def run(args: argparse.Namespace) -> int:
    """The handler of `felt sim blackjack`."""
    rules = build_rules(args.rules, list(args.rule))
    strategy = args.strategy.strip().lower()
    if strategy not in STRATEGIES:
        choose = ", ".join(STRATEGIES)
        raise CliError(f"unknown strategy {quote(args.strategy)} (choose from {choose})")
    hands = parse_count(args.hands, "--hands")
    seed, chosen = parse_seed(args.seed)
    workers = parse_workers(args.workers)
    err = sys.stderr
    if chosen:
        print(f"felt sim blackjack: no --seed given, using --seed {seed}", file=err)

    def play(index: int, count: int, _: int, report: Callable[[int], None] | None) -> SimResult:
        return run_simulation(
            rules, strategy, count, chunk_seed(seed, index), workers=workers, progress=report
        )

    outcome, elapsed = run_with_progress(
        SHAPE, hands, workers, args.progress, play, SimResult.combine, err
    )
    result = outcome.result
    if result is None:
        return nothing_finished(SHAPE, err)
    if args.json:
        run_setup = {
            "preset": args.rules.strip().lower(),
            "rule_overrides": list(args.rule),
            "strategy": strategy,
            "seed": seed,
            "workers": workers,
        }
        report = json_report(result, rules, run_setup)
        print(json.dumps({**report, "interrupted": True} if outcome.interrupted else report))
    else:
        expected = house_edge(rules) if strategy == "basic" else None
        print(
            format_report(
                result,
                rules=rules,
                preset_name=args.rules.strip().lower(),
                strategy=strategy,
                seed=seed,
                workers=workers,
                expected_edge=expected,
            )
        )
    return finish_run(SHAPE, outcome, hands, elapsed, workers, err)
