"""Tournaments in the database: registrations, the prize pool's ledger, the saved state, results.

**How a tournament's chips move.** Tournament chips (the stacks in play) are not wallet chips:
they live only in the engine's saved state (:func:`save_state`). What is real is the pool, one
member-less escrow account (kind ``seat``) per tournament:

- registering moves ``buy_in + fee`` from the member's wallet to the pool (ledger ``buy_in``);
  a rebuy or add-on moves ``buy_in + fee`` again (``rebuy``), a re-entry too (``buy_in``);
- unregistering (before the start) or a cancelled tournament moves every chip an entry paid
  back to its wallet (``refund``);
- finishing pays each prize from the pool to its wallet and every fee to the guild's house
  (``payout``); the prizes must add up to exactly the buy-ins collected, so the pool ends empty.

**Bots.** A Sit & Go may be filled with bots at the start. A bot has no wallet: its entry is
paid by the guild's house (``buy_in`` from the house account) and whatever it wins goes back to
the house (as does its fee). The pool members play for is therefore honest: every chip in it
was paid in by somebody, and the house stands behind its bots exactly as at a cash table.

So at every moment ``pool = sum(paid_in + fees_paid) - sum(refunded) - sum(prize) - house_fee``
for each tournament, which ``felt db check`` verifies (:func:`pool_problems`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from storage.backend import Transaction
from storage.errors import InvalidArgument, InvalidSettlement, StorageError
from storage.ledger import Work, parse_time, require_amount, require_id, require_text, stamp
from storage.models import AccountKind, LedgerKind, Problem, ProblemKind

MAX_TOURNAMENT_NAME = 100
MAX_BOT_NAME = 64
MAX_STRUCTURE_CHARS = 20_000
MAX_STATE_CHARS = 5_000_000
MAX_PHH_CHARS = 200_000

Player = int | str
"""Who holds an entry: a member's user id, or a bot's name."""


class TournamentKind(StrEnum):
    """A Sit & Go (one table, starts when full) or a multi-table tournament."""

    SIT_AND_GO = "sng"
    MULTI_TABLE = "mtt"


class TournamentStatus(StrEnum):
    """Where a tournament stands."""

    REGISTERING = "registering"
    """The lobby is open: members register and unregister."""
    RUNNING = "running"
    """Started: the field is frozen (rebuys, add-ons and re-entries still pay in)."""
    FINISHED = "finished"
    """Places recorded and the pool paid out."""
    CANCELLED = "cancelled"
    """Everything paid in was refunded."""


class EntryPayment(StrEnum):
    """A payment into the pool after registering."""

    REBUY = "rebuy"
    ADD_ON = "addon"
    RE_ENTRY = "reentry"


# --- errors ----------------------------------------------------------------------------------


class TournamentError(StorageError):
    """A refused tournament operation (nothing changed)."""


class UnknownTournament(TournamentError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"There is no tournament {tournament_id}.")
        self.tournament_id = tournament_id


class TournamentNotOpen(TournamentError):
    """The tournament is not in the status this operation needs (started, finished...)."""

    def __init__(self, tournament_id: int, status: TournamentStatus, wanted: str) -> None:
        super().__init__(f"Tournament {tournament_id} is {status.value}; this needs it {wanted}.")
        self.tournament_id = tournament_id
        self.status = status
        self.wanted = wanted


class TournamentFull(TournamentError):
    def __init__(self, tournament_id: int, max_entries: int) -> None:
        super().__init__(f"Tournament {tournament_id} is full ({max_entries} entries).")
        self.tournament_id = tournament_id
        self.max_entries = max_entries


class AlreadyRegistered(TournamentError):
    def __init__(self, tournament_id: int, player: Player) -> None:
        super().__init__(f"{player!r} is already registered in tournament {tournament_id}.")
        self.tournament_id = tournament_id
        self.player = player


class NotRegistered(TournamentError):
    def __init__(self, tournament_id: int, player: Player) -> None:
        super().__init__(f"{player!r} is not registered in tournament {tournament_id}.")
        self.tournament_id = tournament_id
        self.player = player


class TooFewEntries(TournamentError):
    def __init__(self, tournament_id: int, entries: int) -> None:
        super().__init__(f"Tournament {tournament_id} cannot start with {entries} entries.")
        self.tournament_id = tournament_id
        self.entries = entries


class StaleTournamentState(TournamentError):
    """A state save whose version is not the next one: another writer saved meanwhile."""

    def __init__(self, tournament_id: int, version: int, stored: int) -> None:
        super().__init__(
            f"Tournament {tournament_id}'s state is at version {stored}; "
            f"version {version} is stale."
        )
        self.tournament_id = tournament_id
        self.version = version
        self.stored = stored


class InvalidTournamentResults(InvalidSettlement):
    """Places or prizes that do not fit the field or do not pay out the pool exactly."""


# --- values ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as stored, with its live totals."""

    tournament_id: int
    guild_id: int
    channel_id: int
    created_by: int
    name: str
    kind: TournamentKind
    buy_in: int
    fee: int
    """Chips on top of the buy-in for every payment, kept by the house."""
    structure_json: str
    """The structure as JSON text (``engine.tournament.structure.Structure.to_mapping``)."""
    seats_per_table: int
    max_entries: int
    starts_at: datetime | None
    """None: a Sit & Go that starts when full."""
    bots_fill: bool
    status: TournamentStatus
    entries: int
    """Registered entries (members and bots)."""
    prize_pool: int
    """Buy-ins, rebuys, add-ons and re-entries collected (fees excluded)."""
    fees: int
    """Fees collected from the registered entries, the house's at the finish."""
    lobby_message_id: int | None
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None

    @property
    def structure(self) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.structure_json)
        return decoded

    @property
    def cost(self) -> int:
        """What one entry (or rebuy, add-on, re-entry) costs a wallet."""
        return self.buy_in + self.fee


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """One registration (a member's or a bot's)."""

    entry_id: int
    tournament_id: int
    user_id: int | None
    bot_name: str | None
    registered: bool
    """False once withdrawn (unregistered and refunded)."""
    paid_in: int
    fees_paid: int
    refunded: int
    rebuys: int
    add_ons: int
    re_entries: int
    place: int | None
    prize: int

    @property
    def player(self) -> Player:
        if self.user_id is not None:
            return self.user_id
        assert self.bot_name is not None
        return self.bot_name


