"""What the terminal player reads when a table or the chip database refuses: one line, in the
terminal's words (one local player, so "you" and "your wallet"; no Discord markup)."""

from __future__ import annotations

from bot.tables.errors import TableError
from bot.terminal.style import chips
from storage import (
    AlreadySeated,
    BalanceLimitExceeded,
    DatabaseBusy,
    InsufficientChips,
    SeatInHand,
    StorageError,
    TableClosed,
    UnknownTable,
)

REFUSALS: tuple[type[Exception], ...] = (TableError, StorageError)
"""What a terminal session answers with a line instead of stopping."""


def refusal_text(error: Exception) -> str:
    """The line for a refusal: storage's worded here, a table's as the table says it."""
    match error:
        case InsufficientChips(needed=needed, available=available):
            return (
                f"Not enough chips: your wallet has {chips(available)}, "
                f"and this needs {chips(needed)}."
            )
        case BalanceLimitExceeded(limit=limit):
            return f"That would take your wallet beyond the limit of {chips(limit)} chips."
        case TableClosed() | UnknownTable():
            return "This table is closed."
        case AlreadySeated(seat_no=seat_no):
            return f"You are already sitting at this table, in seat {seat_no}."
        case SeatInHand():
            return "Your chips are in the hand being played; try again when it is over."
        case DatabaseBusy():
            return "The chip database is busy (another Felt is writing to it); try again."
    return str(error)
