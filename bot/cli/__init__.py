"""The `felt` command line. Each subcommand lives in its own module with a ``register`` function.

A handler returns the process exit code; a refusal raises ``CliError`` and is printed as one
readable line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import NoReturn

from bot.cli import db, icm, play, replay, rules, run, sim, tournament
from bot.cli.common import CliError

SUBCOMMANDS = (replay, sim, rules, db, run, play, tournament, icm)
MESSAGE_LIMIT = 300
"""A refusal longer than this is cut: it can only be long by quoting what someone typed."""
EXAMPLES = """examples:
  felt play blackjack          play Blackjack in this terminal
  felt play holdem --bots smart,random
  felt run --config config.toml
  felt db check --config config.toml
  felt sim blackjack --hands 1M --seed 42
  felt icm 5000 3000 2000 --payouts 50 30 20
  felt rules blackjack --rule side_21_3=five_tier"""


class FeltParser(argparse.ArgumentParser):
    """argparse, with the usage error cut short (argparse quotes whatever was typed)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {clip(message)}\n")


def clip(message: str) -> str:
    """One line of at most ``MESSAGE_LIMIT`` characters."""
    line = " ".join(message.split())
    return line if len(line) <= MESSAGE_LIMIT else line[: MESSAGE_LIMIT - 1] + "…"


def felt_version() -> str:
    """The installed version of Felt."""
    try:
        return version("felt")
    except PackageNotFoundError:  # pragma: no cover - running from a tree that was not installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, every subcommand registered."""
    parser = FeltParser(
        prog="felt",
        description="Felt: Texas Hold'em and Blackjack for Discord, and in your terminal.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"felt {felt_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(subparsers)
    parser.set_defaults(handler=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `felt` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.handler is None:  # bare `felt`: what it can do, not a usage error
        parser.print_help()
        return 0
    try:
        code: int = args.handler(args)
    except CliError as error:
        print(f"felt {args.command}: {clip(str(error))}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("felt: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
