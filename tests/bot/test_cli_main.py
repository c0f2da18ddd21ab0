"""The `felt` command itself: --version, help with no command, a description and an example
for every command, and usage errors cut short."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli import build_parser, felt_version, main

Command = tuple[tuple[str, ...], argparse.ArgumentParser]


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[Command]:
    """Every (command path, parser) below ``parser``."""
    found: list[Command] = []
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


@pytest.mark.parametrize("seed", ["-1", "x", "²", "9" * 3000, "9223372036854775808"])
def test_seed_has_one_meaning_and_one_refusal_in_every_command(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    seed: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    refusals = set()
    for command in (
        ["sim", "blackjack", "--hands", "10"],
        ["sim", "holdem", "--hands", "10"],
        ["play", "holdem"],
        ["play", "blackjack"],
    ):
        assert main([*command, "--seed", seed]) == 2
        line = capsys.readouterr().err.strip()
        refusals.add(line.split(": ", 1)[1])
    assert len(refusals) == 1
    assert refusals.pop().startswith("--seed must be a whole number from 0 to 9,223,372")
    assert not (tmp_path / "felt.db").exists()


def test_seed_help_is_the_same_option_everywhere() -> None:
    helps = {
        path: next(a.help for a in parser._actions if "--seed" in a.option_strings)
        for path, parser in _commands(build_parser())
        if any("--seed" in a.option_strings for a in parser._actions)
    }
    assert {("sim", "blackjack"), ("sim", "holdem"), ("play", "holdem")} <= set(helps)
    assert all(str(text).startswith("shuffle seed from 0 to") for text in helps.values())
