"""Table pictures by priority, bot-wide: a redraw draws only while no turn offer's picture is."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.discord.drawing import LATE_SECONDS, DrawingTurns
from bot.discord.table_components import ButtonSpec
from bot.discord.table_edits import Message
from bot.discord.table_look import TableLook, TablePayload
from bot.discord.table_pictures import edit_picture


async def test_drawing_a_redraw_waits_until_no_offer_is_being_drawn() -> None:
    turns = DrawingTurns()
    order: list[str] = []
    offer_drawn = asyncio.Event()

    async def offer(name: str) -> None:
        async with turns.pressing():
            order.append(f"{name} starts")
            await offer_drawn.wait()
            order.append(f"{name} ends")

    async def redraw() -> None:
        ready = asyncio.Event()
        turns.when_free(ready)
        await ready.wait()
        async with turns.redraw():
            order.append("redraw")

    offers = [asyncio.create_task(offer("offer 1")), asyncio.create_task(offer("offer 2"))]
    await asyncio.sleep(0)
    waiting = asyncio.create_task(redraw())
    await asyncio.sleep(0)
    assert not turns.free and order == ["offer 1 starts", "offer 2 starts"]
    offer_drawn.set()
    await asyncio.gather(*offers, waiting)
    assert order[-1] == "redraw"
    assert turns.redraws_waited == 1 and turns.free


async def test_drawing_a_redraw_with_nothing_pressing_draws_at_once() -> None:
    turns = DrawingTurns()
    ready = asyncio.Event()
    turns.when_free(ready)
    assert ready.is_set() and turns.redraws_waited == 0


async def test_drawing_waiting_redraws_are_woken_one_at_a_time_once_the_threads_are_free() -> None:
    turns = DrawingTurns()
    now = asyncio.Event()
    turns.when_free(now)
    assert now.is_set()  # nothing being drawn: at once

    first, second = asyncio.Event(), asyncio.Event()
    release = asyncio.Event()

    async def offer() -> None:
        async with turns.pressing():
            await release.wait()

    drawing = asyncio.create_task(offer())
    await asyncio.sleep(0)
    turns.when_free(first)
    turns.when_free(second)
    assert not first.is_set() and not second.is_set()
    release.set()
    await drawing
    assert first.is_set() and not second.is_set()  # one at a time, in order
    async with turns.redraw():
        assert not turns.free
    assert second.is_set()  # the first one's redraw is done: the next one's turn


async def test_drawing_a_woken_channel_that_does_not_redraw_passes_the_turn_on() -> None:
    turns = DrawingTurns()
    release = asyncio.Event()

    async def offer() -> None:
        async with turns.pressing():
            await release.wait()

    drawing = asyncio.create_task(offer())
    await asyncio.sleep(0)
    first, second = asyncio.Event(), asyncio.Event()
    turns.when_free(first)
    turns.when_free(second)
    release.set()
    await drawing
    assert first.is_set() and not second.is_set()
    turns.pass_on()  # the first had an offer to send instead
    assert second.is_set()


async def test_drawing_no_redraw_while_the_event_loop_runs_late() -> None:
    turns = DrawingTurns()
    for _ in range(5):
        turns.note_lateness(0.5)  # the process has no CPU to spare
    assert not turns.free
    ready = asyncio.Event()
    turns.when_free(ready)
    assert not ready.is_set()
    turns.note_lateness(0.0)
    assert not ready.is_set()  # smoothed: one punctual tick is not enough
    for _ in range(20):
        turns.note_lateness(0.0)
    assert ready.is_set() and turns.free


async def test_drawing_the_event_loops_lateness_is_watched_while_redraws_wait() -> None:
    turns = DrawingTurns()
    turns.note_lateness(LATE_SECONDS * 4)
    ready = asyncio.Event()
    turns.when_free(ready)
    # Nothing else is drawn and the loop is punctual: its own ticks free the redraw.
    async with asyncio.timeout(20):
        await ready.wait()
    assert turns.lateness <= LATE_SECONDS


async def test_drawing_no_redraw_while_a_turn_offer_waits_for_its_admission() -> None:
    offers_waiting = [True]
    turns = DrawingTurns(lambda: offers_waiting[0])
    ready = asyncio.Event()
    turns.when_free(ready)
    assert not turns.free and not ready.is_set()
    offers_waiting[0] = False
    turns.pass_on()
    assert turns.free and ready.is_set()


async def test_drawing_is_congested_once_the_painters_have_all_the_pictures_they_can_take() -> None:
    turns = DrawingTurns(slots=2)
    release = asyncio.Event()

    async def offer() -> None:
        async with turns.pressing():
            await release.wait()

    first = asyncio.create_task(offer())
    await asyncio.sleep(0)
    assert not turns.congested
    second = asyncio.create_task(offer())
    await asyncio.sleep(0)
    assert turns.congested
    release.set()
    await asyncio.gather(first, second)
    assert not turns.congested


def payload(view: str, buttons: tuple[ButtonSpec, ...] = ()) -> TablePayload[str]:
    return TablePayload(
        content="", title="t", description=f"log {view}", footer="", view=view,
        buttons=buttons, alt_text=view, image_name="table.png",
    )  # fmt: skip


LOOK = TableLook(render=lambda view: f"png of {view}".encode(), image_name="table.png",
                 build_view=lambda specs: None)  # fmt: skip


async def test_a_turn_offer_goes_with_the_old_picture_while_the_painters_are_full() -> None:
    found: Message[TablePayload[str]] = Message(key="table", draft=lambda: None)
    before, after = payload("flop"), payload("turn")
    file, shown = await edit_picture(found, after, before, LOOK, None, congested=True)
    assert file is None and shown == dataclasses.replace(after, view="flop")
    # Nothing but the picture changed: no edit now, the redraw brings it.
    only_picture = dataclasses.replace(before, view="turn")
    assert await edit_picture(found, only_picture, before, LOOK, None, congested=True) == (
        None,
        None,
    )


async def test_a_turn_offer_carries_its_new_picture_when_the_painters_have_room() -> None:
    found: Message[TablePayload[str]] = Message(key="table", draft=lambda: None)
    before, after = payload("flop"), payload("turn")
    file, shown = await edit_picture(found, after, before, LOOK, None, congested=False)
    assert file is not None and file.fp.read() == b"png of turn" and shown == after
