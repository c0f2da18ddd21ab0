"""Fixtures for storage tests: every test that uses ``storage`` (or ``database``) runs twice, on a
real SQLite file in tmp_path and on a schema of its own in a throwaway PostgreSQL cluster (one
cluster per test session, started on first use); a hand-driven clock; and a raw view of the
database. The values they use live in ``tests.storage.support``: import them from there."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import (
    BACKENDS,
    FakeClock,
    PostgresServer,
    RawDatabase,
    Sql,
    State,
    postgres_server_running,
)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "felt.db"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: every test gets a fresh, empty schema in it."""
    with postgres_server_running() as server:
        yield server


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """Where this test's database lives: a SQLite file, or a PostgreSQL URL."""
    if backend == "sqlite":
        return db_path
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture
async def storage(database: str | Path, clock: FakeClock) -> AsyncIterator[Storage]:
    opened = await Storage.open(database, clock=clock, economy=EconomySettings())
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def raw_database(database: str | Path) -> Iterator[RawDatabase]:
    connection = RawDatabase(database)
    try:
        yield connection
    finally:
        connection.close()


@pytest.fixture
def state(raw_database: RawDatabase) -> State:
    """``state()`` is a snapshot of the whole database; equal snapshots mean nothing changed."""
    return raw_database.state


@pytest.fixture
def sql(raw_database: RawDatabase) -> Sql:
    return lambda query, *params: raw_database(query, tuple(params))
