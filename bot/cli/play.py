"""`felt play`: the games in a terminal, no Discord and no token.

    felt play [--daily] [--db PATH]
    felt play holdem [--seats 6] [--bots smart,random,...] [--name NAME] [--buy-in N]
                     [--delay S] [--fast] [--seed S] [--daily] [--db PATH]
    felt play blackjack [--rules casino|classic] [--bet N] [--auto] [--name NAME]
                        [--delay S] [--fast] [--seed S] [--daily] [--db PATH]

Chips live in a local wallet in ``./felt.db`` (``--db``), with the same starting grant and daily
bonus as a Discord server (``./config.toml``'s ``[economy]`` when present). Bad options exit 2
with one line; Ctrl-C leaves with every chip returned (exit 130).
"""

from __future__ import annotations

import argparse

from bot.cli.common import SubParsers
from bot.holdem.settings import MAX_SEATS, MIN_SEATS


def register(subparsers: SubParsers) -> None:
    """Add the `play` subcommand with `holdem` and `blackjack`."""
    parser = subparsers.add_parser(
        "play",
        help="play Hold'em or Blackjack in this terminal",
        description="Play Felt's games in this terminal against bots and the dealer, with a "
        "local wallet that persists between sessions. Without a game: show the wallet.",
    )
    _wallet_options(parser, default=True)
    parser.set_defaults(handler=_wallet)
    games = parser.add_subparsers(dest="game", metavar="GAME")

    # Accepted after the game too (`felt play holdem --db x.db`); SUPPRESS keeps an earlier value.
    game = argparse.ArgumentParser(add_help=False)
    _wallet_options(game, default=False)
    game.add_argument("--name", metavar="NAME", help="your name at the table")
    game.add_argument(
        "--delay",
        metavar="SECONDS",
        help="pause before each bot action / dealer card (default from config / 0.8)",
    )
    game.add_argument("--fast", action="store_true", help="no pauses at all")
    game.add_argument("--seed", metavar="S", help="shuffle seed, to replay the same cards")

    holdem = games.add_parser(
        "holdem",
        parents=[game],
        help="No-Limit Hold'em against bots",
        description="No-Limit Hold'em against bots. Type f, c, r 100, a or q at your turn.",
    )
    holdem.add_argument(
        "--seats", metavar="N", help=f"chairs at the table, {MIN_SEATS}-{MAX_SEATS} (6)"
    )
    holdem.add_argument(
        "--bots",
        metavar="LIST",
        help="one strategy per bot, such as smart,random,passive,aggressive or smart:hard "
        "(default: smart in every other chair)",
    )
    holdem.add_argument("--buy-in", metavar="N", help="chips to sit down with")
    holdem.set_defaults(handler=_holdem)

    blackjack = games.add_parser(
        "blackjack",
        parents=[game],
        help="Blackjack against the dealer",
        description="Blackjack against the dealer. Type h, s, d, p, u or q at your turn.",
    )
    blackjack.add_argument(
        "--rules", metavar="PRESET", default="casino", help="rule preset: casino or classic"
    )
    blackjack.add_argument("--bet", metavar="N", help="the bet Enter places (table minimum)")
    blackjack.add_argument(
        "--auto", action="store_true", help="play one round by basic strategy and exit"
    )
    blackjack.set_defaults(handler=_blackjack)


def _wallet_options(parser: argparse.ArgumentParser, *, default: bool) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None if default else argparse.SUPPRESS,
        help="chip database (./felt.db)",
    )
    parser.add_argument(
        "--daily",
        action="store_true",
        default=False if default else argparse.SUPPRESS,
        help="claim today's daily bonus first",
    )


# ---------------------------------------------------------------------------- handlers
# The games are imported when one starts, so other `felt` commands do not pay for them.


def _wallet(args: argparse.Namespace) -> int:
    from bot.terminal.app import wallet_command  # noqa: PLC0415

    return wallet_command(args)


def _holdem(args: argparse.Namespace) -> int:
    from bot.terminal.app import holdem_command  # noqa: PLC0415

    return holdem_command(args)


def _blackjack(args: argparse.Namespace) -> int:
    from bot.terminal.app import blackjack_command  # noqa: PLC0415

    return blackjack_command(args)
