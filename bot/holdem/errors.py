"""Refusals of the Hold'em table host; each message is fit to show the member who asked."""

from __future__ import annotations

from bot.tables.errors import TableError

__all__ = [
    "AlreadySeatedError",
    "BuyInError",
    "InvalidActionError",
    "NotSeatedError",
    "OutOfTurnError",
    "TableClosingError",
    "TableError",
    "TableFullError",
    "TableSettingsError",
]


class TableSettingsError(TableError):
    """A table option that is out of range or inconsistent."""


class NotSeatedError(TableError):
    """The member has no seat at this table."""


class AlreadySeatedError(TableError):
    """The member already sits at this table."""


class TableFullError(TableError):
    """No seat is free and none can be freed."""


class OutOfTurnError(TableError):
    """Someone else is to act."""


class InvalidActionError(TableError):
    """The action is not legal now (the engine's reason is the message)."""


class BuyInError(TableError):
    """A buy-in or rebuy outside the table's limits, or more than the member has."""


class TableClosingError(TableError):
    """The table is closing or closed."""


class RailError(TableError):
    """A watch request the rail refuses (off at this table, a player, not watching)."""


class PreActionError(TableError):
    """A pre-action that cannot be ticked now (not in the hand, your turn, nothing to check)."""
