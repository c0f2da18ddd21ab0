"""Instance leases: which living process owns which tables, hands and rounds.

Every process that hosts tables (``felt run``, ``felt play``) holds a row in ``instances``: what
it claims (Discord shards, or the terminal), its host name and pid, when it started, and a
heartbeat it renews every few seconds (:data:`RENEW_SECONDS`); the lease is alive until
``expires_at`` (:data:`LEASE_SECONDS` after the last heartbeat) or until it is released. Tables,
hands and rounds record the instance that opened them, so startup recovery puts back only what
belongs to a dead instance, never what a living one is playing.

Two Discord instances whose shards overlap cannot both hold a lease: the second is refused with
:class:`LeaseHeld` naming the first, or waits for it (``takeover``). An instance on this same
host whose process no longer exists is gone at once (a crash followed by a restart need not wait
for the lease to expire). Terminal instances never conflict: each plays at its own table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from storage.backend import Transaction
from storage.errors import InvalidArgument, StorageError
from storage.ledger import Work, parse_time, stamp

LEASE_SECONDS = 30.0
"""How long a lease lives after its last heartbeat: a killed process's tables wait this long
before another host may take them over (on the same host, a restart takes over at once)."""
RENEW_SECONDS = 5.0
"""How often a living instance renews its heartbeat (six chances before its lease expires)."""
TAKEOVER_POLL_SECONDS = 1.0
"""How often ``--takeover`` looks again whether the other lease has gone."""
LEASE_LOCK = 0
"""The guild lock (no guild has id 0) that orders lease changes across processes."""

_log = logging.getLogger("felt.storage.instances")


class InstanceRole(StrEnum):
    """What kind of process holds a lease."""

    DISCORD = "discord"
    """``felt run``: the guilds on some (or all) Discord shards."""
    TERMINAL = "terminal"
    """``felt play``: one table in the local guild."""


@dataclass(frozen=True, slots=True)
class Claim:
    """What a process asks to own: Discord shards (none listed: all of them), or the terminal."""

    role: InstanceRole
    shard_ids: tuple[int, ...] = ()
    shard_count: int = 0

    @classmethod
    def discord(cls, shard_ids: tuple[int, ...] = (), shard_count: int = 0) -> Claim:
        if shard_ids and (shard_count < 1 or any(not 0 <= i < shard_count for i in shard_ids)):
            raise InvalidArgument(f"Shard ids {list(shard_ids)} do not fit {shard_count} shards.")
        return cls(InstanceRole.DISCORD, tuple(sorted(set(shard_ids))), shard_count)

    @classmethod
    def terminal(cls) -> Claim:
        return cls(InstanceRole.TERMINAL)

    def overlaps(self, other: Claim) -> bool:
        """Whether both cannot live at once: Discord claims sharing a shard, or either claiming
        every shard, or two shard layouts (counts) that disagree."""
        if InstanceRole.TERMINAL in (self.role, other.role):
            return False
        if not self.shard_ids or not other.shard_ids or self.shard_count != other.shard_count:
            return True
        return bool(set(self.shard_ids) & set(other.shard_ids))

    def describe(self) -> str:
        if self.role is InstanceRole.TERMINAL:
            return "a terminal game"
        if not self.shard_ids:
            return "every shard"
        ids = ",".join(str(i) for i in self.shard_ids)
        return f"shard{'s' if len(self.shard_ids) > 1 else ''} {ids} of {self.shard_count}"


@dataclass(frozen=True, slots=True)
class Instance:
    """One process's lease, as stored."""

    instance_id: int
    claim: Claim
    host: str
    pid: int
    started_at: datetime
    heartbeat_at: datetime
    expires_at: datetime
    released_at: datetime | None = None
    release_reason: str | None = None

    def alive(self, now: datetime) -> bool:
        return self.released_at is None and self.expires_at > now

    def describe(self) -> str:
        """``instance 3 (shards 0,1 of 3) on host web1, pid 4242, since 2025-03-01 12:00:00Z``"""
        return (
            f"instance {self.instance_id} ({self.claim.describe()}) on host {self.host}, "
            f"pid {self.pid}, since {_shown(self.started_at)}"
        )


@dataclass(frozen=True, slots=True)
class InstanceReport:
    """An instance and what it owns now (``felt db instances``, ``felt db check``)."""

    instance: Instance
    alive: bool
    open_tables: int
    hands_in_progress: int
    rounds_open: int


class LeaseError(StorageError):
    """Base of the lease refusals."""


class LeaseHeld(LeaseError):
    """Another living instance holds what this one claims."""

    def __init__(self, holder: Instance) -> None:
        super().__init__(
            f"another Felt holds these shards: {holder.describe()} "
            f"(last heartbeat {_shown(holder.heartbeat_at)}); stop it first, or start with "
            "--takeover to wait until its lease is released or expires"
        )
        self.holder = holder


