"""`felt sim tournament`: bots play many Sit & Gos; report places, ITM and ROI per seat.

    felt sim tournament --seats smart,random,passive --tournaments 200 --preset turbo \\
        --seed 42 [--rebuys] [--json]

Each tournament seats one bot per ``--seats`` entry at one table (the seats are drawn afresh
each time) and plays the real engine to the end, levels rising on a simulated clock (see
``engine.tournament.simulate``); the buy-in is 1,000 chips and there is no fee, so the seats'
ROIs balance out. ``--preset`` also takes a custom structure (``FILE.toml``). Presets have no
rebuys unless ``--rebuys`` is given (a rebuy period and an add-on); a custom structure with
rebuys keeps them. Bots take every rebuy and add-on the rules allow. The report gives per seat
the finishing-place distribution, in-the-money %, ROI % with its standard error, the average
place and, with rebuys, the buy-ins paid per tournament (``entries``). ``--json`` prints exactly
``{"tournaments": N, "seats": [{"seat", "strategy", "itm_pct", "roi_pct", "stderr_roi_pct",
"avg_place"}]}`` (plus ``entries`` per seat when rebuys happened).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bot.cli.common import SEED_HELP, CliError, SubParsers, add_seed_option
from bot.cli.sim_holdem import parse_seat_list
from bot.cli.simulation import parse_count, parse_seed
from bot.cli.tournament import load_sit_and_go_structure
from engine.bots.registry import STRATEGY_NAMES
from engine.tournament import PRESET_NAMES
from engine.tournament.simulate import TournamentSimError, TournamentSimResult, simulate_tournaments

DEFAULT_SEATS = "smart,smart,random,passive,aggressive,smart"


def register(subparsers: SubParsers) -> None:
    """Add the `sim tournament` subcommand."""
    parser = subparsers.add_parser(
        "tournament",
        help="simulate Sit & Go tournaments between bots and report places and ROI",
        description="Seat bots in a Sit & Go, play it to the end, many times, and report each "
        "seat's finishing places, in-the-money %, ROI and its standard error.",
        epilog="example:\n  felt sim tournament --seats smart,random,passive --tournaments 100",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--seats",
        default=DEFAULT_SEATS,
        metavar="LIST",
        help=f"comma-separated strategies, 2 to 10: {', '.join(STRATEGY_NAMES)}; smart:easy / "
        f"smart:hard set a difficulty (default: {DEFAULT_SEATS})",
    )
    parser.add_argument(
        "--tournaments", default="100", metavar="N", help="tournaments to play (default: 100)"
    )
    parser.add_argument(
        "--preset",
        default="turbo",
        metavar="P",
        help=f"structure: {', '.join(PRESET_NAMES)} or a FILE.toml (default: turbo)",
    )
    parser.add_argument("--rebuys", action="store_true", help="add a rebuy period and an add-on")
    add_seed_option(parser, f"{SEED_HELP} (default: a random seed, printed)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.set_defaults(handler=run)


def format_report(result: TournamentSimResult, *, seed: int, preset: str) -> str:
    """The text report printed on stdout."""
    seats = len(result.seats)
    lines = [
        f"Sit & Go: {result.tournaments:,} tournaments, {seats} seats, {preset}, seed {seed:,}, "
        f"{result.hands:,} hands",
        f"{'seat':>4}  {'strategy':<12} {'ITM %':>6} {'ROI %':>8} {'± s.e.':>7} "
        f"{'avg place':>9}"
        + ("  entries" if result.rebuys_happened else "")
        + "  places 1st..last (%)",
    ]
    for seat in result.seats:
        count = result.tournaments
        places = " ".join(f"{100 * n / count:.0f}" for n in seat.places)
        entries = f"  {seat.payments / count:>7.2f}" if result.rebuys_happened else ""
        lines.append(
            f"{seat.seat:>4}  {seat.strategy:<12} {100 * seat.in_the_money / count:>6.1f} "
            f"{seat.roi_pct:>+8.1f} {seat.stderr_roi_pct:>7.1f} {seat.place_sum / count:>9.2f}"
            f"{entries}  {places}"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """The handler of `felt sim tournament`."""
    specs = parse_seat_list(args.seats)
    count = parse_count(args.tournaments, "--tournaments")
    structure = load_sit_and_go_structure(args.preset)
    seed, chosen = parse_seed(args.seed)
    if chosen:
        print(f"felt sim tournament: no --seed given, using --seed {seed}", file=sys.stderr)
    started = time.perf_counter()
    try:
        # A structure with rebuys of its own is played with them, as --rebuys would.
        rebuys = args.rebuys or structure.has_rebuys
        result = simulate_tournaments(specs, count, structure, seed, rebuys=rebuys)
    except TournamentSimError as error:
        raise CliError(str(error)) from None
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps(result.summary()))
    else:
        print(format_report(result, seed=seed, preset=structure.name))
    print(
        f"felt sim tournament: {count:,} tournaments, {result.hands:,} hands in {elapsed:.1f}s",
        file=sys.stderr,
    )
    return 0
