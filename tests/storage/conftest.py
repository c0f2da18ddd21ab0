"""Fixtures for storage tests: a real SQLite file in tmp_path, a hand-driven clock, and a raw
snapshot of everything in the database to prove that refusals change nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from storage.settings import EconomySettings
from storage.store import Storage


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "felt.db"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    opened = await Storage.open(db_path, clock=clock, economy=EconomySettings())
    try:
        yield opened
    finally:
        await opened.close()


_TABLES = (
    "accounts",
    "members",
    "ledger",
    "operations",
    "poker_tables",
    "seats",
    "hands",
    "hand_seats",
    "bj_rounds",
    "bj_players",
    "bj_bets",
    "member_stats",
    "seasons",
    "season_balances",
    "guild_settings",
    "recoveries",
    "guilds",
)


def read_state(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read through a separate connection."""
    connection = sqlite3.connect(path)
    try:
        return {
            table: connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
            for table in _TABLES
        }
    finally:
        connection.close()


@pytest.fixture
def state(db_path: Path) -> Callable[[], dict[str, list[tuple[Any, ...]]]]:
    """``state()`` is a snapshot of the whole database; equal snapshots mean nothing changed."""
    return lambda: read_state(db_path)


def raw(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run SQL straight on the file (to tamper with it, or to look underneath the API)."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


@pytest.fixture
def sql(db_path: Path) -> Callable[..., list[tuple[Any, ...]]]:
    return lambda query, *params: raw(db_path, query, tuple(params))
