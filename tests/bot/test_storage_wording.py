"""Each front words storage's refusals itself: Discord with mentions and live timestamps, the
terminal for its one local player."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.discord.database import register_storage_refusals
from bot.discord.errors import ErrorRouter, describe_storage_refusal
from bot.tables.errors import TableError
from bot.terminal.refusals import refusal_text
from storage import (
    DailyAlreadyClaimed,
    InsufficientChips,
    InvalidTransfer,
    NotInRound,
    SeatInHand,
    StorageError,
    TableClosed,
    UnknownAccount,
    UnknownSeason,
    UnknownTable,
)

NEXT_CLAIM = datetime(2026, 1, 2, tzinfo=UTC)


@pytest.mark.parametrize(
    ("error", "member_sees"),
    [
        (InsufficientChips(7, 50, 10), "Not enough chips: <@7> has 10, and this needs 50."),
        (UnknownAccount(1, 7), "<@7> does not have any chips here yet."),
        (InvalidTransfer(7), "You cannot send chips to yourself."),
        (
            DailyAlreadyClaimed(NEXT_CLAIM),
            f"You already claimed today's chips. The next claim opens "
            f"<t:{int(NEXT_CLAIM.timestamp())}:R>.",
        ),
        (TableClosed(3), "This table is closed."),
        (NotInRound(4, 7), "<@7> has no bet in blackjack round 4."),
        (UnknownSeason(1, 5), "There is no season 5 in this server."),
    ],
)
def test_discord_words_storage_refusals_for_members(error: StorageError, member_sees: str) -> None:
    router = ErrorRouter()
    register_storage_refusals(router)

    assert describe_storage_refusal(error) == member_sees
    assert router.message_for(error) == (member_sees, None)


@pytest.mark.parametrize(
    ("error", "player_reads"),
    [
        (
            InsufficientChips(1, 1_000, 800),
            "Not enough chips: your wallet has 800, and this needs 1,000.",
        ),
        (
            InsufficientChips(None, 50, 10),
            "Not enough chips: your wallet has 10, and this needs 50.",
        ),
        (TableClosed(3), "This table is closed."),
        (UnknownTable(3), "This table is closed."),
        (
            SeatInHand(3, 1, 9),
            "Your chips are in the hand being played; try again when it is over.",
        ),
        (TableError("It is not your turn."), "It is not your turn."),
    ],
)
def test_terminal_words_refusals_for_its_player(error: Exception, player_reads: str) -> None:
    assert refusal_text(error) == player_reads
    assert "<@" not in refusal_text(error)
