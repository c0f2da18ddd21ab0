"""`felt rules blackjack`: a rule set, its basic-strategy house edge and the side bets' pay tables
with their exact house edges; and the one ``--rules``/``--rule`` parser that `felt sim
blackjack`, `felt rules blackjack` and `felt play blackjack` share.

    felt rules blackjack [--rules PRESET] [--rule NAME=VALUE ...] [--json]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli.common import CliError, SubParsers
from bot.numbers import quote
from engine.blackjack.analysis import house_edge
from engine.blackjack.rules import PRESETS, RULE_NAMES, Rules, preset
from engine.blackjack.sidebets import (
    PERFECT_PAIRS_PAYS,
    TWENTY_ONE_THREE_PAYS,
    TwentyOneThreePaytable,
    perfect_pairs_house_edge,
    twenty_one_three_house_edge,
)
from engine.errors import EngineError

RULE_LIMIT = 60
"""The longest ``--rule NAME=VALUE`` that can mean anything."""
DEFAULT_21_3 = TwentyOneThreePaytable.CLASSIC
"""The 21+3 pay table `felt rules` describes when the rule set has no 21+3 bet."""
SIDE_BETS_WHEN_OFF = (
    "Side bets are described even when the rule set does not offer them: 21+3 with the pay "
    f"table of --rule side_21_3=classic|five_tier, or the {DEFAULT_21_3.value} table when "
    "side_21_3 is off; Perfect Pairs (25/12/6) always. The rules show which are offered."
)


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and repeatable ``--rule NAME=VALUE``, with one meaning everywhere."""
    parser.add_argument(
        "--rules",
        default="casino",
        metavar="PRESET",
        help=f"rule preset: {', '.join(PRESETS)} (default: casino)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one rule, e.g. decks=1, h17=true or side_21_3=five_tier (repeatable; "
        f"rules: {', '.join(RULE_NAMES)})",
    )


def build_rules(preset_name: str, overrides: list[str]) -> Rules:
    """The preset with the ``--rule`` overrides applied, or a ``CliError`` saying what is wrong."""
    for override in overrides:
        if len(override) > RULE_LIMIT:  # no rule is this long; the engine would echo it whole
            raise CliError(f"--rule {quote(override, limit=40)} is not a rule (name=value)")
    try:
        return preset(preset_name).with_overrides(overrides)
    except EngineError as error:
        raise CliError(str(error)) from None


def register(subparsers: SubParsers) -> None:
    """Add `rules` and its `blackjack` subcommand."""
    parser = subparsers.add_parser(
        "rules",
        help="show a game's rules and house edges",
        description="Show a rule set with the house edges that go with it.",
    )
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    blackjack = games.add_parser(
        "blackjack",
        help="Blackjack rules, the basic-strategy house edge and the side bets",
        description="Print a Blackjack rule set, the house edge of basic strategy under it "
        "(calculated for a fresh shoe), and each side bet's pay table with its exact house "
        f"edge for a fresh shoe of the rule set's decks. {SIDE_BETS_WHEN_OFF}",
        epilog="examples:\n  felt rules blackjack --rule decks=8 --rule side_21_3=five_tier\n"
        "  felt rules blackjack --rules classic --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(blackjack)
    blackjack.add_argument("--json", action="store_true", help="print one JSON line")
    blackjack.set_defaults(handler=run)


def side_bets(rules: Rules) -> dict[str, dict[str, Any]]:
    """The side bets' pay tables and exact house edges (percent) for ``rules``."""
    paytable = rules.side_21_3 or DEFAULT_21_3
    return {
        "21+3": {
            "paytable": paytable.value,
            "house_edge_pct": 100 * float(twenty_one_three_house_edge(rules.decks, paytable)),
        },
        "perfect_pairs": {
            "house_edge_pct": 100 * float(perfect_pairs_house_edge(rules.decks)),
        },
    }


def report(rules: Rules) -> dict[str, Any]:
    """What ``--json`` prints."""
    return {
        "rules": rules.options(),
        "house_edge_pct": house_edge(rules),
        "side_bets": side_bets(rules),
    }


def format_report(rules: Rules, preset_name: str) -> str:
    """The text `felt rules blackjack` prints."""
    figures = report(rules)
    bets = figures["side_bets"]
    paytable = TwentyOneThreePaytable(bets["21+3"]["paytable"])
    decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    lines = [
        f"Blackjack, {preset_name}: {rules.describe()}",
        f"Basic strategy house edge: {figures['house_edge_pct']:.3f}% "
        "(calculated for a fresh shoe; negative means the player has the edge)",
        "",
        f"Side bets (exact house edge for a fresh shoe of {decks}):",
        f"21+3, {paytable.value.replace('_', '-')} pay table"
        f"{'' if rules.side_21_3 else ' (not offered under these rules)'}: "
        f"house edge {bets['21+3']['house_edge_pct']:.3f}%",
    ]
    for category, pays in TWENTY_ONE_THREE_PAYS[paytable].items():
        lines.append(f"  {category.label:<16} {pays} to 1")
    lines.append(
        f"Perfect Pairs{'' if rules.perfect_pairs else ' (not offered under these rules)'}: "
        f"house edge {bets['perfect_pairs']['house_edge_pct']:.3f}%"
    )
    for kind, pays in PERFECT_PAIRS_PAYS.items():
        lines.append(f"  {kind.label:<16} {pays} to 1")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """The handler of `felt rules blackjack`."""
    rules = build_rules(args.rules, list(args.rule))
    if args.json:
        print(json.dumps(report(rules)))
    else:
        print(format_report(rules, args.rules.strip().lower()))
    return 0