@dataclass(frozen=True, slots=True)
class Registration:
    """A registration or an entry payment: the entry after it and the wallet's balance (None
    for a bot, whose entry the house paid)."""

    tournament: TournamentRow
    entry: TournamentEntry
    wallet_balance: int | None


@dataclass(frozen=True, slots=True)
class TournamentRefunds:
    """An unregistration or a cancellation: who got how much back."""

    tournament: TournamentRow
    refunds: tuple[TournamentEntry, ...]
    total: int


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    """The places and prizes paid, and the fee the house took."""

    tournament: TournamentRow
    entries: tuple[TournamentEntry, ...]
    paid: int
    house_fee: int


@dataclass(frozen=True, slots=True)
class LoadedTournament:
    """Everything a restarted director needs: the row, the entries and the latest state."""

    tournament: TournamentRow
    entries: tuple[TournamentEntry, ...]
    state: dict[str, Any] | None
    state_version: int


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """One hand of a tournament, as PHH text."""

    tournament_id: int
    table_no: int
    hand_no: int
    level: int
    phh: str
    ended_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """A member's finished tournaments: how many, in the money, won, and the chips."""

    played: int
    in_the_money: int
    wins: int
    paid: int
    """Buy-ins, fees, rebuys, add-ons and re-entries paid."""
    prizes: int

    @property
    def net(self) -> int:
        return self.prizes - self.paid


# --- reading ---------------------------------------------------------------------------------

_ROW = (
    "SELECT t.tournament_id, t.guild_id, t.channel_id, t.created_by, t.name, t.kind, t.buy_in, "
    "t.fee, t.structure, t.seats_per_table, t.max_entries, t.starts_at, t.bots_fill, t.status, "
    "COALESCE(SUM(CASE WHEN e.status = 'registered' THEN 1 ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN e.status = 'registered' THEN e.paid_in ELSE 0 END), 0), "
    "COALESCE(SUM(CASE WHEN e.status = 'registered' THEN e.fees_paid ELSE 0 END), 0), "
    "t.lobby_message_id, t.created_at, t.started_at, t.ended_at "
    "FROM tournaments t LEFT JOIN tournament_entries e ON e.tournament_id = t.tournament_id "
)
_GROUP = (
    " GROUP BY t.tournament_id, t.guild_id, t.channel_id, t.created_by, t.name, t.kind, "
    "t.buy_in, t.fee, t.structure, t.seats_per_table, t.max_entries, t.starts_at, t.bots_fill, "
    "t.status, t.lobby_message_id, t.created_at, t.started_at, t.ended_at"
)
_ENTRY = (
    "SELECT entry_id, tournament_id, user_id, bot_name, status, paid_in, fees_paid, refunded, "
    "rebuys, add_ons, re_entries, place, prize FROM tournament_entries "
)


def _time(value: object) -> datetime | None:
    return None if value is None else parse_time(str(value))


def _row(values: Sequence[Any]) -> TournamentRow:
    created = _time(values[18])
    assert created is not None
    return TournamentRow(
        tournament_id=int(values[0]),
        guild_id=int(values[1]),
        channel_id=int(values[2]),
        created_by=int(values[3]),
        name=str(values[4]),
        kind=TournamentKind(values[5]),
        buy_in=int(values[6]),
        fee=int(values[7]),
        structure_json=str(values[8]),
        seats_per_table=int(values[9]),
        max_entries=int(values[10]),
        starts_at=_time(values[11]),
        bots_fill=bool(values[12]),
        status=TournamentStatus(values[13]),
        entries=int(values[14]),
        prize_pool=int(values[15]),
        fees=int(values[16]),
        lobby_message_id=None if values[17] is None else int(values[17]),
        created_at=created,
        started_at=_time(values[19]),
        ended_at=_time(values[20]),
    )


