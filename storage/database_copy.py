"""``felt db copy``: a whole Felt database copied into an empty one on another backend (SQLite to
PostgreSQL when an installation outgrows one process), every row and every id kept.

The source is read in one snapshot and the target written in one transaction, so a copy that
fails leaves the target as empty as it was. Afterwards every table is read back from both sides
and compared row for row, and ``check`` must pass on both. The bot must be stopped while it runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage import player_counts
from storage.backend import Row, Transaction
from storage.errors import DatabaseProblem
from storage.models import CheckReport


@dataclass(frozen=True, slots=True)
class CopiedTable:
    """A table as the copy sees it: its columns, and the id it assigns itself (if any)."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    """The primary key: rows are read in this order."""
    identity: str | None = None
    """The column the database assigns on insert (the copy keeps the source's values)."""


TABLES: tuple[CopiedTable, ...] = (
    CopiedTable("guilds", ("guild_id", "created_at"), ("guild_id",)),
    CopiedTable(
        "instances",
        (
            "instance_id",
            "role",
            "shard_ids",
            "shard_count",
            "host",
            "pid",
            "started_at",
            "heartbeat_at",
            "expires_at",
            "released_at",
            "release_reason",
        ),
        ("instance_id",),
        "instance_id",
    ),
    CopiedTable(
        "seasons",
        ("season_id", "guild_id", "number", "name", "started_at", "ended_at"),
        ("season_id",),
        "season_id",
    ),
    CopiedTable(
        "accounts",
        ("account_id", "guild_id", "kind", "user_id", "balance", "created_at"),
        ("account_id",),
        "account_id",
    ),
    CopiedTable(
        "members",
        ("guild_id", "user_id", "account_id", "joined_at", "daily_streak", "last_daily_on"),
        ("guild_id", "user_id"),
    ),
    CopiedTable(
        "operations",
        (
            "op_id",
            "op_key",
            "name",
            "fingerprint",
            "result",
            "guild_id",
            "actor_id",
            "table_id",
            "hand_id",
            "round_id",
            "note",
            "created_at",
        ),
        ("op_id",),
        "op_id",
    ),
    CopiedTable(
        "ledger",
        (
            "entry_id",
            "op_id",
            "guild_id",
            "account_id",
            "kind",
            "delta",
            "balance_after",
            "created_at",
        ),
        ("entry_id",),
        "entry_id",
    ),
    CopiedTable(
        "poker_tables",
        (
            "table_id",
            "guild_id",
            "channel_id",
            "name",
            "settings",
            "status",
            "opened_at",
            "closed_at",
            "instance_id",
        ),
        ("table_id",),
        "table_id",
    ),
    CopiedTable(
        "seats",
        (
            "seat_id",
            "table_id",
            "seat_no",
            "account_id",
            "user_id",
            "bot_name",
            "display_name",
            "joined_at",
            "left_at",
            "bot_personality",
        ),
        ("seat_id",),
        "seat_id",
    ),
    CopiedTable(
        "hands",
        (
            "table_id",
            "hand_id",
            "guild_id",
            "season_id",
            "status",
            "started_at",
            "ended_at",
            "phh",
            "void_reason",
            "instance_id",
        ),
        ("table_id", "hand_id"),
    ),
    CopiedTable(
        "hand_seats",
        (
            "table_id",
            "hand_id",
            "seat_no",
            "seat_id",
            "start_stack",
            "final_stack",
            "won",
            "pot_won",
        ),
        ("table_id", "hand_id", "seat_no"),
    ),
    CopiedTable(
        "bj_rounds",
        (
            "round_id",
            "guild_id",
            "channel_id",
            "season_id",
            "status",
            "opened_at",
            "ended_at",
            "history",
            "refund_reason",
            "instance_id",
        ),
        ("round_id",),
        "round_id",
    ),
    CopiedTable(
        "bj_players",
        (
            "round_id",
            "user_id",
            "account_id",
            "total_bet",
            "payout",
            "hands_played",
            "hands_won",
            "blackjacks",
            "bot_name",
            "decisions",
            "correct_decisions",
            "expected_loss_milli",
        ),
        ("round_id", "user_id"),
    ),
    CopiedTable(
        "bj_bets",
        ("bet_id", "round_id", "user_id", "reason", "amount", "created_at"),
        ("bet_id",),
        "bet_id",
    ),
    CopiedTable(
        "member_stats",
        (
            "season_id",
            "guild_id",
            "user_id",
            "game",
            "hands_played",
            "hands_won",
            "rounds_played",
            "blackjacks",
            "net",
            "biggest_pot",
        ),
        ("season_id", "user_id", "game"),
    ),
    CopiedTable("season_balances", ("season_id", "user_id", "balance"), ("season_id", "user_id")),
    CopiedTable(
        "holdem_counts",
        (*player_counts.KEY_COLUMNS, *player_counts.HOLDEM_COLUMNS),
        ("season_id", "user_id", "day"),
    ),
    CopiedTable(
        "blackjack_counts",
        (*player_counts.KEY_COLUMNS, *player_counts.BLACKJACK_COLUMNS),
        ("season_id", "user_id", "day"),
    ),
    CopiedTable(
        "guild_settings",
        ("guild_id", "key", "value", "updated_at", "updated_by"),
        ("guild_id", "key"),
    ),
    CopiedTable("recoveries", ("recovery_id", "ran_at", "report"), ("recovery_id",), "recovery_id"),
    CopiedTable(
        "table_messages",
        ("message_id", "guild_id", "channel_id", "game", "has_buttons", "posted_at"),
        ("message_id",),
    ),
    CopiedTable(
        "dm_refusal_notices", ("table_id", "user_id", "noticed_at"), ("table_id", "user_id")
    ),
    CopiedTable(
        "tournaments",
        (
            "tournament_id",
            "guild_id",
            "channel_id",
            "created_by",
            "name",
            "kind",
            "buy_in",
            "fee",
            "structure",
            "seats_per_table",
            "max_entries",
            "starts_at",
            "bots_fill",
            "pool_account_id",
            "status",
            "season_id",
            "house_fee",
            "lobby_message_id",
            "state",
            "state_version",
            "created_at",
            "started_at",
            "ended_at",
            "cancel_reason",
        ),
        ("tournament_id",),
        "tournament_id",
    ),
    CopiedTable(
        "tournament_entries",
        (
            "entry_id",
            "tournament_id",
            "user_id",
            "bot_name",
            "status",
            "paid_in",
            "fees_paid",
            "refunded",
            "rebuys",
            "add_ons",
            "re_entries",
            "place",
            "prize",
            "registered_at",
        ),
        ("entry_id",),
        "entry_id",
    ),
    CopiedTable(
        "tournament_hands",
        ("tournament_id", "table_no", "hand_no", "level", "phh", "ended_at"),
        ("tournament_id", "table_no", "hand_no"),
    ),
    CopiedTable(
        "tournament_fronts",
        ("tournament_id", "tables", "clock_channel_id", "clock_message_id"),
        ("tournament_id",),
    ),
    CopiedTable(
        "tournament_table_homes",
        ("tournament_id", "table_no", "channel_id", "kind", "opened_at", "removed_at"),
        ("tournament_id", "table_no"),
    ),
    CopiedTable(
        "holdem_time_banks",
        ("table_id", "user_id", "seconds", "updated_at"),
        ("table_id", "user_id"),
    ),
    CopiedTable(
        "holdem_rail_consent",
        ("guild_id", "user_id", "allowed", "updated_at"),
        ("guild_id", "user_id"),
    ),
)
"""Every table of the schema, parents before children (foreign keys hold after each insert)."""

Dump = dict[str, list[Row]]


class CopyRefused(DatabaseProblem):
    """``felt db copy`` will not run: the target is not empty, or the source is inconsistent."""


class CopyTargetNotEmpty(CopyRefused):
    """The target already holds Felt data; a copy only goes into an empty database."""

    def __init__(self, target: str, guilds: int, ledger_rows: int) -> None:
        super().__init__(
            f"{target} is not empty ({guilds:,} guild(s), {ledger_rows:,} ledger row(s)); "
            "felt db copy only copies into an empty database."
        )
        self.target = target


class CopySourceInconsistent(CopyRefused):
    """``check`` fails on the source: copying would carry its problems over."""

    def __init__(self, source: str, problems: int) -> None:
        super().__init__(
            f"{source} fails felt db check ({problems} problem(s)); fix it before copying."
        )


class CopyMismatch(DatabaseProblem):
    """Reading both sides back found a difference (never expected; the target is not used)."""

    def __init__(self, table: str, source_rows: int, target_rows: int) -> None:
        super().__init__(
            f"after copying, table {table} differs ({source_rows:,} row(s) in the source, "
            f"{target_rows:,} in the target); do not use the target."
        )


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What a copy did, and the proof that both sides agree."""

    source: str
    target: str
    rows: tuple[tuple[str, int], ...]
    """Rows copied per table, in copy order."""
    source_check: CheckReport
    target_check: CheckReport

    @property
    def total_rows(self) -> int:
        return sum(count for _table, count in self.rows)

    @property
    def ok(self) -> bool:
        return self.source_check.ok and self.target_check.ok


def _order(row: Row) -> tuple[tuple[bool, object], ...]:
    return tuple((value is None, value) for value in row)


def dump(tx: Transaction) -> Dump:
    """Every row of every table (in one snapshot when run as one read)."""
    return {
        table.name: sorted(
            tx.all(
                f"SELECT {', '.join(table.columns)} FROM {table.name} "
                f"ORDER BY {', '.join(table.key)}"
            ),
            key=_order,
        )
        for table in TABLES
    }


def require_empty(tx: Transaction, target: str) -> None:
    """Refuse with :class:`CopyTargetNotEmpty` unless every table is empty."""
    counts = {table.name: int(tx.value(f"SELECT COUNT(*) FROM {table.name}")) for table in TABLES}
    if any(counts.values()):
        raise CopyTargetNotEmpty(target, counts["guilds"], counts["ledger"])


def load(tx: Transaction, rows: Dump, target: str) -> None:
    """Insert every row with its ids into an empty database, then let its ids continue."""
    require_empty(tx, target)
    for table in TABLES:
        batch = rows[table.name]
        if batch:
            marks = ", ".join("?" for _ in table.columns)
            tx.executemany(
                f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})", batch
            )
        if table.identity is not None:
            tx.restart_ids(table.name, table.identity)


def compare(source: Dump, target: Dump) -> None:
    """Raise :class:`CopyMismatch` unless both sides hold exactly the same rows."""
    for table in TABLES:
        mine, theirs = source[table.name], target[table.name]
        if [tuple(row) for row in mine] != [tuple(row) for row in theirs]:
            raise CopyMismatch(table.name, len(mine), len(theirs))
