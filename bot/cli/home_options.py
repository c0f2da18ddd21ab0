"""The home-game options of `felt sim holdem` (straddles, run it twice, bomb pots): flags, their
refusals, and a few words for the report."""

from __future__ import annotations

import argparse

from bot.cli.common import CliError, whole
from engine.holdem.options import HomeGameOptions, StraddleKind


def add_home_options(parser: argparse.ArgumentParser) -> None:
    """Add the home-game flags to ``parser``."""
    home = parser.add_argument_group("home-game options")
    home.add_argument(
        "--straddle",
        default="off",
        choices=[kind.value for kind in StraddleKind],
        help="a straddle every hand: under the gun or on the button (default: off)",
    )
    home.add_argument(
        "--straddles",
        default="1",
        metavar="N",
        help="with --straddle utg: the straddle and its re-straddles, each twice the last "
        "(default: 1)",
    )
    home.add_argument(
        "--run-it-twice", action="store_true", help="run the board twice when all are all in"
    )
    home.add_argument(
        "--bomb-pot-every", default="0", metavar="N", help="every Nth hand is a bomb pot"
    )
    home.add_argument(
        "--bomb-pot-ante", default=None, metavar="CHIPS", help="each player's bomb-pot ante"
    )
    home.add_argument("--double-board", action="store_true", help="bomb pots use two boards")


def parse_home_options(args: argparse.Namespace, seats: int) -> HomeGameOptions:
    """The home-game options of the command line, or a ``CliError`` naming the bad one."""
    straddle = StraddleKind(args.straddle)
    most = seats - 2
    if straddle is not StraddleKind.OFF and most < 1:
        raise CliError(f"--straddle needs at least 3 seats, not {seats}")
    straddles = whole(args.straddles, "--straddles", 1, max(most, 1))
    if straddles > 1 and straddle is not StraddleKind.UNDER_THE_GUN:
        raise CliError("--straddles above 1 needs --straddle utg (the button straddles once)")
    every = whole(args.bomb_pot_every, "--bomb-pot-every", 0)
    if every and args.bomb_pot_ante is None:
        raise CliError("--bomb-pot-every needs --bomb-pot-ante CHIPS")
    if not every and (args.bomb_pot_ante is not None or args.double_board):
        raise CliError("--bomb-pot-ante and --double-board need --bomb-pot-every N")
    ante = whole(args.bomb_pot_ante, "--bomb-pot-ante", 1) if every else 0
    return HomeGameOptions(
        straddle=straddle,
        max_straddles=straddles,
        run_it_max=2 if args.run_it_twice else 1,
        bomb_pot_every=every,
        bomb_pot_ante=ante,
        bomb_pot_double_board=args.double_board,
    )


def describe_home(home: HomeGameOptions) -> str:
    """The options in a few words for the report (empty when there are none)."""
    parts = []
    if home.straddle is not StraddleKind.OFF:
        count = f" x{home.max_straddles}" if home.max_straddles > 1 else ""
        parts.append(f"straddle {home.straddle.value}{count}")
    if home.run_it_max > 1:
        parts.append("run it twice")
    if home.bomb_pot_every:
        board = ", double board" if home.bomb_pot_double_board else ""
        parts.append(f"bomb pot every {home.bomb_pot_every} (ante {home.bomb_pot_ante}{board})")
    return ", ".join(parts)
