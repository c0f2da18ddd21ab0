"""How chips move: validated amounts, guild bootstrap, accounts, and ledger rows for each movement.

Every movement goes through :meth:`Work.move`, which changes one balance with a guarded
``UPDATE ... RETURNING`` and records the ledger row; :meth:`Work.record` then writes the operation
row (idempotency key, fingerprint, stored result) and the rows together, in the same transaction.
A hand's settlement is the one exception: it moves its seats' escrows with the same guards and
ledger rows, computed by the database (``storage/holdem_settlement.py``, ``move_seats``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from storage import codec
from storage.backend import Answer, Transaction
from storage.errors import (
    BalanceLimitExceeded,
    IdempotencyConflict,
    InsufficientChips,
    InvalidAmount,
    InvalidArgument,
    UnknownAccount,
)
from storage.models import MAX_CHIPS, AccountKind, LedgerKind
from storage.settings import EconomySettings, read_economy

_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
INTERNAL_KEY_PREFIX = "felt:"
"""Keys storage derives for its own operations start with this; callers' keys may not."""
SNOWFLAKE_MAX = 2**63 - 1


def stamp(moment: datetime) -> str:
    """The stored text form of a time: ISO-8601 in UTC with microseconds (sorts in order)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def require_amount(value: object, *, what: str = "amount", allow_zero: bool = False) -> int:
    """``value`` as a chip amount, or :class:`InvalidAmount`: ints only, positive, <= MAX_CHIPS."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAmount(f"The {what} must be a whole number of chips.", value)
    if value < 0 or (value == 0 and not allow_zero):
        lowest = "zero or more" if allow_zero else "at least 1"
        raise InvalidAmount(f"The {what} must be {lowest} chips.", value)
    if value > MAX_CHIPS:
        raise InvalidAmount(f"The {what} cannot be more than {MAX_CHIPS:,} chips.", value)
    return value


def require_id(value: object, what: str) -> int:
    """A Discord snowflake or storage id: a non-negative int that fits in 64 bits."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= SNOWFLAKE_MAX:
        raise InvalidArgument(f"{what} must be a non-negative 64-bit integer, not {value!r}.")
    return value


def require_key(key: object) -> str:
    """A caller's idempotency key: 1-200 printable ASCII characters without spaces, not
    starting with the reserved ``felt:``."""
    if not isinstance(key, str) or _KEY.match(key) is None:
        raise InvalidArgument(
            "An idempotency key must be 1-200 printable ASCII characters without spaces."
        )
    if key.startswith(INTERNAL_KEY_PREFIX):
        raise InvalidArgument(
            f"Idempotency keys starting with {INTERNAL_KEY_PREFIX!r} are reserved."
        )
    return key


def require_text(value: object, what: str, *, limit: int, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > limit or (not optional and not value.strip()):
        raise InvalidArgument(f"{what} must be text of at most {limit:,} characters.")
    return value


def account_key(guild_id: int, user_id: int) -> str:
    """The idempotency key of the operation that opened a member's account."""
    return f"{INTERNAL_KEY_PREFIX}account:{guild_id}:{user_id}"


@dataclass(frozen=True, slots=True)
class GuildRow:
    """A guild's bootstrap facts: its house account and its current season."""

    guild_id: int
    house_account_id: int
    season_id: int
    season_number: int


@dataclass(frozen=True, slots=True)
class MemberRow:
    """A member's wallet account and daily-bonus state."""

    guild_id: int
    user_id: int
    account_id: int
    balance: int
    daily_streak: int
    last_daily_on: str | None


@dataclass(frozen=True, slots=True)
class _Entry:
    guild_id: int
    account_id: int
    kind: LedgerKind
    delta: int
    balance_after: int


