"""The terminal Hold'em screen's own wording: a busted bot's refill is announced."""

from __future__ import annotations

import io

from rich.console import Console

from bot.holdem.events import (
    HandFinished,
    SeatSnapshot,
    TableChanged,
    TableLifecycle,
    TableSnapshot,
)
from bot.holdem.kinds import SeatStatus, Stage
from bot.terminal.holdem_screen import HoldemScreen


def _snapshot(bot_stack: int) -> TableSnapshot:
    seats = (
        SeatSnapshot(1, "Ann", 1, False, 1200, 0, SeatStatus.WAITING, True, False),
        SeatSnapshot(2, "🤖 Ada", None, True, bot_stack, 0, SeatStatus.WAITING, False, False),
    )
    return TableSnapshot(
        table_id=1, name="t", status=TableLifecycle.OPEN, seat_count=2, small_blind=5,
        big_blind=10, ante=0, hand_id=None, street=Stage.NEXT_HAND, board=(), pots=(), total_pot=0,
        to_act_seat=None, deadline=None, legal=None, action_count=0, seats=seats,
    )  # fmt: skip


async def test_screen_announces_a_busted_bot_buying_in_again() -> None:
    out = io.StringIO()
    screen = HoldemScreen(
        Console(file=out, width=120), user_id=1, strategies=("random",), on_change=lambda: None
    )
    await screen.publish(HandFinished(1, (), (), (), (), _snapshot(0)))
    await screen.publish(TableChanged(_snapshot(0)))
    assert "buys in again" not in out.getvalue()  # not refilled yet: nothing to say
    await screen.publish(TableChanged(_snapshot(1000)))
    await screen.publish(TableChanged(_snapshot(1000)))
    assert out.getvalue().count("🤖 Ada (random) ran out of chips and buys in again (1,000") == 1
