"""The bot's chip database: opened (created, migrated, recovered) at startup, and which of
storage's errors a member sees as a refusal.

``felt run`` calls :func:`open_for_bot` before connecting to Discord and passes the storage and
the recovery report to ``create_bot``; the e2e fixtures do the same, so tests start the bot the
way production does.
"""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

from bot.config import FeltConfig
from bot.discord.errors import ErrorRouter, StartupError, describe_storage_refusal
from storage import (
    AlreadySeated,
    BalanceLimitExceeded,
    DailyAlreadyClaimed,
    DailyDisabled,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseProblem,
    EmptySeat,
    IdempotencyConflict,
    InsufficientChips,
    InvalidAmount,
    InvalidSetting,
    InvalidTransfer,
    NotInRound,
    RecoveryReport,
    SeasonResetBlocked,
    SeatInHand,
    SeatTaken,
    Storage,
    StorageError,
    TableClosed,
    TransfersDisabled,
    UnknownAccount,
    UnknownHand,
    UnknownRound,
    UnknownSeason,
    UnknownTable,
    utc_now,
)
from storage.backend import redact
from storage.instances import Claim, LeaseHeld, LeaseLost
from storage.shards import Shards
from storage.store import Clock

_log = logging.getLogger("felt.discord.database")

STORAGE_REFUSALS: tuple[type[StorageError], ...] = (
    InvalidAmount,
    BalanceLimitExceeded,
    IdempotencyConflict,
    UnknownAccount,
    InsufficientChips,
    TransfersDisabled,
    InvalidTransfer,
    DailyAlreadyClaimed,
    DailyDisabled,
    InvalidSetting,
    UnknownTable,
    TableClosed,
    SeatTaken,
    AlreadySeated,
    EmptySeat,
    SeatInHand,
    UnknownHand,
    UnknownRound,
    NotInRound,
    SeasonResetBlocked,
    UnknownSeason,
)
"""Storage errors caused by what the member asked, worded for them by ``describe_storage_refusal``.

Not here: ``DatabaseProblem`` (the database itself failing: the member gets the apology with an
error id and the log gets the traceback), and the errors a game host only raises when it has a
bug (``StackMismatch``, ``InvalidSettlement``, ``AlreadySettled``, ``HandInProgress``...).
"""


def register_storage_refusals(router: ErrorRouter) -> None:
    """Show storage's user-facing refusals as short ephemeral messages."""
    for error_type in STORAGE_REFUSALS:
        router.register_refusal(error_type, describe_storage_refusal)


async def open_for_bot(
    config: FeltConfig, *, clock: Clock = utc_now, takeover: bool = False
) -> tuple[Storage, RecoveryReport]:
    """Open the configured database (creating and migrating it), take this process's lease on
    its shards, then run crash recovery (of dead instances' games only).

    Every failure is a ``StartupError`` of one line: a database written by a newer Felt, a file
    that is not a Felt database, one that cannot be written, one locked by another process, or
    shards a living process holds (``takeover`` waits for its lease instead).
    """
    path = redact(config.database.url) if config.database.url else config.database.path
    discord = config.discord
    shards = Shards.of(discord.shard_ids, discord.shard_count) if discord.shard_ids else None
    try:
        storage = await Storage.open(
            config.database.url or config.database.path,
            clock=clock,
            economy=config.economy.settings(),
            shards=shards,
        )
    except DatabaseProblem as error:
        raise StartupError(describe_open_failure(path, error)) from None
    try:
        await take_lease(storage, shards, takeover)
        report = await storage.recover()
    except LeaseHeld as error:
        await storage.close()
        raise StartupError(str(error)) from None
    except DatabaseProblem as error:
        await storage.close()
        raise StartupError(describe_open_failure(path, error)) from None
    except BaseException:
        await storage.close()
        raise
    _log.info(
        "database ready",
        extra={
            "path": path if config.database.url else str(Path(path)),
            "schema_version": storage.schema_version,
            "voided_hands": len(report.voided_hands),
            "refunded_rounds": len(report.refunded_rounds),
        },
    )
    if not report.is_empty:
        _log.warning(
            "recovery put back chips that were in play when Felt stopped",
            extra={
                "hands": [(hand.table_id, hand.hand_id) for hand in report.voided_hands],
                "rounds": [round_.round_id for round_ in report.refunded_rounds],
            },
        )
    return storage, report


async def take_lease(storage: Storage, shards: Shards | None, takeover: bool) -> None:
    """This process's lease on its shards (all of them without ``--shard-ids``)."""

    def waiting(held: LeaseHeld) -> None:
        _log.warning(
            "waiting for another instance's lease to be released or to expire",
            extra={"holder": held.holder.describe(), "expires_at": str(held.holder.expires_at)},
        )

    claim = Claim.discord(*((tuple(sorted(shards.ids)), shards.count) if shards else ()))
    instance = await storage.acquire_lease(claim, takeover=takeover, on_wait=waiting)
    _log.info("lease taken", extra={"instance": instance.describe()})


def lease_lost(lost: LeaseLost) -> None:
    """Another instance took this one's games over (it was stopped for longer than its lease):
    stop the bot, as if told to, so two processes never host the same tables."""
    _log.critical("this instance lost its lease; stopping", extra={"instance": lost.instance_id})
    os.kill(os.getpid(), signal.SIGTERM)


def describe_open_failure(path: str, error: DatabaseProblem) -> str:
    """One line for an operator, saying what is wrong with the database file."""
    if isinstance(error, DatabaseBusy):
        return f"the database {path} is locked by another process; is Felt already running?"
    if isinstance(error, DatabaseFailure):
        return f"cannot use the database {path}: {error.detail}"
    text = str(error)
    # DatabaseTooNew, NotAFeltDatabase, DatabaseNotFound carry the file and name it.
    return text if hasattr(error, "path") else f"the database {path}: {text}"
