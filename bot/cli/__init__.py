"""The `felt` command line. Each subcommand lives in its own module with a ``register`` function.

A handler returns the process exit code; a refusal raises ``CliError`` and is printed as one
readable line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.cli import db, play, replay, run, sim
from bot.cli.common import CliError

SUBCOMMANDS = (replay, sim, db, run, play)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="felt",
        description="Felt: Texas Hold'em and Blackjack for Discord, and in your terminal.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in SUBCOMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `felt` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CliError as error:
        print(f"felt {args.command}: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("felt: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
