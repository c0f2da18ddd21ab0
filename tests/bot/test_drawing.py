"""Table pictures by priority, bot-wide: a redraw draws only while no turn offer's picture is."""

from __future__ import annotations

import asyncio

from bot.discord.drawing import DrawingTurns


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
        async with turns.redraw():
            order.append("redraw")

    offers = [asyncio.create_task(offer("offer 1")), asyncio.create_task(offer("offer 2"))]
    await asyncio.sleep(0)
    waiting = asyncio.create_task(redraw())
    await asyncio.sleep(0)
    assert turns.busy and order == ["offer 1 starts", "offer 2 starts"]
    offer_drawn.set()
    await asyncio.gather(*offers, waiting)
    assert order[-1] == "redraw"
    assert turns.redraws_waited == 1 and not turns.busy


async def test_drawing_a_redraw_with_nothing_pressing_draws_at_once() -> None:
    turns = DrawingTurns()
    async with asyncio.timeout(1):
        async with turns.redraw():
            pass
    assert turns.redraws_waited == 0


async def test_drawing_when_idle_sets_the_channels_event_once_offers_are_drawn() -> None:
    turns = DrawingTurns()
    now = asyncio.Event()
    turns.when_idle(now)
    assert now.is_set()  # nothing pressing: at once

    later = asyncio.Event()
    release = asyncio.Event()

    async def offer() -> None:
        async with turns.pressing():
            await release.wait()

    drawing = asyncio.create_task(offer())
    await asyncio.sleep(0)
    turns.when_idle(later)
    assert not later.is_set()
    release.set()
    await drawing
    assert later.is_set()
