"""`felt db migrate|check|export`: exit codes and what the admin reads, on a SQLite file and on
a PostgreSQL URL."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.db import DEFAULT_DB_PATH, database, database_path
from storage.sqlite import latest_version, load_migrations
from storage.store import Storage
from tests.storage.support import PostgresServer, raw

ALL_APPLIED = (
    f"schema 0 -> {latest_version()} (applied {', '.join(m.name for m in load_migrations())})"
)

ROOT = Path(__file__).resolve().parents[2]
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


def test_migrate_creates_then_reports_up_to_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "felt.db"

    assert main(["db", "--db", str(path), "migrate"]) == 0
    assert ALL_APPLIED in capsys.readouterr().out
    assert main(["db", "migrate", "--db", str(path)]) == 0
    assert f"already up to date (schema {latest_version()})" in capsys.readouterr().out


def test_check_passes_on_an_honest_database(
    database: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(database)

    code = main(["db", "check", "--db", str(database)])

    out = capsys.readouterr().out
    assert code == 0
    assert "OK: every balance equals its ledger" in out
    assert "guild 10: 2,000 chips held; 2,000 minted, 0 burned" in out


def test_check_fails_naming_the_account_that_disagrees(
    database: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
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


def test_check_refuses_a_missing_outdated_or_newer_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    newer = tmp_path / "newer.db"
    populate(newer)
    sqlite3.connect(newer, isolation_level=None).execute(
        f"PRAGMA user_version = {latest_version() + 1}"
    ).connection.close()

    assert main(["db", "check", "--db", str(missing)]) == 2
    assert "There is no Felt database" in capsys.readouterr().err
    assert not missing.exists()
    assert main(["db", "check", "--db", str(empty)]) == 2
    assert "Run `felt db migrate` first" in capsys.readouterr().err
    assert main(["db", "check", "--db", str(newer)]) == 2
    assert f"only knows up to {latest_version()}" in capsys.readouterr().err


def test_export_ledger_to_a_file_and_to_stdout(
    tmp_path: Path, database: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
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


def test_export_sessions_writes_each_seats_chips_and_refuses_an_unknown_table(
    database: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = database
    table = populate(path)

    assert main(["db", "export", "sessions", "--table", str(table), "--db", str(path)]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))

    assert rows[1][:2] == ["Alice", "1"]
    # Alice is still seated: PokerNow leaves buy_out empty until a player leaves.
    assert rows[1][4:] == ["300", "", "450", "150"]
    assert main(["db", "export", "sessions", "--table", "99", "--db", str(path)]) == 2
    assert "Table 99 does not exist." in capsys.readouterr().err


def test_check_refuses_an_empty_or_newer_postgresql_schema(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = postgres_server.new_database()
    newer = postgres_server.new_database()
    assert main(["db", "migrate", "--db", newer]) == 0
    assert ALL_APPLIED in capsys.readouterr().out
    raw(
        newer,
        "INSERT INTO felt_schema_version (version, name) "
        f"VALUES ({latest_version() + 1}, '9999_x.sql')",
    )

    assert main(["db", "check", "--db", empty]) == 2
    assert "There is no Felt database at postgresql://" in capsys.readouterr().err
    assert raw(empty, "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()") == [
        (0,)
    ]
    assert main(["db", "check", "--db", newer]) == 2
    assert f"only knows up to {latest_version()}" in capsys.readouterr().err


# ------------------------------------------------------------------ where the database is, and how


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """``(writable, read_only)``: two views of one folder, the second read-only for this process.

    As root (who ignores permissions) the second is a read-only bind mount, as a backup would be;
    otherwise the folder and its files lose their write permission.
    """
    source = tmp_path / "source"
    source.mkdir()
    if os.geteuid() != 0:
        yield source, source
        for entry in source.iterdir():
            entry.chmod(0o644)
        source.chmod(0o755)
        return
    view = tmp_path / "view"
    view.mkdir()
    subprocess.run(["mount", "--bind", str(source), str(view)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(view)], check=True)
        yield source, view
    finally:
        subprocess.run(["umount", str(view)], check=True)


def _make_read_only(writable: Path, read_only: Path) -> None:
    if writable == read_only:  # not root: permissions are enough
        for entry in writable.iterdir():
            entry.chmod(0o444)
        writable.chmod(0o555)


def test_read_only_database_can_be_checked_and_exported_but_not_written(
    read_only_folder: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    writable, read_only = read_only_folder
    populate(writable / "felt.db")
    _make_read_only(writable, read_only)
    backup = str(read_only / "felt.db")

    assert main(["db", "check", "--db", backup]) == 0
    assert "OK: every balance equals its ledger" in capsys.readouterr().out
    assert main(["db", "export", "ledger", "--guild", str(GUILD), "--db", backup]) == 0
    assert len(list(csv.reader(io.StringIO(capsys.readouterr().out)))) > 1
    for command in (["db", "grant", "5", "--db", backup], ["play", "--db", backup]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is read-only" in err[0], err


@pytest.mark.parametrize("command", [["db", "migrate"], ["play"]])
def test_a_path_sqlite_cannot_open_is_one_line_without_a_thread_traceback(
    tmp_path: Path, command: list[str]
) -> None:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("DISCORD_TOKEN", None)
    finished = subprocess.run(
        [sys.executable, "-m", "bot.cli", *command, "--db", "/proc/felt.db"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 2
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1, finished.stderr
    assert "SQLite cannot open the database /proc/felt.db" in lines[0]


@pytest.mark.parametrize("url", ["mysql://x/y", "mongodb+srv://host/db", "http://example.com/f"])
def test_an_unknown_url_scheme_is_refused_by_name(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "check", "--db", url]) == 2
    scheme = url.partition("://")[0]
    assert f"Felt cannot keep chips in a {scheme}:// database" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_every_db_command_finds_the_database_in_the_config_as_felt_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    populate(tmp_path / "custom.db")
    Path("config.toml").write_text('[database]\npath = "custom.db"\n')
    Path("other.toml").write_text('[database]\npath = "elsewhere.db"\n')

    assert main(["db", "check"]) == 0
    assert "custom.db: schema" in capsys.readouterr().out
    assert main(["db", "export", "ledger", "--guild", str(GUILD)]) == 0
    assert "starting_grant" not in capsys.readouterr().err
    assert main(["db", "grant", "7", "--guild", str(GUILD), "--member", str(ALICE)]) == 0
    assert "wallet" in capsys.readouterr().out
    assert main(["db", "check", "--config", "other.toml"]) == 2
    assert "There is no Felt database at elsewhere.db" in capsys.readouterr().err
    assert main(["db", "--config", "other.toml", "check", "--db", "custom.db"]) == 0
    assert not Path("felt.db").exists()


def test_global_options_are_accepted_before_and_after_each_action(
    database: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(database)
    for arguments in (
        ["db", "--db", str(database), "export", "ledger", "--guild", str(GUILD)],
        ["db", "export", "--db", str(database), "ledger", "--guild", str(GUILD)],
        ["db", "export", "ledger", "--db", str(database), "--guild", str(GUILD)],
    ):
        assert main(arguments) == 0, arguments
        assert capsys.readouterr().out.startswith("entry_id,")


def test_grant_adds_chips_recorded_in_the_ledger_and_check_still_passes(
    database: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(database)
    assert main(["db", "grant", "1,500", "--db", str(database)]) == 0
    assert main(["db", "grant", "1500", "--db", str(database)]) == 0
    assert "wallet 4,000" in capsys.readouterr().out  # the starting 1,000, then two grants

    async def read() -> tuple[int, list[str]]:
        async with await Storage.open(database) as storage:
            rows = await storage.ledger(1, user_id=1, limit=10)
            return await storage.balance(1, 1), [row.kind.value for row in rows]

    balance, kinds = asyncio.run(read())
    assert balance == 4000
    assert kinds.count("admin_grant") == 2
    assert main(["db", "check", "--db", str(database)]) == 0


@pytest.mark.parametrize("amount", ["0", "²", "-5", "9" * 5000, "9007199254740992"])
def test_grant_refuses_a_bad_amount_in_one_short_line(
    database: str | Path, amount: str, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(database)
    with pytest.raises(SystemExit) as exited:
        main(["db", "grant", amount, "--db", str(database)])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "AMOUNT: must be a whole number from 1 to 9,007,199,254,740,991" in err[-1]
    assert len(err[-1]) < 250


def test_a_postgresql_url_without_the_driver_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As if psycopg were not installed: importing it (and the adapter using it) fails.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.setitem(sys.modules, "storage.postgres", None)
    assert main(["db", "check", "--db", "postgresql://felt@127.0.0.1/felt"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "PostgreSQL needs the psycopg driver" in err[0]
    assert "pip install 'felt[postgres]'" in err[0]


def test_a_read_only_sqlite_storage_reads_and_refuses_every_write(tmp_path: Path) -> None:
    database = tmp_path / "felt.db"
    populate(database)
    before = database.read_bytes()

    async def run() -> None:
        from storage import DatabaseProblem

        async with await Storage.open(database, read_only=True) as storage:
            assert (await storage.check()).ok
            with pytest.raises(DatabaseProblem):
                await storage.ensure_account(GUILD, 99)

    asyncio.run(run())
    assert database.read_bytes() == before
