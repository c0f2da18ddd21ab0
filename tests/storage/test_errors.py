"""Storage errors carry ids and amounts, and their text is for developers: no front's markup."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from storage import (
    AlreadySeated,
    BalanceLimitExceeded,
    DailyAlreadyClaimed,
    DailyDisabled,
    EmptySeat,
    IdempotencyConflict,
    InsufficientChips,
    InvalidTransfer,
    NotInRound,
    SeasonResetBlocked,
    SeatInHand,
    SeatTaken,
    StorageError,
    TableClosed,
    TransfersDisabled,
    UnknownAccount,
    UnknownHand,
    UnknownRound,
    UnknownSeason,
    UnknownTable,
)

REFUSALS: list[StorageError] = [
    InsufficientChips(7, 50, 10),
    InsufficientChips(None, 50, 10),
    UnknownAccount(1, 7),
    BalanceLimitExceeded(2**53 - 1),
    IdempotencyConflict("k", "a grant"),
    TransfersDisabled(),
    InvalidTransfer(7),
    DailyAlreadyClaimed(datetime(2026, 1, 2, tzinfo=UTC)),
    DailyDisabled(),
    UnknownTable(3),
    TableClosed(3),
    SeatTaken(3, 2),
    AlreadySeated(3, 2),
    EmptySeat(3, 2),
    SeatInHand(3, 2, 9),
    UnknownHand(3, 9),
    UnknownRound(4),
    NotInRound(4, 7),
    SeasonResetBlocked(1, 2),
    UnknownSeason(1, 5),
]
PRESENTATION = re.compile(r"<[@#t]|\b(you|your)\b|this server|please", re.IGNORECASE)


@pytest.mark.parametrize("error", REFUSALS, ids=lambda error: type(error).__name__)
def test_storage_refusal_text_has_no_front_wording(error: StorageError) -> None:
    assert not PRESENTATION.search(str(error)), str(error)


def test_storage_refusals_carry_their_ids_and_amounts() -> None:
    short = InsufficientChips(7, 50, 10)
    claimed = DailyAlreadyClaimed(datetime(2026, 1, 2, tzinfo=UTC))

    assert (short.user_id, short.needed, short.available) == (7, 50, 10)
    assert InvalidTransfer(7).user_id == 7
    assert claimed.next_claim_at == datetime(2026, 1, 2, tzinfo=UTC)
    assert (SeatInHand(3, 2, 9).table_id, SeatInHand(3, 2, 9).hand_id) == (3, 9)
    assert str(short) == "Not enough chips: user 7 has 10, and this needs 50."
