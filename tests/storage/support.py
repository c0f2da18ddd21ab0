"""What storage tests share besides fixtures: a hand-driven clock, the throwaway PostgreSQL server
(one per test session, or the one FELT_TEST_POSTGRES_URL names), and a raw view of a database to
tamper with it or to prove that refusals change nothing."""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

from storage.postgres import _WholeNumberLoader, translate
from tests.storage.pg_cluster import Cluster

BACKENDS = ("sqlite", "postgresql")

State = Callable[[], dict[str, list[tuple[Any, ...]]]]
"""The ``state`` fixture: every table's rows, to prove that a refusal changed nothing."""
Sql = Callable[..., list[tuple[Any, ...]]]
"""The ``sql`` fixture: one raw query's rows."""


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def with_search_path(url: str, schema: str) -> str:
    """``url`` with the connection's search_path set to ``schema`` (libpq ``options``)."""
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3D{schema}"


class PostgresServer:
    """A PostgreSQL server for the session; every test gets a fresh, empty schema in it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._names = itertools.count(1)

    def new_database(self) -> str:
        """The URL of a new empty schema (a Felt database of its own)."""
        schema = f"felt_test_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        return with_search_path(self.url, schema)


@contextlib.contextmanager
def postgres_server_running() -> Iterator[PostgresServer]:
    """A throwaway cluster (or the server FELT_TEST_POSTGRES_URL names) while the block runs."""
    existing = os.environ.get("FELT_TEST_POSTGRES_URL")
    if existing:
        yield PostgresServer(existing)
        return
    cluster = Cluster().start()
    try:
        yield PostgresServer(cluster.url())
    finally:
        cluster.stop()


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
    "holdem_counts",
    "blackjack_counts",
    "seasons",
    "season_balances",
    "guild_settings",
    "recoveries",
    "table_messages",
    "dm_refusal_notices",
    "guilds",
)


class RawDatabase:
    """SQL straight on the database, outside storage (to tamper with it, or to look underneath
    the API): ``?`` placeholders on both backends, every statement committed at once. One
    connection per test, opened on first use."""

    def __init__(self, database: str | Path) -> None:
        self.database = database
        self._sqlite: sqlite3.Connection | None = None
        self._postgres: psycopg.Connection[tuple[Any, ...]] | None = None

    def __call__(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if isinstance(self.database, Path):
            # A new connection each time: it must not keep a read snapshot open between calls.
            connection = sqlite3.connect(self.database, isolation_level=None)
            try:
                return connection.execute(sql, params).fetchall()
            finally:
                connection.close()
        if self._postgres is None:
            self._postgres = psycopg.connect(self.database, autocommit=True)
            self._postgres.adapters.register_loader("numeric", _WholeNumberLoader)
        cursor = self._postgres.execute(translate(sql), params)
        return cursor.fetchall() if cursor.description is not None else []

    def state(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, in a stable order."""
        return {table: sorted(self(f"SELECT * FROM {table}"), key=_order) for table in _TABLES}

    def close(self) -> None:
        if self._postgres is not None:
            self._postgres.close()


def raw(database: str | Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """One statement through a connection of its own (see :class:`RawDatabase`)."""
    connection = RawDatabase(database)
    try:
        return connection(sql, params)
    finally:
        connection.close()


def _order(row: tuple[Any, ...]) -> tuple[tuple[bool, Any], ...]:
    return tuple((value is None, value) for value in row)
