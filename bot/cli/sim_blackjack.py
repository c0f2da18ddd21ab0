"""`felt sim blackjack`: not built yet."""

from __future__ import annotations

from bot.cli.common import SubParsers, not_yet


def register(subparsers: SubParsers) -> None:
    """Add the `sim blackjack` subcommand."""
    parser = subparsers.add_parser("blackjack", help="(coming soon)")
    parser.set_defaults(handler=not_yet("felt sim blackjack"))
