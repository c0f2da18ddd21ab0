"""A table session's settle-up: each player's totals, who pays whom, and the two CSV files.

Read from storage's session (``storage/sessions.py``: the table's open..close, from the escrow
records), worded by the fronts. Bots are players like any other here: their chips came from the
house, so a bot's net is what the house won or lost to the table; the nets of every player sum
to zero (Felt takes no rake; a 7-2 bounty moves chips between stacks), so ``engine.settle``
always finds the transfers, at most one fewer than the players with a non-zero net.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine.settle import Transfer, ledger_csv, settle, transfers_csv
from storage import PlayerSession, Storage, StorageError, TableSession
from storage.export import ledger_rows_of

_log = logging.getLogger("felt.holdem")


@dataclass(frozen=True, slots=True)
class SettleUp:
    """A session's ledger as the fronts show it: players by label, and the fewest transfers."""

    session: TableSession
    players: tuple[PlayerSession, ...]
    labels: dict[str, str]
    """Each player id's unique name (a name two players share gets the id appended)."""
    transfers: tuple[Transfer, ...]
    """Between labels: ``payer`` owes ``payee`` ``amount``."""

    def label(self, player: PlayerSession) -> str:
        return self.labels[player.player_id]

    def ledger_csv(self) -> str:
        """PokerNow's ledger CSV, one row per seating."""
        return ledger_csv(ledger_rows_of(list(self.session.lines)))

    def transfers_csv(self) -> str:
        """Who pays whom, ``payer,payee,amount``."""
        return transfers_csv(self.transfers)

    def file_stem(self) -> str:
        return f"holdem-table{self.session.table_id}"


def settle_up(session: TableSession) -> SettleUp:
    """The settle-up of ``session`` (the nets of its players always sum to zero)."""
    players = session.players()
    labels = _labels(players)
    nets = {labels[p.player_id]: p.net for p in players}
    return SettleUp(session, players, labels, tuple(settle(nets)))


def _labels(players: tuple[PlayerSession, ...]) -> dict[str, str]:
    named: dict[str, int] = {}
    for player in players:
        named[_name(player)] = named.get(_name(player), 0) + 1
    return {
        p.player_id: _name(p) if named[_name(p)] == 1 else f"{_name(p)} ({p.player_id})"
        for p in players
    }


def _name(player: PlayerSession) -> str:
    if player.player_id.startswith("bot:"):
        return f"{player.player_name} (bot)"
    return player.player_name


async def closing_session(storage: Storage, table_id: int) -> SettleUp | None:
    """The settle-up of a table that just closed; None (logged) if storage cannot say, so that
    a failed read never stops a table from closing."""
    try:
        return settle_up(await storage.table_session(table_id))
    except StorageError:
        _log.exception("could not read the session of table %s", table_id)
        return None
