"""`felt sim holdem`: not built yet."""

from __future__ import annotations

from bot.cli.common import SubParsers, not_yet


def register(subparsers: SubParsers) -> None:
    """Add the `sim holdem` subcommand."""
    parser = subparsers.add_parser("holdem", help="(coming soon)")
    parser.set_defaults(handler=not_yet("felt sim holdem"))
