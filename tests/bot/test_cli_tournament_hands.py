"""`felt db export hands --tournament ID`: every hand the director kept for one tournament, in
the order they ended, in each format; and its refusals in one line with exit status 2."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from engine.holdem import phh
from storage.store import Storage
from storage.tournaments import TournamentKind
from tests.bot.hand_seeding import seed_hands

GUILD = 77
ALICE, BOB = 1_001, 1_002


def _seed_tournament(path: Path) -> tuple[int, list[str]]:
    """A tournament whose director kept three real hands (PHH from a seeded cash table)."""

    async def run() -> tuple[int, list[str]]:
        async with await Storage.open(path) as storage:
            table = await seed_hands(
                storage, guild_id=GUILD, channel_id=5, members=[ALICE, BOB], hands=3, seed=3
            )
            texts = []
            for number in table.settled:
                hand = await storage.get_hand(table.table_id, number)
                assert hand is not None and hand.phh is not None
                texts.append(hand.phh)
            row = await storage.create_tournament(
                GUILD, 5, ALICE, "Night", TournamentKind.SIT_AND_GO, 10, 0,
                json.dumps({"name": "x"}), 2, 2, None, False, key="t",
            )  # fmt: skip
            for number, text in enumerate(texts, start=1):
                await storage.record_tournament_hand(
                    row.tournament_id, 1, number, level=1, phh=text
                )
            return row.tournament_id, texts

    return asyncio.run(run())


def test_a_tournaments_hands_export_in_the_order_they_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"
    tournament_id, texts = _seed_tournament(path)
    assert main(["db", "export", "hands", "--db", str(path), "--tournament", str(tournament_id),
                 "--format", "phh"]) == 0  # fmt: skip
    captured = capsys.readouterr()
    assert captured.err.startswith(f"wrote {len(texts)} hand(s) as phh")
    assert len(phh.loads_all(captured.out)) == len(texts)
    assert main(["db", "export", "hands", "--db", str(path), "--tournament",
                 str(tournament_id)]) == 0  # fmt: skip
    assert capsys.readouterr().out.count("Table 'Night tournament 1 table 1'") == len(texts)


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (["--tournament", "9"], "there is no tournament 9 in this database"),
        (["--tournament", "1", "--guild", "5"], "tournament 1 is not in guild 5"),
        (["--tournament", "1", "--table", "1"], "--tournament takes no --table"),
        (["--tournament", "x"], "--tournament"),
    ],
)
def test_tournament_export_refusals_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], refusal: str
) -> None:
    path = tmp_path / "felt.db"
    _seed_tournament(path)
    assert main(["db", "export", "hands", "--db", str(path), *options]) == 2
    error = capsys.readouterr().err
    assert refusal in error and error.count("\n") == 1
