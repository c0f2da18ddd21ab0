"""`felt db`: migrate, check, export and copy the chip database.

    felt db migrate [--db PATH|URL]
    felt db check [--db PATH|URL]
    felt db export ledger --guild ID [--member ID] [--out FILE] [--db PATH|URL]
    felt db export sessions --table ID [--out FILE] [--db PATH|URL]
    felt db copy --from sqlite:///felt.db --to postgresql://user@host/felt

A database is a SQLite file (a path, or a ``sqlite:///`` URL) or a ``postgresql://`` URL.
`check` exits 0 when every chip is accounted for and 1 naming each account that disagrees; a
refusal (no database, a database from a newer Felt, a non-empty copy target, bad arguments)
exits 2. `copy` exits 0 only when every row is equal on both sides and `check` passes on both.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO, TypeVar

from bot.cli import db_instances
from bot.cli.common import CliError, SubParsers
from storage.backend import redact
from storage.database_copy import CopyReport
from storage.errors import StorageError
from storage.models import CheckReport
from storage.store import Storage, database_target, migrate_database

T = TypeVar("T")

DEFAULT_DB_PATH = Path("felt.db")
"""Used when neither ``--db`` nor (later) the config file names a database."""
_DB_HELP = "database file or postgresql:// URL (./felt.db)"


def database_path(cli_value: str | None) -> Path:
    """The database file to use: ``--db`` when given, else the default ``./felt.db``."""
    return Path(cli_value) if cli_value else DEFAULT_DB_PATH


def database(cli_value: str | None) -> str | Path:
    """The database to use: ``--db`` (a path or a URL) when given, else ``./felt.db``."""
    if not cli_value:
        return DEFAULT_DB_PATH
    try:
        return database_target(cli_value)
    except StorageError as error:
        raise CliError(str(error)) from error


def _shown(target: str | Path) -> str:
    """How a database is named in output (a URL without its password)."""
    if isinstance(target, Path):
        return str(target)
    return redact(target)


def register(subparsers: SubParsers) -> None:
    """Add the `db` subcommand and its actions."""
    parser = subparsers.add_parser(
        "db",
        help="migrate, check or export the chip database",
        description="Migrate, check or export Felt's chip database.",
    )
    parser.add_argument("--db", metavar="PATH|URL", default=None, help=_DB_HELP)
    # --db is accepted after the action too (`felt db check --db x.db`).
    db_option = argparse.ArgumentParser(add_help=False)
    db_option.add_argument("--db", metavar="PATH|URL", default=argparse.SUPPRESS, help=_DB_HELP)
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)

    migrate = actions.add_parser(
        "migrate", parents=[db_option], help="create the database or bring its schema up to date"
    )
    migrate.set_defaults(handler=_migrate)

    check = actions.add_parser(
        "check",
        parents=[db_option],
        help="verify every balance against the ledger; exit 1 naming any that disagree",
    )
    check.set_defaults(handler=_check)

    export = actions.add_parser("export", help="write CSV exports")
    kinds = export.add_subparsers(dest="export_kind", metavar="WHAT", required=True)
    ledger = kinds.add_parser(
        "ledger", parents=[db_option], help="a guild's or one member's ledger as CSV"
    )
    ledger.add_argument("--guild", type=int, required=True, metavar="ID", help="guild id")
    ledger.add_argument("--member", type=int, metavar="ID", help="only this member's rows")
    ledger.add_argument("--out", "-o", metavar="FILE", help="write here instead of stdout")
    ledger.set_defaults(handler=_export_ledger)
    sessions = kinds.add_parser(
        "sessions", parents=[db_option], help="a table's PokerNow-style session ledger as CSV"
    )
    sessions.add_argument("--table", type=int, required=True, metavar="ID", help="table id")
    sessions.add_argument("--out", "-o", metavar="FILE", help="write here instead of stdout")
    sessions.set_defaults(handler=_export_sessions)

    copy = actions.add_parser(
        "copy",
        help="copy a whole database into an empty one (SQLite to PostgreSQL)",
        description="Copy every row of a Felt database, ids included, into an empty database "
        "(migrating it first), then compare both sides and run check on each. Stop the bot "
        "first.",
    )
    copy.add_argument(
        "--from", dest="source", required=True, metavar="PATH|URL", help="the database to copy"
    )
    copy.add_argument(
        "--to", dest="target", required=True, metavar="URL|PATH", help="an empty database"
    )
    copy.set_defaults(handler=_copy)
    db_instances.register(actions, db_option)


def _run(coroutine: Awaitable[T]) -> T:
    async def wrapped() -> T:
        return await coroutine

    try:
        return asyncio.run(wrapped())
    except StorageError as error:
        raise CliError(str(error)) from error


def _migrate(args: argparse.Namespace) -> int:
    target = database(args.db)
    report = _run(migrate_database(target))
    shown = _shown(target)
    if report.applied:
        print(
            f"{shown}: schema {report.version_before} -> {report.version_after} "
            f"(applied {', '.join(report.applied)})"
        )
    else:
        print(f"{shown}: already up to date (schema {report.version_after})")
    return 0


async def _with_storage(target: str | Path, action: Callable[[Storage], Awaitable[T]]) -> T:
    storage = await Storage.open(target, create=False, migrate=False, pool_size=1)
    try:
        return await action(storage)
    finally:
        await storage.close()


def _check(args: argparse.Namespace) -> int:
    target = database(args.db)
    report = _run(_with_storage(target, lambda storage: storage.check()))
    _print_check(_shown(target), report, sys.stdout)
    return 0 if report.ok else 1


def _copy(args: argparse.Namespace) -> int:
    source, target = database(args.source), database(args.target)
    if _same(source, target):
        raise CliError("--from and --to name the same database")

    async def copy() -> CopyReport:
        async with (
            await Storage.open(source, create=False, migrate=False, pool_size=1) as old,
            await Storage.open(target, pool_size=1) as new,
        ):
            return await old.copy_to(new)

    report = _run(copy())
    print(f"copied {report.total_rows:,} row(s) from {report.source} to {report.target}")
    print("  " + ", ".join(f"{table} {count:,}" for table, count in report.rows))
    _print_check(report.source, report.source_check, sys.stdout)
    _print_check(report.target, report.target_check, sys.stdout)
    if not report.ok:
        print("FAILED: check does not pass on both sides; do not use the target.")
        return 1
    print(
        f"OK: all {len(report.rows)} tables are equal row for row on both sides "
        "(every balance and every ledger row)."
    )
    return 0


def _same(source: str | Path, target: str | Path) -> bool:
    if isinstance(source, Path) and isinstance(target, Path):
        return source.resolve() == target.resolve()
    return source == target


def _print_check(path: str | Path, report: CheckReport, out: TextIO) -> None:
    print(
        f"{path}: schema {report.schema_version}, {len(report.guilds)} guild(s), "
        f"{report.accounts_checked:,} accounts, {report.ledger_rows:,} ledger rows",
        file=out,
    )
    for guild in report.guilds:
        print(
            f"  guild {guild.guild_id}: {guild.held:,} chips held; {guild.minted:,} minted, "
            f"{guild.burned:,} burned",
            file=out,
        )
    if report.hands_in_progress or report.rounds_open:
        print(
            f"  in play now: {report.hands_in_progress} unfinished hand(s), "
            f"{report.rounds_open} unfinished blackjack round(s) "
            "(recovery at startup puts these chips back)",
            file=out,
        )
    db_instances.print_instances(report.instances, out)
    for problem in report.problems:
        print(f"PROBLEM [{problem.kind.value}] {problem.message}", file=out)
    if report.ok:
        print(
            "OK: every balance equals its ledger, and every guild holds what was minted.", file=out
        )
    else:
        print(f"FAILED: {len(report.problems)} problem(s) found.", file=out)


def _open_output(target: str | None) -> tuple[TextIO, bool]:
    if target is None or target == "-":
        return sys.stdout, False
    try:
        return open(target, "w", encoding="utf-8", newline=""), True
    except OSError as error:
        raise CliError(f"cannot write {target}: {error.strerror}") from error


def _export_ledger(args: argparse.Namespace) -> int:
    path = database(args.db)
    out, close = _open_output(args.out)
    try:
        rows = _run(
            _with_storage(
                path,
                lambda storage: storage.export_ledger_csv(out, args.guild, user_id=args.member),
            )
        )
    finally:
        if close:
            out.close()
    if close:
        print(f"wrote {rows:,} ledger row(s) to {args.out}", file=sys.stderr)
    return 0


def _export_sessions(args: argparse.Namespace) -> int:
    path = database(args.db)
    out, close = _open_output(args.out)
    try:
        rows = _run(
            _with_storage(path, lambda storage: storage.export_sessions_csv(out, args.table))
        )
    finally:
        if close:
            out.close()
    if close:
        print(f"wrote {rows:,} session(s) to {args.out}", file=sys.stderr)
    return 0