class Work:
    """One operation in progress: its transaction, its time and the ledger rows it wrote."""

    def __init__(self, tx: Transaction, now: datetime, economy: EconomySettings) -> None:
        self.tx = tx
        self.now = now
        self.stamp = stamp(now)
        self.economy_defaults = economy
        self._entries: list[_Entry] = []
        self._guilds: dict[int, GuildRow] = {}
        # What the operation row refers to; the body fills these in as it learns them.
        self.guild_id: int | None = None
        self.actor_id: int | None = None
        self.table_id: int | None = None
        self.hand_id: int | None = None
        self.round_id: int | None = None
        self.note: str | None = None
        # The instance whose lease this process holds: tables, hands and rounds opened now
        # belong to it (storage/instances.py).
        self.instance_id: int | None = None

    # --- guilds and accounts ---------------------------------------------------------------

    def guild(self, guild_id: int) -> GuildRow:
        """The guild's row, creating the guild, its house account and season 1 on first use."""
        cached = self._guilds.get(guild_id)
        if cached is not None:
            return cached
        row = self.tx.one(
            "SELECT a.account_id, s.season_id, s.number FROM accounts a "
            "JOIN seasons s ON s.guild_id = a.guild_id AND s.ended_at IS NULL "
            "WHERE a.guild_id = ? AND a.kind = 'house'",
            (guild_id,),
        )
        if row is None:
            self.tx.execute(
                "INSERT INTO guilds (guild_id, created_at) VALUES (?, ?)", (guild_id, self.stamp)
            )
            house = self.new_account(guild_id, AccountKind.HOUSE, None)
            season = self.tx.value(
                "INSERT INTO seasons (guild_id, number, name, started_at) "
                "VALUES (?, 1, 'Season 1', ?) RETURNING season_id",
                (guild_id, self.stamp),
            )
            result = GuildRow(guild_id, house, int(season), 1)
        else:
            result = GuildRow(guild_id, int(row[0]), int(row[1]), int(row[2]))
        self._guilds[guild_id] = result
        return result

    def forget_guild(self, guild_id: int) -> None:
        """Drop the cached guild row (after a season change)."""
        self._guilds.pop(guild_id, None)

    def economy(self, guild_id: int) -> EconomySettings:
        return read_economy(self.tx, guild_id, self.economy_defaults)

    def new_account(self, guild_id: int, kind: AccountKind, user_id: int | None) -> int:
        return int(
            self.tx.value(
                "INSERT INTO accounts (guild_id, kind, user_id, balance, created_at) "
                "VALUES (?, ?, ?, 0, ?) RETURNING account_id",
                (guild_id, kind.value, user_id, self.stamp),
            )
        )

    def find_member(self, guild_id: int, user_id: int) -> MemberRow | None:
        row = self.tx.one(
            "SELECT m.account_id, a.balance, m.daily_streak, m.last_daily_on FROM members m "
            "JOIN accounts a ON a.account_id = m.account_id "
            "WHERE m.guild_id = ? AND m.user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return None
        return MemberRow(guild_id, user_id, int(row[0]), int(row[1]), int(row[2]), row[3])

    def member(self, guild_id: int, user_id: int) -> MemberRow:
        """An existing member, or :class:`UnknownAccount`."""
        found = self.find_member(guild_id, user_id)
        if found is None:
            raise UnknownAccount(guild_id, user_id)
        return found

    def open_member(self, guild_id: int, user_id: int) -> MemberRow:
        """The member's wallet, opened with the guild's starting grant on first use.

        The grant is its own operation (key ``account:<guild>:<user>``) inside the caller's
        transaction, so it is recorded once however the member first shows up.
        """
        found = self.find_member(guild_id, user_id)
        if found is not None:
            return found
        self.guild(guild_id)
        account = self.new_account(guild_id, AccountKind.MEMBER, user_id)
        self.tx.execute(
            "INSERT INTO members (guild_id, user_id, account_id, joined_at) VALUES (?, ?, ?, ?)",
            (guild_id, user_id, account, self.stamp),
        )
        grant = self.economy(guild_id).starting_chips
        opening = Work(self.tx, self.now, self.economy_defaults)
        opening._guilds = self._guilds
        balance = 0
        if grant > 0:
            balance = opening.move(guild_id, account, grant, LedgerKind.STARTING_GRANT, user_id)
        opening.guild_id = guild_id
        opening.actor_id = user_id
        opening.record(
            "open_account",
            account_key(guild_id, user_id),
            codec.fingerprint("open_account", {"guild_id": guild_id, "user_id": user_id}),
            codec.dumps({"starting_grant": grant}),
        )
        return MemberRow(guild_id, user_id, account, balance, 0, None)

    # --- movements ---------------------------------------------------------------------------

    def move(
        self,
        guild_id: int,
        account_id: int,
        delta: int,
        kind: LedgerKind,
        user_id: int | None = None,
    ) -> int:
        """Change one balance by ``delta`` and record the ledger row; return the new balance.

        A debit beyond the balance raises :class:`InsufficientChips` (the house excepted); a
        credit beyond ``MAX_CHIPS`` raises :class:`BalanceLimitExceeded`. The guard is part of
        the ``UPDATE`` itself, not a read followed by a write.
        """
        if delta == 0:
            raise ValueError("a ledger row must move chips")
        if delta > 0:
            balance = self.tx.value(
                "UPDATE accounts SET balance = balance + ? "
                "WHERE account_id = ? AND balance <= ? RETURNING balance",
                (delta, account_id, MAX_CHIPS - delta),
            )
            if balance is None:
                raise BalanceLimitExceeded(MAX_CHIPS)
        else:
            balance = self.tx.value(
                "UPDATE accounts SET balance = balance + ? "
                "WHERE account_id = ? AND (balance >= ? OR kind = 'house') RETURNING balance",
                (delta, account_id, -delta),
            )
            if balance is None:
                available = self.tx.value(
                    "SELECT balance FROM accounts WHERE account_id = ?", (account_id,)
                )
                raise InsufficientChips(user_id, -delta, int(available or 0))
        self._entries.append(_Entry(guild_id, account_id, kind, delta, int(balance)))
        return int(balance)

    def transfer(
        self,
        guild_id: int,
        source: int,
        destination: int,
        amount: int,
        kind: LedgerKind,
        *,
        user_id: int | None = None,
    ) -> tuple[int, int]:
        """Move ``amount`` from one account to another; return both new balances."""
        source_balance = self.move(guild_id, source, -amount, kind, user_id)
        destination_balance = self.move(guild_id, destination, amount, kind)
        return source_balance, destination_balance

    def balance(self, account_id: int) -> int:
        return int(
            self.tx.value("SELECT balance FROM accounts WHERE account_id = ?", (account_id,))
        )

    # --- the operation row ------------------------------------------------------------------

    def record(self, name: str, key: str, fingerprint: str, result: str) -> None:
        """Write the operation row (with the references the body set) and its ledger rows.

        Both are sent without waiting for an answer (the ledger rows find their operation by
        its key), so on PostgreSQL they ride with the commit."""
        self.tx.send(
            "INSERT INTO operations (op_key, name, fingerprint, result, guild_id, actor_id, "
            "table_id, hand_id, round_id, note, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                name,
                fingerprint,
                result,
                self.guild_id,
                self.actor_id,
                self.table_id,
                self.hand_id,
                self.round_id,
                self.note,
                self.stamp,
            ),
        )
        if not self._entries:
            return
        self.tx.executemany(
            "INSERT INTO ledger (op_id, guild_id, account_id, kind, delta, balance_after, "
            "created_at) SELECT o.op_id, ?, ?, ?, ?, ?, ? FROM operations o WHERE o.op_key = ?",
            [
                (
                    entry.guild_id,
                    entry.account_id,
                    entry.kind.value,
                    entry.delta,
                    entry.balance_after,
                    self.stamp,
                    key,
                )
                for entry in self._entries
            ],
        )
        self._entries.clear()


def replayed(tx: Transaction, name: str, key: str, fingerprint: str) -> Answer:
    """The stored result of an operation already applied under ``key`` (the answer's value is
    None if there is none), asked for without waiting so that the body's first reads travel
    with it; read it with :func:`stored_result`."""
    return tx.ask("SELECT name, fingerprint, result FROM operations WHERE op_key = ?", (key,))


def stored_result(answer: Answer, name: str, key: str, fingerprint: str) -> str | None:
    """The stored result :func:`replayed` found, or None.

    The same key with another operation or other arguments is refused with
    :class:`IdempotencyConflict`.
    """
    row = answer.one()
    if row is None:
        return None
    if row[0] != name or row[1] != fingerprint:
        raise IdempotencyConflict(key, str(row[0]))
    return str(row[2])
