"""The SQLite adapter: connections, pragmas, ``BEGIN IMMEDIATE`` transactions and migrations.

Everything SQLite-specific lives here (and in the DDL of ``storage/migrations/``): WAL, the
``synchronous`` level, foreign keys, the busy timeout, ``PRAGMA user_version`` and
``application_id``. Three aiosqlite connections are opened: a writer, serialized by an
``asyncio.Lock``, a ``query_only`` reader whose snapshots (WAL) never show half a transaction, and
one that checkpoints the log beside the writer (``storage/sqlite_checkpoint.py``).

A write's body runs as one call: under ``synchronous=NORMAL`` on the event loop itself (a commit
only hands the log to the OS; the hop to a thread and back cost a settlement a third of its time),
under ``FULL``, for a ``bulk`` write, or while another process holds the write lock, on the
writer connection's own aiosqlite thread (see :meth:`SqliteBackend.write`). A read's body runs
on the reader's thread. If the awaiting coroutine is cancelled, the body still finishes and
commits or rolls back as a unit; a caller that retries with the same idempotency key then gets
the stored result.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.backend import Answer, Params, Row, RowReader, Transaction
from storage.errors import (
    CheckFailed,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseNotFound,
    DatabaseOutdated,
    DatabaseReadOnly,
    DatabaseTooNew,
    DatabaseUnavailable,
    MigrationError,
    NotAFeltDatabase,
    StorageClosed,
    StorageError,
)
from storage.models import MigrationReport
from storage.sqlite_checkpoint import Checkpointer

R = TypeVar("R")

APPLICATION_ID = 0x46454C54
"""``PRAGMA application_id`` of a Felt database: "FELT" in ASCII."""

DEFAULT_BUSY_TIMEOUT = 5.0
"""Seconds a connection waits for another process's write lock before giving up."""

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
"""Where the numbered ``NNNN_name.sql`` files live (shipped as package data)."""


class Synchronous(StrEnum):
    """SQLite's ``synchronous`` level in WAL mode: how hard a commit waits for the disk.

    ``FULL`` fsyncs the write-ahead log at every commit: a committed operation survives a power
    cut or a kernel crash, and every operation pays one fsync (measured on our 2-core VM: from
    300 to 6,800 fsyncs/s depending on what else uses the disk).

    ``NORMAL`` (the default) lets a commit return once the log is written to the OS: a killed
    or crashed *process* loses nothing (the kernel still holds and writes the log; the crash test
    proves it), and the database can never be corrupted. On top of it the backend fsyncs the log
    at most ``flush_interval`` (1 s) after a write, so a power cut or kernel crash loses at most
    the last second of operations, each entirely or not at all: hands and rounds left unfinished
    by that are voided and refunded by recovery, as after any crash.
    """

    FULL = "FULL"
    NORMAL = "NORMAL"


DEFAULT_SYNCHRONOUS = Synchronous.NORMAL
DEFAULT_FLUSH_INTERVAL = 1.0
"""With ``NORMAL``: seconds after a write by which the write-ahead log is fsynced."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema step from ``storage/migrations/NNNN_name.sql``."""

    version: int
    name: str
    sql: str

    @property
    def statements(self) -> list[str]:
        """The file split into complete statements (trigger bodies kept whole)."""
        statements: list[str] = []
        buffer = ""
        for line in self.sql.splitlines(keepends=True):
            if not buffer and (not line.strip() or line.lstrip().startswith("--")):
                continue
            buffer += line
            if sqlite3.complete_statement(buffer):
                statements.append(buffer.strip())
                buffer = ""
        if buffer.strip():
            raise MigrationError(f"migration {self.name} ends with an incomplete statement")
        return statements


def load_migrations(directory: Path | None = None) -> tuple[Migration, ...]:
    """Every migration shipped with this version of Felt, in order; checks the numbering.

    ``directory`` defaults to the SQLite migrations; the PostgreSQL adapter passes its own.
    """
    found: list[Migration] = []
    for entry in (directory or MIGRATIONS_DIR).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda migration: migration.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration number {expected} is missing (found {migration.name})")
    return tuple(found)


def latest_version() -> int:
    """The schema version this code writes."""
    return len(load_migrations())


