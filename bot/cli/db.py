"""`felt db`: migrate, check, export, copy the chip database, and grant chips.

    felt db migrate [--db PATH|URL] [--config PATH]
    felt db check [--db PATH|URL] [--config PATH]
    felt db export ledger --guild ID [--member ID] [--out FILE] [--db PATH|URL] [--config PATH]
    felt db export sessions --table ID [--out FILE] [--db PATH|URL] [--config PATH]
    felt db grant AMOUNT [--guild ID --member ID] [--db PATH|URL] [--config PATH]
    felt db copy --from sqlite:///felt.db --to postgresql://user@host/felt
    felt db stats rebuild|check [--db PATH|URL] [--config PATH]

A database is a SQLite file (a path, or a ``sqlite:///`` URL) or a ``postgresql://`` URL. Every
command finds it as `felt run` does: ``--db`` when given, else the config file's ``[database]``
``url`` or ``path`` (``--config``, default ``./config.toml``), else ``./felt.db``. ``--db`` and
``--config`` are accepted before or after the action. `check` and `export` only read, and open a
SQLite file read-only, so a backup on a read-only mount can be inspected.

`check` exits 0 when every chip is accounted for and the statistics equal a recount of the
stored hands, and 1 naming each account (or statistics row) that disagrees; a
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

from bot.cli import db_hands, db_instances, db_stats
from bot.cli.common import CliError, SubParsers, whole_type
from bot.config import ConfigError, load_config
from storage.backend import redact
from storage.database_copy import CopyReport
from storage.errors import StorageError
from storage.models import MAX_CHIPS, CheckReport
from storage.store import Storage, database_target, migrate_database

T = TypeVar("T")

DEFAULT_DB_PATH = Path("felt.db")
"""Used when neither ``--db`` nor the config file names a database."""
LOCAL_ID = 1
"""The terminal's guild and member (``bot.terminal.wallet``): what `grant` tops up by default."""
CLI_ACTOR_ID = 0
"""The actor recorded for a grant made from the command line (no Discord member)."""
_DB_HELP = "database file or postgresql:// URL (default: the config's [database], or ./felt.db)"
_CONFIG_HELP = "the TOML config file whose [database] to use (default: ./config.toml if present)"
_ID = whole_type("an id", 0, 2**63 - 1)


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


def locate_database(cli_value: str | None, config_path: Path | None) -> str | Path:
    """Where the chips are, found as `felt run` finds them: ``--db``, else the config file's
    ``[database] url`` or ``path`` (``config_path`` or ``./config.toml``)."""
    if cli_value:
        return database(cli_value)
    try:
        config = load_config(config_path)
    except ConfigError as error:
        raise CliError(str(error)) from None
    return database(config.database.url or config.database.path)


def _located(args: argparse.Namespace) -> str | Path:
    return locate_database(args.db, args.config)


def _shown(target: str | Path) -> str:
    """How a database is named in output (a URL without its password)."""
    if isinstance(target, Path):
        return str(target)
    return redact(target)


def add_database_options(parser: argparse.ArgumentParser, *, default: bool) -> None:
    """``--db`` and ``--config``; ``default=False`` (after an action) keeps an earlier value."""
    parser.add_argument(
        "--db", metavar="PATH|URL", default=None if default else argparse.SUPPRESS, help=_DB_HELP
    )
    parser.add_argument(
        "--config",
        type=Path,
        metavar="PATH",
        default=None if default else argparse.SUPPRESS,
        help=_CONFIG_HELP,
    )


