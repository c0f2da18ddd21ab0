"""`felt db stats check|rebuild` and `felt db check`: a recount from the stored PHH agrees with
what settlement counted, a tampered counter is named and fixed, an unreadable hand is named and
left out."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from storage.instances import Claim
from storage.store import Storage
from tests.storage.support import FakeClock
from tests.storage.test_stats_counts import Casino


def populate(path: Path, hands: int) -> None:
    async def run() -> None:
        clock = FakeClock()
        async with await Storage.open(path, clock=clock) as storage:
            casino = Casino(storage, clock, seed=11)
            await casino.open()
            for _ in range(hands):
                await casino.play_hand()
            await casino.play_round()

    asyncio.run(run())


def test_check_passes_after_settlement_and_rebuild_fixes_a_tampered_counter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"
    populate(path, hands=8)

    assert main(["db", "stats", "check", "--db", str(path)]) == 0
    assert "OK, " in capsys.readouterr().out

    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE holdem_counts SET cbets = cbets + 1")
    assert main(["db", "stats", "check", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert "differ from a recount" in err and "holdem guild" in err

    assert main(["db", "stats", "rebuild", "--db", str(path)]) == 0
    assert "from 8 settled hand(s)" in capsys.readouterr().out
    assert main(["db", "stats", "check", "--db", str(path)]) == 0


def test_rebuild_refuses_while_a_felt_instance_is_alive_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"
    populate(path, hands=3)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE holdem_counts SET cbets = cbets + 1")

    async def hold_a_lease() -> Storage:
        storage = await Storage.open(path)
        await storage.acquire_lease(Claim.terminal())
        return storage

    async def release(storage: Storage) -> None:
        await storage.release_lease()
        await storage.close()

    holder = asyncio.run(hold_a_lease())
    try:
        assert main(["db", "stats", "rebuild", "--db", str(path)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Felt is running: instance 1 (a terminal game)" in err[0]
        assert main(["db", "stats", "check", "--db", str(path)]) == 1  # still tampered
    finally:
        asyncio.run(release(holder))
    capsys.readouterr()
    assert main(["db", "stats", "rebuild", "--db", str(path)]) == 0


def test_a_hand_whose_phh_cannot_be_replayed_is_named_and_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"
    populate(path, hands=2)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE hands SET phh = '#' WHERE hand_id = 2")

    assert main(["db", "stats", "check", "--db", str(path)]) == 1  # its counts are stored
    assert "table 1 hand #2" in capsys.readouterr().err


def test_stats_refuses_a_missing_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "stats", "check", "--db", str(tmp_path / "none.db")]) == 2
    assert main(["db", "stats", "rebuild", "--db", str(tmp_path / "none.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2


def test_db_check_also_verifies_the_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"
    populate(path, hands=4)

    assert main(["db", "check", "--db", str(path)]) == 0
    assert "statistics OK, " in capsys.readouterr().out

    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE blackjack_counts SET doubles = doubles + 1")
    assert main(["db", "check", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert "OK: every balance equals its ledger" in out  # the chips are fine
    assert "1 statistics row(s) differ from a recount" in out
    assert "blackjack guild" in out
