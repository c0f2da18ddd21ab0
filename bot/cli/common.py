"""Shared pieces of the command line: the error type and argument helpers."""

from __future__ import annotations

import argparse
from typing import Any, Protocol


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