def _entry(values: Sequence[Any]) -> TournamentEntry:
    return TournamentEntry(
        entry_id=int(values[0]),
        tournament_id=int(values[1]),
        user_id=None if values[2] is None else int(values[2]),
        bot_name=None if values[3] is None else str(values[3]),
        registered=values[4] == "registered",
        paid_in=int(values[5]),
        fees_paid=int(values[6]),
        refunded=int(values[7]),
        rebuys=int(values[8]),
        add_ons=int(values[9]),
        re_entries=int(values[10]),
        place=None if values[11] is None else int(values[11]),
        prize=int(values[12]),
    )


def read_tournament(tx: Transaction, tournament_id: int) -> TournamentRow | None:
    found = tx.one(_ROW + "WHERE t.tournament_id = ?" + _GROUP, (tournament_id,))
    return None if found is None else _row(found)


def read_entries(
    tx: Transaction, tournament_id: int, *, registered_only: bool = True
) -> tuple[TournamentEntry, ...]:
    """A tournament's entries in registration order (the engine's entry order)."""
    where = "WHERE tournament_id = ?" + (" AND status = 'registered'" if registered_only else "")
    return tuple(
        _entry(row) for row in tx.all(_ENTRY + where + " ORDER BY entry_id", (tournament_id,))
    )


def list_tournaments(
    tx: Transaction,
    guild_id: int | None,
    statuses: Sequence[TournamentStatus],
    owns: Callable[[int], bool] | None = None,
) -> list[TournamentRow]:
    """Tournaments in the given statuses, oldest first, of one guild or of all the guilds
    ``owns`` accepts."""
    if not statuses:
        return []
    marks = ", ".join("?" for _ in statuses)
    sql = _ROW + f"WHERE t.status IN ({marks})"
    params: list[object] = [status.value for status in statuses]
    if guild_id is not None:
        sql += " AND t.guild_id = ?"
        params.append(guild_id)
    rows = [_row(row) for row in tx.all(sql + _GROUP + " ORDER BY t.tournament_id", params)]
    return [row for row in rows if owns is None or owns(row.guild_id)]


def load(tx: Transaction, tournament_id: int) -> LoadedTournament:
    row = _tournament(tx, tournament_id)
    found = tx.one(
        "SELECT state, state_version FROM tournaments WHERE tournament_id = ?", (tournament_id,)
    )
    assert found is not None
    state = None if found[0] is None else json.loads(str(found[0]))
    return LoadedTournament(row, read_entries(tx, tournament_id), state, int(found[1]))


def read_hands(tx: Transaction, tournament_id: int) -> list[TournamentHand]:
    """A tournament's hands, in the order they ended."""
    _tournament(tx, tournament_id)
    return [
        TournamentHand(int(t), int(table), int(hand), int(level), str(phh), parse_time(str(end)))
        for t, table, hand, level, phh, end in tx.all(
            "SELECT tournament_id, table_no, hand_no, level, phh, ended_at FROM tournament_hands "
            "WHERE tournament_id = ? ORDER BY ended_at, table_no, hand_no",
            (tournament_id,),
        )
    ]


def _tournament(tx: Transaction, tournament_id: int) -> TournamentRow:
    row = read_tournament(tx, tournament_id)
    if row is None:
        raise UnknownTournament(tournament_id)
    return row


def _require_status(row: TournamentRow, wanted: tuple[TournamentStatus, ...], what: str) -> None:
    if row.status not in wanted:
        raise TournamentNotOpen(row.tournament_id, row.status, what)


def _find_entry(tx: Transaction, tournament_id: int, player: Player) -> TournamentEntry | None:
    column = "bot_name" if isinstance(player, str) else "user_id"
    found = tx.one(
        _ENTRY + f"WHERE tournament_id = ? AND {column} = ? AND status = 'registered'",
        (tournament_id, player),
    )
    return None if found is None else _entry(found)


def _read_entry(tx: Transaction, entry_id: int) -> TournamentEntry:
    found = tx.one(_ENTRY + "WHERE entry_id = ?", (entry_id,))
    assert found is not None
    return _entry(found)


def require_player(player: object) -> Player:
    if isinstance(player, str):
        text = require_text(player, "A bot's name", limit=MAX_BOT_NAME)
        assert text is not None
        return text
    return require_id(player, "A user id")


