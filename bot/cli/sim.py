"""`felt sim GAME`: long simulated sessions that report results with standard errors."""

from __future__ import annotations

import argparse

from bot.cli import sim_blackjack, sim_holdem, sim_tournament
from bot.cli.common import SubParsers


def register(subparsers: SubParsers) -> None:
    """Add `sim` and its per-game subcommands."""
    parser = subparsers.add_parser(
        "sim",
        help="simulate many hands and report the results",
        description="Simulate many Blackjack rounds or Hold'em hands between bots, in parallel "
        "processes, and report the results with their standard errors. The same --seed and "
        "--workers always give the same result; --json prints everything needed to rerun it.",
        epilog="examples:\n  felt sim blackjack --hands 1M --seed 42\n"
        "  felt sim holdem --seats smart,smart:hard --hands 20k --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    sim_blackjack.register(games)
    sim_holdem.register(games)
    sim_tournament.register(games)
