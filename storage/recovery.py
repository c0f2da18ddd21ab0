"""Crash recovery at startup: every unfinished hand and round of a dead instance put back.

Chips at tables stay at their tables (the host resumes or closes them); only what was *in play*
is put back. Each voided hand and refunded round is its own operation (an internal key derived
from its id, so a second recovery cannot apply it twice), and the whole report is stored in
``recoveries``.

Only what belongs to a dead instance is touched (storage/instances.py): one whose lease was
released or expired, or none at all (rows from before leases, or from a storage that never took
one). A living instance's hands are never voided, even in a guild this process owns. In a
sharded deployment each process also recovers only its own guilds (``owns``). The guilds with
something to put back are locked first, in order (two recoveries cannot deadlock), and only what
is still unfinished under those locks is touched. A recovering instance then adopts the open
tables of its guilds whose owner is dead, and ends the expired leases whose games it put back.
"""

from __future__ import annotations

from collections.abc import Callable

from storage import codec
from storage.blackjack import refund_round
from storage.holdem import void_hand
from storage.instances import LIVE_INSTANCES, adopt_tables, orphaned_tables, release_dead
from storage.ledger import INTERNAL_KEY_PREFIX, Work, stamp
from storage.models import RecoveredHand, RecoveredRound, RecoveryReport, RefundedRound, VoidedHand

RECOVERY_REASON = "Felt restarted before this finished"

Owns = Callable[[int], bool] | None


def _dead_owner(column: str = "instance_id") -> str:
    """Rows whose instance is dead or unknown (one parameter: now's stamp)."""
    return f"({column} IS NULL OR {column} NOT IN ({LIVE_INSTANCES}))"


def recover(work: Work, owns: Owns = None, instance_id: int | None = None) -> RecoveryReport:
    """Put back everything in play that a dead instance left (in the guilds ``owns`` accepts;
    all guilds without it); ``instance_id`` (this process's lease) adopts their open tables."""
    guilds = _lock_guilds(work, owns)
    owners: set[int] = set()
    voided = _void_hands(work, guilds, owners)
    refunded = _refund_rounds(work, guilds, owners)
    release_dead(work, owners, "its games were recovered by another instance")
    if instance_id is not None:
        adopt_tables(work, instance_id, orphaned_tables(work.tx, work.now, owns))
    report = RecoveryReport(work.now, tuple(voided), tuple(refunded))
    if not report.is_empty:
        work.tx.execute(
            "INSERT INTO recoveries (ran_at, report) VALUES (?, ?)",
            (work.stamp, codec.dumps(report)),
        )
    return report


def _lock_guilds(work: Work, owns: Owns) -> set[int]:
    """Lock, in order, the guilds with a dead instance's hand or round to put back."""
    guilds = sorted(
        int(guild_id)
        for (guild_id,) in work.tx.all(
            f"SELECT guild_id FROM hands WHERE status = 'in_progress' AND {_dead_owner()} "
            f"UNION SELECT guild_id FROM bj_rounds WHERE status = 'open' AND {_dead_owner()}",
            (work.stamp, work.stamp),
        )
        if owns is None or owns(int(guild_id))
    )
    for guild_id in guilds:
        work.tx.lock_guild(guild_id)
    return set(guilds)


def _void_hands(work: Work, guilds: set[int], owners: set[int]) -> list[RecoveredHand]:
    voided: list[RecoveredHand] = []
    for table_id, hand_id, guild_id, channel_id, owner in work.tx.all(
        "SELECT h.table_id, h.hand_id, h.guild_id, t.channel_id, h.instance_id FROM hands h "
        "JOIN poker_tables t ON t.table_id = h.table_id "
        f"WHERE h.status = 'in_progress' AND {_dead_owner('h.instance_id')} "
        "ORDER BY h.table_id",
        (stamp(work.now),),
    ):
        if int(guild_id) not in guilds:
            continue
        if owner is not None:
            owners.add(int(owner))
        step = Work(work.tx, work.now, work.economy_defaults)
        result: VoidedHand = void_hand(step, int(table_id), int(hand_id), RECOVERY_REASON)
        step.record(
            "recover_hand",
            f"{INTERNAL_KEY_PREFIX}recover:hand:{table_id}:{hand_id}",
            codec.fingerprint("recover_hand", {"table_id": table_id, "hand_id": hand_id}),
            codec.dumps(result),
        )
        voided.append(
            RecoveredHand(
                int(guild_id), int(channel_id), int(table_id), int(hand_id), result.stacks
            )
        )
    return voided


def _refund_rounds(work: Work, guilds: set[int], owners: set[int]) -> list[RecoveredRound]:
    refunded: list[RecoveredRound] = []
    for round_id, guild_id, channel_id, owner in work.tx.all(
        "SELECT round_id, guild_id, channel_id, instance_id FROM bj_rounds "
        f"WHERE status = 'open' AND {_dead_owner()} ORDER BY round_id",
        (work.stamp,),
    ):
        if int(guild_id) not in guilds:
            continue
        if owner is not None:
            owners.add(int(owner))
        step = Work(work.tx, work.now, work.economy_defaults)
        refund: RefundedRound = refund_round(step, int(round_id), RECOVERY_REASON)
        step.record(
            "recover_round",
            f"{INTERNAL_KEY_PREFIX}recover:round:{round_id}",
            codec.fingerprint("recover_round", {"round_id": round_id}),
            codec.dumps(refund),
        )
        refunded.append(
            RecoveredRound(int(guild_id), int(channel_id), int(round_id), refund.refunds)
        )
    return refunded