# --- writing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What an organiser sets, checked before anything is written."""

    guild_id: int
    channel_id: int
    created_by: int
    name: str
    kind: TournamentKind
    buy_in: int
    fee: int
    structure_json: str
    seats_per_table: int
    max_entries: int
    starts_at: datetime | None
    bots_fill: bool

    def __post_init__(self) -> None:
        require_id(self.guild_id, "A guild id")
        require_id(self.channel_id, "A channel id")
        require_id(self.created_by, "A user id")
        require_text(self.name, "A tournament's name", limit=MAX_TOURNAMENT_NAME)
        TournamentKind(self.kind)
        require_amount(self.buy_in, what="buy-in")
        require_amount(self.fee, what="fee", allow_zero=True)
        require_text(self.structure_json, "A structure", limit=MAX_STRUCTURE_CHARS)
        try:
            json.loads(self.structure_json)
        except ValueError as error:
            raise InvalidArgument(f"A structure must be JSON text: {error}") from None
        if not _whole(self.seats_per_table) or not 2 <= self.seats_per_table <= 10:
            raise InvalidArgument("A tournament table seats 2 to 10 players.")
        if not _whole(self.max_entries) or self.max_entries < 2:
            raise InvalidArgument("A tournament needs room for at least 2 entries.")
        if self.kind is TournamentKind.SIT_AND_GO and self.max_entries > self.seats_per_table:
            raise InvalidArgument("A Sit & Go is one table: no more entries than seats.")
        if self.starts_at is not None and self.starts_at.utcoffset() is None:
            raise InvalidArgument("A start time must carry its time zone.")
        if self.starts_at is None and self.kind is TournamentKind.MULTI_TABLE:
            raise InvalidArgument("A multi-table tournament needs a start time.")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def create(work: Work, new: NewTournament) -> TournamentRow:
    """A tournament in the registering status, with its empty pool account."""
    work.guild(new.guild_id)
    work.guild_id, work.actor_id = new.guild_id, new.created_by
    pool = work.new_account(new.guild_id, AccountKind.SEAT, None)
    tournament_id = int(
        work.tx.value(
            "INSERT INTO tournaments (guild_id, channel_id, created_by, name, kind, buy_in, fee, "
            "structure, seats_per_table, max_entries, starts_at, bots_fill, pool_account_id, "
            "status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registering', ?) "
            "RETURNING tournament_id",
            (
                new.guild_id,
                new.channel_id,
                new.created_by,
                new.name,
                new.kind.value,
                new.buy_in,
                new.fee,
                new.structure_json,
                new.seats_per_table,
                new.max_entries,
                None if new.starts_at is None else stamp(new.starts_at),
                int(new.bots_fill),
                pool,
                work.stamp,
            ),
        )
    )
    work.note = f"tournament {tournament_id}"
    return _tournament(work.tx, tournament_id)


def _pool_account(tx: Transaction, tournament_id: int) -> int:
    return int(
        tx.value(
            "SELECT pool_account_id FROM tournaments WHERE tournament_id = ?", (tournament_id,)
        )
    )


def _source(work: Work, guild_id: int, player: Player) -> tuple[int, int | None]:
    """The account a player pays from and is paid into: the wallet, or the house for a bot."""
    if isinstance(player, str):
        return work.guild(guild_id).house_account_id, None
    return work.open_member(guild_id, player).account_id, player


def _pay_in(work: Work, row: TournamentRow, player: Player, kind: LedgerKind) -> int | None:
    """Move one entry's cost into the pool; the wallet's balance after (None for a bot)."""
    source, user_id = _source(work, row.guild_id, player)
    pool = _pool_account(work.tx, row.tournament_id)
    balance, _pool = work.transfer(row.guild_id, source, pool, row.cost, kind, user_id=user_id)
    return None if user_id is None else balance


def _refer(work: Work, row: TournamentRow, actor: int | None, what: str) -> None:
    work.guild_id, work.actor_id = row.guild_id, actor
    work.note = f"tournament {row.tournament_id}: {what}"


def register(work: Work, tournament_id: int, player: Player) -> Registration:
    """Register a member (paying from the wallet) or a bot (paid by the house)."""
    row = _tournament(work.tx, tournament_id)
    _refer(work, row, player if isinstance(player, int) else None, f"register {player}")
    _require_status(row, (TournamentStatus.REGISTERING,), "open for registration")
    if _find_entry(work.tx, tournament_id, player) is not None:
        raise AlreadyRegistered(tournament_id, player)
    if row.entries >= row.max_entries:
        raise TournamentFull(tournament_id, row.max_entries)
    balance = _pay_in(work, row, player, LedgerKind.BUY_IN)
    entry_id = _insert_entry(work, row, player)
    return Registration(
        _tournament(work.tx, tournament_id), _read_entry(work.tx, entry_id), balance
    )


