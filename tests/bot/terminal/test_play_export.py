"""`felt play holdem` says the player's id and how to export their hands, and that command
exports the hand just played, with the player's own cards and the practice mark."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bot.cli import main
from tests.bot.terminal.support import PROMPT, Play

TURN = r"Your turn\. [^\r\n]*" + PROMPT
RESULT = r"Your result: [^\r\n]*\r\n"


def test_felt_play_prints_the_export_command_and_it_exports_the_players_hand(
    play: Play, database: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play("holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5")
    while game.expect(TURN, RESULT) == 0:
        game.send("c")
    game.send("q")
    assert game.finish() == 0
    found = re.search(
        r"Your player id is 1\. Your hands for a tracker: (felt db export [^(]+)", game.text
    )
    assert found, game.text
    command = shlex.split(found.group(1).replace("\n", " "))
    assert command[:5] == ["felt", "db", "export", "hands", "--player"]
    out = tmp_path / "hands.txt"
    arguments = [*command[1:], "--db", str(database)]
    arguments[arguments.index("--out") + 1] = str(out)
    assert main(arguments) == 0
    capsys.readouterr()
    text = out.read_text()
    assert text.startswith("PokerStars Hand #")
    assert "Dealt to Ann [Ah Ad]" in text  # seed 5 deals Ann the aces
    assert "(practice)' 2-max" in text
