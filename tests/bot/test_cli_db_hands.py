"""`felt db export hands`: each format, a player's own cards only in their export, no voided
hands, practice hands marked, and every bad option refused in one line with exit status 2."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.terminal.wallet import PRACTICE_GUILD_ID
from engine.holdem import phh
from engine.holdem.pokerstars import hand_id_of
from storage.store import Storage
from tests.bot.hand_seeding import SeededTable, seed_hands
from tests.engine.holdem.export_hands import parse_pokerstars

GUILD = 123_456_789_012_345_678
ALICE, BOB = 1_001, 1_002


def _seed(path: Path, guild: int = GUILD, *, hands: int = 9, void_every: int = 3) -> SeededTable:
    async def run() -> SeededTable:
        async with await Storage.open(path) as storage:
            return await seed_hands(
                storage,
                guild_id=guild,
                channel_id=5,
                members=[ALICE, BOB],
                hands=hands,
                seed=guild % 97,
                ante=1,
                void_every=void_every,
            )

    return asyncio.run(run())


@pytest.fixture
def seeded(tmp_path: Path) -> tuple[Path, SeededTable]:
    path = tmp_path / "felt.db"
    return path, _seed(path)


def _export(path: Path, *options: str) -> int:
    return main(["db", "export", "hands", "--db", str(path), *options])


def test_a_players_pokerstars_export_deals_their_cards_and_pokerkit_reads_every_hand(
    seeded: tuple[Path, SeededTable], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, table = seeded
    out = tmp_path / "alice.txt"
    assert _export(path, "--player", str(ALICE), "--out", str(out)) == 0
    assert capsys.readouterr().err == f"wrote {len(table.settled)} hand(s) as pokerstars to {out}\n"
    text = out.read_text()
    blocks = text.split("\n\n\n")
    assert len(blocks) == len(table.settled) == 6
    for block in blocks:
        assert block.count("Dealt to ") == 1 and "\nDealt to member1001 [" in block
    ids = [int(b.split("#", 1)[1].split(":", 1)[0]) for b in blocks]
    assert ids == [hand_id_of(table.table_id, n) for n in table.settled]  # no voided hand
    assert len(parse_pokerstars(text, antes=True)) == len(blocks)


def test_the_host_export_deals_nobodys_cards_and_phh_masks_the_unshown(
    seeded: tuple[Path, SeededTable], capsys: pytest.CaptureFixture[str]
) -> None:
    path, table = seeded
    assert _export(path, "--guild", str(GUILD)) == 0
    assert "Dealt to" not in capsys.readouterr().out
    assert _export(path, "--format", "PHH", "--table", str(table.table_id)) == 0
    hands = phh.loads_all(capsys.readouterr().out)
    assert [name for name, _ in hands] == [
        str(hand_id_of(table.table_id, n)) for n in table.settled
    ]
    for _, history in hands:
        replayed = phh.replay(history)  # shown cards are all a replay needs
        assert replayed.stacks == history.finishing_stacks
        for line in history.actions:
            if line.startswith("d dh "):
                player = int(line.split()[2][1:]) - 1
                assert line.endswith("????") != replayed.shown[player]


def test_ohh_export_writes_one_object_per_hand_with_the_hero(
    seeded: tuple[Path, SeededTable], capsys: pytest.CaptureFixture[str]
) -> None:
    path, table = seeded
    assert _export(path, "--format", "ohh", "--player", str(BOB), "--since", "2000-01-01") == 0
    objects = [json.loads(part) for part in capsys.readouterr().out.split("\n\n")]
    assert len(objects) == len(table.settled)
    assert all(o["ohh"]["hero_player_id"] == 2 for o in objects)  # Bob sits in seat 2


def test_practice_hands_are_marked_in_the_table_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"
    _seed(path, PRACTICE_GUILD_ID, hands=2, void_every=0)
    assert _export(path, "--player", str(ALICE)) == 0
    out = capsys.readouterr().out
    assert out.count("Table 'Main 1 (practice)' 6-max") == 2


def test_no_hand_matches_writes_nothing_and_says_so(
    seeded: tuple[Path, SeededTable], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = seeded
    assert _export(path, "--player", "42") == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "wrote 0 hand(s) as pokerstars to stdout\n"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--guild", "abc"), "--guild must be a whole number"),
        (("--table", "-1"), "--table must be a whole number"),
        (("--player", "1.5"), "--player must be a whole number"),
        (("--since", "2025-13-01"), "--since must be a date like 2025-01-31"),
        (("--format", "csv"), "--format must be one of phh, pokerstars, ohh, not 'csv'"),
        (("--table", "999"), "there is no table 999 in this database"),
        (("--table", "1", "--guild", "5"), "table 1 is not in guild 5"),
        (("--out", "/nonexistent/dir/hands.txt"), "cannot write /nonexistent/dir/hands.txt"),
    ],
)
def test_every_bad_option_is_one_line_and_exit_2_and_writes_nothing(
    seeded: tuple[Path, SeededTable],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: tuple[str, ...],
    message: str,
) -> None:
    path, _ = seeded
    out = tmp_path / "out.txt"
    extra = () if "--out" in options else ("--out", str(out))
    assert _export(path, *options, *extra) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"felt db: {message}") and captured.err.count("\n") == 1
    assert not out.exists()


def test_a_missing_database_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _export(tmp_path / "none.db") == 2
    err = capsys.readouterr().err
    assert err.startswith("felt db: ") and err.count("\n") == 1


def test_a_reader_that_stops_early_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"
    _seed(path, hands=80, void_every=0)  # more text than a pipe holds (64 KiB)
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "bot.cli", "db", "export", "hands", "--db", str(path)]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=root
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # like `| head -1`
        code = process.wait(timeout=60)
        err = process.stderr.read().decode()
    assert first.startswith(b"PokerStars Hand #")
    assert code == 0 and "Traceback" not in err