def enter_late(work: Work, tournament_id: int, user_id: int) -> Registration:
    """A member's entry into a running tournament: a late registration (a new row) or, for a
    member whose earlier entry busted, a re-entry (counted on their row in ``re_entries``).
    Either way one more ``buy_in + fee`` moves from the wallet to the pool in its own ledger
    row. Whether late registration is open and the member may enter now is the director's
    (the engine's) to decide; storage keeps the field within ``max_entries``."""
    row = _tournament(work.tx, tournament_id)
    user_id = require_id(user_id, "A user id")
    _refer(work, row, user_id, f"late entry {user_id}")
    _require_status(row, (TournamentStatus.RUNNING,), "running")
    if entry_count(work.tx, tournament_id) >= row.max_entries:
        raise TournamentFull(tournament_id, row.max_entries)
    entry = _find_entry(work.tx, tournament_id, user_id)
    balance = _pay_in(work, row, user_id, LedgerKind.BUY_IN)
    if entry is None:
        entry_id = _insert_entry(work, row, user_id)
    else:
        entry_id = entry.entry_id
        work.tx.execute(
            "UPDATE tournament_entries SET re_entries = re_entries + 1, paid_in = paid_in + ?, "
            "fees_paid = fees_paid + ? WHERE entry_id = ?",
            (row.buy_in, row.fee, entry_id),
        )
    return Registration(
        _tournament(work.tx, tournament_id), _read_entry(work.tx, entry_id), balance
    )


def entry_count(tx: Transaction, tournament_id: int) -> int:
    """The field: every registered entry and every re-entry (what ``max_entries`` limits and
    the payouts are counted by)."""
    return int(
        tx.value(
            "SELECT COUNT(*) + COALESCE(SUM(re_entries), 0) FROM tournament_entries "
            "WHERE tournament_id = ? AND status = 'registered'",
            (tournament_id,),
        )
    )


def _insert_entry(work: Work, row: TournamentRow, player: Player) -> int:
    return int(
        work.tx.value(
            "INSERT INTO tournament_entries (tournament_id, user_id, bot_name, status, paid_in, "
            "fees_paid, registered_at) VALUES (?, ?, ?, 'registered', ?, ?, ?) RETURNING entry_id",
            (
                row.tournament_id,
                player if isinstance(player, int) else None,
                player if isinstance(player, str) else None,
                row.buy_in,
                row.fee,
                work.stamp,
            ),
        )
    )


def _refund(work: Work, row: TournamentRow, entry: TournamentEntry) -> TournamentEntry:
    owed = entry.paid_in + entry.fees_paid - entry.refunded
    if owed > 0:
        destination, _user = _source(work, row.guild_id, entry.player)
        pool = _pool_account(work.tx, row.tournament_id)
        work.transfer(row.guild_id, pool, destination, owed, LedgerKind.REFUND)
    work.tx.execute(
        "UPDATE tournament_entries SET status = 'withdrawn', refunded = refunded + ? "
        "WHERE entry_id = ?",
        (owed, entry.entry_id),
    )
    return _read_entry(work.tx, entry.entry_id)


def unregister(work: Work, tournament_id: int, user_id: int) -> TournamentRefunds:
    """Withdraw a member's registration before the start, refunding what they paid."""
    row = _tournament(work.tx, tournament_id)
    _refer(work, row, user_id, f"unregister {user_id}")
    _require_status(row, (TournamentStatus.REGISTERING,), "open for registration")
    entry = _find_entry(work.tx, tournament_id, user_id)
    if entry is None:
        raise NotRegistered(tournament_id, user_id)
    refunded = _refund(work, row, entry)
    return TournamentRefunds(_tournament(work.tx, tournament_id), (refunded,), refunded.refunded)


def cancel(work: Work, tournament_id: int, actor_id: int | None, reason: str) -> TournamentRefunds:
    """Cancel a tournament that has not finished: every entry gets back all it paid."""
    require_text(reason, "A cancellation reason", limit=200)
    row = _tournament(work.tx, tournament_id)
    _refer(work, row, actor_id, f"cancel: {reason}")
    _require_status(
        row, (TournamentStatus.REGISTERING, TournamentStatus.RUNNING), "registering or running"
    )
    refunds = tuple(_refund(work, row, entry) for entry in read_entries(work.tx, tournament_id))
    work.tx.execute(
        "UPDATE tournaments SET status = 'cancelled', ended_at = ?, cancel_reason = ? "
        "WHERE tournament_id = ?",
        (work.stamp, reason, tournament_id),
    )
    total = sum(entry.refunded for entry in refunds)
    return TournamentRefunds(_tournament(work.tx, tournament_id), refunds, total)


_PAYMENT_COLUMNS: Mapping[EntryPayment, tuple[str, LedgerKind]] = {
    EntryPayment.REBUY: ("rebuys", LedgerKind.REBUY),
    EntryPayment.ADD_ON: ("add_ons", LedgerKind.REBUY),
    EntryPayment.RE_ENTRY: ("re_entries", LedgerKind.BUY_IN),
}


