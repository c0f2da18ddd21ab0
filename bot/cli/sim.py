"""`felt sim GAME`: long simulated sessions that report results with standard errors."""

from __future__ import annotations

from bot.cli import sim_blackjack, sim_holdem
from bot.cli.common import SubParsers


def register(subparsers: SubParsers) -> None:
    """Add `sim` and its per-game subcommands."""
    parser = subparsers.add_parser("sim", help="simulate many hands and report the results")
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    sim_blackjack.register(games)
    sim_holdem.register(games)
