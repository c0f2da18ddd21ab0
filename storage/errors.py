"""The storage layer's error hierarchy: one base, a specific subclass for each refusal.

Storage knows no front: an error carries ids and amounts as attributes, and its ``str`` is a
plain sentence for developers and operators (ids, no Discord markup, no "you"). Each front words
the refusals its users see from the attributes (``bot.discord.errors.describe_storage_refusal``,
``bot.terminal.refusals``). A refusal always leaves the database unchanged: the operation's
transaction is rolled back before the error reaches the caller.
"""

from __future__ import annotations

from datetime import datetime


class StorageError(Exception):
    """Base of every error the storage layer raises."""


# --- the database itself ---------------------------------------------------------------------


class DatabaseProblem(StorageError):
    """The database cannot be used: missing, foreign, too new, too old, busy or failing."""


class DatabaseNotFound(DatabaseProblem):
    """Opening without ``create`` a database file that does not exist."""

    def __init__(self, path: str) -> None:
        super().__init__(f"There is no Felt database at {path}.")
        self.path = path


class NotAFeltDatabase(DatabaseProblem):
    """The file is not SQLite, or is a SQLite database that some other program owns."""

    def __init__(self, path: str, detail: str = "") -> None:
        suffix = f" ({detail})" if detail else ""
        super().__init__(f"{path} is not a Felt database{suffix}.")
        self.path = path


class DatabaseTooNew(DatabaseProblem):
    """The database was migrated by a newer Felt than this one; refusing protects its data."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        super().__init__(
            f"{path} has schema version {found}, but this version of Felt only knows up to "
            f"{supported}. Upgrade Felt (or restore a backup) before starting it on this database."
        )
        self.path = path
        self.found = found
        self.supported = supported


class DatabaseOutdated(DatabaseProblem):
    """Opened without migrating a database that needs migrations; run ``felt db migrate``."""

    def __init__(self, path: str, found: int, latest: int) -> None:
        super().__init__(
            f"{path} has schema version {found}; this version of Felt needs {latest}. "
            "Run `felt db migrate` first."
        )
        self.path = path
        self.found = found
        self.latest = latest


class MigrationError(DatabaseProblem):
    """A migration file is missing, misnumbered or failed to apply (nothing was changed)."""


class DatabaseBusy(DatabaseProblem):
    """Another process held the database's write lock for longer than the busy timeout."""

    def __init__(self) -> None:
        super().__init__("The chip database is busy: another process held its write lock too long.")


class DatabaseFailure(DatabaseProblem):
    """SQLite reported an error that is not a refusal (disk full, I/O error, a bug)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"The chip database failed ({detail}); nothing was changed.")
        self.detail = detail


class CheckFailed(DatabaseFailure):
    """A check the database ran failed: ``felt_check(ok, code, detail)`` met an ``ok`` that was
    not true (see ``storage/backend.py``). The storage logic that wrote the check turns it into
    the refusal ``code`` names; one that reaches a caller is a failure like any other."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"check {code} failed: {detail}" if detail else f"check {code} failed")
        self.code = code
        self.check_detail = detail


class DatabaseReadOnly(DatabaseProblem):
    """The database can be read but not written (a read-only file, directory or mount)."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"The database {path} is read-only, and this needs to write to it "
            "(felt db check and felt db export can read it as it is)."
        )
        self.path = path


class DatabaseUnavailable(DatabaseProblem):
    """SQLite cannot open the database file at all (a path like /proc/felt.db)."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"SQLite cannot open the database {path} ({detail}).")
        self.path = path
        self.detail = detail


class StorageClosed(DatabaseProblem):
    """An operation was attempted after ``Storage.close``."""

    def __init__(self) -> None:
        super().__init__("The chip database is closed.")


# --- input that cannot be accepted ------------------------------------------------------------


class InvalidAmount(StorageError, ValueError):
    """A chip amount that is not an int, is zero or negative, or is beyond ``MAX_CHIPS``."""

    def __init__(self, message: str, value: object) -> None:
        super().__init__(message)
        self.value = value


class InvalidArgument(StorageError, ValueError):
    """An identifier, key, name or setting value that is malformed."""


class BalanceLimitExceeded(StorageError):
    """A credit would push an account beyond ``MAX_CHIPS``."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"A balance cannot go beyond the limit of {limit:,} chips.")
        self.limit = limit


class IdempotencyConflict(StorageError):
    """An idempotency key was reused for a different operation or different arguments."""

    def __init__(self, key: str, original: str) -> None:
        super().__init__(f"The idempotency key {key!r} was already used for {original}.")
        self.key = key
        self.original = original


# --- accounts and the economy ------------------------------------------------------------------


class UnknownAccount(StorageError):
    """The member has no account in this guild yet."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__(f"User {user_id} has no account in guild {guild_id}.")
        self.guild_id = guild_id
        self.user_id = user_id


class InsufficientChips(StorageError):
    """A debit larger than what the account holds; nothing moved."""

    def __init__(self, user_id: int | None, needed: int, available: int) -> None:
        who = f"user {user_id} has" if user_id is not None else "there are"
        super().__init__(f"Not enough chips: {who} {available:,}, and this needs {needed:,}.")
        self.user_id = user_id
        self.needed = needed
        self.available = available


