"""`felt db export hands`: settled hands as PHH, PokerStars text or Open Hand History JSON.

    felt db export hands [--guild G] [--table T] [--player ID] [--since DATE]
                         [--format phh|pokerstars|ohh] [--out PATH] [--db PATH|URL]
    felt db export hands --tournament ID [--format ...] [--out PATH] [--db PATH|URL]

Hands come oldest first, read in batches so any number of them streams out. With ``--player``
only that member's hands are written and their own hole cards are dealt face up ("Dealt to");
without it (the host's export) nobody's are, and hole cards appear only where they were shown at
showdown. The terminal player's id is ``felt play``'s (it prints it). Hands of seeded practice
games are written like any other, with "(practice)" in the table name; voided hands have no
history and are never written. ``--tournament`` writes every hand of one tournament, all its
tables, in the order they ended (its tables are numbered as the director numbered them). Every
bad option is refused in one line with exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import TextIO

from bot.cli.common import CliError, SubParsers, whole
from bot.holdem.hand_files import FORMAT_NAMES, HandFormat, tournament_hands, write_hands
from bot.terminal.wallet import PRACTICE_GUILD_ID
from storage import StorageError
from storage.hand_export import HandQuery
from storage.store import Storage

BATCH = 2_000
"""Hands read per query: bounded memory for any export."""
_MAX_ID = 2**63 - 1


def register(kinds: SubParsers, later: argparse.ArgumentParser) -> None:
    """Add ``hands`` to `felt db export`."""
    hands = kinds.add_parser(
        "hands",
        parents=[later],
        help="settled Hold'em hands as PHH, PokerStars text or OHH JSON",
        description="Write settled Hold'em hands, oldest first, as PHH, PokerStars text (for "
        "PokerTracker, Hold'em Manager, Hand2Note, GTO Wizard) or Open Hand History JSON. "
        "With --player, that player's hands with their own hole cards; without, every hand "
        "with only the cards shown at showdown.",
        epilog="examples:\n  felt db export hands --player 1 --out mine.txt\n"
        "  felt db export hands --guild 123456789012345678 --since 2025-01-01 --format ohh",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    hands.add_argument("--guild", metavar="ID", help="only this guild's hands")
    hands.add_argument("--table", metavar="ID", help="only this table's hands")
    hands.add_argument(
        "--tournament", metavar="ID", help="every hand of this tournament (no other filter)"
    )
    hands.add_argument(
        "--player", metavar="ID", help="only this member's hands, with their hole cards"
    )
    hands.add_argument(
        "--since", metavar="DATE", help="only hands started on or after this UTC date or time"
    )
    hands.add_argument(
        "--format", metavar="FORMAT", default="pokerstars", help=f"{FORMAT_NAMES} (pokerstars)"
    )
    hands.add_argument("--out", "-o", metavar="PATH", help="write here instead of stdout")
    hands.set_defaults(handler=export_hands)


def _id(text: str | None, option: str) -> int | None:
    return None if text is None else whole(text, option, 0, _MAX_ID)


def parse_since(text: str | None) -> datetime | None:
    """``--since``: a date (``2025-01-31``, from midnight UTC) or an ISO time (UTC if naive)."""
    if text is None:
        return None
    value = text.strip()
    try:
        if len(value) == 10:
            return datetime.combine(date.fromisoformat(value), time(), UTC)
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise CliError(
            f"--since must be a date like 2025-01-31 or a time like 2025-01-31T20:00, not {text!r}"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def parse_format(text: str) -> HandFormat:
    """``--format``: one of the formats, case-insensitive."""
    try:
        return HandFormat(text.strip().lower())
    except ValueError:
        raise CliError(f"--format must be one of {FORMAT_NAMES}, not {text!r}") from None


def export_hands(args: argparse.Namespace) -> int:
    """The handler: check every option first, then stream the hands out."""
    from bot.cli.db import locate_database  # noqa: PLC0415 (db imports this module)

    query = HandQuery(
        guild_id=_id(args.guild, "--guild"),
        table_id=_id(args.table, "--table"),
        user_id=_id(args.player, "--player"),
        since=parse_since(args.since),
    )
    kind = parse_format(args.format)
    tournament = _id(args.tournament, "--tournament")
    if tournament is not None and (
        query.table_id is not None or query.user_id is not None or query.since is not None
    ):
        raise CliError("--tournament takes no --table, --player or --since")
    target = locate_database(args.db, args.config)  # as `felt run` finds it
    out, close = _open(args.out)
    try:
        count = asyncio.run(_export(target, query, kind, out, tournament))
    except BrokenPipeError:
        # The reader stopped early (``| head``): that is theirs to decide, not an error. Python's
        # recipe: point stdout at /dev/null so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CliError, StorageError) as error:
        if close:  # a refusal leaves no half-written file behind
            out.close()
            Path(args.out).unlink(missing_ok=True)
        raise CliError(str(error)) from error
    finally:
        if close:
            out.close()
    where = args.out if close else "stdout"
    print(f"wrote {count:,} hand(s) as {kind.value} to {where}", file=sys.stderr)
    return 0


def _open(path: str | None) -> tuple[TextIO, bool]:
    if path is None or path == "-":
        return sys.stdout, False
    try:
        return open(path, "w", encoding="utf-8", newline="\n"), True
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror}") from None


async def _export(
    target: str | Path,
    query: HandQuery,
    kind: HandFormat,
    out: TextIO,
    tournament: int | None = None,
) -> int:
    storage = await Storage.open(target, create=False, migrate=False, pool_size=1, read_only=True)
    try:
        if tournament is not None:
            return await _write_tournament(storage, tournament, query.guild_id, kind, out)
        return await _write(storage, query, kind, out)
    finally:
        await storage.close()


async def _write_tournament(
    storage: Storage, tournament_id: int, guild_id: int | None, kind: HandFormat, out: TextIO
) -> int:
    row = await storage.get_tournament(tournament_id)
    if row is None:
        raise CliError(f"there is no tournament {tournament_id} in this database")
    if guild_id is not None and row.guild_id != guild_id:
        raise CliError(f"tournament {tournament_id} is not in guild {guild_id}")
    hands = tournament_hands(row, await storage.tournament_hands(tournament_id))
    return write_hands(hands, kind, out)


async def _write(storage: Storage, query: HandQuery, kind: HandFormat, out: TextIO) -> int:
    if query.table_id is not None:
        table = await storage.get_table(query.table_id)
        if table is None:
            raise CliError(f"there is no table {query.table_id} in this database")
        if query.guild_id is not None and table.guild_id != query.guild_id:
            raise CliError(f"table {query.table_id} is not in guild {query.guild_id}")
    written = 0
    after = None
    while True:
        hands = await storage.settled_hands(query, after=after, limit=BATCH)
        if not hands:
            return written
        written += write_hands(
            hands,
            kind,
            out,
            practice_guilds=frozenset({PRACTICE_GUILD_ID}),
            first=written == 0,
        )
        after = hands[-1].position