class SqliteTransaction(RowReader):
    """A :class:`storage.backend.Transaction` over a sqlite3 connection inside ``BEGIN``."""

    __slots__ = ("_cursor",)

    def __init__(self, connection: sqlite3.Connection) -> None:
        # One cursor for the whole transaction (``Connection.execute`` makes one per statement,
        # and a settlement runs about 30): every method finishes its statement before it
        # returns, so the next one may reuse it. Rows come as tuples (no row factory is set).
        self._cursor = connection.cursor()

    def execute(self, sql: str, params: Params = ()) -> int:
        return self._cursor.execute(sql, params).rowcount

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self._cursor.executemany(sql, rows)

    def one(self, sql: str, params: Params = ()) -> Row | None:
        # fetchall, not fetchone: it finishes the statement (RETURNING included) at once.
        rows: list[Row] = self._cursor.execute(sql, params).fetchall()
        return rows[0] if rows else None

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = self._cursor.execute(sql, params).fetchall()
        return rows

    def send(self, sql: str, params: Params = ()) -> None:
        """Run at once: SQLite is in this process, a statement costs no round trip."""
        self._cursor.execute(sql, params)

    def ask(self, sql: str, params: Params = ()) -> Answer:
        rows = self.all(sql, params)
        return Answer(lambda: rows)

    def lock_guild(self, guild_id: int) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already runs every write alone."""

    def lock_guild_of(self, query: str, params: Params = ()) -> None:
        """Nothing to do (and nothing to read), as for :meth:`lock_guild`."""

    def restart_ids(self, table: str, column: str) -> None:
        """Nothing to do: an ``INTEGER PRIMARY KEY`` always continues after the largest id."""


_failed_checks = threading.local()
"""The check that failed last on this thread: sqlite3 turns an exception raised in a function
into a bare ``OperationalError``, so :func:`_felt_check` leaves its reason here for
:func:`_translate` (a transaction runs on one thread from its statement to its translation)."""


def _felt_check(ok: object, code: object, detail: object) -> int:
    """SQLite's ``felt_check(ok, code, detail)`` (see ``storage/backend.py``)."""
    if ok is None or not ok:
        _failed_checks.last = CheckFailed(str(code), "" if detail is None else str(detail))
        raise ValueError(code)
    return 1


def _translate(error: sqlite3.Error) -> StorageError:
    failed: CheckFailed | None = getattr(_failed_checks, "last", None)
    if failed is not None:
        _failed_checks.last = None
        if isinstance(error, sqlite3.OperationalError):
            return failed
    text = str(error)
    if isinstance(error, sqlite3.OperationalError) and "locked" in text:
        return DatabaseBusy()
    return DatabaseFailure(text)


def _run_transaction(
    connection: sqlite3.Connection, begin: str, body: Callable[[Transaction], R]
) -> R:
    """Run ``body`` between ``begin`` and COMMIT; roll back on any error."""
    _failed_checks.last = None
    try:
        connection.execute(begin)
    except sqlite3.Error as error:
        raise _translate(error) from error
    return _finish(connection, body)


class _Locked:
    """What :func:`_run_unless_locked` returns when another connection holds the write lock."""


_LOCKED = _Locked()


def _run_unless_locked(
    connection: sqlite3.Connection, body: Callable[[Transaction], R]
) -> R | _Locked:
    """Run ``body`` as a ``BEGIN IMMEDIATE`` transaction on a connection whose busy timeout is
    0, unless another connection (another process) holds the write lock: then nothing was done
    and :data:`_LOCKED` says so."""
    _failed_checks.last = None
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
            return _LOCKED
        raise _translate(error) from error
    except sqlite3.Error as error:
        raise _translate(error) from error
    return _finish(connection, body)


def _run_waiting(
    connection: sqlite3.Connection, busy_ms: int, body: Callable[[Transaction], R]
) -> R:
    """Run ``body`` as a ``BEGIN IMMEDIATE`` transaction, waiting up to ``busy_ms`` for another
    connection's write lock, on a connection whose busy timeout is otherwise 0."""
    connection.execute(f"PRAGMA busy_timeout = {busy_ms}")
    try:
        return _run_transaction(connection, "BEGIN IMMEDIATE", body)
    finally:
        connection.execute("PRAGMA busy_timeout = 0")


def _finish(connection: sqlite3.Connection, body: Callable[[Transaction], R]) -> R:
    """Run ``body`` inside the transaction just begun, then COMMIT; roll back on any error."""
    try:
        result = body(SqliteTransaction(connection))
        connection.execute("COMMIT")
    except BaseException as error:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise _translate(error) from error
        raise
    return result