def pay_entry(
    work: Work, tournament_id: int, player: Player, payment: EntryPayment
) -> Registration:
    """A rebuy, add-on or re-entry during the tournament: one more ``buy_in + fee`` into the
    pool. Whether the structure allows it now is the director's (the engine's) to decide."""
    row = _tournament(work.tx, tournament_id)
    _refer(work, row, player if isinstance(player, int) else None, f"{payment.value} {player}")
    _require_status(row, (TournamentStatus.RUNNING,), "running")
    entry = _find_entry(work.tx, tournament_id, player)
    if entry is None:
        raise NotRegistered(tournament_id, player)
    column, kind = _PAYMENT_COLUMNS[payment]
    balance = _pay_in(work, row, player, kind)
    work.tx.execute(
        f"UPDATE tournament_entries SET {column} = {column} + 1, paid_in = paid_in + ?, "
        "fees_paid = fees_paid + ? WHERE entry_id = ?",
        (row.buy_in, row.fee, entry.entry_id),
    )
    return Registration(
        _tournament(work.tx, tournament_id), _read_entry(work.tx, entry.entry_id), balance
    )


class NoSuchPayment(TournamentError):
    """A refund of a rebuy or add-on that is not the entry's latest of its kind."""

    def __init__(self, tournament_id: int, player: Player, payment: EntryPayment, number: int):
        super().__init__(
            f"{player!r} has no {payment.value} number {number} to refund in tournament "
            f"{tournament_id}."
        )
        self.tournament_id = tournament_id
        self.player = player
        self.payment = payment
        self.number = number


def refund_payment(
    work: Work, tournament_id: int, player: Player, payment: EntryPayment, number: int
) -> Registration:
    """Undo the ``number``-th rebuy or add-on of a running tournament's entry (its latest of
    that kind): ``buy_in + fee`` goes back from the pool to the wallet (a bot's to the house)
    and the entry's count, ``paid_in`` and ``fees_paid`` drop with it, so the prize pool is
    what the director's engine sold. For a payment a crash kept from the engine's saved state
    that the engine can no longer take. A re-entry is never undone here (it is in the field)."""
    row = _tournament(work.tx, tournament_id)
    _refer(work, row, None, f"refund {payment.value} {number} of {player}")
    _require_status(row, (TournamentStatus.RUNNING,), "running")
    if payment is EntryPayment.RE_ENTRY:
        raise InvalidArgument("A re-entry is in the field: it is not refunded on its own.")
    entry = _find_entry(work.tx, tournament_id, player)
    if entry is None:
        raise NotRegistered(tournament_id, player)
    column, _kind = _PAYMENT_COLUMNS[payment]
    count = entry.rebuys if payment is EntryPayment.REBUY else entry.add_ons
    if not _whole(number) or number != count or number < 1:
        raise NoSuchPayment(tournament_id, player, payment, number)
    destination, user_id = _source(work, row.guild_id, player)
    pool = _pool_account(work.tx, tournament_id)
    _pool_left, balance = work.transfer(
        row.guild_id, pool, destination, row.cost, LedgerKind.REFUND
    )
    work.tx.execute(
        f"UPDATE tournament_entries SET {column} = {column} - 1, paid_in = paid_in - ?, "
        "fees_paid = fees_paid - ? WHERE entry_id = ?",
        (row.buy_in, row.fee, entry.entry_id),
    )
    return Registration(
        _tournament(work.tx, tournament_id),
        _read_entry(work.tx, entry.entry_id),
        None if user_id is None else balance,
    )


def start(work: Work, tournament_id: int, bots: Sequence[str]) -> tuple[TournamentEntry, ...]:
    """Freeze the field (after seating ``bots``, house-paid) and mark the tournament running."""
    row = _tournament(work.tx, tournament_id)
    _require_status(row, (TournamentStatus.REGISTERING,), "registering")
    if bots and not row.bots_fill:
        raise InvalidArgument(f"Tournament {tournament_id} was not created to be filled by bots.")
    if len(set(bots)) != len(bots):
        raise InvalidArgument("Each bot can hold only one entry.")
    total = row.entries + len(bots)
    if total > row.max_entries:
        raise TournamentFull(tournament_id, row.max_entries)
    if total < 2:
        raise TooFewEntries(tournament_id, total)
    for name in bots:
        register(work, tournament_id, require_player(name))
    work.tx.execute(
        "UPDATE tournaments SET status = 'running', started_at = ? WHERE tournament_id = ?",
        (work.stamp, tournament_id),
    )
    # register() pointed the operation row at the last bot; it records the start.
    _refer(work, row, None, "start" + (f" with bots {', '.join(bots)}" if bots else ""))
    return read_entries(work.tx, tournament_id)