class TransfersDisabled(StorageError):
    """The guild's admins turned member-to-member transfers off."""

    def __init__(self) -> None:
        super().__init__("Member-to-member chip transfers are turned off in this guild.")


class InvalidTransfer(StorageError):
    """A transfer that makes no sense: to oneself."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"User {user_id} cannot transfer chips to themselves.")
        self.user_id = user_id


class DailyAlreadyClaimed(StorageError):
    """The daily bonus was already claimed this UTC day."""

    def __init__(self, next_claim_at: datetime) -> None:
        super().__init__(
            f"The daily bonus was already claimed; the next claim opens at "
            f"{next_claim_at.isoformat()}."
        )
        self.next_claim_at = next_claim_at


class DailyDisabled(StorageError):
    """The guild set its daily bonus to zero."""

    def __init__(self) -> None:
        super().__init__("The daily bonus is turned off (0) in this guild.")


class InvalidSetting(StorageError, ValueError):
    """A guild setting with a malformed key, a value of the wrong type or out of range."""


# --- poker tables ------------------------------------------------------------------------------


class UnknownTable(StorageError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"Table {table_id} does not exist.")
        self.table_id = table_id


class TableClosed(StorageError):
    """The table was closed; nobody can sit, play or buy in there."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"Table {table_id} is closed.")
        self.table_id = table_id


class SeatTaken(StorageError):
    """Someone already sits in that seat."""

    def __init__(self, table_id: int, seat_no: int) -> None:
        super().__init__(f"Seat {seat_no} at table {table_id} is taken.")
        self.table_id = table_id
        self.seat_no = seat_no


class AlreadySeated(StorageError):
    """The member (or bot name) already has a seat at this table."""

    def __init__(self, table_id: int, seat_no: int) -> None:
        super().__init__(f"Already seated at table {table_id}, in seat {seat_no}.")
        self.table_id = table_id
        self.seat_no = seat_no


class EmptySeat(StorageError):
    """Nobody sits in that seat."""

    def __init__(self, table_id: int, seat_no: int) -> None:
        super().__init__(f"Nobody is sitting in seat {seat_no} at table {table_id}.")
        self.table_id = table_id
        self.seat_no = seat_no


class SeatInHand(StorageError):
    """The seat's chips are in play in an unfinished hand; wait for it to end."""

    def __init__(self, table_id: int, seat_no: int, hand_id: int) -> None:
        super().__init__(f"Seat {seat_no} at table {table_id} is playing hand #{hand_id}.")
        self.table_id = table_id
        self.seat_no = seat_no
        self.hand_id = hand_id


class HandInProgress(StorageError):
    """Starting a hand at a table that already has an unfinished one."""

    def __init__(self, table_id: int, hand_id: int) -> None:
        super().__init__(f"Hand #{hand_id} at table {table_id} is still being played.")
        self.table_id = table_id
        self.hand_id = hand_id


class DuplicateHand(StorageError):
    """A hand id that this table already used."""

    def __init__(self, table_id: int, hand_id: int) -> None:
        super().__init__(f"Hand #{hand_id} at table {table_id} already exists.")
        self.table_id = table_id
        self.hand_id = hand_id


class UnknownHand(StorageError):
    """No hand has this id at this table."""

    def __init__(self, table_id: int, hand_id: int) -> None:
        super().__init__(f"There is no hand #{hand_id} at table {table_id}.")
        self.table_id = table_id
        self.hand_id = hand_id


class StackMismatch(StorageError):
    """A hand's starting stacks do not match the chips the seats hold."""


class InvalidSettlement(StorageError):
    """Final stacks or payouts that do not fit the hand or round (seats, sums, limits)."""


class AlreadySettled(StorageError):
    """The hand or round was already settled, voided or refunded; it cannot end twice."""

    def __init__(self, what: str, status: str) -> None:
        super().__init__(f"{what} was already {status}.")
        self.what = what
        self.status = status


# --- blackjack ---------------------------------------------------------------------------------


class UnknownRound(StorageError):
    """No blackjack round has this id."""

    def __init__(self, round_id: int) -> None:
        super().__init__(f"Blackjack round {round_id} does not exist.")
        self.round_id = round_id


class NotInRound(StorageError):
    """The member has no bet in this round."""

    def __init__(self, round_id: int, user_id: int) -> None:
        super().__init__(f"User {user_id} has no bet in blackjack round {round_id}.")
        self.round_id = round_id
        self.user_id = user_id


# --- seasons -----------------------------------------------------------------------------------


class SeasonResetBlocked(StorageError):
    """A balance reset was asked for while members have chips at tables or in rounds."""

    def __init__(self, seats: int, rounds: int) -> None:
        super().__init__(
            f"Balances cannot be reset while chips are in play: {seats} occupied seat(s), "
            f"{rounds} unfinished blackjack round(s)."
        )
        self.seats = seats
        self.rounds = rounds


class UnknownSeason(StorageError):
    """No season has this number in this guild."""

    def __init__(self, guild_id: int, number: int) -> None:
        super().__init__(f"There is no season {number} in guild {guild_id}.")
        self.guild_id = guild_id
        self.number = number
