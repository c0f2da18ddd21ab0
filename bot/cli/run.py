"""`felt run [--config PATH] [--shard-ids 0-3 --shard-count 8]`: start the Discord bot.

Every startup failure is one line on stderr and a non-zero exit: no token (with how to give one),
a bad config key (named, with the expected type), a database that cannot be written or was
written by a newer Felt, a token Discord refuses, a Discord that cannot be reached, resets the
connection, answers something else than its JSON, or does not answer within
``[discord] connect_timeout_seconds``. SIGINT and SIGTERM stop it cleanly at any moment.

``serve`` runs the startup steps in order, one function each, every one interruptible by a signal.

The database is created and migrated here, before connecting (so `make run` needs no separate
migration step), this process's lease is taken (refused in one line while another living process
holds the same shards; ``--takeover`` waits for it), crash recovery runs once, the lease is renewed
while the bot runs and released after it disconnected, and then the storage is closed.

``--shard-ids``/``--shard-count`` (over ``[discord] shard_ids``/``shard_count``) run a cluster of
shards in this process; several such processes share one PostgreSQL database (``[database] url``),
and each recovers and restores only the tables of its own shards' guilds (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.common import CliError, SubParsers
from bot.cli.signals import Stopped, StopSignals
from bot.config import TOKEN_ENVIRONMENT_VARIABLE, ConfigError, FeltConfig, load_config
from bot.numbers import quote, read_whole

if TYPE_CHECKING:
    from storage import RecoveryReport, Storage

_log = logging.getLogger("felt.run")

MAX_SHARD_ID = 65_534
NO_TOKEN = (
    f"no Discord bot token: set {TOKEN_ENVIRONMENT_VARIABLE} in the environment or put "
    'token = "..." under [discord] in config.toml (see config.example.toml). '
    "`felt play` runs the games in your terminal without Discord."
)


def register(subparsers: SubParsers) -> None:
    """Add the `run` subcommand."""
    parser = subparsers.add_parser(
        "run",
        help="run the Discord bot",
        description="Run the Discord bot until SIGINT or SIGTERM (games are finished or voided "
        "cleanly first).",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="PATH",
        help="the TOML config file (default: ./config.toml if it exists; every key is optional)",
    )
    parser.add_argument(
        "--shard-ids",
        type=shard_ids,
        default=None,
        metavar="IDS",
        help="the shards this process runs, e.g. 0-3 or 0,2,4 (over [discord] shard_ids)",
    )
    parser.add_argument(
        "--shard-count",
        type=shard_count,
        default=None,
        metavar="N",
        help="the total number of shards of the deployment (over [discord] shard_count)",
    )
    parser.add_argument(
        "--takeover",
        action="store_true",
        help="if another process holds these shards, wait until its lease is released or "
        "expires instead of refusing to start",
    )
    parser.set_defaults(handler=handle)


def shard_count(text: str) -> int:
    """A whole number (bot.numbers); a negative one is refused by ``with_shards`` as for the
    config key, a huge one here."""
    try:
        count = read_whole(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {quote(text)}") from None
    if count > MAX_SHARD_ID + 1:
        raise argparse.ArgumentTypeError(f"at most {MAX_SHARD_ID + 1:,}, not {quote(text)}")
    return count


def shard_ids(text: str) -> tuple[int, ...]:
    """``0-3``, ``0,2,4`` or ``0-3,8`` as sorted shard ids."""
    ids: set[int] = set()
    try:
        for part in text.split(","):
            first, dash, last = part.strip().partition("-")
            start, end = read_whole(first), read_whole(last if dash else first)
            if start < 0 or end < start or end > MAX_SHARD_ID:  # a bound before range()
                raise ValueError(part)
            ids.update(range(start, end + 1))
    except ValueError:  # NumberError included: bot.numbers reads every number typed
        raise argparse.ArgumentTypeError(
            f"shard ids are numbers and ranges such as 0-3 or 0,2,4, not {quote(text)}"
        ) from None
    return tuple(sorted(ids))


def handle(args: argparse.Namespace) -> int:
    config = prepare(args.config, shard_ids=args.shard_ids, shard_count=args.shard_count)
    # Imported here so that `felt --help` and the other commands do not pay for discord.py.
    from bot.discord.errors import StartupError  # noqa: PLC0415
    from bot.discord.logs import configure_logging  # noqa: PLC0415

    configure_logging(config.logging)
    try:
        return asyncio.run(serve(config, takeover=args.takeover))
    except StartupError as error:
        raise CliError(str(error), exit_code=1) from None


async def serve(config: FeltConfig, *, takeover: bool = False) -> int:
    """The startup steps in order, then the bot until it is told to stop.

    SIGINT and SIGTERM are handled from the first step: one that arrives before the bot runs
    ends the step in progress and `felt run` exits 0, having changed nothing more.
    """
    with StopSignals() as signals:
        try:
            return await serve_steps(config, signals, takeover=takeover)
        except Stopped as stopped:
            _log.info("stopped before connecting", extra={"reason": stopped.signal_name})
            return 0


async def serve_steps(config: FeltConfig, signals: StopSignals, *, takeover: bool = False) -> int:
    """Each startup step is one function run through ``signals.step`` (so a signal interrupts
    it); a new step (say, taking an instance lease) goes in this list, with its own cleanup."""
    storage, recovery = await signals.step(open_database(config, takeover=takeover))
    try:
        return await run_discord(config, storage, recovery, signals)
    finally:
        await storage.close()


async def open_database(
    config: FeltConfig, *, takeover: bool = False
) -> tuple[Storage, RecoveryReport]:
    """Open (create, migrate) the database, take this process's lease on its shards, and put
    back the chips of an interrupted run (only a dead instance's)."""
    from bot.discord.database import open_for_bot  # noqa: PLC0415

    return await open_for_bot(config, takeover=takeover)


async def run_discord(
    config: FeltConfig, storage: Storage, recovery: RecoveryReport, signals: StopSignals
) -> int:
    """Connect to Discord and serve until a signal (or a failure, as a ``StartupError``),
    renewing the lease meanwhile and releasing it at the end."""
    from bot.discord.database import lease_lost  # noqa: PLC0415
    from bot.discord.runner import run_bot  # noqa: PLC0415

    async with storage.keep_lease(on_lost=lease_lost):
        return await run_bot(config, signals=signals, storage=storage, recovery=recovery)


def prepare(
    config_path: Path | None,
    *,
    shard_ids: tuple[int, ...] | None = None,
    shard_count: int | None = None,
) -> FeltConfig:
    """Everything checked before connecting: config, token, shards, database, log file."""
    try:
        config = load_config(config_path)
    except ConfigError as error:
        raise CliError(str(error)) from None
    if not config.token:
        raise CliError(NO_TOKEN)
    config = with_shards(config, shard_ids, shard_count)
    if not config.database.url:
        check_writable(Path(config.database.path), "database")
    if config.logging.file:
        check_writable(Path(config.logging.file), "log file")
    return config


def with_shards(
    config: FeltConfig, shard_ids: tuple[int, ...] | None, shard_count: int | None
) -> FeltConfig:
    """The config with the command line's shards (each flag wins over its config key)."""
    discord = config.discord
    ids = discord.shard_ids if shard_ids is None else shard_ids
    count = discord.shard_count if shard_count is None else shard_count
    if count < 0:
        raise CliError("--shard-count must be 0 (ask Discord) or more")
    if ids and count == 0:
        raise CliError("--shard-ids needs --shard-count (or [discord] shard_count)")
    if any(shard >= count for shard in ids):
        raise CliError(f"shard ids must all be smaller than the shard count ({count})")
    return dataclasses.replace(
        config, discord=dataclasses.replace(discord, shard_ids=ids, shard_count=count)
    )


def check_writable(path: Path, what: str) -> None:
    """Refuse a file that cannot be written or created, before the bot connects."""
    if path.is_dir():
        raise CliError(f"the {what} path {path} is a directory")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise CliError(f"the {what} {path} is not writable")
        return
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise CliError(f"the {what} directory {directory} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise CliError(f"the {what} directory {directory} is not writable")
