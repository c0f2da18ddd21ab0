"""A transaction made only of sent statements, written to PostgreSQL at once as prepared statements.

A blind settlement (``storage/holdem_settlement.py``) sends about ten statements and reads
nothing, so the whole transaction is known before anything reaches the server. psycopg's
pipeline mode would still push each statement through its cursor machinery and to the socket
as it is executed (a poll and a write per statement, and as many wakeups of the server), and
its automatic preparing keys a statement by its parameters' types, which follow each int's size
(``smallint`` for 500, ``integer`` for 50,000): a settlement's statements seldom repeat with the
same types, so they were parsed and planned at every settlement. Here the held statements go to
libpq directly: ``BEGIN``, each statement as a server-side prepared statement (prepared on the
connection the first time its text is seen, every int typed ``bigint``), ``COMMIT`` and one
sync, written in one go and answered in one round trip.
"""

from __future__ import annotations

import functools
import select
from collections.abc import Sequence

import psycopg
from psycopg import errors, pq
from psycopg.generators import send

from storage.backend import Params, Row

INT8_OID = 20
BOOL_OID = 16
UNKNOWN_OID = 0
"""Text sent as ``unknown``: the server gives it the type its place needs (as psycopg does)."""

MAX_PREPARED = 256
"""Statements prepared per connection; beyond that they are sent unprepared (never evicted:
a settlement uses a few dozen texts, one per seat count)."""

_INT8_MIN, _INT8_MAX = -(2**63), 2**63 - 1

Encoded = tuple[list[bytes | None], tuple[int, ...]]
"""A statement's parameters in libpq's text format, and their type oids."""


@functools.lru_cache(maxsize=4096)
def numbered(statement: str) -> bytes:
    """Portable SQL to libpq's: the n-th ``?`` becomes ``$n`` (quoted strings and identifiers
    are copied as they are)."""
    out: list[str] = []
    quote = ""
    count = 0
    for char in statement:
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "?":
            count += 1
            out.append(f"${count}")
            continue
        out.append(char)
    return "".join(out).encode()


def encode(params: Params) -> Encoded | None:
    """The parameters in text format with their types; None if one is of a type this path does
    not send (the transaction then goes through psycopg as usual)."""
    values: list[bytes | None] = []
    types: list[int] = []
    for value in params:
        kind = type(value)
        if kind is int:
            if not _INT8_MIN <= value <= _INT8_MAX:  # type: ignore[operator]
                return None
            values.append(b"%d" % value)  # type: ignore[str-format]
            types.append(INT8_OID)
        elif kind is str:
            values.append(value.encode())  # type: ignore[attr-defined]
            types.append(UNKNOWN_OID)
        elif value is None:
            values.append(None)
            types.append(UNKNOWN_OID)
        elif kind is bool:
            values.append(b"t" if value else b"f")
            types.append(BOOL_OID)
        else:
            return None
    return values, tuple(types)


class PreparedStatements:
    """The statements prepared on one connection, by text and parameter types."""

    __slots__ = ("_made", "_names")

    def __init__(self) -> None:
        self._names: dict[tuple[bytes, tuple[int, ...]], bytes] = {}
        self._made = 0

    def clear(self) -> None:
        """Forget them all (the connection was replaced, or its statements deallocated)."""
        self._names.clear()

    def __len__(self) -> int:
        return len(self._names)

    def _new_name(self) -> bytes:
        self._made += 1
        return b"felt_%d" % self._made


def read_while_idle(connection: psycopg.Connection[Row]) -> None:
    """Read what the server sent while the connection sat idle in the pool: nothing, normally.
    A server that ended the session (a restart, an idle timeout, an administrator) sent its
    error and closed the socket: reading to the end raises ``OperationalError`` here, before
    anything of the transaction is written."""
    pgconn = connection.pgconn
    waiting = select.poll()
    waiting.register(pgconn.socket, select.POLLIN)
    while waiting.poll(0):
        pgconn.consume_input()


def run_held(
    connection: psycopg.Connection[Row],
    begin: str,
    held: Sequence[tuple[str, Encoded]],
    prepared: PreparedStatements,
) -> None:
    """Run ``begin``, the ``held`` statements and ``COMMIT`` in one round trip; raise the
    psycopg error of the first command that failed (the transaction is then left open and
    failed: the caller rolls it back)."""
    pgconn = connection.pgconn
    names = prepared._names
    parsing: dict[tuple[bytes, tuple[int, ...]], bytes] = {}
    steps: list[tuple[bytes, tuple[int, ...]] | None] = []
    """What each command sent answers: a statement being prepared (its key), or None."""
    pgconn.enter_pipeline_mode()
    try:
        pgconn.send_query_params(begin.encode(), None)
        steps.append(None)
        for statement, (values, types) in held:
            text = numbered(statement)
            key = (text, types)
            name = names.get(key) or parsing.get(key)
            if name is None and len(names) + len(parsing) < MAX_PREPARED:
                name = parsing[key] = prepared._new_name()
                pgconn.send_prepare(name, text, types)
                steps.append(key)
            if name is None:
                pgconn.send_query_params(text, values, types)
            else:
                pgconn.send_query_prepared(name, values)
            steps.append(None)
        pgconn.send_query_params(b"COMMIT", None)
        steps.append(None)
        pgconn.pipeline_sync()
        connection.wait(send(pgconn))
        failed = _read_answers(pgconn, steps, parsing, names)
    finally:
        _leave_pipeline_mode(connection)
    if failed is not None:
        raise errors.error_from_result(failed, encoding=connection.info.encoding)


def _read_answers(
    pgconn: pq.abc.PGconn,
    steps: Sequence[tuple[bytes, tuple[int, ...]] | None],
    parsing: dict[tuple[bytes, tuple[int, ...]], bytes],
    names: dict[tuple[bytes, tuple[int, ...]], bytes],
) -> pq.abc.PGresult | None:
    """Read the answer to each step and the sync (they come together), record the statements
    whose preparing succeeded, and return the first failure. Read straight from libpq: one wait
    for the socket, not one psycopg wait per command."""
    readable = select.poll()
    readable.register(pgconn.socket, select.POLLIN)
    failed: pq.abc.PGresult | None = None
    for step in (*steps, None):
        while True:
            while pgconn.is_busy():
                readable.poll()
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:
                break
            status = result.status
            if status == pq.ExecStatus.PIPELINE_SYNC:
                return failed
            if status == pq.ExecStatus.FATAL_ERROR:
                if failed is None:
                    failed = result
            elif step is not None and status == pq.ExecStatus.COMMAND_OK:
                names[step] = parsing[step]
    return failed


def _leave_pipeline_mode(connection: psycopg.Connection[Row]) -> None:
    """Leave libpq's pipeline mode; a connection that cannot (answers left unread after an
    interruption) is closed, as its state is unknown (the pool opens another)."""
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        return
    try:
        pgconn.exit_pipeline_mode()
    except psycopg.OperationalError:
        connection.close()
