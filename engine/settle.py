"""Settling up after a home game: the fewest transfers that square every player's net, and the
ledger and who-pays-whom CSV files (PokerNow's ledger columns). Pure: values in, values out.

How the transfers are found. Players whose net is zero take no part. The others are split into
as many groups as possible whose nets each sum to zero: a group of k players settles with k - 1
transfers (each transfer squares at least one player, the last squares two), so n players in g
groups need n - g transfers, and more groups can only mean fewer transfers. That is the minimum,
found exactly by a search over subsets for up to ``EXACT_LIMIT`` players (2^n * n steps, a
quarter of a million at the limit, well under a second). Beyond it the greedy rule is used: the
biggest debtor pays the biggest creditor as much as squares one of them, which takes at most
n - 1 transfers but not always the fewest. Either way every net balances exactly, and the same
nets always give the same transfers (players are ordered by name).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.errors import MalformedInputError

EXACT_LIMIT = 14
"""Up to this many players with a non-zero net, the transfers are provably the fewest."""

LEDGER_COLUMNS = (
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
)
"""PokerNow's ledger CSV header, column for column."""

TRANSFER_COLUMNS = ("payer", "payee", "amount")


class SettleError(MalformedInputError):
    """Nets that cannot be settled (they do not sum to zero, or are not whole chips)."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` owes ``payee`` ``amount`` chips (always > 0)."""

    payer: str
    payee: str
    amount: int


def settle(nets: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers (see the module docstring) that bring every net to zero.

    ``nets`` maps each player to what they won (positive) or lost (negative); the nets must sum
    to zero. There are at most n - 1 transfers for n players.
    """
    for player, net in nets.items():
        if not isinstance(net, int) or isinstance(net, bool):
            raise SettleError(f"{player}'s net must be a whole number of chips, not {net!r}")
    if sum(nets.values()) != 0:
        raise SettleError(f"the nets sum to {sum(nets.values()):+}, not 0: someone is missing")
    players = sorted(player for player, net in nets.items() if net)
    if len(players) <= EXACT_LIMIT:
        groups = _zero_sum_groups(players, nets)
    else:
        groups = [players]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy({player: nets[player] for player in group}))
    return transfers


def _zero_sum_groups(players: Sequence[str], nets: Mapping[str, int]) -> list[list[str]]:
    """Split ``players`` into the most groups whose nets each sum to zero.

    Line the players up so that each group's members stand together: the groups are then the
    stretches between the points where the running total is zero. ``best[mask]`` is the most
    such points any ordering of the players in ``mask`` reaches; adding a last player to a set
    adds a point exactly when the whole set sums to zero. 2^n * n steps.
    """
    n = len(players)
    if n == 0:
        return []
    values = [nets[player] for player in players]
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        most = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        best[mask] = most + (total[mask] == 0)
    order: list[int] = []
    mask = full
    while mask:
        gained = total[mask] == 0
        last = next(
            i for i in range(n) if mask >> i & 1 and best[mask ^ (1 << i)] + gained == best[mask]
        )
        order.append(last)
        mask ^= 1 << last
    groups: list[list[str]] = [[]]
    running = 0
    for i in reversed(order):
        groups[-1].append(players[i])
        running += values[i]
        if running == 0:
            groups.append([])
    return [group for group in groups if group]


def _greedy(nets: Mapping[str, int]) -> list[Transfer]:
    """The biggest debtor pays the biggest creditor until everyone is square (ties by name)."""
    owed = dict(nets)
    transfers: list[Transfer] = []
    while True:
        debtors = sorted((net, player) for player, net in owed.items() if net < 0)
        creditors = sorted((-net, player) for player, net in owed.items() if net > 0)
        if not debtors:
            return transfers
        debt, payer = debtors[0]
        credit, payee = creditors[0]
        amount = min(-debt, -credit)
        owed[payer] += amount
        owed[payee] -= amount
        transfers.append(Transfer(payer, payee, amount))


# ------------------------------------------------------------------------------ CSV files


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One player's stay at a table, as PokerNow's ledger lists it.

    ``buy_out`` is what they cashed out (``None`` while they are still seated), ``stack`` the
    chips they still have at the table (0 once they have left); ``net`` is what they won.
    """

    player_nickname: str
    player_id: str
    session_start_at: datetime
    session_end_at: datetime | None
    buy_in: int
    buy_out: int | None
    stack: int

    @property
    def net(self) -> int:
        """Chips out (cashed and still on the table) less chips in."""
        return (self.buy_out or 0) + self.stack - self.buy_in


def ledger_csv(rows: Iterable[LedgerRow]) -> str:
    """PokerNow's ledger CSV: the header, then one line per row, times as ISO 8601 UTC."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEDGER_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                row.player_nickname,
                row.player_id,
                _timestamp(row.session_start_at),
                _timestamp(row.session_end_at),
                row.buy_in,
                "" if row.buy_out is None else row.buy_out,
                row.stack,
                row.net,
            ]
        )
    return out.getvalue()


def nets_by_player(rows: Iterable[LedgerRow]) -> dict[str, int]:
    """Each player's total net over their rows (a player may sit down more than once), by
    nickname, ready for ``settle``."""
    nets: dict[str, int] = {}
    for row in rows:
        nets[row.player_nickname] = nets.get(row.player_nickname, 0) + row.net
    return nets


def transfers_csv(transfers: Iterable[Transfer]) -> str:
    """Who pays whom as CSV: ``payer,payee,amount``, one line per transfer."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TRANSFER_COLUMNS)
    for transfer in transfers:
        writer.writerow([transfer.payer, transfer.payee, transfer.amount])
    return out.getvalue()


def _timestamp(moment: datetime | None) -> str:
    """PokerNow's form, ``2026-11-24T21:05:00.000Z``; empty for no time."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        raise SettleError(f"ledger times must carry a time zone, not {moment!r}")
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
