"""The `felt` command itself: --version, help with no command, a description and an example
for every command, and usage errors cut short."""

from __future__ import annotations

import argparse

import pytest

from bot.cli import build_parser, felt_version, main


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple]:
    """Every (command path, parser) below ``parser``."""
    found: list[tuple] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(((*path, name), sub))
                found += _commands(sub, (*path, name))
    return found


def test_felt_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"felt {felt_version()}"


def test_bare_felt_prints_help_not_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: felt") and "examples:" in out and "play" in out


@pytest.mark.parametrize(
    "path",
    [path for path, _ in _commands(build_parser()) if path[0] in ("sim", "db", "play")],
    ids=" ".join,
)
def test_every_command_has_a_description_and_its_help_an_example(path: tuple[str, ...]) -> None:
    parser = dict(_commands(build_parser()))[path]
    assert parser.description, path
    assert parser.epilog and "example" in parser.epilog, path


def test_a_usage_error_quotes_at_most_a_short_piece_of_the_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["db", "check", "--nonsense", "x" * 3000])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err[-1]) <= 320
