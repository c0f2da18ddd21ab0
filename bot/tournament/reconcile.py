"""Settling, when a director opens, the rebuys and add-ons storage was paid for and the saved
engine state does not know of (a crash between a payment and the save).

Every purchase pays through storage first (``Storage.pay_tournament_entry`` counts it on the
member's entry row and moves the chips into the pool), then tells the engine, then saves the
engine's state. A crash between the payment and the save leaves the pool larger than the
engine's prize pool, and storage refuses a finish whose prizes do not pay out its pool exactly:
the tournament could never pay. So on opening, for each payment the engine lacks, the director
either applies it (a held bust takes its rebuy; a live player within the rebuy period or at the
add-on break gets the same engine call as a bought one), or, when the engine can no longer take
it, refunds it (``Storage.refund_tournament_payment``, keyed by the payment's number: the
latest first). Either way the member is told in one line, and the pools agree again. Late
entries and re-entries are caught up by ``bot.tournament.late.catch_up``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.tournament.memory import Memory, player_key
from engine.errors import EngineError
from engine.tournament.events import TournamentEvent
from engine.tournament.tournament import Phase, Tournament
from storage import Storage
from storage.errors import StorageError
from storage.tournaments import EntryPayment, TournamentEntry

_log = logging.getLogger("felt.tournament")

SETTLED = (EntryPayment.REBUY, EntryPayment.ADD_ON)
"""The payments settled here (a re-entry is an entry: ``late.catch_up``)."""

_WHAT = {EntryPayment.REBUY: "rebuy", EntryPayment.ADD_ON: "add-on"}


@dataclass(frozen=True, slots=True)
class PaymentSettled:
    """News for one member: a rebuy or add-on they paid for just before a restart was
    applied to their stack, or refunded to their wallet."""

    user_id: int
    name: str
    payment: EntryPayment
    refunded: bool
    chips: int
    """The tournament chips it added (applied), or the wallet chips returned (refunded)."""

    @property
    def line(self) -> str:
        """What the member is told, in one line."""
        what = _WHAT[self.payment]
        if self.refunded:
            return (
                f"Your {what} paid just before a restart could no longer be applied: "
                f"{self.chips:,} chips are back in your wallet."
            )
        return f"Your {what} paid just before a restart is applied: +{self.chips:,} chips."


class Desk(Protocol):
    """What :func:`settle_payments` needs of the director (its lock held)."""

    storage: Storage
    tournament_id: int
    engine: Tournament
    memory: Memory


def bought(engine: Tournament, player: str, payment: EntryPayment) -> int:
    """How many rebuys or add-ons ``player`` has in the engine, over all their entries."""
    mine = [e for e in engine.entries.values() if e.player == player]
    if payment is EntryPayment.REBUY:
        return sum(e.rebuys for e in mine)
    return sum(e.add_ons for e in mine)


def refund_key(tournament_id: int, entry_id: int, payment: EntryPayment, number: int) -> str:
    """The refund's idempotency key: the ``number``-th ``payment`` on storage's entry row
    ``entry_id`` (the player's row: a bot's name may hold spaces, which a key may not)."""
    return f"tournament:{tournament_id}:entry-row:{entry_id}:{payment.value}:{number}:refund"


def apply(engine: Tournament, player: str, payment: EntryPayment) -> list[TournamentEvent] | None:
    """The engine takes a paid ``payment`` of ``player`` now as a purchase would (its events),
    or None when it no longer can."""
    if engine.phase is not Phase.RUNNING:
        return None
    try:
        if payment is EntryPayment.REBUY:
            held = engine.held_entry_of(player)
            if held is not None and engine.can_rebuy_held(held):
                return engine.rebuy_held(held)
            live = engine.entry_of(player)
            if live is not None and engine.can_rebuy(live.number):
                return engine.rebuy(live.number)
            return None
        live = engine.entry_of(player)
        if live is not None and engine.can_add_on(live.number):
            return engine.add_on(live.number)
    except EngineError:
        _log.exception("the engine refused a paid %s after a restart", payment.value)
    return None


async def settle_payments(
    desk: Desk, entries: Sequence[TournamentEntry]
) -> tuple[list[TournamentEvent], list[PaymentSettled]]:
    """Apply or refund every rebuy and add-on storage has and the engine lacks; the engine's
    events (for the director to save and apply) and the news for members."""
    events: list[TournamentEvent] = []
    news: list[PaymentSettled] = []
    for row in entries:
        player = player_key(row.user_id, row.bot_name)
        for payment in SETTLED:
            stored = row.rebuys if payment is EntryPayment.REBUY else row.add_ons
            while stored > bought(desk.engine, player, payment):
                done = apply(desk.engine, player, payment)
                if done is not None:
                    events += done
                    chips = desk.engine.structure.rebuy_chips
                    if payment is EntryPayment.ADD_ON:
                        chips = desk.engine.structure.add_on_chips
                    news += _told(desk, row, payment, refunded=False, chips=chips)
                    continue
                cost = await _refund(desk, row, payment, stored)
                if cost is None:
                    break
                stored -= 1
                news += _told(desk, row, payment, refunded=True, chips=cost)
    return events, news


async def _refund(
    desk: Desk, row: TournamentEntry, payment: EntryPayment, number: int
) -> int | None:
    """Refund ``row``'s ``number``-th ``payment``; the wallet chips returned (None: refused,
    logged; the pools stay apart and the finish will say so)."""
    key = refund_key(desk.tournament_id, row.entry_id, payment, number)
    try:
        refunded = await desk.storage.refund_tournament_payment(
            desk.tournament_id, row.player, payment, number, key=key
        )
    except StorageError:
        _log.exception("a paid %s could not be refunded after a restart", payment.value)
        return None
    return refunded.tournament.cost


def _told(
    desk: Desk, row: TournamentEntry, payment: EntryPayment, *, refunded: bool, chips: int
) -> list[PaymentSettled]:
    user = row.user_id
    if user is None:
        return []  # a bot's payment is the house's: nobody to tell
    player = player_key(user, None)
    name = desk.memory.names.get(player, player)
    return [PaymentSettled(user, name, payment, refunded, chips)]
