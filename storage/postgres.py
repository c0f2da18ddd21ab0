"""The PostgreSQL adapter: a pool of psycopg connections on worker threads, writes serialized per
guild, read snapshots, and migrations tracked in a schema-version table.

The storage logic is the same synchronous code the SQLite adapter runs; this module translates
its ``?`` placeholders, runs each transaction body on a worker thread with a connection of its own,
and keeps everything PostgreSQL-specific here and in ``storage/migrations/postgresql/``.

Why writes are correct with several processes: every row Felt updates belongs to one guild
(accounts, seats, hands, rounds, stats, settings); only append-only rows (operations, ledger,
recoveries) are shared. Each write transaction runs at READ COMMITTED and, before it reads any
state, takes a transaction-scoped advisory lock on its guild (:meth:`lock_guild`). So writes to
one guild run one at a time across every process, exactly as SQLite runs all writes, and each of
their statements sees everything committed before; writes to different guilds run in parallel
and never touch the same row. On top of that, balances keep ``CHECK (balance >= 0)`` and debits
stay guarded ``UPDATE ... WHERE balance >= ?`` statements. The one cross-guild conflict, the same
idempotency key used in two guilds at once, ends in a unique violation that is retried (the retry
finds the stored operation). Deadlocks cannot happen between Felt transactions (one lock each, or
several taken in order by recovery) but are retried all the same.

SERIALIZABLE with retries was measured and rejected: its predicate locks on index gaps are per
page, and idempotency keys (Discord snowflakes) grow monotonically, so concurrent operations keep
"conflicting" on the last page of the key index even in different guilds. With 16 writers
settling hands at 16 tables of 16 guilds, each settlement ran 6.7 times on average (one gave up
after 10 tries) and throughput was a quarter of the per-guild locks' (102 against 384/s).

Reads run in ``REPEATABLE READ READ ONLY`` transactions: one snapshot, never half a write.

Round trips, not the server, were what a settlement cost: about 20 statements, each waiting
for its answer (7.8 ms median with fsync off). ``BEGIN`` travels with the first statement, and a
body that states its reads up front (:meth:`PostgresTransaction.ask`) and sends its writes
(:meth:`PostgresTransaction.send`) runs in psycopg's pipeline mode, its statements queued and
answered together. A hand's settlement reads nothing: the storage that started the hand knows
its starting stacks, and the settlement is sent "blind" (``storage/holdem_settlement.py``), about
ten statements whose checks the server computes from its own rows (``felt_check``, migration
0010, raising SQLSTATE ``FLT01``, which becomes :class:`CheckFailed`). The guild lock, the
checks, the writes and ``COMMIT`` then travel in one round trip, written to libpq at once as
statements prepared on the connection (``storage/postgres_batch.py``); a settlement by a process
that did not start the hand reads first (two). Each transaction counts its round trips
(:attr:`PostgresBackend.round_trips`). The settlement rules stay in Python, one copy for both
backends: a PL/pgSQL settlement function would have been a second copy of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

import psycopg
from psycopg import Pipeline, errors, sql
from psycopg.adapt import Buffer, Loader

from storage.backend import Answer, Params, Row, RowReader, Transaction, redact
from storage.errors import (
    CheckFailed,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseNotFound,
    DatabaseOutdated,
    DatabaseTooNew,
    MigrationError,
    NotAFeltDatabase,
    StorageClosed,
    StorageError,
)
from storage.models import MigrationReport
from storage.postgres_batch import (
    Encoded,
    PreparedStatements,
    encode,
    read_while_idle,
    run_held,
)
from storage.sqlite import Migration, load_migrations

R = TypeVar("R")

MIGRATIONS_DIR = Path(__file__).with_name("migrations") / "postgresql"
"""The PostgreSQL dialect of each numbered migration (same numbers and names as SQLite's)."""

VERSION_TABLE = "felt_schema_version"
"""One row per applied migration; its presence marks a schema as Felt's."""

LOCK_CLASS = 0x46454C54
"""First key of every guild's advisory lock: "FELT" in ASCII."""
MIGRATION_LOCK = 0x46454C54_4D494752
"""The advisory lock (single 64-bit key: "FELTMIGR") held while migrating."""

DEFAULT_POOL_SIZE = 4
"""Connections (and worker threads) per process: how many transactions it runs at once."""
DEFAULT_LOCK_TIMEOUT = 5.0
"""Seconds a write waits for another process's lock on its guild before giving up."""
MAX_ATTEMPTS = 10
"""Tries of one transaction that keeps meeting a deadlock or a concurrent duplicate key."""

SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    """Whether a configured database names a PostgreSQL server (else it is a SQLite file)."""
    return isinstance(target, str) and target.startswith(SCHEMES)


@functools.lru_cache(maxsize=4096)
def translate(statement: str) -> str:
    """Portable SQL to psycopg's: ``?`` becomes ``%s`` and a literal ``%`` becomes ``%%``
    (quoted strings and identifiers are copied as they are, except for ``%``)."""
    out: list[str] = []
    quote = ""
    for char in statement:
        if char == "%":
            out.append("%%")
        elif quote:
            out.append(char)
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
            out.append(char)
        elif char == "?":
            out.append("%s")
        else:
            out.append(char)
    return "".join(out)


LOCK_MODULUS = 2**31 - 1
"""A guild's advisory lock is ``(LOCK_CLASS, guild_id % LOCK_MODULUS)``: both keys are 32-bit."""


def guild_lock_key(guild_id: int) -> int:
    """The second key of a guild's advisory lock. Two guilds that share it only wait for each
    other now and then; that is never wrong."""
    return guild_id % LOCK_MODULUS


class _WholeNumberLoader(Loader):
    """``numeric`` as ``int``: Felt stores only whole chips, and ``SUM`` of a ``BIGINT`` column
    is ``numeric`` in PostgreSQL (SQLite returns an int)."""

    def load(self, data: Buffer) -> int | Decimal:
        text = bytes(data)
        if b"." in text or b"N" in text:
            return Decimal(text.decode())
        return int(text)


class PostgresTransaction(RowReader):
    """A :class:`storage.backend.Transaction` over a psycopg cursor inside ``BEGIN``.

    Statements the body sends before anything else are held. A body that only sends (a blind
    settlement, ``storage/holdem_settlement.py``) is written at commit with ``BEGIN`` and
    ``COMMIT`` in one go, as prepared statements (``storage/postgres_batch.py``): one round
    trip. Otherwise the held statements go first when the body needs more: statements run one
    round trip each until the body first calls :meth:`send` or :meth:`ask`; from then on the
    connection is in pipeline mode: sent statements and started queries queue up and reach the
    server together when an answer is needed, and the commit rides with the statements sent
    last."""

    __slots__ = (
        "_begin",
        "_cursor",
        "_held",
        "_locked",
        "_mode",
        "_pipeline",
        "_prepared",
        "_unanswered",
        "committing",
        "trips",
    )

    def __init__(
        self, cursor: psycopg.Cursor[Row], begin: str, prepared: PreparedStatements
    ) -> None:
        self._cursor = cursor
        self._prepared = prepared
        self._held: list[tuple[str, Params]] = []
        """Statements sent before anything reached the server (see the class)."""
        self.trips = 0
        """Round trips so far: each time the body (or the commit) waited for the server."""
        self._unanswered = False
        """Statements were queued in the pipeline since the client last waited for answers."""
        self._begin: str | None = begin
        """Sent with the first statement (so it shares that statement's round trip when the
        body starts by sending or asking)."""
        self._locked: set[int] = set()
        self._pipeline: Pipeline | None = None
        self._mode: contextlib.ExitStack | None = None
        self.committing = False
        """COMMIT was sent: from then on a lost connection may have committed."""

    def _start(self, *, pipelined: bool = False) -> None:
        held, self._held = self._held, []
        if (pipelined or held) and self._mode is None:
            self._mode = contextlib.ExitStack()
            self._pipeline = self._mode.enter_context(self._cursor.connection.pipeline())
        if self._begin is not None:
            self._cursor.execute(self._begin)
            self._begin = None
            if self._pipeline is None:
                self.trips += 1
            else:
                self._unanswered = True
        for statement, params in held:
            self._cursor.execute(translate(statement), params)
            self._unanswered = True

    def _waited(self) -> None:
        """The body waits for an answer: one more round trip."""
        self.trips += 1
        self._unanswered = False

    def execute(self, sql: str, params: Params = ()) -> int:
        self._start()
        self._cursor.execute(translate(sql), params)
        if self._pipeline is not None:
            self._pipeline.sync()  # the row count comes with the answer
        self._waited()
        return self._cursor.rowcount

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self._start()
        self._cursor.executemany(translate(sql), rows)
        if self._pipeline is None:
            self._waited()
        else:
            self._unanswered = True

    def one(self, sql: str, params: Params = ()) -> Row | None:
        self._start()
        self._cursor.execute(translate(sql), params)
        self._waited()
        return self._cursor.fetchone()

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        self._start()
        self._cursor.execute(translate(sql), params)
        self._waited()
        return self._cursor.fetchall()

    def send(self, sql: str, params: Params = ()) -> None:
        if self._begin is not None:
            self._held.append((sql, params))
            return
        self._start(pipelined=True)
        self._cursor.execute(translate(sql), params)
        self._unanswered = True

    def ask(self, sql: str, params: Params = ()) -> Answer:
        self._start(pipelined=True)
        # A cursor of its own: in pipeline mode each cursor keeps its last statement's rows.
        cursor = self._cursor.connection.cursor()
        cursor.execute(translate(sql), params)
        self._unanswered = True

        def fetch() -> list[Row]:
            if self._unanswered:
                self._waited()
            with cursor:
                return cursor.fetchall()

        return Answer(fetch)

    def commit(self) -> None:
        """COMMIT, with whatever was sent and not yet answered; raise what any of it met."""
        if self._begin is not None and self._held:
            encoded = [(sql, encode(params)) for sql, params in self._held]
            if all(values is not None for _, values in encoded):
                self._commit_held(encoded)  # type: ignore[arg-type]
                return
            self._start(pipelined=True)
        if self._begin is not None:
            return  # the body ran no statement: there is no transaction
        self.committing = True
        self._cursor.execute("COMMIT")
        self._waited()
        mode, self._mode, self._pipeline = self._mode, None, None
        if mode is not None:
            mode.close()

    def _commit_held(self, held: list[tuple[str, Encoded]]) -> None:
        """The body only sent: ``BEGIN``, its statements and ``COMMIT`` in one round trip."""
        connection = self._cursor.connection
        # A connection the server closed while it sat in the pool fails here, before anything
        # is written: nothing can have been committed, and it is reopened.
        read_while_idle(connection)
        self.committing = True
        begin, self._begin, self._held = self._begin or "", None, []
        self.trips += 1
        run_held(connection, begin, held, self._prepared)

    def abandon(self) -> None:
        """Leave pipeline mode after an error (the caller rolls back)."""
        mode, self._mode, self._pipeline = self._mode, None, None
        if mode is not None:
            with contextlib.suppress(psycopg.Error):
                error = psycopg.Error("abandoned")
                mode.__exit__(type(error), error, None)

    def lock_guild(self, guild_id: int) -> None:
        if guild_id in self._locked:
            return
        # The key cast to an integer: it may be sent typed bigint (storage/postgres_batch.py).
        self.send(
            f"SELECT pg_advisory_xact_lock({LOCK_CLASS}, CAST(? AS INTEGER))",
            (guild_lock_key(guild_id),),
        )
        self._locked.add(guild_id)

    def lock_guild_of(self, query: str, params: Params = ()) -> None:
        # Sent, not waited for: the lock is taken before the body's first read, which carries
        # it to the server (nothing is read before the lock is held, the server runs in order).
        self.send(
            f"SELECT pg_advisory_xact_lock({LOCK_CLASS}, "
            f"(found.guild_id % {LOCK_MODULUS})::integer) FROM ({query}) AS found (guild_id)",
            params,
        )

    def restart_ids(self, table: str, column: str) -> None:
        self._start()
        self._cursor.execute(
            sql.SQL(
                "SELECT setval(pg_get_serial_sequence({name}, {column_name}), "
                "COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
            ).format(
                name=sql.Literal(table),
                column_name=sql.Literal(column),
                column=sql.Identifier(column),
                table=sql.Identifier(table),
            )
        )


CHECK_SQLSTATE = "FLT01"
"""What ``felt_check`` raises (migration 0010): a check the storage logic asked for failed."""


def _translate_error(error: psycopg.Error) -> StorageError:
    if isinstance(error, errors.LockNotAvailable | errors.QueryCanceled):
        return DatabaseBusy()
    if error.sqlstate == CHECK_SQLSTATE:
        return CheckFailed(error.diag.message_primary or "", error.diag.message_detail or "")
    diagnostic = error.diag.message_primary if isinstance(error, psycopg.DatabaseError) else None
    return DatabaseFailure(diagnostic or str(error).strip() or type(error).__name__)


class _Slot:
    """One pooled connection, reopened on its next use if the server dropped it."""

    __slots__ = ("_connect", "_connection", "prepared", "round_trips")

    def __init__(self, connect: Callable[[], psycopg.Connection[Row]]) -> None:
        self._connect = connect
        self._connection: psycopg.Connection[Row] | None = None
        self.round_trips = 0
        """Round trips of the transactions this connection committed."""
        self.prepared = PreparedStatements()
        """What :mod:`storage.postgres_batch` prepared on the current connection."""

    def connection(self) -> psycopg.Connection[Row]:
        current = self._connection
        if current is None or current.closed or current.broken:
            if current is not None:
                current.close()
            self.prepared.clear()
            self._connection = current = self._connect()
        return current

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _rollback(connection: psycopg.Connection[Row]) -> None:
    if connection.closed or connection.broken:
        return
    with contextlib.suppress(psycopg.Error):
        connection.execute("ROLLBACK")


_RETRIED = (errors.DeadlockDetected, errors.SerializationFailure, errors.UniqueViolation)


def _run_transaction(slot: _Slot, begin: str, body: Callable[[Transaction], R]) -> R:
    """Run ``body`` between ``begin`` and COMMIT on a worker thread; roll back on any error and
    run it again after a deadlock or a concurrent duplicate key (a body has no other effects).

    A connection the server dropped while it sat in the pool (a restart, an idle timeout) fails
    before COMMIT was sent (``begin`` itself travels with the body's first statement): it is
    reopened once and the transaction run on the new one. A connection lost after COMMIT was
    sent raises :class:`DatabaseFailure`: the commit may or may not have happened, and a retry
    with the same key tells which.
    """
    attempt = 1
    reopened = False
    while True:
        try:
            connection = slot.connection()
            with connection.cursor() as cursor:
                transaction = PostgresTransaction(cursor, begin, slot.prepared)
                try:
                    result = body(transaction)
                    transaction.commit()
                    slot.round_trips += transaction.trips
                except BaseException as error:
                    transaction.abandon()
                    _rollback(connection)
                    if (
                        isinstance(error, psycopg.OperationalError)
                        and not transaction.committing
                        and not reopened
                        and (connection.closed or connection.broken)
                    ):
                        reopened = True  # nothing can have been committed: run it again
                        continue
                    raise
            return result
        except errors.InvalidSqlStatementName as error:
            # The statements storage/postgres_batch.py prepared are gone: psycopg deallocates
            # every prepared statement after a rollback (it cannot tell which of its own a
            # failed pipeline left half made), and a pooler may hand out another server
            # connection. Nothing was applied: prepare them anew.
            slot.prepared.clear()
            if attempt >= MAX_ATTEMPTS:
                raise _translate_error(error) from error
            attempt += 1
        except _RETRIED as error:
            if attempt >= MAX_ATTEMPTS:
                raise _translate_error(error) from error
            attempt += 1
        except psycopg.Error as error:
            raise _translate_error(error) from error


def _tables(cursor: psycopg.Cursor[Row], shown: str) -> set[str]:
    """The tables (and views) in the schema Felt uses: the first existing one of search_path."""
    schema = cursor.execute("SELECT current_schema()").fetchone()
    if schema is None or schema[0] is None:
        raise DatabaseFailure(f"{shown}: no schema of the search_path exists")
    rows = cursor.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
    ).fetchall()
    return {str(row[0]) for row in rows}


