"""`felt db stats rebuild|check`: recount the statistics counters from the stored hands.

    felt db stats rebuild [--db PATH|URL] [--config PATH]
    felt db stats check [--db PATH|URL] [--config PATH]

Settlement adds each hand's and round's counts as it commits (``storage/player_counts.py``);
these recount them from scratch: every settled hand's stored PHH replayed by the engine
(``engine.holdem.stats``), every settled round from its own rows. `rebuild` replaces the
counters in one transaction (stop the bot first); `check` only reads, and exits 1 naming how
many rows disagree. A hand whose PHH cannot be replayed is named and left out of both.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from bot.cli.common import CliError
from engine.errors import EngineError
from engine.holdem import phh
from engine.holdem.stats import phh_counts_by_seat
from storage import Recount, Storage, StoredHand
from storage.player_counts import CountsKey

SHOWN_DIFFERENCES = 10
"""How many disagreeing rows `check` prints before summing up the rest."""


def count_hand(hand: StoredHand) -> Mapping[int, Mapping[str, int]] | None:
    """A stored hand's statistics by seat, or None when its PHH cannot be replayed."""
    try:
        return phh_counts_by_seat(phh.loads(hand.phh))
    except (EngineError, ValueError):
        return None


def register(actions: Any, db_option: argparse.ArgumentParser) -> None:
    """Add the `stats` action (``rebuild``, ``check``) to `felt db`."""
    stats = actions.add_parser(
        "stats",
        parents=[db_option],
        help="recount or verify the /stats counters from the stored hands",
        description="Recount the statistics counters (/stats, /leaderboard) from every stored "
        "hand's PHH and every settled round.",
        epilog="examples:\n  felt db stats check --db felt.db\n"
        "  felt db stats rebuild --db felt.db",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kinds = stats.add_subparsers(dest="stats_command", metavar="WHAT", required=True)
    rebuild = kinds.add_parser(
        "rebuild",
        parents=[db_option],
        help="replace the counters by a recount (stop the bot first)",
        description="Replace every statistics counter by a recount from the stored hands and "
        "rounds, in one transaction. Stop the bot first.",
        epilog="example:\n  felt db stats rebuild --config config.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rebuild.set_defaults(handler=_rebuild)
    check = kinds.add_parser(
        "check",
        parents=[db_option],
        help="compare the counters with a recount; exit 1 if they differ",
        description="Recount the statistics from the stored hands and rounds and compare them "
        "with the counters settlement kept (read-only).",
        epilog="example:\n  felt db stats check --config config.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.set_defaults(handler=_check)


def _rebuild(args: argparse.Namespace) -> int:
    from bot.cli.db import _located, _run, _shown, _with_storage  # noqa: PLC0415 (db imports us)

    target = _located(args)

    async def rebuild(storage: Storage) -> Recount:
        # A settlement committing while the counters are replaced would be lost or counted
        # twice: refuse while any Felt (bot or terminal game) holds a living lease.
        living = [report.instance for report in await storage.list_instances() if report.alive]
        if living:
            raise CliError(
                f"Felt is running: {living[0].describe()}; stop it, then rebuild", exit_code=1
            )
        return await storage.rebuild_stats(count_hand)

    result = _run(_with_storage(target, rebuild, read_only=False))
    print(
        f"{_shown(target)}: rebuilt {len(result.rows):,} statistics row(s) from "
        f"{result.hands:,} settled hand(s) and the settled rounds"
    )
    _print_unreadable(result)
    return 0


@dataclass(frozen=True, slots=True)
class Agreement:
    """The stored counters against a recount."""

    recount: Recount
    stored_rows: int
    differing: tuple[CountsKey, ...]

    @property
    def ok(self) -> bool:
        return not self.differing


async def compare(storage: Storage) -> Agreement:
    """Recount every statistic (read-only) and name the stored rows that differ."""
    recount = await storage.recount_stats(count_hand)
    stored = await storage.stored_stats()
    differing = tuple(
        sorted(
            (
                k
                for k in recount.rows.keys() | stored.keys()
                if recount.rows.get(k) != stored.get(k)
            ),
            key=repr,
        )
    )
    return Agreement(recount, len(stored), differing)


def print_agreement(shown: str, agreement: Agreement, out: TextIO, problems: TextIO) -> None:
    """One line when the counters agree; otherwise the rows that differ and what to run."""
    _print_unreadable(agreement.recount, problems)
    if agreement.ok:
        print(
            f"{shown}: statistics OK, {agreement.stored_rows:,} row(s) equal a recount of "
            f"{agreement.recount.hands:,} settled hand(s) and the settled rounds",
            file=out,
        )
        return
    differing = agreement.differing
    print(f"{shown}: {len(differing):,} statistics row(s) differ from a recount", file=problems)
    for game, season_id, guild_id, user_id, day in differing[:SHOWN_DIFFERENCES]:
        print(
            f"  {game.value} guild {guild_id} season {season_id} member {user_id} day {day}",
            file=problems,
        )
    if len(differing) > SHOWN_DIFFERENCES:
        print(f"  ... and {len(differing) - SHOWN_DIFFERENCES:,} more", file=problems)
    print("Run `felt db stats rebuild` (with the bot stopped) to recount them.", file=problems)


def _check(args: argparse.Namespace) -> int:
    from bot.cli.db import _located, _run, _shown, _with_storage  # noqa: PLC0415 (db imports us)

    target = _located(args)
    agreement = _run(_with_storage(target, compare))
    print_agreement(_shown(target), agreement, sys.stdout, sys.stderr)
    return 0 if agreement.ok else 1


def _print_unreadable(result: Recount, out: TextIO = sys.stderr) -> None:
    if result.unreadable:
        hands = ", ".join(f"table {t} hand #{h}" for t, h in result.unreadable[:SHOWN_DIFFERENCES])
        more = len(result.unreadable) - SHOWN_DIFFERENCES
        print(
            f"left out {len(result.unreadable):,} hand(s) whose PHH cannot be replayed: {hands}"
            + (f" and {more:,} more" if more > 0 else ""),
            file=out,
        )