def _header(connection: sqlite3.Connection) -> tuple[int, int, int]:
    """``(user_version, application_id, number of schema objects)``."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    application = connection.execute("PRAGMA application_id").fetchone()[0]
    objects = connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
    return int(version), int(application), int(objects)


def _check_identity(path: str, version: int, application: int, objects: int) -> None:
    if application not in (0, APPLICATION_ID):
        raise NotAFeltDatabase(path, f"application id {application:#x}")
    if application == 0 and (version != 0 or objects != 0):
        raise NotAFeltDatabase(path, "it holds another program's tables")


def _migrate(connection: sqlite3.Connection, path: str) -> MigrationReport:
    """Apply every pending migration, each in its own transaction with its version bump."""
    migrations = load_migrations()
    latest = len(migrations)
    try:
        before, application, objects = _header(connection)
    except sqlite3.DatabaseError as error:
        raise NotAFeltDatabase(path, str(error)) from error
    _check_identity(path, before, application, objects)
    if before > latest:
        raise DatabaseTooNew(path, before, latest)
    applied: list[str] = []
    for migration in migrations[before:]:
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise _translate(error) from error
        try:
            # Another process may have migrated while we waited for the lock.
            current = connection.execute("PRAGMA user_version").fetchone()[0]
            if current >= migration.version:
                connection.execute("COMMIT")
                continue
            for statement in migration.statements:
                connection.execute(statement)
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {migration.version}")
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise MigrationError(f"migration {migration.name} failed: {error}") from error
        applied.append(migration.name)
    after = connection.execute("PRAGMA user_version").fetchone()[0]
    return MigrationReport(path, before, int(after), tuple(applied))


def _inspect(connection: sqlite3.Connection, path: str) -> int:
    """The schema version of a database opened without migrating; refuse if unusable."""
    latest = latest_version()
    try:
        version, application, objects = _header(connection)
    except sqlite3.DatabaseError as error:
        raise NotAFeltDatabase(path, str(error)) from error
    _check_identity(path, version, application, objects)
    if version > latest:
        raise DatabaseTooNew(path, version, latest)
    if version < latest:
        raise DatabaseOutdated(path, version, latest)
    return version


def _configure(
    connection: sqlite3.Connection, synchronous: Synchronous, busy_timeout: float, writer: bool
) -> None:
    connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.create_function("felt_check", 3, _felt_check)
    if writer:
        mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise DatabaseFailure(f"cannot switch to WAL journal mode (got {mode})")
        # The checkpointer connection checkpoints instead, off the commit path.
        connection.execute("PRAGMA wal_autocheckpoint = 0")
    connection.execute(f"PRAGMA synchronous = {synchronous.value}")
    if not writer:
        connection.execute("PRAGMA query_only = ON")


async def _call(connection: aiosqlite.Connection, function: Callable[..., R], *args: Any) -> R:
    """Run ``function(*args)`` on the connection's own worker thread, through aiosqlite's queue.

    This is the one place that uses aiosqlite's internal ``_execute``: a whole transaction in
    one hop instead of one per statement (a settlement runs about 20 statements, and each hop
    costs about 80 us on our VM).
    """
    result: R = await connection._execute(function, *args)  # type: ignore[no-untyped-call]
    return result


class OpenMode(StrEnum):
    """How a connection opens the file (SQLite's URI ``mode`` parameter)."""

    CREATE = "rwc"
    WRITE = "rw"
    READ = "ro"
    READ_IMMUTABLE = "ro&immutable=1"
    """Read a file nobody can write (a read-only mount): SQLite then takes no locks and needs
    no ``-shm`` file, which it could not create there."""


def _uri(path: Path, mode: OpenMode) -> str:
    return f"{path.resolve().as_uri()}?mode={mode.value}"


def is_writable(file: Path) -> bool:
    """Whether this process can write ``file`` (an existing one) and create files next to it
    (SQLite's ``-wal`` and ``-shm``): not on a read-only mount, not a read-only file or folder."""
    folder = file.resolve().parent
    try:
        read_only_mount = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only_mount = False
    return not read_only_mount and os.access(file, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)


class SqliteBackend:
    """A Felt database in one SQLite file: one writer connection and one reader connection."""

    def __init__(
        self,
        path: str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        schema_version: int,
        migration: MigrationReport | None,
        *,
        wal_path: Path,
        flush_interval: float | None = None,
        checkpointer: aiosqlite.Connection | None = None,
        inline_busy_timeout: float | None = None,
    ) -> None:
        self.path = path
        self.schema_version = schema_version
        self.migration = migration
        """What opening migrated, if it was asked to."""
        self._writer = writer
        self._reader = reader
        self._writer_raw = writer._conn
        self._reader_raw = reader._conn
        self._write_lock = asyncio.Lock()
        self._checkpoint_connection = checkpointer
        self.checkpointer: Checkpointer | None = (
            None
            if checkpointer is None
            else Checkpointer(
                functools.partial(_call, checkpointer), checkpointer._conn, self._write_lock
            )
        )
        self._closed = False
        self._wal_path = wal_path
        self._inline_busy_ms = (
            None if inline_busy_timeout is None else int(inline_busy_timeout * 1000)
        )
        """Set when writes run on the event loop (``NORMAL``, see :meth:`write`): the wait for
        another process's write lock, in ms, taken on the writer's thread instead."""
        self._writes = 0
        self._flushed = 0
        self._flusher: asyncio.Task[None] | None = None
        if flush_interval:
            self._flusher = asyncio.get_running_loop().create_task(
                self._flush_every(flush_interval), name=f"felt-storage-flush {path}"
            )

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        create: bool = True,
        migrate: bool = True,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        flush_interval: float = DEFAULT_FLUSH_INTERVAL,
        read_only: bool = False,
    ) -> SqliteBackend:
        """Open (and by default create and migrate) the database file at ``path``.

        With ``NORMAL``, the log is fsynced at most ``flush_interval`` seconds after a write
        (0 turns that off). Raises :class:`DatabaseNotFound` without ``create`` when the file
        is missing, :class:`NotAFeltDatabase`, :class:`DatabaseTooNew`, or without ``migrate``
        :class:`DatabaseOutdated` when the schema is behind; :class:`DatabaseReadOnly` when the
        file cannot be written and ``read_only`` was not asked for; :class:`DatabaseUnavailable`
        when SQLite cannot open the path at all.

        ``read_only`` opens one query-only connection (writes fail) for commands that only read
        (``felt db check``, ``felt db export``), so a backup on a read-only mount can be read.
        """
        file = Path(path)
        shown = str(path)
        exists = await asyncio.to_thread(file.exists)
        if (not create or read_only) and not exists:
            raise DatabaseNotFound(shown)
        if read_only:
            return await cls._open_read_only(file, shown, synchronous, busy_timeout)
        if exists and not await asyncio.to_thread(is_writable, file):
            raise DatabaseReadOnly(shown)
        mode = OpenMode.CREATE if create else OpenMode.WRITE
        inline = synchronous is Synchronous.NORMAL
        writer = await _connect(file, mode, busy_timeout=busy_timeout, shared=inline)
        reader: aiosqlite.Connection | None = None
        checkpointer: aiosqlite.Connection | None = None
        try:
            raw = writer._conn
            try:
                await _call(writer, _configure, raw, synchronous, busy_timeout, True)
            except sqlite3.DatabaseError as error:
                raise NotAFeltDatabase(shown, str(error)) from error
            report: MigrationReport | None = None
            if migrate:
                report = await _call(writer, _migrate, raw, shown)
                version = report.version_after
            else:
                version = await _call(writer, _inspect, raw, shown)
            if inline:
                # Writes on the event loop never wait there for another process (see write).
                await _call(writer, raw.execute, "PRAGMA busy_timeout = 0")
            reader = await _connect(file, OpenMode.WRITE, busy_timeout=busy_timeout)
            await _call(reader, _configure, reader._conn, synchronous, busy_timeout, False)
            checkpointer = await _connect(file, OpenMode.WRITE, busy_timeout=busy_timeout)
            await _call(
                checkpointer, _configure, checkpointer._conn, synchronous, busy_timeout, False
            )
        except BaseException:
            for connection in (checkpointer, reader, writer):
                if connection is not None:
                    await connection.close()
            raise
        interval = flush_interval if synchronous is Synchronous.NORMAL else 0
        # SQLite names the log after the resolved path it was given (see _uri).
        wal = Path(f"{await asyncio.to_thread(file.resolve)}-wal")
        return cls(
            shown,
            writer,
            reader,
            version,
            report,
            wal_path=wal,
            flush_interval=interval,
            checkpointer=checkpointer,
            inline_busy_timeout=busy_timeout if inline else None,
        )

    @classmethod
    async def _open_read_only(
        cls, file: Path, shown: str, synchronous: Synchronous, busy_timeout: float
    ) -> SqliteBackend:
        """One query-only connection, as both reader and writer: every write is refused."""
        writable = await asyncio.to_thread(is_writable, file)
        mode = OpenMode.READ if writable else OpenMode.READ_IMMUTABLE
        connection = await _connect(file, mode, busy_timeout=busy_timeout)
        try:
            try:
                await _call(
                    connection, _configure, connection._conn, synchronous, busy_timeout, False
                )
            except sqlite3.DatabaseError as error:
                raise NotAFeltDatabase(shown, str(error)) from error
            version = await _call(connection, _inspect, connection._conn, shown)
        except BaseException:
            await connection.close()
            raise
        wal = Path(f"{await asyncio.to_thread(file.resolve)}-wal")
        return cls(shown, connection, connection, version, None, wal_path=wal)

    async def write(self, body: Callable[[Transaction], R], *, bulk: bool = False) -> R:
        """Run ``body`` as one ``BEGIN IMMEDIATE`` transaction, serialized with all writes.

        Under ``NORMAL`` it runs on the event loop itself: a commit there only hands the log's
        pages to the OS (the flusher fsyncs on a thread of its own), and a settlement takes
        about 0.36-0.43 ms against 0.60-0.65 ms with the hop to the writer's thread and back
        (``bench/storage_throughput.py``, issue 21). When another process holds the write lock,
        the wait for it (up to the busy timeout) is taken on the writer's thread, never on the
        loop. Under ``FULL`` every commit waits for the disk, so every write runs on the thread.
        Either way a write gives the loop's other tasks a turn (on the loop, before it starts),
        so a caller writing in a loop never starves them. A ``bulk`` write, whose rows grow with
        a guild's members or a tournament's field (a season reset of 10,000 wallets takes about
        150 ms), always runs on the writer's thread, so the loop's clicks do not wait for it
        (``bench/storage_throughput.py --bulk 10000``).
        """
        inline = self._inline_busy_ms is not None and not bulk
        if inline:
            await asyncio.sleep(0)
        async with self._write_lock:
            if self._closed:
                raise StorageClosed()
            self._writes += 1
            try:
                if self._inline_busy_ms is None:
                    return await _call(
                        self._writer, _run_transaction, self._writer_raw, "BEGIN IMMEDIATE", body
                    )
                if inline:
                    done = _run_unless_locked(self._writer_raw, body)
                    if not isinstance(done, _Locked):
                        return done
                return await _call(
                    self._writer, _run_waiting, self._writer_raw, self._inline_busy_ms, body
                )
            finally:
                if self.checkpointer is not None:
                    self.checkpointer.wrote()

    async def read(self, body: Callable[[Transaction], R]) -> R:
        """Run ``body`` inside one read snapshot on the reader connection."""
        if self._closed:
            raise StorageClosed()
        return await _call(self._reader, _run_transaction, self._reader_raw, "BEGIN", body)

    async def flush(self) -> bool:
        """Make every transaction committed so far durable now (fsync the write-ahead log).

        Returns whether anything needed flushing. Under ``FULL`` every commit already is.
        """
        target = self._writes
        if target == self._flushed:
            return False
        await asyncio.to_thread(_fsync, self._wal_path)
        self._flushed = max(self._flushed, target)
        return True

    async def _flush_every(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.flush()
            except OSError:  # pragma: no cover - the next tick retries; closing syncs anyway
                continue

    async def close(self) -> None:
        """Wait for the write in flight, then close both connections. Safe to call twice.

        Closing the last connection checkpoints the log into the database file and syncs it.
        """
        async with self._write_lock:
            if self._closed:
                return
            self._closed = True
            if self._flusher is not None:
                self._flusher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._flusher
            if self.checkpointer is not None:
                await self.checkpointer.stop()
            if self._checkpoint_connection is not None:
                await self._checkpoint_connection.close()
            await self._reader.close()
            if self._writer is not self._reader:
                await self._writer.close()


def _fsync(path: Path) -> None:
    """fsync a file by path (the WAL); a missing file has nothing to sync."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


async def _connect(
    path: Path, mode: OpenMode, *, busy_timeout: float, shared: bool = False
) -> aiosqlite.Connection:
    """An aiosqlite connection; ``shared`` lets the event loop's thread use it too (the writer
    under ``NORMAL``: the backend's write lock keeps its uses one at a time)."""
    connection = aiosqlite.connect(
        _uri(path, mode),
        uri=True,
        isolation_level=None,
        timeout=busy_timeout,
        cached_statements=256,
        check_same_thread=not shared,
    )
    try:
        return await connection
    except sqlite3.Error as error:
        # aiosqlite stops its worker thread without waiting for it; wait here, or the thread
        # reports to an event loop that has closed (a traceback after the one-line error).
        await asyncio.to_thread(connection._thread.join, 5.0)
        raise DatabaseUnavailable(str(path), str(error)) from error


async def migrate_database(path: str | Path) -> MigrationReport:
    """Create the database if needed and apply every pending migration (``felt db migrate``)."""
    backend = await SqliteBackend.open(path, create=True, migrate=True)
    try:
        assert backend.migration is not None
        return backend.migration
    finally:
        await backend.close()
