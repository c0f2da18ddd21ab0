"""The bot's database at startup: created and migrated, recovered, and one clear line when the
file cannot be used (``felt run`` says it before connecting to Discord)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import DatabaseConfig, EconomyConfig, FeltConfig
from bot.discord.database import (
    STORAGE_REFUSALS,
    describe_open_failure,
    open_for_bot,
    register_storage_refusals,
)
from bot.discord.errors import ErrorRouter, StartupError
from storage import (
    DatabaseBusy,
    DatabaseFailure,
    DatabaseProblem,
    InsufficientChips,
    Storage,
    StorageClosed,
    latest_version,
)
from storage.sqlite import APPLICATION_ID


def config_for(path: Path) -> FeltConfig:
    return FeltConfig(
        database=DatabaseConfig(path=str(path)),
        economy=EconomyConfig(starting_chips=300, daily_amount=20, transfers=False),
    )


async def test_open_for_bot_creates_and_migrates_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"

    storage, report = await open_for_bot(config_for(path))
    try:
        assert path.exists()
        assert storage.schema_version == latest_version()
        assert report.is_empty
        economy = await storage.economy(1)
        assert (economy.starting_chips, economy.daily_amount, economy.transfers_enabled) == (
            300,
            20,
            False,
        )
    finally:
        await storage.close()


async def test_open_for_bot_recovers_what_was_in_play(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"
    crashed = await Storage.open(path)
    table = await crashed.open_table(1, 2, settings={}, key="t")
    for seat, user in ((1, 10), (2, 11)):
        await crashed.ensure_account(1, user)
        await crashed.buy_in(table.table_id, seat, user, 100, key=f"b{seat}")
    await crashed.start_hand(table.table_id, 1, {1: 100, 2: 100}, key="h")
    await crashed.close()  # stands for a process that died mid-hand

    storage, report = await open_for_bot(config_for(path))
    try:
        [voided] = report.voided_hands
        assert (voided.guild_id, voided.channel_id, voided.hand_id) == (1, 2, 1)
        assert report.channels == {(1, 2)}
    finally:
        await storage.close()


async def test_a_database_from_a_newer_felt_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"
    await (await Storage.open(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")

    with pytest.raises(StartupError) as caught:
        await open_for_bot(config_for(path))

    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path} has schema version 99, but this version of Felt only")


async def test_a_file_that_is_not_a_felt_database_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"
    path.write_text("these are my notes, not chips\n" * 100, encoding="utf-8")

    with pytest.raises(StartupError) as caught:
        await open_for_bot(config_for(path))

    assert str(caught.value).startswith(f"{path} is not a Felt database")
    assert path.read_text(encoding="utf-8").startswith("these are my notes")


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            DatabaseFailure("attempt to write a readonly database"),
            "cannot use the database x.db: attempt to write a readonly database",
        ),
        (
            DatabaseBusy(),
            "the database x.db is locked by another process; is Felt already running?",
        ),
        (StorageClosed(), "the database x.db: The chip database is closed."),
    ],
)
def test_open_failures_are_described_for_operators(error: DatabaseProblem, line: str) -> None:
    assert describe_open_failure("x.db", error) == line


def test_economy_defaults_come_from_the_config() -> None:
    economy = FeltConfig(economy=EconomyConfig(transfers=False)).economy.settings()

    assert economy.transfers_enabled is False
    assert economy.starting_chips == EconomyConfig().starting_chips


def test_refusals_are_the_member_facing_errors_only() -> None:
    router = ErrorRouter(make_error_id=lambda: "cafe0001")
    register_storage_refusals(router)

    refused, error_id = router.message_for(InsufficientChips(7, 50, 10))
    assert (refused, error_id) == ("Not enough chips: <@7> has 10, and this needs 50.", None)
    for problem in (DatabaseFailure("disk I/O error"), StorageClosed(), DatabaseBusy()):
        message, error_id = router.message_for(problem)
        assert error_id == "cafe0001", problem
        assert "cafe0001" in message
    assert not any(issubclass(kind, DatabaseProblem) for kind in STORAGE_REFUSALS)


@pytest.fixture
def in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    discord_level = logging.getLogger("discord").level
    yield tmp_path
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)


def test_felt_run_refuses_a_newer_database_in_one_line_before_connecting(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(in_tmp / "felt.db") as connection:
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute("PRAGMA user_version = 99")
    (in_tmp / "config.toml").write_text(
        # An unreachable Discord: the run must stop at the database, before connecting.
        '[discord]\napi_base_url = "http://127.0.0.1:9/api/v10"\n[logging]\nlevel = "ERROR"\n',
        encoding="utf-8",
    )

    code = main(["run"])

    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(lines) == 1
    assert lines[0].startswith("felt run: ")
    assert "felt.db has schema version 99, but this version of Felt only knows" in lines[0]
