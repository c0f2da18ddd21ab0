"""``Storage``: the async API the bot calls for every chip movement and every stored record.

Every method that changes anything is one transaction and takes a caller-supplied idempotency
``key`` (a Discord interaction id, or ``"hand:<table>:<hand>:settle"``): the same key with the same
arguments applies once and returns the same result however often it is sent (double clicks,
retries after a timeout); the same key with different arguments raises
:class:`IdempotencyConflict`. A refused operation changes nothing and records nothing, so it may
be retried with the same key once the reason is gone.

The database is a SQLite file (the default) or a PostgreSQL schema (``Storage.open`` with a
``postgresql://`` URL); the operations are the same code on both.

Usage::

    storage = await Storage.open("felt.db", clock=clock, economy=EconomySettings(...))
    report = await storage.recover()          # once, at startup
    claim = await storage.claim_daily(guild_id, user_id, key=str(interaction.id))
    await storage.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TextIO, TypeVar

from storage import (
    blackjack,
    codec,
    database_copy,
    economy,
    hand_export,
    holdem,
    home_flow,
    instances,
    player_counts,
    sessions,
    stats,
    table_messages,
    tournament_messages,
    tournaments,
    trainer,
)
from storage.backend import Backend, Transaction
from storage.check import run_check
from storage.errors import (
    CheckFailed,
    DatabaseProblem,
    InvalidArgument,
    InvalidSettlement,
    StorageError,
    UnknownAccount,
)
from storage.export import (
    last_entry_id,
    ledger_header,
    ledger_rows,
    read_ledger,
    write_sessions,
)
from storage.holdem_settlement import (
    RETRY_CHECKS,
    SettlementPlan,
    ask_dealt,
    plan_settlement,
    read_dealt,
    write_settlement,
)
from storage.holdem_settlement import refusal as settlement_refusal
from storage.ledger import Work, replayed, require_id, require_key, stored_result
from storage.trainer import DecisionGrades

if TYPE_CHECKING:
    from storage.postgres import PostgresBackend
from storage.models import (
    Account,
    BalanceChange,
    BetReason,
    Bounty,
    CashOut,
    CheckReport,
    ClosedTable,
    DailyClaim,
    Game,
    HandRecord,
    Leaderboard,
    LeaderboardEntry,
    LedgerEntry,
    Metric,
    MigrationReport,
    Period,
    RecoveryReport,
    RefundedRound,
    RoundOutcome,
    RoundRecord,
    RoundState,
    Season,
    SeasonSelector,
    SeasonStarted,
    SeatChange,
    SeatResult,
    SettledHand,
    SettledRound,
    StartedHand,
    Stats,
    TableInfo,
    TableMessage,
    TableOpened,
    TableSession,
    Transfer,
    VoidedHand,
)
from storage.recovery import recover
from storage.settings import (
    EconomySettings,
    coerce,
    encode_setting,
    merge,
    read_economy,
    read_settings,
    require_setting_key,
)
from storage.shards import Shards
from storage.sqlite import (
    DEFAULT_BUSY_TIMEOUT,
    DEFAULT_FLUSH_INTERVAL,
    DEFAULT_SYNCHRONOUS,
    SqliteBackend,
    Synchronous,
)
from storage.sqlite import migrate_database as migrate_sqlite

R = TypeVar("R")
T = TypeVar("T")

Clock = Callable[[], datetime]
"""Returns the current time as an aware datetime (converted to UTC)."""

GuildLock = Callable[[Transaction], None]
"""Locks the guild a write belongs to (see :meth:`Transaction.lock_guild`), before the write
reads anything else; a table's or a round's guild is found from a column that never changes."""
A = TypeVar("A")


def _ask_nothing(tx: Transaction) -> None:
    """The up-front reads of an operation whose body reads as it goes."""


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
SQLITE_SCHEME = "sqlite://"
DEFAULT_POOL_SIZE = 4
"""PostgreSQL connections per process (SQLite has one writer and one reader)."""

MAX_DEALT_HANDS = 10_000
"""Hands whose starting stacks a process keeps for settling them without reading (one per
table in play, normally)."""


class _Retry(Exception):
    """A settlement planned without reading met a replayed key or a hand not as planned."""


MAX_PAGE = 100
EXPORT_BATCH = 2_000


def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


def database_target(target: str | Path) -> str | Path:
    """Where a configured database lives: a ``postgresql://`` URL as is, or a SQLite file path
    (``sqlite:///felt.db`` and ``sqlite:////abs/felt.db`` URLs are accepted too)."""
    if isinstance(target, Path):
        return target
    if target.startswith(POSTGRES_SCHEMES):
        return target
    scheme = _URL_SCHEME.match(target)
    if scheme is not None and not target.startswith(SQLITE_SCHEME):
        raise InvalidArgument(
            f"Felt cannot keep chips in a {scheme[1]}:// database: use a SQLite file "
            "(a path, or sqlite:///path.db) or a postgresql:// URL."
        )
    if target.startswith(SQLITE_SCHEME):
        path = target[len(SQLITE_SCHEME) :]
        if not path.startswith("/") or path == "/":
            raise InvalidArgument(
                f"A SQLite URL reads sqlite:///relative/path.db or sqlite:////absolute/path.db, "
                f"not {target!r}."
            )
        return Path(path[1:])
    return Path(target)


async def migrate_database(target: str | Path) -> MigrationReport:
    """Create (SQLite) and migrate a database to the latest schema (``felt db migrate``)."""
    where = database_target(target)
    if isinstance(where, Path):
        return await migrate_sqlite(where)
    backend = await postgres_backend().open(where, pool_size=1)
    try:
        assert backend.migration is not None
        return backend.migration
    finally:
        await backend.close()


def postgres_backend() -> type[PostgresBackend]:
    """The PostgreSQL adapter, imported when first used (psycopg takes longer to import than the
    rest of storage together), or one line saying how to install its driver."""
    try:
        from storage.postgres import PostgresBackend  # noqa: PLC0415
    except ImportError as error:
        raise DatabaseProblem(
            f"PostgreSQL needs the psycopg driver, which is not installed ({error}): "
            "pip install 'felt[postgres]'"
        ) from None
    return PostgresBackend


def _in_guild(guild_id: int) -> GuildLock:
    return lambda tx: tx.lock_guild(guild_id)


def _table_guild(table_id: int) -> GuildLock:
    return lambda tx: tx.lock_guild_of(
        "SELECT guild_id FROM poker_tables WHERE table_id = ?", (table_id,)
    )


def _round_guild(round_id: int) -> GuildLock:
    return lambda tx: tx.lock_guild_of(
        "SELECT guild_id FROM bj_rounds WHERE round_id = ?", (round_id,)
    )


def _tournament_guild(tournament_id: int) -> GuildLock:
    return lambda tx: tx.lock_guild_of(
        "SELECT guild_id FROM tournaments WHERE tournament_id = ?", (tournament_id,)
    )


def _page(limit: int, offset: int) -> tuple[int, int]:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise InvalidArgument(f"A page holds between 1 and {MAX_PAGE} entries.")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InvalidArgument("A page offset must be zero or more.")
    return limit, offset


class Storage:
    """Felt's chips, tables, rounds, stats and settings in one database."""

    def __init__(
        self,
        backend: Backend,
        clock: Clock,
        economy_defaults: EconomySettings,
        shards: Shards | None = None,
    ) -> None:
        """Use :meth:`open`; this wraps an already opened backend."""
        self._backend = backend
        self._clock = clock
        self._economy = economy_defaults
        self.shards = shards
        """The Discord shards this process runs, when it runs only some (see :meth:`open`)."""
        self.instance: instances.Instance | None = None
        """This process's lease (see :meth:`acquire_lease`): what it opens belongs to it."""
        self._dealt: dict[tuple[int, int], Mapping[int, int]] = {}
        """The starting stacks of the hands this process started and has not settled yet, by
        ``(table_id, hand_id)``: fixed once a hand starts, so a settlement can be planned
        without reading them (the database checks them as it writes; see
        ``storage/holdem_settlement.py``)."""

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Clock = utc_now,
        economy: EconomySettings | None = None,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        create: bool = True,
        migrate: bool = True,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        flush_interval: float = DEFAULT_FLUSH_INTERVAL,
        pool_size: int = DEFAULT_POOL_SIZE,
        shards: Shards | None = None,
        read_only: bool = False,
    ) -> Self:
        """Open the database at ``path``, creating and migrating it by default.

        ``path`` is a SQLite file (or ``sqlite:///`` URL), or a ``postgresql://`` URL.
        ``economy`` holds the defaults (from the config file) that guild settings override.
        ``synchronous`` and ``flush_interval`` trade durability against power cuts for speed
        on SQLite (see :class:`Synchronous`; a killed process never loses a committed
        operation); PostgreSQL commits durably. Without ``create`` a missing file (an empty
        PostgreSQL schema) raises :class:`DatabaseNotFound`; without ``migrate`` an old schema
        raises :class:`DatabaseOutdated`. A database written by a newer Felt raises
        :class:`DatabaseTooNew`. ``busy_timeout`` bounds the wait for another process's lock;
        ``pool_size`` is how many PostgreSQL connections this process uses.

        ``shards`` makes this process one of several sharing the database: :meth:`recover` and
        :meth:`list_tables` (of all guilds) then see only the guilds on those Discord shards,
        so a restart never voids or restores a table another process is playing.

        ``read_only`` (SQLite) opens the file for reading only, for commands that never write;
        a SQLite file that cannot be written raises :class:`DatabaseReadOnly` without it.
        """
        where = database_target(path)
        if not isinstance(where, Path):
            PostgresBackend = postgres_backend()

            postgres = await PostgresBackend.open(
                where,
                create=create,
                migrate=migrate,
                pool_size=pool_size,
                lock_timeout=busy_timeout,
            )
            return cls(postgres, clock, economy or EconomySettings(), shards)
        backend = await SqliteBackend.open(
            where,
            synchronous=synchronous,
            create=create,
            migrate=migrate,
            busy_timeout=busy_timeout,
            flush_interval=flush_interval,
            read_only=read_only,
        )
        return cls(backend, clock, economy or EconomySettings(), shards)

    async def close(self) -> None:
        """Finish the write in flight and close the database. Safe to call twice."""
        await self._backend.close()

    async def flush(self) -> bool:
        """Make every operation committed so far survive a power cut now (one fsync); True if
        anything needed it. Useful before a planned shutdown of the machine."""
        return await self._backend.flush()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def path(self) -> str:
        return self._backend.path

    @property
    def schema_version(self) -> int:
        return self._backend.schema_version

    # --- plumbing ------------------------------------------------------------------------------

    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None or now.utcoffset() is None:
            raise ValueError("the storage clock must return an aware datetime")
        return now.astimezone(UTC)

    async def _operate(
        self,
        name: str,
        key: str,
        arguments: Mapping[str, object],
        result_type: type[R],
        body: Callable[[Work], R],
        *,
        guild: GuildLock,
        bulk: bool = False,
    ) -> R:
        """Run ``body`` as one idempotent operation: replay a stored result for a known key.

        ``guild`` locks the guild whose writes this one is ordered with (see
        :meth:`Transaction.lock_guild`), before anything else is read; ``bulk`` as for
        :meth:`Backend.write`."""
        return await self._operate_asking(
            name,
            key,
            arguments,
            result_type,
            _ask_nothing,
            lambda work, _: body(work),
            guild=guild,
            bulk=bulk,
        )

    async def _operate_asking(
        self,
        name: str,
        key: str,
        arguments: Mapping[str, object],
        result_type: type[R],
        ask: Callable[[Transaction], A],
        body: Callable[[Work, A], R],
        *,
        guild: GuildLock,
        bulk: bool = False,
    ) -> R:
        """:meth:`_operate` for a body that states its reads up front: ``ask`` starts them
        (:meth:`Transaction.ask`) and ``body`` gets what it returned, so that the lock, the
        replay check and those reads reach PostgreSQL in one round trip, and everything the
        body sends rides with the commit."""
        require_key(key)
        now = self._now()
        try:
            print_ = codec.fingerprint(name, arguments)
        except TypeError as error:
            raise InvalidArgument(f"Unsupported argument for {name}: {error}") from error

        def run(tx: Transaction) -> R:
            guild(tx)
            replay = replayed(tx, name, key, print_)
            asked = ask(tx)
            stored = stored_result(replay, name, key, print_)
            if stored is not None:
                return codec.loads(result_type, stored)
            work = self._work(tx, now)
            result = body(work, asked)
            work.record(name, key, print_, codec.dumps(result))
            return result

        return await self._backend.write(run, bulk=bulk)

    async def _write(
        self, body: Callable[[Work], R], *, guild: GuildLock | None, bulk: bool = False
    ) -> R:
        """A write that is naturally idempotent and needs no key (settings, recovery).

        ``guild`` as for :meth:`_operate`; None only for a body that locks what it touches."""
        now = self._now()

        def run(tx: Transaction) -> R:
            if guild is not None:
                guild(tx)
            return body(self._work(tx, now))

        return await self._backend.write(run, bulk=bulk)

    def _work(self, tx: Transaction, now: datetime) -> Work:
        work = Work(tx, now, self._economy)
        work.instance_id = None if self.instance is None else self.instance.instance_id
        return work

    async def _read(self, body: Callable[[Transaction], R]) -> R:
        return await self._backend.read(body)

    # --- accounts and the economy ------------------------------------------------------------

    async def ensure_account(self, guild_id: int, user_id: int) -> Account:
        """The member's account, opened with the guild's starting grant if this is first use."""
        require_id(guild_id, "A guild id")
        require_id(user_id, "A user id")
        return await self._write(
            lambda work: economy.open_account(work, guild_id, user_id), guild=_in_guild(guild_id)
        )

    async def get_account(self, guild_id: int, user_id: int) -> Account | None:
        """The member's account, or None if they never used Felt in this guild."""
        return await self._read(lambda tx: economy.read_account(tx, guild_id, user_id))

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's wallet balance; :class:`UnknownAccount` if they have none."""
        account = await self.get_account(guild_id, user_id)
        if account is None:
            raise UnknownAccount(guild_id, user_id)
        return account.balance

    async def claim_daily(self, guild_id: int, user_id: int, *, key: str) -> DailyClaim:
        """Claim the daily bonus for the current UTC day (opening the account if needed).

        Raises :class:`DailyAlreadyClaimed` (with ``next_claim_at``) or :class:`DailyDisabled`.
        """
        require_id(guild_id, "A guild id")
        require_id(user_id, "A user id")
        return await self._operate(
            "claim_daily",
            key,
            {"guild_id": guild_id, "user_id": user_id},
            DailyClaim,
            lambda work: economy.claim_daily(work, guild_id, user_id),
            guild=_in_guild(guild_id),
        )

    async def admin_grant(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, key: str
    ) -> BalanceChange:
        """Mint ``amount`` chips into a member's wallet (opening it if needed)."""
        _require_ids(guild_id, user_id, actor_id)
        return await self._operate(
            "admin_grant",
            key,
            {"guild_id": guild_id, "user_id": user_id, "amount": amount, "actor_id": actor_id},
            BalanceChange,
            lambda work: economy.admin_grant(work, guild_id, user_id, amount, actor_id),
            guild=_in_guild(guild_id),
        )

    async def admin_take(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, key: str
    ) -> BalanceChange:
        """Burn ``amount`` chips from a member's wallet; refused beyond its balance."""
        _require_ids(guild_id, user_id, actor_id)
        return await self._operate(
            "admin_take",
            key,
            {"guild_id": guild_id, "user_id": user_id, "amount": amount, "actor_id": actor_id},
            BalanceChange,
            lambda work: economy.admin_take(work, guild_id, user_id, amount, actor_id),
            guild=_in_guild(guild_id),
        )

    async def admin_set(
        self, guild_id: int, user_id: int, balance: int, *, actor_id: int, key: str
    ) -> BalanceChange:
        """Set a member's wallet to ``balance`` (recorded as a grant or take of the difference)."""
        _require_ids(guild_id, user_id, actor_id)
        return await self._operate(
            "admin_set",
            key,
            {"guild_id": guild_id, "user_id": user_id, "balance": balance, "actor_id": actor_id},
            BalanceChange,
            lambda work: economy.admin_set(work, guild_id, user_id, balance, actor_id),
            guild=_in_guild(guild_id),
        )

    async def transfer(
        self, guild_id: int, sender_id: int, recipient_id: int, amount: int, *, key: str
    ) -> Transfer:
        """Send chips between members. Raises :class:`TransfersDisabled`,
        :class:`InvalidTransfer` (to oneself), :class:`UnknownAccount` (recipient never played)
        or :class:`InsufficientChips`."""
        _require_ids(guild_id, sender_id, recipient_id)
        return await self._operate(
            "transfer",
            key,
            {
                "guild_id": guild_id,
                "sender": sender_id,
                "recipient": recipient_id,
                "amount": amount,
            },
            Transfer,
            lambda work: economy.transfer(work, guild_id, sender_id, recipient_id, amount),
            guild=_in_guild(guild_id),
        )

    # --- settings ----------------------------------------------------------------------------

    async def get_setting(self, guild_id: int, key: str, default: T) -> T:
        """A guild setting, or ``default`` when unset or stored with another JSON type."""
        require_setting_key(key)
        stored = await self._read(
            lambda tx: tx.value(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
        )
        return default if stored is None else coerce(json.loads(stored), default)

    async def get_settings(self, guild_id: int, defaults: Mapping[str, T]) -> dict[str, T]:
        """Every key of ``defaults`` with the guild's stored value where it has the right type."""
        stored = await self._read(lambda tx: read_settings(tx, guild_id))
        return merge(stored, defaults)

    async def stored_settings(self, guild_id: int) -> dict[str, Any]:
        """Everything the guild has stored, decoded (for an admin's settings overview)."""
        return await self._read(lambda tx: read_settings(tx, guild_id))

    async def set_setting(
        self, guild_id: int, key: str, value: object, *, actor_id: int | None = None
    ) -> None:
        """Store a guild setting (JSON); economy keys are checked for type and range."""
        require_id(guild_id, "A guild id")
        require_setting_key(key)
        text = encode_setting(key, value)

        def body(work: Work) -> None:
            work.guild(guild_id)
            work.tx.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, key) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at, "
                "updated_by = excluded.updated_by",
                (guild_id, key, text, work.stamp, actor_id),
            )

        await self._write(body, guild=_in_guild(guild_id))

    async def clear_setting(self, guild_id: int, key: str) -> bool:
        """Forget a guild setting (back to the default); True if it was set."""
        require_setting_key(key)
        return bool(
            await self._write(
                lambda work: work.tx.execute(
                    "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
                ),
                guild=_in_guild(guild_id),
            )
        )

    async def economy(self, guild_id: int) -> EconomySettings:
        """The guild's economy settings: its overrides on top of the configured defaults."""
        return await self._read(lambda tx: read_economy(tx, guild_id, self._economy))

    # --- poker tables ------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        *,
        settings: Mapping[str, object],
        name: str | None = None,
        key: str,
    ) -> TableOpened:
        """Open a table in a channel with the host's settings (stored as JSON, returned as is)."""
        require_id(guild_id, "A guild id")
        require_id(channel_id, "A channel id")
        return await self._operate(
            "open_table",
            key,
            {
                "guild_id": guild_id,
                "channel_id": channel_id,
                "name": name,
                "settings": dict(settings),
            },
            TableOpened,
            lambda work: holdem.open_table(work, guild_id, channel_id, name, settings),
            guild=_in_guild(guild_id),
        )

    async def change_table_settings(self, table_id: int, settings: Mapping[str, object]) -> None:
        """Store an open table's new settings (stored as JSON, as ``open_table`` does)."""
        await self._write(
            lambda work: holdem.change_table_settings(work, table_id, settings),
            guild=_table_guild(table_id),
        )

    async def get_table(self, table_id: int) -> TableInfo | None:
        """A table with its current seats, or None."""
        return await self._read(lambda tx: holdem.read_table(tx, table_id))

    async def list_tables(
        self, guild_id: int | None = None, *, open_only: bool = True, shards: Shards | None = None
    ) -> list[TableInfo]:
        """Tables (by default the open ones), of one guild or of all guilds: all the guilds on
        ``shards`` (by default the storage's own, see :meth:`open`), which is what one process
        of a sharded deployment restores."""
        if guild_id is None:
            shards = shards or self.shards
        owns = None if shards is None else shards.owns
        return await self._read(lambda tx: holdem.list_tables(tx, guild_id, open_only, owns))

    async def buy_in(
        self,
        table_id: int,
        seat_no: int,
        user_id: int,
        amount: int,
        *,
        key: str,
        display_name: str | None = None,
    ) -> SeatChange:
        """Seat a member with ``amount`` chips moved from their wallet to the seat.

        Raises :class:`SeatTaken`, :class:`AlreadySeated`, :class:`TableClosed`,
        :class:`InsufficientChips`. ``display_name`` is kept for exports.
        """
        require_id(user_id, "A user id")
        return await self._operate(
            "buy_in",
            key,
            {"table_id": table_id, "seat_no": seat_no, "user_id": user_id, "amount": amount},
            SeatChange,
            lambda work: holdem.buy_in(
                work, table_id, seat_no, user_id, amount, display_name=display_name
            ),
            guild=_table_guild(table_id),
        )

    async def seat_bot(
        self,
        table_id: int,
        seat_no: int,
        bot_name: str,
        amount: int,
        *,
        key: str,
        personality: str | None = None,
    ) -> SeatChange:
        """Seat a named bot with ``amount`` chips from the guild's house, keeping its
        ``personality`` (the host's text for how it plays) with the seat for a restart."""
        arguments: dict[str, object] = {
            "table_id": table_id,
            "seat_no": seat_no,
            "bot_name": bot_name,
            "amount": amount,
        }
        if personality is not None:
            arguments["personality"] = personality
        return await self._operate(
            "seat_bot",
            key,
            arguments,
            SeatChange,
            lambda work: holdem.seat_bot(work, table_id, seat_no, bot_name, amount, personality),
            guild=_table_guild(table_id),
        )

    async def rebuy(self, table_id: int, seat_no: int, amount: int, *, key: str) -> SeatChange:
        """Top up an occupied seat (from the wallet, or the house for a bot).

        Raises :class:`SeatInHand` while the seat plays an unfinished hand.
        """
        return await self._operate(
            "rebuy",
            key,
            {"table_id": table_id, "seat_no": seat_no, "amount": amount},
            SeatChange,
            lambda work: holdem.rebuy(work, table_id, seat_no, amount),
            guild=_table_guild(table_id),
        )

    async def cash_out(self, table_id: int, seat_no: int, *, key: str) -> CashOut:
        """Empty a seat: its stack goes to the wallet (or the house for a bot).

        Raises :class:`SeatInHand` while the seat plays an unfinished hand.
        """
        return await self._operate(
            "cash_out",
            key,
            {"table_id": table_id, "seat_no": seat_no},
            CashOut,
            lambda work: holdem.cash_out(work, table_id, seat_no),
            guild=_table_guild(table_id),
        )

    async def start_hand(
        self, table_id: int, hand_id: int, stacks: Mapping[int, int], *, key: str
    ) -> StartedHand:
        """Make a hand and its starting stacks durable; call before the hand's first action.

        ``stacks`` maps each dealt-in seat to its stack, which must equal what the seat holds.
        Raises :class:`HandInProgress`, :class:`DuplicateHand`, :class:`StackMismatch`,
        :class:`EmptySeat`.
        """
        started = await self._operate(
            "start_hand",
            key,
            {"table_id": table_id, "hand_id": hand_id, "stacks": _pairs(stacks)},
            StartedHand,
            lambda work: holdem.start_hand(work, table_id, hand_id, stacks),
            guild=_table_guild(table_id),
        )
        if len(self._dealt) >= MAX_DEALT_HANDS:
            # Hands abandoned by a crash of their table are never settled here: drop the oldest.
            del self._dealt[next(iter(self._dealt))]
        self._dealt[started.table_id, started.hand_id] = started.stacks
        return started

    async def settle_hand(
        self,
        table_id: int,
        hand_id: int,
        final_stacks: Mapping[int, int],
        *,
        phh: str,
        results: Mapping[int, SeatResult] | None = None,
        counts: Mapping[int, Mapping[str, int]] | None = None,
        bounties: Sequence[Bounty] = (),
        key: str,
    ) -> SettledHand:
        """Apply a finished hand: final stacks by seat, its PHH text and per-seat results.

        ``counts`` are the hand's statistics by seat (``engine.holdem.stats.StyleCounts`` as
        a mapping); the members' are added to their totals in the same transaction.

        Raises :class:`AlreadySettled` (settled or voided before), :class:`UnknownHand`, and
        :class:`InvalidSettlement` when the final stacks name other seats or do not add up to the
        starting stacks, or the statistics are not counts of the hand's seats.
        """
        seat_results = dict(results or {})
        request: dict[str, object] = {
            "table_id": table_id,
            "hand_id": hand_id,
            "stacks": _pairs(final_stacks),
            "phh": phh,
            "results": _pairs(seat_results),
        }
        if counts is not None:
            request["counts"] = _counts_text(counts)
        if bounties:
            request["bounties"] = [[b.payer, b.winner, b.amount] for b in bounties]
        require_key(key)
        holdem.require_hand_id(hand_id)
        try:
            print_ = codec.fingerprint("settle_hand", request)
        except TypeError as error:
            raise InvalidArgument(f"Unsupported argument for settle_hand: {error}") from error

        def plan(dealt: Mapping[int, int]) -> SettlementPlan:
            return plan_settlement(
                table_id,
                hand_id,
                dealt,
                final_stacks,
                phh=phh,
                results=seat_results,
                counts=counts,
                bounties=bounties,
            )

        try:
            dealt = self._dealt.pop((table_id, hand_id), None)
            blind = None
            if dealt is not None:
                with contextlib.suppress(StorageError):  # refused: the careful way says why
                    blind = plan(dealt)
            if blind is not None:
                with contextlib.suppress(_Retry):
                    return await self._settle_blind(blind, key, print_)
            return await self._settle_careful(table_id, hand_id, plan, key, print_)
        except CheckFailed as failed:
            raise settlement_refusal(failed, table_id, hand_id) from None

    async def _settle_blind(self, plan: SettlementPlan, key: str, print_: str) -> SettledHand:
        """Write a settlement planned without reading, in one trip to the database; raise
        :class:`_Retry` if the key was used before or the hand is not as planned."""
        now = self._now()
        lock = _table_guild(plan.table_id)

        def run(tx: Transaction) -> SettledHand:
            lock(tx)
            write_settlement(self._work(tx, now), plan, "settle_hand", key, print_)
            return plan.result

        try:
            return await self._backend.write(run)
        except CheckFailed as failed:
            if failed.code in RETRY_CHECKS:
                raise _Retry() from failed
            raise

    async def _settle_careful(
        self,
        table_id: int,
        hand_id: int,
        plan: Callable[[Mapping[int, int]], SettlementPlan],
        key: str,
        print_: str,
    ) -> SettledHand:
        """Settle after reading the replay check and the hand's dealt seats (in one trip with
        the lock), then write as :meth:`_settle_blind` does: two trips."""
        now = self._now()
        lock = _table_guild(table_id)

        def run(tx: Transaction) -> SettledHand:
            lock(tx)
            replay = replayed(tx, "settle_hand", key, print_)
            reads = ask_dealt(tx, table_id, hand_id)
            stored = stored_result(replay, "settle_hand", key, print_)
            if stored is not None:
                return codec.loads(SettledHand, stored)
            settlement = plan(read_dealt(reads, table_id, hand_id))
            write_settlement(self._work(tx, now), settlement, "settle_hand", key, print_)
            return settlement.result

        return await self._backend.write(run)

    async def pay_bounty(
        self, table_id: int, hand_id: int, bounties: Sequence[Bounty], *, key: str
    ) -> SettledHand:
        """Move 7-2 bounties claimed after hand ``hand_id`` was settled (its winner showed 7-2
        later) between the seats still at the table, each payer up to what it holds: an
        operation of its own (``holdem_bounty``), with ledger rows like a hand's results."""
        request = {
            "table_id": table_id,
            "hand_id": hand_id,
            "bounties": [[b.payer, b.winner, b.amount] for b in bounties],
        }
        return await self._operate(
            "holdem_bounty",
            key,
            request,
            SettledHand,
            lambda work: holdem.pay_bounty(work, table_id, hand_id, bounties),
            guild=_table_guild(table_id),
        )

    async def void_hand(self, table_id: int, hand_id: int, *, reason: str, key: str) -> VoidedHand:
        """Cancel an unfinished hand: every seat keeps its starting stack."""
        self._dealt.pop((table_id, hand_id), None)
        return await self._operate(
            "void_hand",
            key,
            {"table_id": table_id, "hand_id": hand_id, "reason": reason},
            VoidedHand,
            lambda work: holdem.void_hand(work, table_id, hand_id, reason),
            guild=_table_guild(table_id),
        )

    async def close_table(
        self, table_id: int, *, key: str, actor_id: int | None = None
    ) -> ClosedTable:
        """Close a table: void its unfinished hand and cash every seat out."""
        return await self._operate(
            "close_table",
            key,
            {"table_id": table_id, "actor_id": actor_id},
            ClosedTable,
            lambda work: holdem.close_table(work, table_id, actor_id),
            guild=_table_guild(table_id),
        )

    async def get_hand(self, table_id: int, hand_id: int) -> HandRecord | None:
        """A stored hand with its seats and PHH text, or None."""
        return await self._read(lambda tx: holdem.read_hand(tx, table_id, hand_id))

    async def settled_hands(
        self,
        query: hand_export.HandQuery,
        *,
        after: tuple[str, int, int] | None = None,
        limit: int = 1_000,
        newest: bool = False,
    ) -> list[hand_export.StoredHand]:
        """Settled hands to export, oldest first (see ``storage.hand_export``)."""
        return await self._read(
            lambda tx: hand_export.settled_hands(tx, query, after=after, limit=limit, newest=newest)
        )

    async def list_hands(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        table_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[HandRecord]:
        """Hands newest first: a guild's, a member's, or a table's."""
        _page(limit, offset)
        return await self._read(
            lambda tx: holdem.list_hands(
                tx, guild_id, user_id=user_id, table_id=table_id, limit=limit, offset=offset
            )
        )

    async def table_session(self, table_id: int) -> TableSession:
        """A table's session (open to close) and its seatings, PokerNow style."""
        return await self._read(lambda tx: sessions.table_session(tx, table_id))

    # --- blackjack ---------------------------------------------------------------------------

    async def open_round(
        self,
        guild_id: int,
        channel_id: int,
        bets: Mapping[int, int],
        *,
        key: str,
        side_bets: Mapping[int, Mapping[BetReason, int]] | None = None,
    ) -> RoundState:
        """Deal a blackjack round: each member's bet (and side bets, by member) moves from
        wallet to round escrow now.

        All bets move or none do (:class:`InsufficientChips` names the member short of chips).
        """
        require_id(guild_id, "A guild id")
        require_id(channel_id, "A channel id")
        arguments: dict[str, object] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "bets": _pairs(bets),
        }
        if side_bets:
            arguments["side_bets"] = _side_pairs(side_bets)
        return await self._operate(
            "open_round",
            key,
            arguments,
            RoundState,
            lambda work: blackjack.open_round(work, guild_id, channel_id, bets, side_bets),
            guild=_in_guild(guild_id),
        )

    async def join_round(
        self,
        round_id: int,
        user_id: int,
        amount: int,
        *,
        key: str,
        side_bets: Mapping[BetReason, int] | None = None,
    ) -> RoundState:
        """A member joins an open round with an opening bet (and side bets), moved from their
        wallet now.

        Raises :class:`InsufficientChips`, :class:`InvalidAmount`, and :class:`InvalidArgument`
        for a second bet or a full round (7 players).
        """
        arguments: dict[str, object] = {"round_id": round_id, "user_id": user_id, "amount": amount}
        if side_bets:
            arguments["side_bets"] = _pairs(side_bets)
        return await self._operate(
            "join_round",
            key,
            arguments,
            RoundState,
            lambda work: blackjack.join_round(work, round_id, user_id, amount, side_bets),
            guild=_round_guild(round_id),
        )

    async def join_round_bot(
        self, round_id: int, seat: int, name: str, amount: int, *, key: str
    ) -> RoundState:
        """Seat a named bot at ``seat`` in an open round, its bet moved from the house now; it
        plays under ``bot_player_id(seat)``."""
        return await self._operate(
            "join_round_bot",
            key,
            {"round_id": round_id, "seat": seat, "name": name, "amount": amount},
            RoundState,
            lambda work: blackjack.join_round_bot(work, round_id, seat, name, amount),
            guild=_round_guild(round_id),
        )

    async def add_bet(
        self, round_id: int, user_id: int, amount: int, *, reason: BetReason, key: str
    ) -> RoundState:
        """Move more chips from the wallet into an open round (double, split or insurance)."""
        return await self._operate(
            "add_bet",
            key,
            {"round_id": round_id, "user_id": user_id, "amount": amount, "reason": reason},
            RoundState,
            lambda work: blackjack.add_bet(work, round_id, user_id, amount, reason),
            guild=_round_guild(round_id),
        )

    async def settle_round(
        self,
        round_id: int,
        outcomes: Mapping[int, RoundOutcome],
        *,
        history: str,
        key: str,
        grades: Mapping[int, DecisionGrades] | None = None,
    ) -> SettledRound:
        """Pay a round out: ``outcomes`` by player (payout including stakes), ``history`` its
        cards and results, ``grades`` the trainer's grades by member (same transaction). The
        house covers wins and takes losses."""
        arguments: dict[str, object] = {
            "round_id": round_id,
            "outcomes": _pairs(outcomes),
            "history": history,
        }
        if grades:
            arguments["grades"] = _pairs(grades)
        return await self._operate(
            "settle_round",
            key,
            arguments,
            SettledRound,
            lambda work: blackjack.settle_round(work, round_id, outcomes, history, grades),
            guild=_round_guild(round_id),
        )

    async def refund_round(self, round_id: int, *, reason: str, key: str) -> RefundedRound:
        """Cancel an open round: every bet goes back to its wallet."""
        return await self._operate(
            "refund_round",
            key,
            {"round_id": round_id, "reason": reason},
            RefundedRound,
            lambda work: blackjack.refund_round(work, round_id, reason),
            guild=_round_guild(round_id),
        )

    async def get_round(self, round_id: int) -> RoundRecord | None:
        """A stored round with its bets, results and history, or None."""
        return await self._read(lambda tx: blackjack.read_round(tx, round_id))

    async def list_rounds(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[RoundRecord]:
        """Rounds newest first, a guild's or a member's."""
        _page(limit, offset)
        return await self._read(
            lambda tx: blackjack.list_rounds(tx, guild_id, user_id, limit, offset)
        )

    # --- tournaments (storage/tournaments.py: the pool's ledger flow) ------------------------

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        created_by: int,
        name: str,
        kind: tournaments.TournamentKind,
        buy_in: int,
        fee: int,
        structure_json: str,
        seats_per_table: int,
        max_entries: int,
        starts_at: datetime | None,
        bots_fill: bool,
        *,
        key: str,
    ) -> tournaments.TournamentRow:
        """Open a tournament's registration, with an empty prize pool. ``fee`` is paid on top
        of every buy-in (and rebuy, add-on, re-entry) and kept by the house; ``starts_at`` None
        is a Sit & Go that starts when full."""
        new = tournaments.NewTournament(
            guild_id,
            channel_id,
            created_by,
            name,
            tournaments.TournamentKind(kind),
            buy_in,
            fee,
            structure_json,
            seats_per_table,
            max_entries,
            starts_at,
            bool(bots_fill),
        )
        return await self._operate(
            "create_tournament",
            key,
            {
                "guild_id": guild_id,
                "channel_id": channel_id,
                "created_by": created_by,
                "name": name,
                "kind": new.kind,
                "buy_in": buy_in,
                "fee": fee,
                "structure": structure_json,
                "seats_per_table": seats_per_table,
                "max_entries": max_entries,
                "starts_at": starts_at,
                "bots_fill": new.bots_fill,
            },
            tournaments.TournamentRow,
            lambda work: tournaments.create(work, new),
            guild=_in_guild(guild_id),
        )

    async def register_tournament(
        self, tournament_id: int, member_id: int, *, key: str
    ) -> tournaments.Registration:
        """Register a member: ``buy_in + fee`` moves from the wallet to the pool. Refused with
        :class:`~storage.tournaments.TournamentNotOpen` (started, finished, cancelled),
        :class:`~storage.tournaments.TournamentFull`,
        :class:`~storage.tournaments.AlreadyRegistered` or :class:`InsufficientChips`."""
        player = tournaments.require_player(member_id)
        return await self._operate(
            "register_tournament",
            key,
            {"tournament_id": tournament_id, "player": player},
            tournaments.Registration,
            lambda work: tournaments.register(work, tournament_id, player),
            guild=_tournament_guild(tournament_id),
        )

    async def enter_tournament_late(
        self, tournament_id: int, member_id: int, *, key: str
    ) -> tournaments.Registration:
        """A late registration or a re-entry into a running tournament: ``buy_in + fee`` moves
        from the wallet to the pool. The director decides whether it is allowed now; refused
        here with :class:`~storage.tournaments.TournamentNotOpen` (not running),
        :class:`~storage.tournaments.TournamentFull` or :class:`InsufficientChips`."""
        player = require_id(member_id, "A user id")
        return await self._operate(
            "enter_tournament_late",
            key,
            {"tournament_id": tournament_id, "member_id": player},
            tournaments.Registration,
            lambda work: tournaments.enter_late(work, tournament_id, player),
            guild=_tournament_guild(tournament_id),
        )

    async def unregister_tournament(
        self, tournament_id: int, member_id: int, *, key: str
    ) -> tournaments.TournamentRefunds:
        """Withdraw a member before the start; everything they paid goes back to the wallet."""
        require_id(member_id, "A user id")
        return await self._operate(
            "unregister_tournament",
            key,
            {"tournament_id": tournament_id, "member_id": member_id},
            tournaments.TournamentRefunds,
            lambda work: tournaments.unregister(work, tournament_id, member_id),
            guild=_tournament_guild(tournament_id),
        )

    async def cancel_tournament(
        self, tournament_id: int, *, reason: str, key: str, actor_id: int | None = None
    ) -> tournaments.TournamentRefunds:
        """Cancel a registering or running tournament: every entry is refunded all it paid
        (bots' to the house)."""
        return await self._operate(
            "cancel_tournament",
            key,
            {"tournament_id": tournament_id, "reason": reason, "actor_id": actor_id},
            tournaments.TournamentRefunds,
            lambda work: tournaments.cancel(work, tournament_id, actor_id, reason),
            guild=_tournament_guild(tournament_id),
            bulk=True,  # a refund for every entry
        )

    async def pay_tournament_entry(
        self,
        tournament_id: int,
        member_id: int | str,
        kind: tournaments.EntryPayment,
        *,
        key: str,
    ) -> tournaments.Registration:
        """A rebuy, add-on or re-entry of a running tournament's entry (a member's, or a bot's
        by name, paid by the house): ``buy_in + fee`` into the pool."""
        player = tournaments.require_player(member_id)
        payment = tournaments.EntryPayment(kind)
        return await self._operate(
            "pay_tournament_entry",
            key,
            {"tournament_id": tournament_id, "player": player, "kind": payment},
            tournaments.Registration,
            lambda work: tournaments.pay_entry(work, tournament_id, player, payment),
            guild=_tournament_guild(tournament_id),
        )

    async def refund_tournament_payment(
        self,
        tournament_id: int,
        member_id: int | str,
        kind: tournaments.EntryPayment,
        number: int,
        *,
        key: str,
    ) -> tournaments.Registration:
        """Undo a running tournament's entry's ``number``-th rebuy or add-on, its latest of
        that kind (:class:`~storage.tournaments.NoSuchPayment` otherwise): ``buy_in + fee``
        back from the pool to the wallet (a bot's to the house), the entry's count lowered."""
        player = tournaments.require_player(member_id)
        payment = tournaments.EntryPayment(kind)
        return await self._operate(
            "refund_tournament_payment",
            key,
            {"tournament_id": tournament_id, "player": player, "kind": payment, "number": number},
            tournaments.Registration,
            lambda work: tournaments.refund_payment(work, tournament_id, player, payment, number),
            guild=_tournament_guild(tournament_id),
        )

    async def start_tournament(
        self, tournament_id: int, *, bots: Sequence[str] = (), key: str | None = None
    ) -> tuple[tournaments.TournamentEntry, ...]:
        """Freeze the field and mark the tournament running; return the entries in
        registration order. ``bots`` are seated first, each paid by the house (only for a
        tournament created with ``bots_fill``). The default key is the tournament's own, so
        two starters racing start it once."""
        names = tuple(tournaments.require_player(str(name)) for name in bots)
        return await self._operate(
            "start_tournament",
            key or f"tournament:{tournament_id}:start",
            {"tournament_id": tournament_id, "bots": list(names)},
            tuple[tournaments.TournamentEntry, ...],
            lambda work: tournaments.start(work, tournament_id, [str(name) for name in names]),
            guild=_tournament_guild(tournament_id),
            bulk=True,  # the field's entries, and a payment for every bot
        )

    async def save_tournament_state(
        self, tournament_id: int, state: Mapping[str, Any], version: int
    ) -> int:
        """Store the director's snapshot as ``version``, which must be the stored version + 1
        (:class:`~storage.tournaments.StaleTournamentState` otherwise: another writer saved
        meanwhile); re-sending the same version and state is harmless. Returns ``version``."""
        text = tournaments.canonical_state(state)
        return await self._write(
            lambda work: tournaments.save_state(work, tournament_id, text, version),
            guild=_tournament_guild(tournament_id),
        )

    async def load_tournament(self, tournament_id: int) -> tournaments.LoadedTournament:
        """A tournament's row, registered entries and latest state (for a restart)."""
        return await self._read(lambda tx: tournaments.load(tx, tournament_id))

    async def get_tournament(self, tournament_id: int) -> tournaments.TournamentRow | None:
        return await self._read(lambda tx: tournaments.read_tournament(tx, tournament_id))

    async def tournament_entries(
        self, tournament_id: int, *, registered_only: bool = True
    ) -> tuple[tournaments.TournamentEntry, ...]:
        return await self._read(
            lambda tx: tournaments.read_entries(tx, tournament_id, registered_only=registered_only)
        )

    async def list_tournaments(
        self,
        guild_id: int | None,
        statuses: Sequence[tournaments.TournamentStatus] = (
            tournaments.TournamentStatus.REGISTERING,
            tournaments.TournamentStatus.RUNNING,
        ),
        *,
        shards: Shards | None = None,
    ) -> list[tournaments.TournamentRow]:
        """A guild's tournaments (or, for None, those of the guilds on ``shards``, by default
        the storage's own) in the given statuses, oldest first."""
        shards = shards or self.shards
        owns = None if shards is None else shards.owns
        return await self._read(
            lambda tx: tournaments.list_tournaments(tx, guild_id, tuple(statuses), owns)
        )

    async def running_tournaments(
        self, guild_id: int | None = None, *, shards: Shards | None = None
    ) -> list[tournaments.LoadedTournament]:
        """Every running tournament this process resumes after a restart, with its state."""
        rows = await self.list_tournaments(
            guild_id, (tournaments.TournamentStatus.RUNNING,), shards=shards
        )
        return [await self.load_tournament(row.tournament_id) for row in rows]

    async def finish_tournament(
        self,
        tournament_id: int,
        places: Mapping[Any, int],
        prizes: Mapping[Any, int],
        *,
        key: str | None = None,
    ) -> tournaments.TournamentFinished:
        """Record every entry's place (members by user id, bots by name; ties share a place)
        and pay the prizes from the pool (bots' to the house) and the fees to the house. The
        prizes must add up to the prize pool exactly
        (:class:`~storage.tournaments.InvalidTournamentResults` otherwise)."""
        return await self._operate(
            "finish_tournament",
            key or f"tournament:{tournament_id}:finish",
            {"tournament_id": tournament_id, "places": _pairs(places), "prizes": _pairs(prizes)},
            tournaments.TournamentFinished,
            lambda work: tournaments.finish(work, tournament_id, places, prizes),
            guild=_tournament_guild(tournament_id),
            bulk=True,  # a place for every entry
        )

    async def set_tournament_lobby_message(
        self, tournament_id: int, message_id: int | None
    ) -> None:
        """Remember the lobby message the front posted (to edit it after a restart)."""
        if message_id is not None:
            require_id(message_id, "A message id")
        await self._write(
            lambda work: tournaments.set_lobby_message(work, tournament_id, message_id),
            guild=_tournament_guild(tournament_id),
        )

    # --- a tournament's Discord front (storage/tournament_messages.py) --------------------------

    async def set_tournament_tables(
        self, tournament_id: int, kind: tournament_messages.TableHomeKind
    ) -> None:
        """Choose whether the tournament's tables live in threads or channels of their own."""
        chosen = tournament_messages.table_home_kind(kind)
        await self._write(
            lambda work: tournament_messages.set_tables(work, tournament_id, chosen),
            guild=_tournament_guild(tournament_id),
        )

    async def set_tournament_clock_message(
        self, tournament_id: int, channel_id: int, message_id: int
    ) -> None:
        """Remember the tournament message the front posted (to edit it after a restart)."""
        message = tournament_messages.MessageRef(
            require_id(channel_id, "A channel id"), require_id(message_id, "A message id")
        )
        await self._write(
            lambda work: tournament_messages.set_clock_message(work, tournament_id, message),
            guild=_tournament_guild(tournament_id),
        )

    async def tournament_front(self, tournament_id: int) -> tournament_messages.TournamentFront:
        """Where the tournament's tables live and its tournament message, if posted."""
        return await self._read(lambda tx: tournament_messages.read_front(tx, tournament_id))

    async def remember_tournament_table_home(
        self,
        tournament_id: int,
        table_no: int,
        channel_id: int,
        kind: tournament_messages.TableHomeKind,
    ) -> None:
        """Record the thread or channel just created for table ``table_no``."""
        require_id(channel_id, "A channel id")
        chosen = tournament_messages.table_home_kind(kind)
        await self._write(
            lambda work: tournament_messages.remember_table_home(
                work, tournament_id, table_no, channel_id, chosen
            ),
            guild=_tournament_guild(tournament_id),
        )

    async def mark_tournament_table_home_removed(self, tournament_id: int, table_no: int) -> bool:
        """Record that a table's channel was deleted; False if it already was."""
        return await self._write(
            lambda work: tournament_messages.mark_table_home_removed(work, tournament_id, table_no),
            guild=_tournament_guild(tournament_id),
        )

    async def tournament_table_homes(
        self, tournament_id: int
    ) -> list[tournament_messages.TableHomeRow]:
        """Every thread or channel the tournament's tables ever had, by table number."""
        return await self._read(lambda tx: tournament_messages.read_table_homes(tx, tournament_id))

    async def leftover_tournament_channels(
        self, *, shards: Shards | None = None
    ) -> list[tournament_messages.TableHomeRow]:
        """Table channels of ended tournaments (of the guilds on ``shards``, by default the
        storage's own) whose deletion a crash or a stop cut short."""
        shards = shards or self.shards
        owns = None if shards is None else shards.owns
        return await self._read(lambda tx: tournament_messages.read_leftover_channels(tx, owns))

    async def record_tournament_hand(
        self, tournament_id: int, table_no: int, hand_no: int, *, level: int, phh: str
    ) -> bool:
        """Keep a finished tournament hand's PHH text (for ``felt db export hands
        --tournament``); True if new, False for a re-send of the same hand."""
        return await self._write(
            lambda work: tournaments.record_hand(
                work, tournament_id, table_no, hand_no, level, phh
            ),
            guild=_tournament_guild(tournament_id),
        )

    async def tournament_hands(self, tournament_id: int) -> list[tournaments.TournamentHand]:
        return await self._read(lambda tx: tournaments.read_hands(tx, tournament_id))

    async def tournament_results(
        self, guild_id: int, user_id: int, *, season: SeasonSelector = Period.ALL_TIME
    ) -> tournaments.TournamentResults:
        """A member's finished tournaments: played, in the money, won, paid and prizes."""

        def body(tx: Transaction) -> tournaments.TournamentResults:
            resolved = stats.resolve_season(tx, guild_id, season)
            return tournaments.results(
                tx, guild_id, user_id, None if resolved is None else resolved[0]
            )

        return await self._read(body)

    async def tournament_board(
        self,
        guild_id: int,
        *,
        season: SeasonSelector = Period.CURRENT_SEASON,
        limit: int = 10,
        offset: int = 0,
    ) -> Leaderboard:
        """One page of the tournament winnings board (prizes minus everything paid in, in
        tournaments finished in the season), as a :class:`Leaderboard` of metric ``net``."""
        _page(limit, offset)

        def body(tx: Transaction) -> Leaderboard:
            resolved = stats.resolve_season(tx, guild_id, season)
            rows = tournaments.winnings_board(
                tx, guild_id, None if resolved is None else resolved[0]
            )
            ranked = _ranked(rows)
            return Leaderboard(
                guild_id,
                Metric.NET,
                Game.HOLDEM,
                None if resolved is None else resolved[1],
                tuple(ranked[offset : offset + limit]),
                len(ranked),
            )

        return await self._read(body)

    async def tournament_position(
        self, guild_id: int, user_id: int, *, season: SeasonSelector = Period.CURRENT_SEASON
    ) -> LeaderboardEntry | None:
        """Where one member stands on the tournament winnings board, or None if unranked."""

        def body(tx: Transaction) -> LeaderboardEntry | None:
            resolved = stats.resolve_season(tx, guild_id, season)
            rows = tournaments.winnings_board(
                tx, guild_id, None if resolved is None else resolved[0]
            )
            return next((entry for entry in _ranked(rows) if entry.user_id == user_id), None)

        return await self._read(body)

    # --- the Discord front's table messages ---------------------------------------------------

    async def remember_table_message(
        self,
        guild_id: int,
        channel_id: int,
        game: Game,
        message_id: int,
        *,
        has_buttons: bool,
    ) -> None:
        """Track a table message the front posted, or whether it now carries buttons."""
        require_id(guild_id, "A guild id")
        require_id(channel_id, "A channel id")
        require_id(message_id, "A message id")
        await self._write(
            lambda work: table_messages.remember(
                work, guild_id, channel_id, Game(game), message_id, has_buttons
            ),
            guild=_in_guild(guild_id),
        )

    async def forget_table_messages(self, guild_id: int, *message_ids: int) -> int:
        """Stop tracking table messages the front will not edit again; how many were tracked."""
        return await self._write(
            lambda work: table_messages.forget(work.tx, tuple(message_ids)),
            guild=_in_guild(guild_id),
        )

    async def table_messages(self, channel_id: int, game: Game) -> list[TableMessage]:
        """The tracked table messages of ``game`` in a channel, oldest first."""
        return await self._read(lambda tx: table_messages.read(tx, channel_id, Game(game)))

    async def note_dm_refused(self, table_id: int, user_id: int) -> bool:
        """Record that a member was told in a Hold'em table's channel that their DMs are
        closed; True only the first time for that table (the notice is posted once)."""
        require_id(user_id, "A user id")
        return await self._write(
            lambda work: table_messages.note_dm_refused(work, table_id, user_id),
            guild=_table_guild(table_id),
        )

    # --- home-game state (time banks, the rail) -------------------------------------------

    async def save_time_banks(self, table_id: int, banks: Mapping[int, int]) -> None:
        """Store members' time banks at a table (seconds left, by user id)."""
        for user_id in banks:
            require_id(user_id, "A user id")
        await self._write(
            lambda work: home_flow.save_time_banks(work, table_id, banks),
            guild=_table_guild(table_id),
        )

    async def time_banks(self, table_id: int) -> dict[int, int]:
        """Members' stored time banks at a table, by user id."""
        return await self._read(lambda tx: home_flow.time_banks(tx, table_id))

    async def set_rail_consent(self, guild_id: int, user_id: int, allowed: bool) -> None:
        """Whether a member lets the rail see their past hands' cards in this guild."""
        _require_ids(guild_id, user_id)
        await self._write(
            lambda work: home_flow.set_rail_consent(work, guild_id, user_id, allowed),
            guild=_in_guild(guild_id),
        )

    async def rail_consents(self, guild_id: int, user_ids: tuple[int, ...]) -> set[int]:
        """Which of these members allowed the rail in this guild."""
        return await self._read(lambda tx: home_flow.rail_consents(tx, guild_id, user_ids))

    # --- recovery and checking ---------------------------------------------------------------

    async def recover(self, *, shards: Shards | None = None) -> RecoveryReport:
        """At startup: void unfinished hands, refund unfinished rounds, report what was put back.

        Safe to run any number of times; a second run finds nothing to do. Only the guilds on
        ``shards`` are recovered (by default the storage's own, see :meth:`open`): each process
        of a sharded deployment recovers its own, the others may be playing theirs.
        """
        shards = shards or self.shards
        owns = None if shards is None else shards.owns
        instance_id = None if self.instance is None else self.instance.instance_id
        return await self._write(
            lambda work: recover(work, owns, instance_id), guild=None, bulk=True
        )

    # --- instance leases (storage/instances.py) ----------------------------------------------

    async def acquire_lease(
        self,
        claim: instances.Claim,
        *,
        takeover: bool = False,
        lease: float = instances.LEASE_SECONDS,
        host: str | None = None,
        pid: int | None = None,
        process_gone: instances.ProcessGone = instances.local_process_gone,
        wait: instances.Wait = asyncio.sleep,
        on_wait: Callable[[instances.LeaseHeld], None] | None = None,
    ) -> instances.Instance:
        """Take this process's lease, before recovering anything.

        Refused with :class:`~storage.instances.LeaseHeld` while a living instance holds an
        overlapping claim; with ``takeover`` wait (``on_wait`` told once) until that lease is
        released or expires, looking again every second."""
        chosen_host = host or instances.this_host()
        chosen_pid = os.getpid() if pid is None else pid
        told = False
        while True:
            try:
                self.instance = await self._write(
                    lambda work: instances.acquire(
                        work, claim, chosen_host, chosen_pid, lease, process_gone
                    ),
                    guild=None,
                )
                return self.instance
            except instances.LeaseHeld as held:
                if not takeover:
                    raise
                if on_wait is not None and not told:
                    on_wait(held)
                    told = True
                left = (held.holder.expires_at - self._now()).total_seconds()
                await wait(max(0.0, min(instances.TAKEOVER_POLL_SECONDS, left)))

    async def renew_lease(self, lease: float = instances.LEASE_SECONDS) -> instances.Instance:
        """Move this process's heartbeat to now (:class:`~storage.instances.LeaseLost` if it
        was released or taken over meanwhile)."""
        current = self._lease()
        self.instance = await self._write(
            lambda work: instances.renew(work, current.instance_id, lease), guild=None
        )
        return self.instance

    async def release_lease(self, reason: str = "stopped") -> None:
        """End this process's lease now, so that a restart need not wait for it to expire."""
        if self.instance is None:
            return
        instance_id = self.instance.instance_id
        await self._write(lambda work: instances.release(work, instance_id, reason), guild=None)
        self.instance = None

    def keep_lease(
        self,
        *,
        every: float = instances.RENEW_SECONDS,
        wait: instances.Wait = asyncio.sleep,
        on_lost: Callable[[instances.LeaseLost], None] | None = None,
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """``async with storage.keep_lease():`` renews the lease while the body runs and
        releases it when the body ends (however it ends)."""
        self._lease()
        return instances.keep_renewed(self, every=every, wait=wait, on_lost=on_lost)

    def _lease(self) -> instances.Instance:
        if self.instance is None:
            raise InvalidArgument("This storage holds no lease; call acquire_lease first.")
        return self.instance

    async def list_instances(self) -> list[instances.InstanceReport]:
        """The living instances and the latest ended ones, with what each owns now."""
        now = self._now()
        return await self._read(lambda tx: instances.instance_reports(tx, now))

    async def abandoned_tables(self, guild_id: int) -> list[int]:
        """A guild's open tables whose instance is dead (a killed terminal session's)."""
        now = self._now()
        return await self._read(
            lambda tx: instances.orphaned_tables(tx, now, lambda guild: guild == guild_id)
        )

    async def abandoned_rounds(self, guild_id: int) -> list[int]:
        """A guild's open rounds whose instance is dead."""
        now = self._now()
        return await self._read(lambda tx: instances.orphaned_rounds(tx, now, guild_id))

    async def check(self) -> CheckReport:
        """Verify every balance against the ledger and the guild totals against minting."""
        version = self.schema_version
        now = self._now()
        return await self._read(lambda tx: run_check(tx, version, now))

    async def copy_to(self, target: Storage) -> database_copy.CopyReport:
        """Copy this whole database, every row and id, into ``target`` (``felt db copy``).

        ``target`` must be empty (:class:`~storage.database_copy.CopyTargetNotEmpty`) and this
        database must pass :meth:`check`. The target is written in one transaction and then
        read back and compared table by table with this one; the report carries ``check`` of
        both sides. Nothing else may write to either database meanwhile (stop the bot).
        """
        source_check = await self.check()
        if not source_check.ok:
            raise database_copy.CopySourceInconsistent(self.path, len(source_check.problems))
        rows = await self._read(database_copy.dump)
        where = target.path
        await target._backend.write(lambda tx: database_copy.load(tx, rows, where), bulk=True)
        database_copy.compare(rows, await target._read(database_copy.dump))
        return database_copy.CopyReport(
            source=self.path,
            target=target.path,
            rows=tuple((table.name, len(rows[table.name])) for table in database_copy.TABLES),
            source_check=source_check,
            target_check=await target.check(),
        )

    # --- stats, leaderboards, seasons --------------------------------------------------------

    async def stats(
        self,
        guild_id: int,
        user_id: int,
        *,
        game: Game | None = None,
        season: SeasonSelector = Period.ALL_TIME,
    ) -> Stats:
        """A member's results for one game (None: all games), all time or for a season."""
        return await self._read(lambda tx: stats.read_stats(tx, guild_id, user_id, game, season))

    async def decision_grades(
        self, guild_id: int, user_id: int, *, season: SeasonSelector = Period.ALL_TIME
    ) -> DecisionGrades:
        """A member's Blackjack decisions graded against basic strategy, all time or a season."""
        return await self._read(lambda tx: trainer.read_grades(tx, guild_id, user_id, season))

    async def leaderboard(
        self,
        guild_id: int,
        metric: Metric,
        *,
        game: Game | None = None,
        season: SeasonSelector = Period.CURRENT_SEASON,
        limit: int = 10,
        offset: int = 0,
    ) -> Leaderboard:
        """One page of a ranking by balance, net winnings or biggest pot.

        The balance board ranks chips held now (wallet, tables, bets) for the current season and
        all time, and the archived balances for a past season; it is not per game.
        """
        _page(limit, offset)
        return await self._read(
            lambda tx: stats.leaderboard(
                tx, guild_id, metric, game=game, season=season, limit=limit, offset=offset
            )
        )

    async def leaderboard_position(
        self,
        guild_id: int,
        user_id: int,
        metric: Metric,
        *,
        game: Game | None = None,
        season: SeasonSelector = Period.CURRENT_SEASON,
    ) -> LeaderboardEntry | None:
        """Where one member stands on a ranking ("you are #12"), or None if unranked."""
        return await self._read(
            lambda tx: stats.leaderboard_position(
                tx, guild_id, user_id, metric, game=game, season=season
            )
        )

    # --- statistics counters (storage/player_counts.py) ---------------------------------------

    async def counts(
        self,
        guild_id: int,
        user_id: int | None,
        game: Game,
        *,
        season: SeasonSelector = Period.ALL_TIME,
    ) -> player_counts.PlayerCounts:
        """A member's statistics counters for a game (the whole guild's, pooled, for None).

        Raises :class:`UnknownSeason` for a season number the guild never had."""

        def body(tx: Transaction) -> player_counts.PlayerCounts:
            resolved = stats.resolve_season(tx, guild_id, season)
            season_id = None if resolved is None else resolved[0]
            values = player_counts.read_counts(tx, game, guild_id, user_id, season_id)
            number = None if resolved is None else resolved[1]
            return player_counts.PlayerCounts(guild_id, user_id, game, number, values)

        return await self._read(body)

    async def bankroll(
        self, guild_id: int, user_id: int, game: Game, *, season: SeasonSelector = Period.ALL_TIME
    ) -> list[player_counts.BankrollDay]:
        """A member's net result and hands per UTC day, oldest first (for a bankroll graph)."""

        def body(tx: Transaction) -> list[player_counts.BankrollDay]:
            resolved = stats.resolve_season(tx, guild_id, season)
            season_id = None if resolved is None else resolved[0]
            return player_counts.bankroll(tx, game, guild_id, user_id, season_id)

        return await self._read(body)

    async def recent_results(
        self,
        guild_id: int,
        user_id: int,
        game: Game,
        *,
        season: SeasonSelector = Period.ALL_TIME,
        limit: int = 500,
    ) -> list[player_counts.HandResult]:
        """A member's last ``limit`` (1 to 1,000) settled hands (rounds) and their nets, oldest
        first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1_000:
            raise InvalidArgument("Between 1 and 1,000 recent results can be read at once.")

        def body(tx: Transaction) -> list[player_counts.HandResult]:
            resolved = stats.resolve_season(tx, guild_id, season)
            season_id = None if resolved is None else resolved[0]
            return player_counts.recent_results(tx, game, guild_id, user_id, season_id, limit)

        return await self._read(body)

    async def ratio_leaderboard(
        self,
        guild_id: int,
        query: player_counts.RatioQuery,
        *,
        season: SeasonSelector = Period.CURRENT_SEASON,
        limit: int = 10,
        offset: int = 0,
    ) -> player_counts.RatioBoard:
        """One page of a ranking by a statistic (values in hundredths of its unit)."""
        _page(limit, offset)
        return await self._read(
            lambda tx: player_counts.ratio_board(
                tx,
                query,
                guild_id,
                stats.resolve_season(tx, guild_id, season),
                limit=limit,
                offset=offset,
            )
        )

    async def ratio_position(
        self,
        guild_id: int,
        user_id: int,
        query: player_counts.RatioQuery,
        *,
        season: SeasonSelector = Period.CURRENT_SEASON,
    ) -> LeaderboardEntry | None:
        """Where one member stands on a statistic's ranking, or None if unranked."""
        return await self._read(
            lambda tx: player_counts.ratio_position(
                tx, query, guild_id, user_id, stats.resolve_season(tx, guild_id, season)
            )
        )

    async def recount_stats(self, count: player_counts.HandCounter) -> player_counts.Recount:
        """Every statistics row recomputed from the stored hands and rounds (nothing written)."""
        return await self._read(lambda tx: player_counts.recount(tx, count))

    async def stored_stats(self) -> dict[player_counts.CountsKey, tuple[int, ...]]:
        """Every statistics row as stored."""
        return await self._read(player_counts.all_counts)

    async def rebuild_stats(self, count: player_counts.HandCounter) -> player_counts.Recount:
        """Replace every statistics row by a recount, in one transaction (run it while the bot
        is stopped: a hand settled meanwhile would be counted by whichever commits last)."""
        return await self._write(
            lambda work: player_counts.rebuild(work.tx, count), guild=None, bulk=True
        )

    async def current_season(self, guild_id: int) -> Season:
        """The guild's current season (season 1 begins at the guild's first use)."""
        return await self._write(
            lambda work: stats.current_season(work, guild_id), guild=_in_guild(guild_id)
        )

    async def list_seasons(self, guild_id: int) -> list[Season]:
        return await self._read(lambda tx: stats.list_seasons(tx, guild_id))

    async def start_season(
        self,
        guild_id: int,
        *,
        name: str | None = None,
        reset_to: int | None = None,
        actor_id: int | None = None,
        key: str,
    ) -> SeasonStarted:
        """End the current season (archiving balances) and start the next.

        With ``reset_to`` every wallet is set to that many chips (recorded as ``season_reset``);
        refused with :class:`SeasonResetBlocked` while members have chips at tables or in rounds.
        """
        require_id(guild_id, "A guild id")
        return await self._operate(
            "start_season",
            key,
            {"guild_id": guild_id, "name": name, "reset_to": reset_to, "actor_id": actor_id},
            SeasonStarted,
            lambda work: stats.start_season(work, guild_id, name, reset_to, actor_id),
            guild=_in_guild(guild_id),
            bulk=True,  # every member's balance archived, and with a reset every wallet set
        )

    # --- ledger and exports ------------------------------------------------------------------

    async def ledger(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        limit: int = 10,
        before: int | None = None,
    ) -> list[LedgerEntry]:
        """Recent ledger rows, newest first (a member's: their wallet, seats and bets).

        Page back with ``before`` = the smallest ``entry_id`` already shown.
        """
        _page(limit, 0)

        def body(tx: Transaction) -> list[LedgerEntry]:
            up_to = None if before is None else before - 1
            return read_ledger(tx, guild_id, user_id, up_to=up_to, limit=limit, newest_first=True)

        return await self._read(body)

    async def export_ledger_csv(
        self, out: TextIO, guild_id: int, *, user_id: int | None = None
    ) -> int:
        """Write a guild's (or member's) whole ledger as CSV; return the number of rows.

        Streams in batches; the export is consistent: it ends at the last row that existed when
        it began (the ledger is append-only, so earlier rows never change).
        """
        writer = ledger_header(out)
        end = await self._read(last_entry_id)
        after = 0
        written = 0
        while True:
            start = after

            def batch(tx: Transaction, start: int = start) -> list[LedgerEntry]:
                return read_ledger(
                    tx, guild_id, user_id, after=start, up_to=end, limit=EXPORT_BATCH
                )

            entries = await self._read(batch)
            if not entries:
                return written
            writer.writerows(ledger_rows(entries))
            written += len(entries)
            after = entries[-1].entry_id

    async def export_sessions_csv(self, out: TextIO, table_id: int) -> int:
        """Write a table's PokerNow-style session ledger as CSV; return the number of rows."""
        session = await self.table_session(table_id)
        return write_sessions(out, list(session.lines))


def _require_ids(guild_id: object, *user_ids: object) -> None:
    require_id(guild_id, "A guild id")
    for user_id in user_ids:
        require_id(user_id, "A user id")


def _ranked(rows: list[tuple[int, int]]) -> list[LeaderboardEntry]:
    """Rows sorted best first as ranks where equal values share a rank (1, 2, 2, 4)."""
    ranked: list[LeaderboardEntry] = []
    for position, (user_id, value) in enumerate(rows, start=1):
        tied = ranked and ranked[-1].value == value
        ranked.append(LeaderboardEntry(ranked[-1].rank if tied else position, user_id, value))
    return ranked


def _counts_text(counts: Mapping[int, Mapping[str, int]]) -> str:
    """A hand's statistics by seat as one canonical string, for its fingerprint: the generic
    encoding of ~150 numbers costs more than the statistics' own write."""
    if not isinstance(counts, Mapping) or not all(isinstance(m, Mapping) for m in counts.values()):
        raise InvalidSettlement("Statistics must be a mapping of counts by name for each seat.")
    return repr(sorted((repr(seat), sorted(m.items())) for seat, m in counts.items()))


def _pairs(mapping: Mapping[Any, Any]) -> list[list[Any]]:
    """A mapping as sorted pairs, for fingerprints (refuses a non-mapping early)."""
    if not isinstance(mapping, Mapping):
        raise InvalidArgument("Expected a mapping by seat or member.")
    return [[k, v] for k, v in sorted(mapping.items(), key=lambda item: repr(item[0]))]


def _side_pairs(side_bets: Mapping[Any, Mapping[Any, Any]]) -> list[list[Any]]:
    """Side bets by member as a fingerprint sees them (sorted pairs of sorted pairs)."""
    return [[user_id, _pairs(bets)] for user_id, bets in sorted(side_bets.items())]
