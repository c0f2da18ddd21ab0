"""`felt replay`: not built yet."""

from __future__ import annotations

from bot.cli.common import SubParsers, not_yet


def register(subparsers: SubParsers) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser("replay", help="(coming soon)")
    parser.set_defaults(handler=not_yet("felt replay"))
