"""`felt sim blackjack`: play many rounds for one seat and report the edge and win ratio.

    felt sim blackjack --rules casino --rule decks=1 --rule h17=true --strategy basic \\
        --hands 1000000 --seed 42 --workers 2 [--json]
    felt sim blackjack --rule h17=true --strategy hilo --spread 1-12 --bankroll 10000

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
from dataclasses import dataclass
from typing import Any, TextIO

from bot.cli.common import SEED_HELP, CliError, SubParsers, add_seed_option, whole
from bot.cli.rules import add_rule_options, build_rules
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
from engine.blackjack.counting import BetRamp, CountingError
from engine.blackjack.errors import SimulationError
from engine.blackjack.parallel import run_parallel, shares, worker_seed
from engine.blackjack.rules import Rules
from engine.blackjack.sidebets import perfect_pairs_house_edge, twenty_one_three_house_edge
from engine.blackjack.sim import SimResult
from engine.blackjack.strategy import STRATEGIES

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

CHUNK_ROUNDS = 100_000
"""Rounds per worker in each chunk of a run: Ctrl-C loses at most the chunk in progress."""
LONG_RUN_HANDS = 1_000_000
"""Runs at least this long report progress on stderr even when it is not a terminal."""
RAMP_LIMIT = 20
"""The longest ``--spread`` text read (longer is cut before it is quoted in a refusal)."""
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
        "player's edge per chip wagered (with its standard error), the average bet, win/push/"
        "loss rates per round, the win ratio, the side bets in the rules (one unit each round) "
        "and, with --bankroll, the risk of ruin. Bets are in units of the rule set's bet unit.",
        epilog="example:\n  felt sim blackjack --rules casino --rule decks=1 --hands 1M "
        "--seed 42 --workers 2 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(parser)
    parser.add_argument(
        "--strategy",
        default="basic",
        help=f"player strategy: {', '.join(STRATEGIES)} (default: basic; hilo counts cards "
        "and plays the Illustrious 18 and Fab 4 index plays)",
    )
    parser.add_argument(
        "--spread",
        metavar="LOW-HIGH",
        help="bet spread in units for a counting strategy, e.g. 1-8: LOW units below a true "
        "count of +2, then two more units per true count above +1, at most HIGH "
        "(default: a flat bet)",
    )
    parser.add_argument(
        "--bankroll",
        metavar="CHIPS",
        help="report the risk of ruin of this many chips at the measured win rate",
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


@dataclass(frozen=True, slots=True)
class SimRequest:
    """The options of one `felt sim blackjack`, checked."""

    rules: Rules
    preset_name: str
    overrides: tuple[str, ...]
    strategy: str
    hands: int
    seed: int
    seed_chosen: bool
    workers: int
    spread: BetRamp | None
    bankroll: int | None

    def setup(self) -> dict[str, Any]:
        """What ``--json`` records to run it again."""
        return {
            "preset": self.preset_name,
            "rule_overrides": list(self.overrides),
            "strategy": self.strategy,
            "spread": None if self.spread is None else f"{self.spread.low}-{self.spread.high}",
            "bankroll": self.bankroll,
            "seed": self.seed,
            "workers": self.workers,
        }


def parse_request(args: argparse.Namespace) -> SimRequest:
    """Check every option, or raise ``CliError`` for the first one that is wrong."""
    rules = build_rules(args.rules, list(args.rule))
    strategy = args.strategy.strip().lower()
    if strategy not in STRATEGIES:
        choose = ", ".join(STRATEGIES)
        raise CliError(f"unknown strategy {quote(args.strategy)} (choose from {choose})")
    spread = None
    if args.spread is not None:
        try:
            spread = BetRamp.parse(args.spread[:RAMP_LIMIT])
        except CountingError as error:
            raise CliError(f"--spread: {error}") from None
    bankroll = None if args.bankroll is None else whole(args.bankroll, "--bankroll", 1)
    hands = parse_count(args.hands, "--hands")
    seed, chosen = parse_seed(args.seed)
    return SimRequest(
        rules=rules,
        preset_name=args.rules.strip().lower(),
        overrides=tuple(args.rule),
        strategy=strategy,
        hands=hands,
        seed=seed,
        seed_chosen=chosen,
        workers=parse_workers(args.workers),
        spread=spread,
        bankroll=bankroll,
    )


# ----------------------------------------------------------------------------------- running


def run_simulation(
    rules: Rules,
    strategy: str,
    hands: int,
    seed: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    spread: BetRamp | None = None,
) -> SimResult:
    """``engine.blackjack.parallel.run_parallel``, with a failed worker or a spread the strategy
    cannot use as a ``CliError``."""
    try:
        return run_parallel(
            rules, strategy, hands, seed, workers=workers, progress=progress, spread=spread
        )
    except CountingError as error:
        raise CliError(f"--spread: {error}") from None
    except SimulationError as error:
        raise CliError(str(error)) from None


# ----------------------------------------------------------------------------------- report


def format_report(result: SimResult, request: SimRequest, expected_edge: float | None) -> str:
    """The text report printed on stdout."""
    workers = request.workers
    spread = "" if request.spread is None else f", spread {request.spread.describe()}"
    low = result.player_edge_pct - 1.96 * result.stderr_pct
    high = result.player_edge_pct + 1.96 * result.stderr_pct
    lines = [
        f"Blackjack: {result.rounds:,} rounds, strategy {request.strategy}, "
        f"seed {request.seed:,}, {workers} worker{'s' if workers > 1 else ''}{spread}",
        f"Rules: {request.preset_name}: {request.rules.describe()}",
        f"Net: {result.net_units:+,.1f} units (a unit is {result.bet} chips; "
        f"average bet {result.average_bet / result.bet:.2f} units)",
        f"House edge: {result.house_edge_pct:.3f}% ± {result.stderr_pct:.3f}% (standard error)",
        f"Player's edge: {result.player_edge_pct:+.3f}% per chip wagered "
        f"(95% interval {low:+.3f}% to {high:+.3f}%)",
    ]
    if expected_edge is not None:
        lines.append(f"Basic strategy, calculated for a fresh shoe: {expected_edge:.3f}%")
    if request.bankroll is not None:
        ruin = result.risk_of_ruin(request.bankroll)
        lines.append(
            f"Risk of ruin for a bankroll of {request.bankroll:,} chips: {100 * ruin:.3g}% "
            "(at the measured win rate and spread)"
        )
    lines += _side_bet_lines(result, request.rules)
    lines += [
        f"Rounds won {result.win_pct:.2f}%, pushed {result.push_pct:.2f}%, "
        f"lost {result.loss_pct:.2f}%",
        # The original exercise's line, kept word for word (scripts compare it).
        f"Wins: {result.wins} Losses: {result.losses} Win ratio: {result.win_ratio:.4f}",
    ]
    return "\n".join(lines)


def _side_bet_lines(result: SimResult, rules: Rules) -> list[str]:
    figures = side_bet_report(result, rules)
    return [
        f"{name}: house edge {bet['house_edge_pct']:.3f}% ± {bet['stderr_pct']:.3f}% over "
        f"{bet['bets']:,} bets (exact for a fresh shoe: {bet['exact_house_edge_pct']:.3f}%)"
        for name, bet in figures.items()
    ]


def side_bet_report(result: SimResult, rules: Rules) -> dict[str, dict[str, Any]]:
    """The side bets the rules offer: simulated and exact house edges, by name."""
    figures: dict[str, dict[str, Any]] = {}
    if rules.side_21_3 is not None:
        exact = twenty_one_three_house_edge(rules.decks, rules.side_21_3)
        figures["21+3"] = {
            "paytable": rules.side_21_3.value,
            **result.side_21_3.summary(),
            "exact_house_edge_pct": 100 * float(exact),
        }
    if rules.perfect_pairs:
        exact = perfect_pairs_house_edge(rules.decks)
        figures["perfect_pairs"] = {
            **result.perfect_pairs.summary(),
            "exact_house_edge_pct": 100 * float(exact),
        }
    return figures


def json_report(result: SimResult, request: SimRequest) -> dict[str, Any]:
    """The ``--json`` line: the figures, and everything needed to run it again (the seed, the
    rules in full, the strategy, spread and worker count). ``hands`` counts rounds, as
    ``rounds`` does; it stays for scripts written before ``rounds`` existed."""
    ruin = None if request.bankroll is None else 100 * result.risk_of_ruin(request.bankroll)
    return {
        **result.summary(),
        "rounds": result.rounds,
        "risk_of_ruin_pct": ruin,
        "side_bets": side_bet_report(result, request.rules),
        **request.setup(),
        "rules": request.rules.options(),
    }


def run(args: argparse.Namespace) -> int:
    """The handler of `felt sim blackjack`."""
    request = parse_request(args)
    err = sys.stderr
    if request.seed_chosen:
        print(f"felt sim blackjack: no --seed given, using --seed {request.seed}", file=err)
    seed, workers = request.seed, request.workers

    def play(index: int, count: int, _: int, report: Callable[[int], None] | None) -> SimResult:
        return run_simulation(
            request.rules,
            request.strategy,
            count,
            chunk_seed(seed, index),
            workers=workers,
            progress=report,
            spread=request.spread,
        )

    outcome, elapsed = run_with_progress(
        SHAPE, request.hands, workers, args.progress, play, SimResult.combine, err
    )
    result = outcome.result
    if result is None:
        return nothing_finished(SHAPE, err)
    if args.json:
        report = json_report(result, request)
        print(json.dumps({**report, "interrupted": True} if outcome.interrupted else report))
    else:
        flat_basic = request.strategy == "basic" and request.spread is None
        expected = house_edge(request.rules) if flat_basic else None
        print(format_report(result, request, expected))
    return finish_run(SHAPE, outcome, request.hands, elapsed, workers, err)
