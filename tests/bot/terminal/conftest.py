"""Fixtures for `felt play` tests: a database in tmp_path, games in real pseudo-terminals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.terminal.support import Game, Play


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "felt.db"


@pytest.fixture
def play(tmp_path: Path, database: Path) -> Iterator[Play]:
    """``play("holdem", "--seed", "5")`` starts a game with ``--fast`` in ``tmp_path`` on
    ``database``."""
    games: list[Game] = []

    def start(*arguments: str) -> Game:
        game = Game(tmp_path, database, *arguments)
        games.append(game)
        return game

    yield start
    for game in games:  # a failed test must not leave a process behind
        if game.child.isalive():
            game.child.terminate(force=True)