class LeaseLost(LeaseError):
    """This instance's lease was released or taken over by another (it stopped renewing for
    longer than its lease, and another instance recovered its games)."""

    def __init__(self, instance_id: int) -> None:
        super().__init__(f"Instance {instance_id} lost its lease to another instance.")
        self.instance_id = instance_id


ProcessGone = Callable[[str, int], bool]
"""Whether the process ``pid`` on host ``host`` certainly no longer exists."""


def local_process_gone(host: str, pid: int) -> bool:
    """True only for a process of this host that no longer runs (another host: never known)."""
    if host != this_host():
        return False
    if pid == os.getpid():
        return True  # a restarted container reuses the pid; the old holder was us
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists but belongs to someone else
    return False


def this_host() -> str:
    return socket.gethostname()


def _shown(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%SZ")


# --- SQL ---------------------------------------------------------------------------------------

_COLUMNS = (
    "instance_id, role, shard_ids, shard_count, host, pid, started_at, heartbeat_at, expires_at, "
    "released_at, release_reason"
)

LIVE_INSTANCES = "SELECT instance_id FROM instances WHERE released_at IS NULL AND expires_at > ?"
"""The ids of living instances (one parameter: now's stamp)."""


def _instance(row: tuple[object, ...]) -> Instance:
    (instance_id, role, ids, count, host, pid, started, beat, expires, released, reason) = row
    shard_ids = tuple(int(i) for i in str(ids).split(",") if i)
    return Instance(
        int(str(instance_id)),
        Claim(InstanceRole(str(role)), shard_ids, int(str(count))),
        str(host),
        int(str(pid)),
        parse_time(str(started)),
        parse_time(str(beat)),
        parse_time(str(expires)),
        None if released is None else parse_time(str(released)),
        None if reason is None else str(reason),
    )


def live_instances(tx: Transaction, now: datetime) -> list[Instance]:
    return [
        _instance(row)
        for row in tx.all(
            f"SELECT {_COLUMNS} FROM instances WHERE released_at IS NULL AND expires_at > ? "
            "ORDER BY instance_id",
            (stamp(now),),
        )
    ]


def acquire(
    work: Work, claim: Claim, host: str, pid: int, lease: float, gone: ProcessGone
) -> Instance:
    """Take a lease for ``claim``, or raise :class:`LeaseHeld` naming a living holder.

    Any lease of a process on this host that is gone is released first (a restart after a
    crash, a killed terminal game), so what it left is put back at once."""
    tx = work.tx
    tx.lock_guild(LEASE_LOCK)
    for other in live_instances(tx, work.now):
        if gone(other.host, other.pid):
            release(work, other.instance_id, "its process was gone when another started")
        elif claim.overlaps(other.claim):
            raise LeaseHeld(other)
    expires = stamp(work.now + timedelta(seconds=lease))
    instance_id = int(
        tx.value(
            "INSERT INTO instances (role, shard_ids, shard_count, host, pid, started_at, "
            "heartbeat_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING instance_id",
            (
                claim.role.value,
                ",".join(str(i) for i in claim.shard_ids),
                claim.shard_count,
                host,
                pid,
                work.stamp,
                work.stamp,
                expires,
            ),
        )
    )
    return read_instance(tx, instance_id)


def read_instance(tx: Transaction, instance_id: int) -> Instance:
    row = tx.one(f"SELECT {_COLUMNS} FROM instances WHERE instance_id = ?", (instance_id,))
    if row is None:
        raise LeaseLost(instance_id)
    return _instance(row)


def renew(work: Work, instance_id: int, lease: float) -> Instance:
    """Move the heartbeat to now; :class:`LeaseLost` if the lease was released meanwhile."""
    renewed = work.tx.value(
        "UPDATE instances SET heartbeat_at = ?, expires_at = ? "
        "WHERE instance_id = ? AND released_at IS NULL RETURNING instance_id",
        (work.stamp, stamp(work.now + timedelta(seconds=lease)), instance_id),
    )
    if renewed is None:
        raise LeaseLost(instance_id)
    return read_instance(work.tx, instance_id)


def release(work: Work, instance_id: int, reason: str) -> None:
    """End a lease now (idempotent: an ended lease keeps its first ending)."""
    work.tx.execute(
        "UPDATE instances SET released_at = ?, release_reason = ? "
        "WHERE instance_id = ? AND released_at IS NULL",
        (work.stamp, reason, instance_id),
    )


def release_dead(work: Work, instance_ids: set[int], reason: str) -> None:
    """End the expired leases of instances whose games were just recovered, so that a process
    that was only paused finds out (its next renewal raises :class:`LeaseLost`)."""
    for instance_id in sorted(instance_ids):
        work.tx.execute(
            "UPDATE instances SET released_at = ?, release_reason = ? "
            "WHERE instance_id = ? AND released_at IS NULL AND expires_at <= ?",
            (work.stamp, reason, instance_id, work.stamp),
        )


def adopt_tables(work: Work, instance_id: int, table_ids: list[int]) -> None:
    """Make this instance the owner of open tables it restores after their owner died."""
    work.tx.executemany(
        "UPDATE poker_tables SET instance_id = ? WHERE table_id = ? AND status = 'open'",
        [(instance_id, table_id) for table_id in table_ids],
    )


def orphaned_tables(
    tx: Transaction, now: datetime, owns: Callable[[int], bool] | None
) -> list[int]:
    """Open tables whose owner is dead (or unknown), in the guilds ``owns`` accepts."""
    return [
        int(table_id)
        for table_id, guild_id in tx.all(
            "SELECT table_id, guild_id FROM poker_tables WHERE status = 'open' AND "
            f"(instance_id IS NULL OR instance_id NOT IN ({LIVE_INSTANCES})) ORDER BY table_id",
            (stamp(now),),
        )
        if owns is None or owns(int(guild_id))
    ]


def orphaned_rounds(tx: Transaction, now: datetime, guild_id: int) -> list[int]:
    """A guild's open rounds whose owner is dead (or unknown)."""
    return [
        int(round_id)
        for (round_id,) in tx.all(
            "SELECT round_id FROM bj_rounds WHERE status = 'open' AND guild_id = ? AND "
            f"(instance_id IS NULL OR instance_id NOT IN ({LIVE_INSTANCES})) ORDER BY round_id",
            (guild_id, stamp(now)),
        )
    ]


def instance_reports(tx: Transaction, now: datetime, recent: int = 20) -> list[InstanceReport]:
    """The living instances and the ``recent`` latest ended ones, with what each owns now."""
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM instances WHERE (released_at IS NULL AND expires_at > ?) "
        "OR instance_id IN (SELECT instance_id FROM instances ORDER BY instance_id DESC LIMIT ?) "
        "ORDER BY instance_id",
        (stamp(now), recent),
    )
    counts: dict[tuple[str, int], int] = {
        (str(what), int(owner)): int(count)
        for what, owner, count in tx.all(
            "SELECT 'tables', instance_id, COUNT(*) FROM poker_tables "
            "WHERE status = 'open' AND instance_id IS NOT NULL GROUP BY instance_id "
            "UNION ALL SELECT 'hands', instance_id, COUNT(*) FROM hands "
            "WHERE status = 'in_progress' AND instance_id IS NOT NULL GROUP BY instance_id "
            "UNION ALL SELECT 'rounds', instance_id, COUNT(*) FROM bj_rounds "
            "WHERE status = 'open' AND instance_id IS NOT NULL GROUP BY instance_id"
        )
    }
    reports = []
    for row in rows:
        instance = _instance(row)
        key = instance.instance_id
        reports.append(
            InstanceReport(
                instance,
                instance.alive(now),
                counts.get(("tables", key), 0),
                counts.get(("hands", key), 0),
                counts.get(("rounds", key), 0),
            )
        )
    return reports