def _version(cursor: psycopg.Cursor[Row], shown: str) -> int:
    """The applied schema version, 0 for an empty schema; refuse another program's schema."""
    tables = _tables(cursor, shown)
    if VERSION_TABLE not in tables:
        if tables:
            raise NotAFeltDatabase(shown, "it holds another program's tables")
        return 0
    row = cursor.execute(f"SELECT COALESCE(MAX(version), 0) FROM {VERSION_TABLE}").fetchone()
    return int(row[0]) if row else 0


def _migrate(connection: psycopg.Connection[Row], shown: str) -> MigrationReport:
    """Apply every pending migration, each in its own transaction with its version row, under an
    advisory lock so that processes starting together migrate once."""
    migrations = load_postgres_migrations()
    latest = len(migrations)
    with connection.cursor() as cursor:
        before = _version(cursor, shown)
        if before > latest:
            raise DatabaseTooNew(shown, before, latest)
        applied: list[str] = []
        for migration in migrations[before:]:
            try:
                cursor.execute("BEGIN")
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                # Another process may have migrated while we waited for the lock.
                if _version(cursor, shown) >= migration.version:
                    cursor.execute("COMMIT")
                    continue
                cursor.execute(
                    f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                cursor.execute(migration.sql.encode())
                cursor.execute(
                    f"INSERT INTO {VERSION_TABLE} (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
                cursor.execute("COMMIT")
            except StorageError:
                _rollback(connection)
                raise
            except psycopg.Error as error:
                _rollback(connection)
                raise MigrationError(f"migration {migration.name} failed: {error}") from error
            applied.append(migration.name)
        after = _version(cursor, shown)
    return MigrationReport(shown, before, after, tuple(applied))


def _inspect(connection: psycopg.Connection[Row], shown: str, create: bool) -> int:
    """The schema version of a database opened without migrating; refuse if unusable."""
    latest = len(load_postgres_migrations())
    with connection.cursor() as cursor:
        version = _version(cursor, shown)
    if version > latest:
        raise DatabaseTooNew(shown, version, latest)
    if version == 0 and not create:
        raise DatabaseNotFound(shown)
    if version < latest:
        raise DatabaseOutdated(shown, version, latest)
    return version


def _require_existing(connection: psycopg.Connection[Row], shown: str) -> None:
    with connection.cursor() as cursor:
        if _version(cursor, shown) == 0:
            raise DatabaseNotFound(shown)


def load_postgres_migrations() -> tuple[Migration, ...]:
    """The PostgreSQL dialect of every migration, in order (numbering checked)."""
    return load_migrations(MIGRATIONS_DIR)


class PostgresBackend:
    """A Felt database in a PostgreSQL schema, used through a small pool of connections."""

    def __init__(
        self,
        path: str,
        slots: list[_Slot],
        schema_version: int,
        migration: MigrationReport | None,
    ) -> None:
        self.path = path
        self.schema_version = schema_version
        self.migration = migration
        """What opening migrated, if it was asked to."""
        self._size = len(slots)
        self._slots = tuple(slots)
        self._idle: asyncio.LifoQueue[_Slot] = asyncio.LifoQueue()
        for slot in slots:
            self._idle.put_nowait(slot)
        self._executor = ThreadPoolExecutor(self._size, thread_name_prefix="felt-postgres")
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        create: bool = True,
        migrate: bool = True,
        pool_size: int = DEFAULT_POOL_SIZE,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> PostgresBackend:
        """Connect to the database at ``url`` and (by default) migrate its schema.

        Felt uses the first existing schema of the connection's ``search_path`` (``public``
        unless the URL says otherwise, e.g. ``?options=-csearch_path%3Dfelt``). Without
        ``create`` an empty schema raises :class:`DatabaseNotFound`; without ``migrate`` an old
        schema raises :class:`DatabaseOutdated`; a schema written by a newer Felt raises
        :class:`DatabaseTooNew`, and one holding another program's tables
        :class:`NotAFeltDatabase`. ``lock_timeout`` bounds how long a write waits for another
        process's lock on the same guild (then :class:`DatabaseBusy`).
        """
        if pool_size < 1:
            raise ValueError("pool_size must be at least 1")
        shown = redact(url)
        connect = functools.partial(_connect, url, shown, lock_timeout)
        loop = asyncio.get_running_loop()
        slots = [_Slot(connect) for _ in range(pool_size)]
        first = slots[0]
        try:
            connection = await loop.run_in_executor(None, first.connection)
            report: MigrationReport | None = None
            if migrate and not create:
                await loop.run_in_executor(None, _require_existing, connection, shown)
            if migrate:
                report = await loop.run_in_executor(None, _migrate, connection, shown)
                version = report.version_after
            else:
                version = await loop.run_in_executor(None, _inspect, connection, shown, create)
        except BaseException:
            await loop.run_in_executor(None, first.close)
            raise
        return cls(shown, slots, version, report)

    async def _submit(self, begin: str, body: Callable[[Transaction], R]) -> R:
        if self._closed:
            raise StorageClosed()
        slot = await self._idle.get()
        if self._closed:
            self._idle.put_nowait(slot)
            raise StorageClosed()
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, _run_transaction, slot, begin, body)

        def release(done: asyncio.Future[R]) -> None:
            self._idle.put_nowait(slot)
            if not done.cancelled():
                done.exception()  # retrieved: a caller that was cancelled will not ask

        future.add_done_callback(release)
        # If the caller is cancelled, the transaction still finishes (commits or rolls back as
        # a unit) and only then gives its connection back; a retry with the same key replays.
        return await asyncio.shield(future)

    @property
    def round_trips(self) -> int:
        """Round trips of every transaction committed so far (``BEGIN`` to ``COMMIT``): how
        many times a transaction waited for the server."""
        return sum(slot.round_trips for slot in self._slots)

    async def write(self, body: Callable[[Transaction], R], *, bulk: bool = False) -> R:
        """Run ``body`` in one READ COMMITTED transaction; it serializes itself per guild
        through :meth:`PostgresTransaction.lock_guild` before reading anything. Every write runs
        on a worker thread, so a ``bulk`` one is already off the event loop."""
        return await self._submit("BEGIN ISOLATION LEVEL READ COMMITTED", body)

    async def read(self, body: Callable[[Transaction], R]) -> R:
        """Run ``body`` in one read-only snapshot."""
        return await self._submit("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)

    async def flush(self) -> bool:
        """Nothing to do: a PostgreSQL commit returns once it is durable (``synchronous_commit``
        is the server's to choose)."""
        if self._closed:
            raise StorageClosed()
        return False

    async def close(self) -> None:
        """Wait for the transactions in flight and those already waiting for a connection
        (waiters are served in order, before this), then close every connection. Safe to call
        twice."""
        if self._closed:
            return
        self._closed = True
        slots = [await self._idle.get() for _ in range(self._size)]
        loop = asyncio.get_running_loop()
        for slot in slots:
            await loop.run_in_executor(self._executor, slot.close)
        self._executor.shutdown(wait=True)


def _connect(url: str, shown: str, lock_timeout: float) -> psycopg.Connection[Row]:
    try:
        connection = psycopg.connect(
            url, autocommit=True, application_name="felt", connect_timeout=10
        )
    except psycopg.Error as error:
        raise DatabaseFailure(f"cannot connect to {shown}: {error}".strip()) from error
    connection.adapters.register_loader("numeric", _WholeNumberLoader)
    connection.prepared_max = 512
    connection.execute(
        "SELECT set_config('lock_timeout', %s, false)", (f"{int(lock_timeout * 1000)}ms",)
    )
    return connection
