"""`felt db copy`: a SQLite installation moved to PostgreSQL (and back) without losing a chip:
every row equal on both sides, check passing on both, ids that continue, and a refusal for a
target that is not empty."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from storage.database_copy import TABLES, CopyTargetNotEmpty
from storage.models import BetReason, RoundOutcome, SeatResult
from storage.store import Storage, migrate_database
from tests.storage.support import FakeClock, PostgresServer, RawDatabase, raw

GUILD, OTHER_GUILD = 10, 11
ALICE, BOB, CAROL = 1, 2, 3


async def busy_installation(storage: Storage) -> None:
    """A bit of everything: two guilds, tables with a settled and an unfinished hand, bots,
    settled, refunded and open blackjack rounds, a past season, settings, a recovery."""
    await storage.set_setting(GUILD, "daily_amount", 300, actor_id=ALICE)
    table = (await storage.open_table(GUILD, 1, settings={"big_blind": 10}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key="a", display_name="Alice")
    await storage.buy_in(table, 1, BOB, 300, key="b")
    await storage.seat_bot(table, 2, "Ada", 300, key="c")
    await storage.start_hand(table, 1, {0: 300, 1: 300, 2: 300}, key="h1")
    await storage.settle_hand(
        table,
        1,
        {0: 0, 1: 100, 2: 800},
        phh="# hand 1",
        results={2: SeatResult(won=True, pot_won=500)},
        key="s1",
    )
    await storage.cash_out(table, 2, key="bot-out")
    dealt = await storage.open_round(GUILD, 2, {ALICE: 100, BOB: 50}, key="r1")
    await storage.add_bet(dealt.round_id, ALICE, 100, reason=BetReason.DOUBLE, key="d1")
    await storage.settle_round(
        dealt.round_id,
        {ALICE: RoundOutcome(400, hands_played=1, hands_won=1), BOB: RoundOutcome(0, 1)},
        history="{}",
        key="rs1",
    )
    refunded = await storage.open_round(GUILD, 2, {BOB: 20}, key="r2")
    await storage.refund_round(refunded.round_id, reason="test", key="rr2")
    await storage.start_season(GUILD, name="Spring", key="season")
    await storage.transfer(GUILD, BOB, ALICE, 50, key="x")
    await storage.claim_daily(GUILD, CAROL, key="daily")
    await storage.admin_grant(OTHER_GUILD, CAROL, 5_000, actor_id=9, key="grant")
    other = (await storage.open_table(OTHER_GUILD, 5, settings={}, key="t2")).table_id
    await storage.buy_in(other, 3, CAROL, 1_000, key="c-in")
    await storage.seat_bot(other, 4, "Bo", 500, key="bo-in")
    await storage.start_hand(other, 1, {3: 1_000, 4: 500}, key="h-other")
    await storage.open_round(OTHER_GUILD, 6, {CAROL: 70}, key="r-open")
    interrupted = (await storage.open_table(GUILD, 3, settings={}, key="t3")).table_id
    await storage.buy_in(interrupted, 0, CAROL, 100, key="c3")
    await storage.buy_in(interrupted, 1, BOB, 100, key="b3")
    await storage.start_hand(interrupted, 1, {0: 100, 1: 100}, key="h3")
    await storage.recover()  # voids both hands, refunds the open round: a recovery row


def populate(database: str | Path) -> None:
    async def run() -> None:
        async with await Storage.open(database) as storage:
            await busy_installation(storage)
            # something still in play after the recovery
            table = (await storage.open_table(OTHER_GUILD, 7, settings={}, key="t4")).table_id
            await storage.buy_in(table, 0, ALICE, 200, key="a4")
            await storage.buy_in(table, 1, BOB, 200, key="b4")
            await storage.start_hand(table, 1, {0: 200, 1: 200}, key="h4")

    asyncio.run(run())


def everything(database: str | Path) -> dict[str, list[tuple[object, ...]]]:
    connection = RawDatabase(database)
    try:
        return {
            table.name: [
                tuple(row)
                for row in connection(
                    f"SELECT {', '.join(table.columns)} FROM {table.name} "
                    f"ORDER BY {', '.join(table.key)}"
                )
            ]
            for table in TABLES
        }
    finally:
        connection.close()


def test_the_copy_covers_every_table_and_column_of_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"
    asyncio.run(migrate_database(path))
    connection = sqlite3.connect(path)
    try:
        schema = {
            name: tuple(row[1] for row in connection.execute(f"PRAGMA table_info({name})"))
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    finally:
        connection.close()

    assert {table.name: table.columns for table in TABLES} == schema


def test_sqlite_to_postgresql_keeps_every_chip_and_row(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "felt.db"
    target = postgres_server.new_database()
    populate(source)

    code = main(["db", "copy", "--from", f"sqlite:///{source}", "--to", target])

    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("OK: every balance equals its ledger") == 2
    assert f"OK: all {len(TABLES)} tables are equal row for row on both sides" in out
    assert "in play now: 1 unfinished hand(s)" in out
    copied = everything(target)
    assert copied == everything(source)
    assert len(copied["ledger"]) > 40
    assert main(["db", "check", "--db", target]) == 0
    assert main(["db", "check", "--db", str(source)]) == 0


def test_the_copy_continues_where_the_source_left_off(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    source = tmp_path / "felt.db"
    target = postgres_server.new_database()
    populate(source)
    assert main(["db", "copy", "--from", str(source), "--to", target]) == 0

    async def carry_on(database: str | Path) -> tuple[int, int, int]:
        async with await Storage.open(database, clock=FakeClock()) as storage:
            report = await storage.recover()
            table = (await storage.open_table(GUILD, 9, settings={}, key="new-t")).table_id
            await storage.buy_in(table, 0, ALICE, 10, key="new-in")
            dealt = await storage.open_round(GUILD, 9, {BOB: 10}, key="new-r")
            assert (await storage.check()).ok
            return len(report.voided_hands), table, dealt.round_id

    # both sides carry on identically: same recovery, same new ids, same rows
    assert asyncio.run(carry_on(target)) == asyncio.run(carry_on(source))
    assert everything(target) == everything(source)


def test_a_target_that_is_not_empty_is_refused_and_left_alone(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "felt.db"
    target = postgres_server.new_database()
    populate(source)
    assert main(["db", "copy", "--from", str(source), "--to", target]) == 0
    capsys.readouterr()
    before = everything(target)

    code = main(["db", "copy", "--from", str(source), "--to", target])

    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("felt db: postgresql://")
    assert "is not empty (2 guild(s), " in err
    assert "felt db copy only copies into an empty database." in err
    assert len(err.strip().splitlines()) == 1
    assert everything(target) == before


async def test_postgresql_back_to_sqlite(tmp_path: Path, postgres_server: PostgresServer) -> None:
    source = postgres_server.new_database()
    async with await Storage.open(source) as storage:
        await busy_installation(storage)
    target = tmp_path / "back.db"

    async with await Storage.open(source) as old, await Storage.open(target) as new:
        report = await old.copy_to(new)
        with pytest.raises(CopyTargetNotEmpty):
            await old.copy_to(new)

    assert report.ok
    assert dict(report.rows)["guilds"] == 2
    assert everything(target) == everything(source)


def test_a_source_that_fails_check_is_not_copied(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "felt.db"
    target = postgres_server.new_database()
    populate(source)
    raw(
        source,
        "UPDATE accounts SET balance = balance + 1 WHERE kind = 'member' AND user_id = 1 "
        "AND guild_id = 10",
    )

    code = main(["db", "copy", "--from", str(source), "--to", target])

    assert code == 2
    assert "fails felt db check (2 problem(s)); fix it before copying." in capsys.readouterr().err
    assert raw(target, "SELECT COUNT(*) FROM guilds") == [(0,)]


def test_copy_refuses_a_missing_source_and_the_same_database_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"
    path = tmp_path / "felt.db"

    assert main(["db", "copy", "--from", str(missing), "--to", str(path)]) == 2
    assert "There is no Felt database" in capsys.readouterr().err
    assert not path.exists()
    assert main(["db", "copy", "--from", str(path), "--to", f"sqlite:///{path}"]) == 2
    assert "--from and --to name the same database" in capsys.readouterr().err
