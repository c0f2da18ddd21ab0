"""`felt play`: not built yet."""

from __future__ import annotations

from bot.cli.common import SubParsers, not_yet


def register(subparsers: SubParsers) -> None:
    """Add the `play` subcommand."""
    parser = subparsers.add_parser("play", help="(coming soon)")
    parser.set_defaults(handler=not_yet("felt play"))