def canonical_state(state: Mapping[str, Any]) -> str:
    """A state snapshot as stored: canonical JSON, so a re-sent save compares equal."""
    if not isinstance(state, Mapping):
        raise InvalidArgument("A tournament state is a JSON object.")
    try:
        text = json.dumps(state, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidArgument(f"A tournament state must be JSON: {error}") from None
    if len(text) > MAX_STATE_CHARS:
        raise InvalidArgument(f"A tournament state is at most {MAX_STATE_CHARS:,} characters.")
    return text


def save_state(work: Work, tournament_id: int, text: str, version: int) -> int:
    """Store state ``version``, which must be the stored version + 1 (compare-and-set); the
    same version with the same state again is a harmless re-send."""
    if not _whole(version) or version < 1:
        raise InvalidArgument("A state version is a whole number from 1.")
    row = _tournament(work.tx, tournament_id)
    _require_status(
        row, (TournamentStatus.REGISTERING, TournamentStatus.RUNNING), "registering or running"
    )
    stored = work.tx.one(
        "SELECT state, state_version FROM tournaments WHERE tournament_id = ?", (tournament_id,)
    )
    assert stored is not None
    current = int(stored[1])
    if version == current and stored[0] == text:
        return version
    if version != current + 1:
        raise StaleTournamentState(tournament_id, version, current)
    changed = work.tx.execute(
        "UPDATE tournaments SET state = ?, state_version = ? "
        "WHERE tournament_id = ? AND state_version = ?",
        (text, version, tournament_id, current),
    )
    if changed != 1:
        raise StaleTournamentState(tournament_id, version, current)
    return version


def set_lobby_message(work: Work, tournament_id: int, message_id: int | None) -> None:
    _tournament(work.tx, tournament_id)
    work.tx.execute(
        "UPDATE tournaments SET lobby_message_id = ? WHERE tournament_id = ?",
        (message_id, tournament_id),
    )


def record_hand(
    work: Work, tournament_id: int, table_no: int, hand_no: int, level: int, phh: str
) -> bool:
    """Keep a finished hand's PHH; True if new (a re-send of the same hand changes nothing)."""
    for value, what in ((table_no, "table number"), (hand_no, "hand number"), (level, "level")):
        if not _whole(value) or value < (0 if what == "table number" else 1):
            raise InvalidArgument(f"A hand's {what} must be a whole number in range.")
    require_text(phh, "A hand's PHH text", limit=MAX_PHH_CHARS)
    _tournament(work.tx, tournament_id)
    stored = work.tx.value(
        "SELECT phh FROM tournament_hands WHERE tournament_id = ? AND table_no = ? AND hand_no = ?",
        (tournament_id, table_no, hand_no),
    )
    if stored is not None:
        if stored != phh:
            raise InvalidArgument(
                f"Hand {hand_no} at table {table_no} of tournament {tournament_id} was stored "
                "with another history."
            )
        return False
    work.tx.execute(
        "INSERT INTO tournament_hands (tournament_id, table_no, hand_no, level, phh, ended_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, table_no, hand_no, level, phh, work.stamp),
    )
    return True


def finish(
    work: Work,
    tournament_id: int,
    places: Mapping[Player, int],
    prizes: Mapping[Player, int],
) -> TournamentFinished:
    """Record every entry's place and pay the prizes (to wallets, bots' to the house) and the
    fees (to the house) out of the pool, which must end empty."""
    row = _tournament(work.tx, tournament_id)
    _refer(work, row, None, "finish")
    _require_status(row, (TournamentStatus.RUNNING,), "running")
    entries = {entry.player: entry for entry in read_entries(work.tx, tournament_id)}
    _check_results(row, entries, places, prizes)
    guild = work.guild(row.guild_id)
    pool = _pool_account(work.tx, tournament_id)
    for player, prize in sorted(prizes.items(), key=lambda item: repr(item[0])):
        if prize > 0:
            destination, _user = _source(work, row.guild_id, player)
            work.transfer(row.guild_id, pool, destination, prize, LedgerKind.PAYOUT)
    if row.fees > 0:
        work.transfer(row.guild_id, pool, guild.house_account_id, row.fees, LedgerKind.PAYOUT)
    left = work.balance(pool)
    if left != 0:
        raise InvalidTournamentResults(
            f"Tournament {tournament_id}'s pool would keep {left:,} chips after paying out."
        )
    for player, entry in entries.items():
        work.tx.execute(
            "UPDATE tournament_entries SET place = ?, prize = ? WHERE entry_id = ?",
            (places[player], prizes.get(player, 0), entry.entry_id),
        )
    work.tx.execute(
        "UPDATE tournaments SET status = 'finished', ended_at = ?, house_fee = ?, season_id = ? "
        "WHERE tournament_id = ?",
        (work.stamp, row.fees, guild.season_id, tournament_id),
    )
    return TournamentFinished(
        _tournament(work.tx, tournament_id),
        read_entries(work.tx, tournament_id),
        sum(prizes.values()),
        row.fees,
    )


def _check_results(
    row: TournamentRow,
    entries: Mapping[Player, TournamentEntry],
    places: Mapping[Player, int],
    prizes: Mapping[Player, int],
) -> None:
    if not isinstance(places, Mapping) or not isinstance(prizes, Mapping):
        raise InvalidTournamentResults("Places and prizes are mappings by player.")
    if set(places) != set(entries):
        missing = sorted(map(repr, set(entries) - set(places)))
        extra = sorted(map(repr, set(places) - set(entries)))
        raise InvalidTournamentResults(
            f"Tournament {row.tournament_id}'s places must name every entry exactly "
            f"(missing {', '.join(missing) or 'none'}; not entered {', '.join(extra) or 'none'})."
        )
    field = sum(1 + entry.re_entries for entry in entries.values())  # a re-entry places too
    for player, place in places.items():
        if not _whole(place) or not 1 <= place <= field:
            raise InvalidTournamentResults(f"{player!r}'s place {place!r} is out of range.")
    if not set(prizes) <= set(entries):
        raise InvalidTournamentResults("A prize is paid to a player who did not enter.")
    for player, prize in prizes.items():
        require_amount(prize, what=f"prize of {player!r}", allow_zero=True)
    paid = sum(prizes.values())
    if paid != row.prize_pool:
        raise InvalidTournamentResults(
            f"Tournament {row.tournament_id}'s prizes add up to {paid:,} chips; the prize pool "
            f"is {row.prize_pool:,} and must be paid out exactly."
        )


# --- results ---------------------------------------------------------------------------------


def results(
    tx: Transaction, guild_id: int, user_id: int, season_id: int | None
) -> TournamentResults:
    """A member's finished tournaments in a guild (one season's, or all time for None)."""
    sql = (
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN e.prize > 0 THEN 1 ELSE 0 END), 0), "
        "COALESCE(SUM(CASE WHEN e.place = 1 THEN 1 ELSE 0 END), 0), "
        "COALESCE(SUM(e.paid_in + e.fees_paid), 0), COALESCE(SUM(e.prize), 0) "
        "FROM tournament_entries e JOIN tournaments t ON t.tournament_id = e.tournament_id "
        "WHERE t.guild_id = ? AND e.user_id = ? AND e.status = 'registered' "
        "AND t.status = 'finished'"
    )
    params: list[object] = [guild_id, user_id]
    if season_id is not None:
        sql += " AND t.season_id = ?"
        params.append(season_id)
    found = tx.one(sql, params)
    assert found is not None
    return TournamentResults(*(int(value) for value in found))