def _action(
    actions: SubParsers,
    name: str,
    parents: list[argparse.ArgumentParser],
    help_text: str,
    description: str,
    example: str,
) -> argparse.ArgumentParser:
    return actions.add_parser(
        name,
        parents=parents,
        help=help_text,
        description=description,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def register(subparsers: SubParsers) -> None:
    """Add the `db` subcommand and its actions."""
    parser = subparsers.add_parser(
        "db",
        help="migrate, check, export or copy the chip database, or grant chips",
        description="Migrate, check, export or copy Felt's chip database, or grant chips. The "
        "database is --db, else the config file's [database], else ./felt.db.",
        epilog="examples:\n  felt db check --config config.toml\n  felt db grant 500",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_database_options(parser, default=True)
    # --db and --config are accepted after the action too (`felt db check --db x.db`).
    later = argparse.ArgumentParser(add_help=False)
    add_database_options(later, default=False)
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)

    migrate = _action(
        actions, "migrate", [later], "create the database or bring its schema up to date",
        "Create the database if it does not exist, then apply every migration it lacks. "
        "`felt run` and `felt play` do this themselves; use it before a deploy or a copy.",
        "felt db migrate --db felt.db",
    )  # fmt: skip
    migrate.set_defaults(handler=_migrate)

    check = _action(
        actions, "check", [later],
        "verify every balance against the ledger; exit 1 naming any that disagree",
        "Verify that every balance equals the sum of its ledger rows, that every guild holds "
        "what was minted, and that the statistics equal a recount of the stored hands. "
        "Read-only: safe while the bot runs, and on a read-only backup.",
        "felt db check --config config.toml",
    )  # fmt: skip
    check.set_defaults(handler=_check)

    _register_export(actions, later)
    _register_grant(actions, later)
    copy = _action(
        actions, "copy", [],
        "copy a whole database into an empty one (SQLite to PostgreSQL)",
        "Copy every row of a Felt database, ids included, into an empty database "
        "(migrating it first), then compare both sides and run check on each. Stop the bot "
        "first.",
        "felt db copy --from sqlite:///felt.db --to postgresql://felt@localhost/felt",
    )  # fmt: skip
    copy.add_argument(
        "--from", dest="source", required=True, metavar="PATH|URL", help="the database to copy"
    )
    copy.add_argument(
        "--to", dest="target", required=True, metavar="URL|PATH", help="an empty database"
    )
    copy.set_defaults(handler=_copy)
    db_instances.register(actions, later)
    db_stats.register(actions, later)


def _register_grant(actions: SubParsers, later: argparse.ArgumentParser) -> None:
    """``felt db grant AMOUNT``."""
    grant = _action(
        actions, "grant", [later], "add chips to a wallet (an admin grant, in the ledger)",
        "Mint chips into a wallet as an admin grant, recorded in the ledger like /admin grant. "
        "Without --guild and --member: the `felt play` wallet (for a player who is out of chips).",
        "felt db grant 500 --db felt.db",
    )  # fmt: skip
    grant.add_argument(
        "amount", type=whole_type("AMOUNT", 1, MAX_CHIPS), metavar="AMOUNT", help="chips to add"
    )
    grant.add_argument("--guild", type=_ID, default=LOCAL_ID, metavar="ID", help="guild id")
    grant.add_argument("--member", type=_ID, default=LOCAL_ID, metavar="ID", help="member id")
    grant.set_defaults(handler=_grant)


def _register_export(actions: SubParsers, later: argparse.ArgumentParser) -> None:
    """``felt db export ledger|sessions``."""
    export = _action(
        actions, "export", [later], "write CSV exports and hand histories",
        "Write a ledger or a table's sessions as CSV, or hand histories (read-only).",
        "felt db export ledger --guild 1 --out ledger.csv",
    )  # fmt: skip
    kinds = export.add_subparsers(dest="export_kind", metavar="WHAT", required=True)
    ledger = _action(
        kinds, "ledger", [later], "a guild's or one member's ledger as CSV",
        "Write every ledger row of a guild (or of one member) as CSV, oldest first.",
        "felt db export ledger --guild 123456789012345678 --member 42 --out alice.csv",
    )  # fmt: skip
    ledger.add_argument("--guild", type=_ID, required=True, metavar="ID", help="guild id")
    ledger.add_argument("--member", type=_ID, metavar="ID", help="only this member's rows")
    ledger.add_argument("--out", "-o", metavar="FILE", help="write here instead of stdout")
    ledger.set_defaults(handler=_export_ledger)
    sessions = _action(
        kinds, "sessions", [later], "a table's PokerNow-style session ledger as CSV",
        "Write a Hold'em table's sessions (who sat, bought in and cashed out) as CSV.",
        "felt db export sessions --table 7 --out table7.csv",
    )  # fmt: skip
    sessions.add_argument("--table", type=_ID, required=True, metavar="ID", help="table id")
    sessions.add_argument("--out", "-o", metavar="FILE", help="write here instead of stdout")
    sessions.set_defaults(handler=_export_sessions)
    db_hands.register(kinds, later)


def _run(coroutine: Awaitable[T]) -> T:
    async def wrapped() -> T:
        return await coroutine

    try:
        return asyncio.run(wrapped())
    except StorageError as error:
        raise CliError(str(error)) from error


def _migrate(args: argparse.Namespace) -> int:
    target = _located(args)
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


async def _with_storage(
    target: str | Path, action: Callable[[Storage], Awaitable[T]], *, read_only: bool = True
) -> T:
    storage = await Storage.open(
        target, create=False, migrate=False, pool_size=1, read_only=read_only
    )
    try:
        return await action(storage)
    finally:
        await storage.close()


def _check(args: argparse.Namespace) -> int:
    async def check(storage: Storage) -> tuple[CheckReport, db_stats.Agreement]:
        return await storage.check(), await db_stats.compare(storage)

    target = _located(args)
    report, statistics = _run(_with_storage(target, check))
    _print_check(_shown(target), report, sys.stdout)
    db_stats.print_agreement(_shown(target), statistics, sys.stdout, sys.stdout)
    return 0 if report.ok and statistics.ok else 1


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
    path = _located(args)
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
    path = _located(args)
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


def _grant(args: argparse.Namespace) -> int:
    target = _located(args)
    guild_id, user_id, amount = args.guild, args.member, args.amount

    async def grant(storage: Storage) -> int:
        # The key names the grant and the wallet's last ledger row: running the command again
        # grants again, while a retry of this very grant (same state) is applied once.
        latest = await storage.ledger(guild_id, user_id=user_id, limit=1)
        after = latest[0].entry_id if latest else 0
        key = f"cli:grant:{guild_id}:{user_id}:{amount}:after:{after}"
        change = await storage.admin_grant(
            guild_id, user_id, amount, actor_id=CLI_ACTOR_ID, key=key
        )
        return change.balance

    balance = _run(_with_storage(target, grant, read_only=False))
    print(f"granted {amount:,} chips to member {user_id} of guild {guild_id}: wallet {balance:,}")
    return 0
