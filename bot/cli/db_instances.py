"""`felt db instances`: the processes that hold (or recently held) a lease on the database, and
what each owns now; the same lines appear in `felt db check`.

    felt db instances [--db PATH|URL]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.cli.common import CliError
from storage import Storage, StorageError
from storage.instances import InstanceReport


def register(actions: Any, db_option: argparse.ArgumentParser) -> None:
    """Add the `instances` action to `felt db`."""
    instances = actions.add_parser(
        "instances",
        parents=[db_option],
        help="list the processes holding a lease on the database and what each owns",
        description="List every Felt process (bot shard or terminal session) that holds or held "
        "a lease on the database, whether it is alive, and the tables and rounds it owns.",
        epilog="example:\n  felt db instances --config config.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    instances.set_defaults(handler=_instances)


def _instances(args: argparse.Namespace) -> int:
    from bot.cli.db import _shown, locate_database  # noqa: PLC0415 (db imports this module)

    target = locate_database(args.db, args.config)  # as `felt run` finds it
    try:
        reports = asyncio.run(_read(target))
    except StorageError as error:
        raise CliError(str(error)) from error
    print(f"{_shown(target)}: {sum(r.alive for r in reports)} living instance(s)")
    print_instances(reports, sys.stdout)
    return 0


async def _read(target: str | Path) -> list[InstanceReport]:
    storage = await Storage.open(target, create=False, migrate=False, pool_size=1)
    try:
        return await storage.list_instances()
    finally:
        await storage.close()


def instance_line(report: InstanceReport) -> str:
    """``instance 3 (shards 0,1 of 3) on host web1, pid 4242, since ...: alive, owns 2 table(s),
    1 hand(s) in progress, 0 open round(s)``"""
    instance = report.instance
    if report.alive:
        state = f"alive (heartbeat {instance.heartbeat_at:%H:%M:%SZ})"
    elif instance.released_at is not None:
        state = f"ended {instance.released_at:%Y-%m-%d %H:%M:%SZ} ({instance.release_reason})"
    else:
        state = f"lease expired {instance.expires_at:%Y-%m-%d %H:%M:%SZ}"
    return (
        f"{instance.describe()}: {state}; owns {report.open_tables} table(s), "
        f"{report.hands_in_progress} hand(s) in progress, {report.rounds_open} open round(s)"
    )


def print_instances(reports: Sequence[InstanceReport], out: TextIO) -> None:
    for report in reports:
        print(f"  {instance_line(report)}", file=out)