def winnings_board(tx: Transaction, guild_id: int, season_id: int | None) -> list[tuple[int, int]]:
    """``(user_id, net prize)`` of every member with a finished tournament, best first (ties
    by user id), one season's or all time."""
    sql = (
        "SELECT e.user_id, SUM(e.prize - e.paid_in - e.fees_paid) AS net "
        "FROM tournament_entries e JOIN tournaments t ON t.tournament_id = e.tournament_id "
        "WHERE t.guild_id = ? AND e.user_id IS NOT NULL AND e.status = 'registered' "
        "AND t.status = 'finished'"
    )
    params: list[object] = [guild_id]
    if season_id is not None:
        sql += " AND t.season_id = ?"
        params.append(season_id)
    sql += " GROUP BY e.user_id ORDER BY net DESC, e.user_id"
    return [(int(user), int(net)) for user, net in tx.all(sql, params)]


# --- db check --------------------------------------------------------------------------------


def pool_problems(tx: Transaction, limit: int) -> list[Problem]:
    """Tournaments whose pool does not hold exactly what was paid in minus what was paid out,
    and finished or cancelled tournaments that kept chips."""
    rows = tx.all(
        "SELECT t.tournament_id, t.guild_id, t.pool_account_id, t.status, a.balance, t.house_fee, "
        "COALESCE(SUM(e.paid_in + e.fees_paid), 0), COALESCE(SUM(e.refunded), 0), "
        "COALESCE(SUM(e.prize), 0) FROM tournaments t "
        "JOIN accounts a ON a.account_id = t.pool_account_id "
        "LEFT JOIN tournament_entries e ON e.tournament_id = t.tournament_id "
        "GROUP BY t.tournament_id, t.guild_id, t.pool_account_id, t.status, a.balance, "
        "t.house_fee ORDER BY t.tournament_id",
    )
    problems: list[Problem] = []
    for tournament_id, guild_id, account, status, balance, fee, paid, refunded, prizes in rows:
        expected = int(paid) - int(refunded) - int(prizes) - int(fee)
        if int(balance) != expected:
            problems.append(
                Problem(
                    ProblemKind.STRAY_CHIPS,
                    f"tournament {tournament_id}'s pool (account {account}) holds "
                    f"{int(balance):,} chips, but {int(paid):,} were paid in and "
                    f"{int(refunded) + int(prizes) + int(fee):,} paid out",
                    int(guild_id),
                    int(account),
                )
            )
        elif status in ("finished", "cancelled") and int(balance) != 0:
            problems.append(
                Problem(
                    ProblemKind.STRAY_CHIPS,
                    f"tournament {tournament_id} is {status} but its pool holds "
                    f"{int(balance):,} chips",
                    int(guild_id),
                    int(account),
                )
            )
        if len(problems) >= limit:
            break
    return problems
