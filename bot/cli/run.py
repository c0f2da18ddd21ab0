"""`felt run [--config PATH]`: start the Discord bot.

Every startup failure is one line on stderr and a non-zero exit: no token (with how to give one),
a bad config key (named, with the expected type), a database that cannot be written or was
written by a newer Felt, a token Discord refuses, a Discord that cannot be reached.

The database is created and migrated here, before connecting (so `make run` needs no separate
migration step), crash recovery runs once, and the storage is closed after the bot disconnected.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from bot.cli.common import CliError, SubParsers
from bot.config import TOKEN_ENVIRONMENT_VARIABLE, ConfigError, FeltConfig, load_config

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
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    config = prepare(args.config)
    # Imported here so that `felt --help` and the other commands do not pay for discord.py.
    from bot.discord.errors import StartupError  # noqa: PLC0415
    from bot.discord.logs import configure_logging  # noqa: PLC0415

    configure_logging(config.logging)
    try:
        return asyncio.run(serve(config))
    except StartupError as error:
        raise CliError(str(error), exit_code=1) from None


async def serve(config: FeltConfig) -> int:
    """Open the database, run the bot until it is told to stop, then close the database."""
    from bot.discord.database import open_for_bot  # noqa: PLC0415
    from bot.discord.runner import run_bot  # noqa: PLC0415

    storage, recovery = await open_for_bot(config)
    try:
        return await run_bot(config, storage=storage, recovery=recovery)
    finally:
        await storage.close()


def prepare(config_path: Path | None) -> FeltConfig:
    """Everything checked before connecting: config, token, database directory, log file."""
    try:
        config = load_config(config_path)
    except ConfigError as error:
        raise CliError(str(error)) from None
    if not config.token:
        raise CliError(NO_TOKEN)
    check_writable(Path(config.database.path), "database")
    if config.logging.file:
        check_writable(Path(config.logging.file), "log file")
    return config


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
