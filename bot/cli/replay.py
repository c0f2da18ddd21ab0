"""`felt replay PATH...`: replay PHH hand histories through the engine, one JSON line per hand."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

from bot.cli.common import CliError, SubParsers
from engine.errors import EngineError
from engine.holdem import phh

STDIN = "-"
"""The path that means standard input."""

_LABEL_LIMIT = 40


def register(subparsers: SubParsers) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="replay .phh/.phhs hand histories and print each hand's finishing stacks",
        description=(
            "Replay every hand in the given PHH files through Felt's engine. Prints one JSON "
            'object per hand: {"hand": ..., "finishing_stacks": [...]}. Straddles are read from '
            "blinds_or_straddles with the file's own min_bet; a board run several times from "
            "_runout_count = K and its d db lines, run after run. A bad file or hand is "
            "named on stderr and skipped; the exit status is 2 if any was."
        ),
        epilog="example: felt replay hands.phhs | head -3",
    )
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help=f".phh or .phhs file ({STDIN} reads stdin)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay every hand it can; name each bad file or hand on stderr; 2 if there was any."""
    failures = 0
    try:
        for path in args.paths:
            for line in _replayed(path):
                if isinstance(line, CliError):
                    failures += 1
                    print(f"felt {args.command}: {line}", file=sys.stderr, flush=True)
                else:
                    print(line, flush=True)
    except BrokenPipeError:
        # The reader stopped reading (`felt replay ... | head`): that is not an error of ours.
        _discard_stdout()
        return 0
    return 2 if failures else 0


def _replayed(path: str) -> Iterator[str | CliError]:
    """Each hand of ``path`` as its JSON line, or the error that names what is wrong."""
    name = "<stdin>" if path == STDIN else path
    try:
        document = phh.read_toml(_read(path))
        hands = phh.hand_tables(document)
    except CliError as error:
        yield error
        return
    except tomllib.TOMLDecodeError as error:
        yield CliError(f"{name}: not valid TOML: {error}")
        return
    except phh.PhhError as error:
        yield CliError(f"{name}: {error}")
        return
    for index, (table_name, table) in enumerate(hands, 1):
        label = _label(table, table_name, index)
        try:
            hand = phh.replay(phh.from_mapping(table))
        except EngineError as error:
            yield CliError(f"{name}: hand {_shown(label)}: {error}")
            continue
        yield json.dumps({"hand": label, "finishing_stacks": hand.stacks})


def _read(path: str) -> str:
    try:
        if path == STDIN:
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, "rb") as file:
            return file.read().decode("utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        name = "<stdin>" if path == STDIN else path
        raise CliError(f"{name}: cannot be read ({error})") from None


def _label(table: Mapping[str, Any], name: str | None, index: int) -> Any:
    """The hand's ``hand`` field, else its table name in a .phhs file, else its 1-based index."""
    if "hand" in table:
        return table["hand"]
    if name is not None:
        return int(name) if name.isascii() and name.isdigit() else name
    return index


def _shown(label: Any) -> str:
    text = str(label)
    return text if len(text) <= _LABEL_LIMIT else text[: _LABEL_LIMIT - 1] + "…"


def _discard_stdout() -> None:
    """Point stdout at the null device so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # not a real file (captured in tests): nothing will be flushed to a closed pipe
