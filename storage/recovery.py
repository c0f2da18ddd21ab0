"""Crash recovery at startup: every unfinished hand voided, every unfinished round refunded.

Chips at tables stay at their tables (the host resumes or closes them); only what was *in play*
is put back. Each voided hand and refunded round is its own operation (an internal key derived
from its id, so a second recovery cannot apply it twice), and the whole report is stored in
``recoveries``.

In a sharded deployment each process recovers only its own guilds (``owns``): another process
may be playing the others' hands right now. The guilds with something to put back are locked
first, in order (two recoveries cannot deadlock), and only what is still unfinished under those
locks is touched.
"""

from __future__ import annotations

from collections.abc import Callable

from storage import codec
from storage.blackjack import refund_round
from storage.ledger import INTERNAL_KEY_PREFIX, Work
from storage.models import HandVoided, RecoveryReport, RefundedRound, RoundRefunded, VoidedHand
from storage.tables import void_hand

RECOVERY_REASON = "Felt restarted before this finished"


def recover(work: Work, owns: Callable[[int], bool] | None = None) -> RecoveryReport:
    """Put back everything that was in play when the process stopped (in the guilds ``owns``
    accepts; all guilds without it)."""
    tx = work.tx
    guilds = sorted(
        int(guild_id)
        for (guild_id,) in tx.all(
            "SELECT guild_id FROM hands WHERE status = 'in_progress' "
            "UNION SELECT guild_id FROM bj_rounds WHERE status = 'open'"
        )
        if owns is None or owns(int(guild_id))
    )
    for guild_id in guilds:
        tx.lock_guild(guild_id)
    locked = set(guilds)
    voided: list[VoidedHand] = []
    for table_id, hand_id, guild_id, channel_id in tx.all(
        "SELECT h.table_id, h.hand_id, h.guild_id, t.channel_id FROM hands h "
        "JOIN poker_tables t ON t.table_id = h.table_id "
        "WHERE h.status = 'in_progress' ORDER BY h.table_id"
    ):
        if int(guild_id) not in locked:
            continue
        step = Work(tx, work.now, work.economy_defaults)
        result: HandVoided = void_hand(step, int(table_id), int(hand_id), RECOVERY_REASON)
        arguments = {"table_id": table_id, "hand_id": hand_id}
        step.record(
            "recover_hand",
            f"{INTERNAL_KEY_PREFIX}recover:hand:{table_id}:{hand_id}",
            codec.fingerprint("recover_hand", arguments),
            codec.dumps(result),
        )
        voided.append(
            VoidedHand(int(guild_id), int(channel_id), int(table_id), int(hand_id), result.stacks)
        )
    refunded: list[RefundedRound] = []
    for round_id, guild_id, channel_id in tx.all(
        "SELECT round_id, guild_id, channel_id FROM bj_rounds WHERE status = 'open' "
        "ORDER BY round_id"
    ):
        if int(guild_id) not in locked:
            continue
        step = Work(tx, work.now, work.economy_defaults)
        refund: RoundRefunded = refund_round(step, int(round_id), RECOVERY_REASON)
        step.record(
            "recover_round",
            f"{INTERNAL_KEY_PREFIX}recover:round:{round_id}",
            codec.fingerprint("recover_round", {"round_id": round_id}),
            codec.dumps(refund),
        )
        refunded.append(
            RefundedRound(int(guild_id), int(channel_id), int(round_id), refund.refunds)
        )
    report = RecoveryReport(work.now, tuple(voided), tuple(refunded))
    if not report.is_empty:
        tx.execute(
            "INSERT INTO recoveries (ran_at, report) VALUES (?, ?)",
            (work.stamp, codec.dumps(report)),
        )
    return report
