"""`felt play`: the games in a terminal, no Discord and no token.

    felt play [--daily] [--db PATH] [--config PATH]
    felt play holdem [--seats 6] [--bots smart,random,...] [--name NAME] [--buy-in N]
                     [--delay S] [--fast] [--seed S] [--daily] [--db PATH] [--config PATH]
    felt play tournament [--preset turbo] [--players 9] [--bots smart] [--name NAME] [--seed S]
    felt play blackjack [--rules casino|classic] [--rule NAME=VALUE ...] [--bet N] [--auto]
                        [--side-21-3 N] [--perfect-pairs N] [--train] [--name NAME]
                        [--delay S] [--fast] [--seed S] [--daily] [--db PATH] [--config PATH]

Chips live in a local wallet in the database `felt run` would use (``--db``, else the config's
``[database]``, else ``./felt.db``), with the same starting grant and daily bonus as a Discord
server (the config's ``[economy]``; ``--config``, default ``./config.toml`` when present). A game
with ``--seed`` is played from a practice wallet (a seeded shoe can be replayed), never the real
one. Bad options exit 2 with one line; ``q`` or Ctrl-C leaves after the hand or round in play is
finished as a timed-out player's would be (check or fold; stand), exit 0 or 130.
"""

from __future__ import annotations

import argparse

from bot.cli.common import MAX_SEED, SubParsers, add_seed_option
from bot.cli.db import add_database_options
from bot.cli.rules import add_rule_options
from bot.holdem.settings import MAX_SEATS, MIN_SEATS
from bot.terminal.holdem_home import add_option_flags

EXAMPLES = """examples:
  felt play blackjack --bet 50
  felt play holdem --bots smart,random,aggressive --buy-in 500
  felt play holdem --seed 7        (a practice wallet: seeded cards can be replayed)
  felt play --daily                (claim today's bonus and show the wallet)"""


def register(subparsers: SubParsers) -> None:
    """Add the `play` subcommand with `holdem` and `blackjack`."""
    parser = subparsers.add_parser(
        "play",
        help="play Hold'em or Blackjack in this terminal",
        description="Play Felt's games in this terminal against bots and the dealer, with a "
        "local wallet that persists between sessions. Without a game: show the wallet.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    add_seed_option(
        game,
        f"shuffle seed from 0 to {MAX_SEED:,}, to replay the same cards (played from a practice "
        "wallet, never your real one)",
    )

    _register_holdem(games, game)
    _register_blackjack(games, game)
    _register_tournament(games)


def _register_holdem(games: SubParsers, game: argparse.ArgumentParser) -> None:
    """``felt play holdem``."""
    holdem = games.add_parser(
        "holdem",
        parents=[game],
        help="No-Limit Hold'em against bots",
        description="No-Limit Hold'em against bots. Type f, c, r 100, a or q at your turn.",
        epilog="example:\n  felt play holdem --bots random --seats 6",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    holdem.add_argument(
        "--seats", metavar="N", help=f"chairs at the table, {MIN_SEATS}-{MAX_SEATS} (6)"
    )
    holdem.add_argument(
        "--bots",
        metavar="LIST",
        help="one strategy per bot, such as smart,random,passive,aggressive or smart:hard; "
        "one name alone fills every other chair (default: smart in every other chair)",
    )
    holdem.add_argument("--buy-in", metavar="N", help="chips to sit down with")
    add_option_flags(holdem)
    holdem.set_defaults(handler=_holdem)


def _register_blackjack(games: SubParsers, game: argparse.ArgumentParser) -> None:
    """``felt play blackjack``."""
    blackjack = games.add_parser(
        "blackjack",
        parents=[game],
        help="Blackjack against the dealer",
        description="Blackjack against the dealer. Type h, s, d, p, u or q at your turn.",
        epilog="examples:\n  felt play blackjack --rules classic --bet 25\n"
        "  felt play blackjack --rule decks=1 --rule h17=true\n"
        "  felt play blackjack --rule side_21_3=five_tier --side-21-3 5",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(blackjack)
    blackjack.add_argument("--bet", metavar="N", help="the bet Enter places (table minimum)")
    blackjack.add_argument(
        "--side-21-3",
        metavar="N",
        help="a 21+3 side bet of N chips with every bet (needs --rule side_21_3=classic|five_tier)",
    )
    blackjack.add_argument(
        "--perfect-pairs",
        metavar="N",
        help="a Perfect Pairs side bet of N chips with every bet (needs --rule perfect_pairs=true)",
    )
    blackjack.add_argument(
        "--auto", action="store_true", help="play one round by basic strategy and exit"
    )
    blackjack.add_argument(
        "--train",
        action="store_true",
        help="grade every decision against basic strategy; a summary at the end",
    )
    blackjack.set_defaults(handler=_blackjack)


def _register_tournament(games: SubParsers) -> None:
    """``felt play tournament`` (a practice Sit & Go: no wallet, so no wallet options)."""
    tournament = games.add_parser(
        "tournament",
        help="a Sit & Go against bots, to the end",
        description="A Sit & Go tournament against bots, played to the end: levels rise on "
        "the clock, and you see your finishing place and prize. A practice game: no wallet "
        "chips move. Type f, c, r 100, a or q at your turn.",
        epilog="example:\n  felt play tournament --preset hyper --players 6 --seed 7",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tournament.add_argument(
        "--preset",
        default="turbo",
        metavar="P",
        help="hyper, turbo, regular, deepstack or a FILE.toml (turbo)",
    )
    tournament.add_argument(
        "--players", default="9", metavar="N", help="players, you included, 2-10 (9)"
    )
    tournament.add_argument(
        "--bots",
        default="smart",
        metavar="STRATEGY",
        help="the bots' strategy, e.g. smart:hard (smart)",
    )
    tournament.add_argument("--name", metavar="NAME", help="your name at the table")
    add_seed_option(
        tournament,
        f"shuffle seed from 0 to {MAX_SEED:,} (seats too), to replay the same tournament",
    )
    tournament.set_defaults(handler=_tournament)


def _wallet_options(parser: argparse.ArgumentParser, *, default: bool) -> None:
    add_database_options(parser, default=default)
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


def _tournament(args: argparse.Namespace) -> int:
    from bot.terminal.tournament import tournament_command  # noqa: PLC0415

    return tournament_command(args)


def _blackjack(args: argparse.Namespace) -> int:
    from bot.terminal.app import blackjack_command  # noqa: PLC0415

    return blackjack_command(args)
