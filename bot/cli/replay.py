"""`felt replay PATH...`: replay PHH hand histories through the engine, one JSON line per hand."""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

from bot.cli.common import CliError, SubParsers
from engine.errors import EngineError
from engine.holdem import phh


def register(subparsers: SubParsers) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="replay .phh/.phhs hand histories and print each hand's finishing stacks",
        description=(
            "Replay every hand in the given PHH files through Felt's engine. Prints one JSON "
            'object per hand: {"hand": ..., "finishing_stacks": [...]}.'
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", type=Path, help=".phh or .phhs file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay each file in turn; stop at the first bad file or hand with one readable line."""
    for path in args.paths:
        for label, history in _hands_in(path):
            try:
                hand = phh.replay(history)
            except EngineError as error:
                raise CliError(f"{path}: hand {label}: {error}") from None
            print(json.dumps({"hand": label, "finishing_stacks": hand.stacks}), flush=True)
    return 0


def _hands_in(path: Path) -> list[tuple[Any, phh.HandHistory]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"{path}: cannot be read ({error})") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CliError(f"{path}: not valid TOML: {error}") from None
    try:
        if "actions" in document or not document:
            return [(_label(document, None, 1), phh.from_mapping(document))]
        hands = []
        for index, (name, table) in enumerate(document.items(), 1):
            if not isinstance(table, dict):
                raise phh.PhhError(f"top-level key {name!r} is neither a PHH field nor a hand")
            try:
                hands.append((_label(table, name, index), phh.from_mapping(table)))
            except phh.PhhError as error:
                raise CliError(f"{path}: hand {_label(table, name, index)}: {error}") from None
        return hands
    except phh.PhhError as error:
        raise CliError(f"{path}: {error}") from None


def _label(table: dict[str, Any], name: str | None, index: int) -> Any:
    """The hand's ``hand`` field, else its table name in a .phhs file, else its 1-based index."""
    if "hand" in table:
        return table["hand"]
    if name is not None:
        return int(name) if name.isdigit() else name
    return index
