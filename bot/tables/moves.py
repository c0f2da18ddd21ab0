"""Chip movements a table host starts: keyed by what they are, retried once if the answer was lost.

Every movement carries an idempotency key derived from the table, seat, hand or round and
purpose (or the member's interaction). So when the database fails after applying a movement
but before answering, the host can ask again with the same key: storage recognises the
replay and answers as the first time, and the chips move exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from storage import DatabaseBusy, DatabaseFailure

_log = logging.getLogger("felt.tables")

T = TypeVar("T")

RETRIED = (DatabaseBusy, DatabaseFailure)
"""Failures after which a movement may or may not have applied: ask again, same key."""


async def move_chips(what: str, operation: Callable[[], Awaitable[T]]) -> T:
    """Run ``operation`` (one keyed storage call); retry it once if its answer was lost."""
    try:
        return await operation()
    except RETRIED as error:
        _log.warning("chip movement %s failed (%s); retrying with the same key", what, error)
        return await operation()


def seat_key(table_id: int, seat_no: int, who: object, since: str) -> str:
    """The identity of one occupancy of a seat, from which its movements' keys derive."""
    return f"holdem:{table_id}:seat:{seat_no}:{who}:{since}"
