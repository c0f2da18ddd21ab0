"""`felt tournament structure|payouts`: print a preset or custom TOML structure, checked, and a
pay table in whole chips.

    felt tournament structure turbo [--format mtt] [--rebuys]
    felt tournament structure my-structure.toml
    felt tournament payouts 120 --pool 12000 [--percent 50 30 20] [--fee 5]

A name is one of the presets (``hyper``, ``turbo``, ``regular``, ``deepstack``); anything
ending in ``.toml`` is read as a custom structure (format in docs/tournaments.md) and refused
in one line if it cannot be played.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.cli.common import CliError, SubParsers, whole
from bot.numbers import NumberError, read_decimal
from engine.tournament import (
    PRESET_NAMES,
    Break,
    Format,
    PayoutError,
    Structure,
    StructureError,
    parse_structure,
    payouts,
    preset,
)

FORMATS = {"sng": Format.SIT_AND_GO, "mtt": Format.MULTI_TABLE}


def register(subparsers: SubParsers) -> None:
    """Add `tournament` and its `structure` subcommand."""
    parser = subparsers.add_parser(
        "tournament",
        help="tournament structures",
        description="Tournament tools: print a preset or custom structure, or a pay table.",
        epilog="examples:\n  felt tournament structure turbo\n"
        "  felt tournament structure regular --format mtt\n"
        "  felt tournament structure docs/tournament.example.toml\n"
        "  felt tournament payouts 120 --pool 12000",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    structure = tools.add_parser(
        "structure",
        help="print a structure: levels, breaks, stacks, rebuys",
        description="Print a preset structure or check and print a custom one (a .toml file).",
    )
    structure.add_argument(
        "name", metavar="PRESET", help=f"{', '.join(PRESET_NAMES)}, or a FILE.toml"
    )
    structure.add_argument(
        "--format",
        default="sng",
        metavar="KIND",
        help="sng (one table) or mtt (breaks, late registration); presets only (default sng)",
    )
    structure.add_argument(
        "--rebuys", action="store_true", help="with a rebuy period and an add-on"
    )
    structure.set_defaults(handler=run_structure)
    pay = tools.add_parser(
        "payouts",
        help="the pay table for a number of entries, in whole chips",
        description="The prize of each paid place for ENTRIES entries: the standard curve, or "
        "--percent; whole chips, the leftover chips one each to 1st, 2nd, ...",
    )
    pay.add_argument("entries", metavar="ENTRIES", help="entries (buy-ins) in the tournament")
    pay.add_argument("--pool", metavar="CHIPS", help="chips collected (default: 100 per entry)")
    pay.add_argument("--percent", nargs="+", metavar="P", help="custom percentages, 1st first")
    pay.add_argument("--fee", default="0", metavar="PERCENT", help="house fee, percent (0)")
    pay.set_defaults(handler=run_payouts)


def load_structure(name: str, format_text: str = "sng") -> Structure:
    """A preset by name, or a custom structure from a ``.toml`` file; ``CliError`` otherwise."""
    kind = FORMATS.get(format_text.strip().lower())
    if kind is None:
        raise CliError(f"--format must be sng or mtt, not {format_text!r}")
    try:
        if name.lower().endswith(".toml"):
            try:
                text = Path(name).read_text(encoding="utf-8")
            except OSError as error:
                raise CliError(f"cannot read {name!r}: {error.strerror or error}") from None
            return parse_structure(text)
        return preset(name, kind)
    except StructureError as error:
        raise CliError(str(error)) from None


def load_sit_and_go_structure(name: str) -> Structure:
    """A structure a Sit & Go can use (it starts when full: no late registration or
    re-entry), or a ``CliError`` saying why not."""
    structure = load_structure(name)
    if structure.late_registration_levels or structure.re_entries:
        raise CliError(
            f"{structure.name!r} has late registration or re-entry, which a Sit & Go (it starts "
            "when full) cannot use"
        )
    return structure


def describe(structure: Structure) -> str:
    """The structure as a printed schedule."""
    lines = [
        f"{structure.name}: starting stack {structure.starting_stack:,}, "
        f"ante {structure.ante_kind.value.replace('_', ' ')}",
    ]
    facts = []
    if structure.late_registration_levels:
        facts.append(f"late registration to the end of level {structure.late_registration_levels}")
    if structure.re_entries:
        facts.append(f"{structure.re_entries} re-entr{'y' if structure.re_entries == 1 else 'ies'}")
    if structure.has_rebuys:
        facts.append(
            f"rebuys to the end of level {structure.rebuy_levels} (at most "
            f"{structure.rebuy_limit}, {structure.rebuy_chips:,} chips each)"
        )
    if structure.add_on_chips:
        facts.append(f"add-on of {structure.add_on_chips:,} chips at the add-on break")
    if facts:
        lines.append("; ".join(facts))
    unit = structure.clock.value
    lines.append(f"{'level':>5}  {'blinds':>17}  {'ante':>9}  {unit:>7}")
    number = 0
    for step in structure.steps:
        if isinstance(step, Break):
            extra = " (add-on)" if step.add_on else ""
            lines.append(f"{'':>5}  break {step.minutes} minutes{extra}")
            continue
        number += 1
        blinds = f"{step.small_blind:,}/{step.big_blind:,}"
        ante = f"{step.ante:,}" if step.ante else "-"
        lines.append(f"{number:>5}  {blinds:>17}  {ante:>9}  {step.duration:>7}")
    return "\n".join(lines)


def run_structure(args: argparse.Namespace) -> int:
    """The handler of `felt tournament structure`."""
    structure = load_structure(args.name, args.format)
    if args.rebuys:
        structure = structure.with_rebuys()
    print(describe(structure))
    return 0


def _percent(text: str) -> float:
    """One ``--percent`` value, read by ``bot.numbers`` (``float()`` would take ``1e2``,
    ``1_0`` and other scripts' digits), or a one-line ``CliError``."""
    try:
        return read_decimal(text, what="--percent")
    except NumberError as error:
        raise CliError(str(error)) from None


def run_payouts(args: argparse.Namespace) -> int:
    """The handler of `felt tournament payouts`."""
    entries = whole(args.entries, "ENTRIES", 1, 100_000)
    collected = whole(args.pool, "--pool", 0) if args.pool is not None else 100 * entries
    fee_percent = whole(args.fee, "--fee", 0, 100)
    percents = None if args.percent is None else [_percent(text) for text in args.percent]
    try:
        custom = None if percents is None else payouts.custom_shares(percents)
        shares = payouts.shares_for(entries, custom)
        fee = payouts.fee_of(collected, fee_percent)
        pool = payouts.prize_pool(collected, fee)
        amounts = payouts.prizes(pool, shares)
    except PayoutError as error:
        raise CliError(str(error)) from None
    print(f"{entries:,} entries, {collected:,} collected, fee {fee:,}, prize pool {pool:,}")
    print(f"{'place':>5}  {'percent':>7}  {'prize':>12}")
    for place, (share, amount) in enumerate(zip(shares, amounts, strict=True), start=1):
        print(f"{place:>5}  {share / 100:>7.2f}  {amount:>12,}")
    return 0
