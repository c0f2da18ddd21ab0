"""`felt icm`: each player's share of the prizes left, by ICM (Malmuth-Harville) or chip-chop.

    felt icm 5000 3000 2000 --payouts 50 30 20 [--chip-chop] [--json]

Stacks are chips (or big blinds: any unit, as long as it is the same for all); payouts are the
prizes for 1st, 2nd, ... in any unit (chips or percent, any total) and the equities come back in
that unit, at full precision. Up to 10 players the ICM figures are exact; beyond, they are a
Monte Carlo estimate from 200,000 sampled finishing orders with a fixed seed (the same answer
every run). ``--json`` prints ``{"equity": [...]}``.
"""

from __future__ import annotations

import argparse
import json

from bot.cli.common import CliError, SubParsers
from bot.numbers import NumberError, read_decimal
from engine.tournament import IcmError, chip_chop, icm


def register(subparsers: SubParsers) -> None:
    """Add the `icm` subcommand."""
    parser = subparsers.add_parser(
        "icm",
        help="ICM or chip-chop equity of each stack, for tournament deals",
        description="Each player's equity in the prizes left, by ICM (Malmuth-Harville; exact "
        "up to 10 players, a seeded Monte Carlo estimate beyond) or by chip-chop.",
        epilog="example:\n  felt icm 5000 3000 2000 --payouts 50 30 20",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("stacks", nargs="+", metavar="STACK", help="each player's chips")
    parser.add_argument(
        "--payouts",
        nargs="+",
        required=True,
        metavar="P",
        help="the prizes for 1st, 2nd, ... in any unit (chips or percent)",
    )
    parser.add_argument(
        "--chip-chop",
        action="store_true",
        help="split by chip-chop instead (everyone gets the last prize, the rest by chips)",
    )
    parser.add_argument("--json", action="store_true", help='print {"equity": [...]}')
    parser.set_defaults(handler=run)


def parse_amount(text: str, what: str) -> float:
    """A number >= 0 with an optional decimal part, or a one-line ``CliError``."""
    try:
        return read_decimal(text, what=what)
    except NumberError as error:
        raise CliError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    """The handler of `felt icm`."""
    stacks = [parse_amount(text, "a stack") for text in args.stacks]
    payouts = [parse_amount(text, "a payout") for text in args.payouts]
    try:
        equity = chip_chop(stacks, payouts) if args.chip_chop else icm(stacks, payouts)
    except IcmError as error:
        raise CliError(str(error)) from None
    if args.json:
        print(json.dumps({"equity": equity}))
        return 0
    total_stack = sum(stacks)
    total_pay = sum(payouts)
    method = "chip-chop" if args.chip_chop else "ICM"
    print(f"{method} equity of {len(stacks)} players, prizes {' / '.join(args.payouts)}")
    print(f"{'player':>6}  {'stack':>12} {'chips %':>8}  {'equity':>12} {'prizes %':>8}")
    for number, (stack, value) in enumerate(zip(stacks, equity, strict=True), start=1):
        share = 100 * value / total_pay if total_pay else 0.0
        print(
            f"{number:>6}  {stack:>12,.10g} {100 * stack / total_stack:>8.2f}  "
            f"{value:>12,.2f} {share:>8.2f}"
        )
    return 0