# --- keeping a lease alive ----------------------------------------------------------------------

Wait = Callable[[float], Awaitable[None]]


class LeaseHolder(Protocol):
    """What a :class:`~storage.store.Storage` needs to keep its lease: renew and release."""

    async def renew_lease(self) -> Instance: ...

    async def release_lease(self, reason: str) -> None: ...


@contextlib.asynccontextmanager
async def keep_renewed(
    holder: LeaseHolder,
    *,
    every: float = RENEW_SECONDS,
    wait: Wait = asyncio.sleep,
    on_lost: Callable[[LeaseLost], None] | None = None,
    reason: str = "stopped",
) -> AsyncIterator[None]:
    """Renew the lease every ``every`` seconds while the body runs; release it at the end.

    A renewal that fails for a database hiccup is tried again at the next beat (the lease has
    several beats of margin); a lost lease calls ``on_lost`` and stops renewing."""

    async def beat() -> None:
        while True:
            await wait(every)
            try:
                await holder.renew_lease()
            except LeaseLost as lost:
                _log.error("lease lost", extra={"instance_id": lost.instance_id})
                if on_lost is not None:
                    on_lost(lost)
                return
            except StorageError as error:
                _log.warning("lease renewal failed; trying again", extra={"error": str(error)})

    task = asyncio.create_task(beat(), name="felt-lease-heartbeat")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        with contextlib.suppress(StorageError):
            await holder.release_lease(reason)
