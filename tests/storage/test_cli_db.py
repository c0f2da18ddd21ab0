"""`felt db migrate|check|export`: exit codes and what the admin reads, on a SQLite file and on
a PostgreSQL URL."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
from pathlib import Path

from bot.cli import main
from bot.cli.db import DEFAULT_DB_PATH, database, database_path
from storage.sqlite import latest_version, load_migrations
from storage.store import Storage
from tests.storage.conftest import raw

ALL_APPLIED = (
    f"schema 0 -> {latest_version()} (applied {', '.join(m.name for m in load_migrations())})"
)

GUILD = 10
ALICE, BOB = 1, 2


def populate(path: str | Path) -> int:
    async def run() -> int:
        async with await Storage.open(path) as storage:
            table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
            await storage.buy_in(table, 0, ALICE, 300, key="a", display_name="Alice")
            await storage.buy_in(table, 1, BOB, 300, key="b")
            await storage.start_hand(table, 1, {0: 300, 1: 300}, key="h")
            await storage.settle_hand(table, 1, {0: 450, 1: 150}, phh="#", key="s")
            return table

    return asyncio.run(run())


def test_database_path_defaults_to_felt_db_in_the_working_directory() -> None:
    assert database_path(None) == DEFAULT_DB_PATH == Path("felt.db")
    assert database_path("x/y.db") == Path("x/y.db")


def test_a_database_is_a_path_a_sqlite_url_or_a_postgresql_url() -> None:
    assert database(None) == Path("felt.db")
    assert database("x/y.db") == Path("x/y.db")
    assert database("sqlite:///x/y.db") == Path("x/y.db")
    assert database("sqlite:////srv/felt.db") == Path("/srv/felt.db")
    assert database("postgresql://felt@db/felt") == "postgresql://felt@db/felt"
    assert database("postgres://felt@db/felt") == "postgres://felt@db/felt"


def test_migrate_creates_then_reports_up_to_date(tmp_path: Path, capsys) -> None:
    path = tmp_path / "felt.db"

    assert main(["db", "--db", str(path), "migrate"]) == 0
    assert ALL_APPLIED in capsys.readouterr().out
    assert main(["db", "migrate", "--db", str(path)]) == 0
    assert f"already up to date (schema {latest_version()})" in capsys.readouterr().out


def test_check_passes_on_an_honest_database(database, capsys) -> None:
    populate(database)

    code = main(["db", "check", "--db", str(database)])

    out = capsys.readouterr().out
    assert code == 0
    assert "OK: every balance equals its ledger" in out
    assert "guild 10: 2,000 chips held; 2,000 minted, 0 burned" in out


def test_check_fails_naming_the_account_that_disagrees(database, capsys) -> None:
    populate(database)
    account = raw(
        database, "SELECT account_id FROM accounts WHERE kind = 'member' AND user_id = ?", (BOB,)
    )[0][0]
    raw(database, "UPDATE accounts SET balance = balance - 1 WHERE account_id = ?", (account,))

    code = main(["db", "check", "--db", str(database)])

    out = capsys.readouterr().out
    assert code == 1
    assert f"PROBLEM [balance_mismatch] account {account} (member, member {BOB}" in out
    assert "FAILED: 2 problem(s) found." in out


def test_check_refuses_a_missing_outdated_or_newer_database(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "missing.db"
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    newer = tmp_path / "newer.db"
    populate(newer)
    sqlite3.connect(newer, isolation_level=None).execute(
        "PRAGMA user_version = 7"
    ).connection.close()

    assert main(["db", "check", "--db", str(missing)]) == 2
    assert "There is no Felt database" in capsys.readouterr().err
    assert not missing.exists()
    assert main(["db", "check", "--db", str(empty)]) == 2
    assert "Run `felt db migrate` first" in capsys.readouterr().err
    assert main(["db", "check", "--db", str(newer)]) == 2
    assert f"only knows up to {latest_version()}" in capsys.readouterr().err


def test_export_ledger_to_a_file_and_to_stdout(tmp_path: Path, database, capsys) -> None:
    path = database
    populate(path)
    target = tmp_path / "ledger.csv"

    assert (
        main(["db", "export", "ledger", "--guild", "10", "--db", str(path), "-o", str(target)]) == 0
    )
    assert "wrote 8 ledger row(s)" in capsys.readouterr().err
    assert (
        main(["db", "--db", str(path), "export", "ledger", "--guild", "10", "--member", "2"]) == 0
    )
    stdout = capsys.readouterr().out

    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert len(rows) == 8
    bobs = list(csv.DictReader(io.StringIO(stdout)))
    assert {row["user_id"] for row in bobs} == {"2"}
    assert [row["kind"] for row in bobs] == ["starting_grant", "buy_in", "buy_in", "hand_result"]


def test_export_sessions(database, capsys) -> None:
    path = database
    table = populate(path)

    assert main(["db", "export", "sessions", "--table", str(table), "--db", str(path)]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))

    assert rows[1][:2] == ["Alice", "1"]
    assert rows[1][4:] == ["300", "0", "450", "150"]
    assert main(["db", "export", "sessions", "--table", "99", "--db", str(path)]) == 2
    assert "Table 99 does not exist." in capsys.readouterr().err


def test_check_refuses_an_empty_or_newer_postgresql_schema(postgres_server, capsys) -> None:
    empty = postgres_server.new_database()
    newer = postgres_server.new_database()
    assert main(["db", "migrate", "--db", newer]) == 0
    assert ALL_APPLIED in capsys.readouterr().out
    raw(newer, "INSERT INTO felt_schema_version (version, name) VALUES (7, '0007_x.sql')")

    assert main(["db", "check", "--db", empty]) == 2
    assert "There is no Felt database at postgresql://" in capsys.readouterr().err
    assert raw(empty, "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()") == [
        (0,)
    ]
    assert main(["db", "check", "--db", newer]) == 2
    assert f"only knows up to {latest_version()}" in capsys.readouterr().err
