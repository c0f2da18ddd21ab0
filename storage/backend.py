"""The interface between Felt's storage logic and a database engine.

Storage logic is written as plain synchronous functions of a :class:`Transaction`, using portable
SQL (``?`` placeholders, ``RETURNING``, ``ON CONFLICT ... DO UPDATE``, window functions; no
engine-specific functions). A :class:`Backend` runs each such function as one transaction on its
own worker thread, so a transaction is a single hop from the event loop, can never interleave with
another coroutine, and cannot hold the write lock across an ``await`` to Discord. The SQLite
adapter lives in ``storage/sqlite.py``; the PostgreSQL adapter (``storage/postgres.py``)
translates placeholders and runs the same functions.

One function is portable too: ``felt_check(ok, code, detail)`` is true when ``ok`` is, and
otherwise fails the statement, and so the transaction, with :class:`storage.errors.CheckFailed`
(``code``, ``detail``), raised at the latest where the transaction commits. A write can then be
sent "blind", each check computed by the database from its own rows, without reading first (see
``storage/holdem.py``, settlement). PostgreSQL defines it in migration 0010; the SQLite adapter
registers it on each connection.

A write body locks its guild (:meth:`Transaction.lock_guild` or ``lock_guild_of``) before it
reads anything: SQLite runs one write at a time anyway, while PostgreSQL lets writes to
different guilds run at once and must order those to the same guild.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

R = TypeVar("R")

Row = tuple[Any, ...]
Params = Sequence[object]


def redact(url: str) -> str:
    """The URL fit to print: any password replaced by ``***``."""
    url = re.sub(r"^([a-z]+://[^:/@?]*):[^@/?]*@", r"\1:***@", url)
    return re.sub(r"([?&])password=[^&]*", r"\1password=***", url)


class Transaction(Protocol):
    """An open transaction: either every statement in it takes effect, or none does."""

    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it changed."""
        ...

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for each row of parameters."""
        ...

    def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query (or of an ``INSERT/UPDATE ... RETURNING``), or None."""
        ...

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""
        ...

    def value(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, or None when there is no row."""
        ...

    def send(self, sql: str, params: Params = ()) -> None:
        """Run a statement whose answer the body does not need. A backend may hold it back and
        send it with the next statement whose answer is needed, or with the commit: an error it
        meets is raised there at the latest, and undoes the whole transaction all the same."""
        ...

    def ask(self, sql: str, params: Params = ()) -> Answer:
        """Start a query whose rows the body reads later, so that several queries (and the
        statements sent before them) reach the server in one round trip."""
        ...

    def lock_guild(self, guild_id: int) -> None:
        """Wait until no other write transaction touching this guild is open, and keep the
        others waiting until this one ends. Every row a write changes belongs to one guild (or
        is an append-only row), so writes that lock their guild first run as if one at a time."""
        ...

    def lock_guild_of(self, query: str, params: Params = ()) -> None:
        """:meth:`lock_guild` for the guild ``query`` selects (one row, one column: a guild id
        read from a column that never changes, such as a table's); nothing if it selects none.
        Run as part of the lock, so that finding the guild costs no extra statement."""
        ...

    def restart_ids(self, table: str, column: str) -> None:
        """Make the ids ``table`` assigns next follow the largest ``column`` stored (after rows
        were inserted with their ids, by ``felt db copy``)."""
        ...


class Answer:
    """The rows of a query started with :meth:`Transaction.ask`, fetched when first read."""

    __slots__ = ("_fetch", "_rows")

    def __init__(self, fetch: Callable[[], list[Row]]) -> None:
        self._fetch = fetch
        self._rows: list[Row] | None = None

    def all(self) -> list[Row]:
        if self._rows is None:
            self._rows = self._fetch()
        return self._rows

    def one(self) -> Row | None:
        rows = self.all()
        return rows[0] if rows else None

    def value(self) -> Any:
        row = self.one()
        return None if row is None else row[0]


class RowReader:
    """What both backends' transactions build on their own ``one``."""

    __slots__ = ()

    def one(self, sql: str, params: Params = ()) -> Row | None:
        raise NotImplementedError

    def value(self, sql: str, params: Params = ()) -> Any:
        row = self.one(sql, params)
        return None if row is None else row[0]


class Backend(Protocol):
    """A database that runs transactions; opened and migrated by its adapter."""

    path: str
    schema_version: int

    async def write(self, body: Callable[[Transaction], R], *, bulk: bool = False) -> R:
        """Run ``body`` in one serialized read-write transaction; roll back if it raises.

        ``bulk``: the body's rows grow with a guild's members or a tournament's field, so it may
        take long, and must not run on the event loop (SQLite's short writes may)."""
        ...

    async def read(self, body: Callable[[Transaction], R]) -> R:
        """Run ``body`` in a read-only snapshot that never sees half of a write."""
        ...

    async def flush(self) -> bool:
        """Make every committed transaction durable now; True if anything needed it."""
        ...

    async def close(self) -> None: ...
