"""Shared pieces of the command line: the error type, and the options (with their one meaning
and one validation) that several commands take."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Protocol

from bot.numbers import NumberError, parse_whole

MAX_SEED = 2**63 - 1
"""Seeds are 0 to this, in every command (`felt sim`, `felt play`)."""


class CliError(Exception):
    """A refusal the command line prints as one line, exiting non-zero."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class SubParsers(Protocol):
    """The part of argparse's subparsers action that subcommand modules use."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def not_yet(feature: str) -> Any:
    """A handler for a subcommand whose issue has not landed yet."""

    def handler(args: argparse.Namespace) -> int:
        raise CliError(f"{feature} is not available yet in this version of Felt")

    return handler


def whole(
    text: str, option: str, low: int, high: int | None = None, *, suffixes: bool = False
) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (read by ``bot.numbers``), or a
    ``CliError`` naming ``option`` and the range."""
    try:
        return parse_whole(text, what=option, low=low, high=high, suffixes=suffixes)
    except NumberError as error:
        raise CliError(str(error)) from None


def whole_type(option: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number in range: refused in one short line."""

    def convert(text: str) -> int:
        try:
            return parse_whole(text, what=option, low=low, high=high)
        except NumberError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{option} ")) from None

    convert.__name__ = "whole number"
    return convert


SEED_HELP = f"shuffle seed from 0 to {MAX_SEED:,}, to replay the same cards"


def add_seed_option(
    parser: argparse.ArgumentParser, help_text: str = SEED_HELP, **kwargs: Any
) -> None:
    """``--seed S``: the same option, meaning and validation in every command."""
    parser.add_argument("--seed", metavar="S", help=help_text, **kwargs)


def seed_value(text: str | None) -> int | None:
    """The ``--seed`` given, checked (``None`` when there was none)."""
    if text is None:
        return None
    return whole(text, "--seed", 0, MAX_SEED)
