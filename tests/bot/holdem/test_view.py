"""Host snapshots become valid render views at every point of a hand, and render."""

from __future__ import annotations

from bot.holdem.events import HandFinished
from bot.holdem.view import table_view
from bot.render import holdem_table_text, render_holdem_table
from bot.render.models import SeatStatus, Stage
from bot.tables.clock import ManualScheduler
from engine.holdem import Call, Check, RaiseTo
from tests.bot.holdem.support import ALICE, BOB, TableFactory
from tests.bot.recorder import HoldemRecorder


async def test_view_of_every_snapshot_of_a_session_is_valid_and_renders(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(seats=6, bots=3)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    views = [table_view(table.snapshot())]
    for _ in range(300):
        if len(recorder.of(HandFinished)) >= 3:
            break
        hand = table.hand
        snapshot = table.snapshot()
        if hand is not None and snapshot.to_act_seat is not None:
            seat = table.seats[snapshot.to_act_seat]
            if seat.user_id is not None:
                legal = hand.turn
                assert legal is not None
                action = Check() if legal.can_check else Call()
                await table.act(seat.user_id, table.hand_id, hand.action_count, action)
                views.append(table_view(table.snapshot()))
                continue
        await scheduler.advance(1.0)
        views.append(table_view(table.snapshot()))
    results = recorder.of(HandFinished)
    assert len(results) >= 3
    final = table_view(results[0].snapshot)
    assert final.street is Stage.SHOWDOWN
    assert sum(seat.amount_won for seat in final.seats) == sum(p.amount for p in results[0].pots)
    assert any(seat.status is SeatStatus.EMPTY for seat in views[-1].seats) or len(table.seats) == 6
    assert any(view.street is Stage.FLOP for view in views)
    png = render_holdem_table(final)
    assert png.startswith(b"\x89PNG")
    assert "Alice" in holdem_table_text(views[-1])


async def test_view_a_shown_losing_hand_is_not_drawn_as_folded(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(seats=2, bots=0)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    for _ in range(2):  # all-in and call: both hands are tabled, one loses (or they split)
        hand = table.hand
        assert hand is not None
        legal = hand.turn
        assert legal is not None
        actor = table.seats[table.snapshot().to_act_seat or 0].user_id
        assert actor is not None
        action = RaiseTo(legal.max_raise_to) if legal.max_raise_to else Call()
        await table.act(actor, table.hand_id, hand.action_count, action)
    final = recorder.of(HandFinished)[-1].snapshot
    assert all(seat.shown_cards for seat in final.seats)
    assert all(seat.status is not SeatStatus.FOLDED for seat in final.seats)
