"""What a busy bot makes by the thousand is freed by reference counting, not left in cycles.

``felt run`` freezes what survives a full garbage collection (``bot/discord/collector``), so a
reference cycle that lived through one waits for the hourly thaw once it is garbage. These are
the objects made for every timer, every table message edit and every click.
"""

from __future__ import annotations

import asyncio
import gc
import io
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord.attachments import attachment
from bot.discord.holdem.components import build_view
from bot.discord.holdem.ids import cards_id
from bot.discord.interaction_edits import Couriers, detached, release
from bot.discord.table_components import ButtonSpec, let_go
from bot.tables.clock import AsyncioScheduler
from engine.blackjack.analysis import dealer_outcomes, full_shoe


@pytest.fixture
def no_cyclic_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def test_an_asyncio_timer_is_freed_once_it_fired_or_was_cancelled(
    no_cyclic_collector: None,
) -> None:
    scheduler = AsyncioScheduler()
    ran = asyncio.Event()

    async def callback() -> None:
        ran.set()

    timer = scheduler.call_later(0.0, callback)
    fired = weakref.ref(timer)
    del timer
    await ran.wait()
    await scheduler.drain()
    assert fired() is None

    later = scheduler.call_later(60.0, callback)
    called_off = weakref.ref(later)
    later.cancel()
    del later
    assert called_off() is None


def _interaction(token: str) -> discord.Interaction[Any]:
    """An interaction as discord.py leaves it after a click was answered: its ``response``
    cached, and pointing back at it."""
    interaction: discord.Interaction[Any] = discord.Interaction.__new__(discord.Interaction)
    interaction.token = token
    interaction.application_id = 5
    interaction.id = 77
    interaction.message = None
    interaction._cs_response = discord.InteractionResponse(interaction)  # type: ignore[attr-defined]
    return interaction


def _reachable(start: object) -> list[int]:
    """The ids of every object reachable from ``start``."""
    seen: dict[int, object] = {}
    todo = [start]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen[id(item)] = item
        todo.extend(gc.get_referents(item))
    return list(seen)


def test_a_courier_keeps_a_copy_of_the_click_without_its_answer_or_the_original() -> None:
    clicked = _interaction("token-1")
    clicked._original_response = discord.InteractionMessage.__new__(discord.InteractionMessage)
    clicked._original_response._state = clicked  # type: ignore[assignment]  # as discord.py's does
    kept = detached(clicked)
    assert kept is not clicked and kept.token == "token-1" and kept.application_id == 5
    reachable = _reachable(kept)
    assert id(clicked) not in reachable
    assert id(clicked._cs_response) not in reachable  # type: ignore[attr-defined]

    couriers = Couriers(clock=lambda: 0.0)
    couriers.take(clicked, message_id=9)
    courier = couriers.live(9)
    assert courier is not None and courier.interaction.token == "token-1"
    assert id(clicked) not in _reachable(courier)


def test_a_table_view_is_sent_but_not_kept_by_discord_py() -> None:
    spec = ButtonSpec(cards_id(12), "My cards", discord.ButtonStyle.secondary, 0)
    view = build_view([spec])
    assert view is not None and len(view.children) == 1
    # discord.py keeps (``store_view``) only a view that says it dispatches: this one's clicks
    # reach its buttons through the dynamic items the cog registered.
    assert view.is_dispatchable() is False
    assert view.children[0].is_dispatchable() is True


def test_a_released_click_keeps_its_answer_but_the_answer_no_longer_holds_the_click() -> None:
    clicked = _interaction("token-2")
    answer = clicked._cs_response  # type: ignore[attr-defined]
    answer._response_type = discord.InteractionResponseType.deferred_message_update
    assert id(clicked) in _reachable(answer)  # discord.py's cycle
    clicked._original_response = discord.utils.MISSING
    release(clicked)
    assert clicked._original_response is None  # fetched again if asked (its state held it)
    assert clicked.response is answer and answer.is_done()
    assert id(clicked) not in _reachable(answer)
    assert answer._parent.token == "token-2"  # it can still answer and follow up
    release(_interaction("token-3"))  # a click never answered: nothing to do, no error


def test_a_view_let_go_and_its_buttons_no_longer_hold_each_other() -> None:
    view = build_view([ButtonSpec(cards_id(12), "My cards", discord.ButtonStyle.secondary, 0)])
    assert view is not None
    button = view.children[0]
    let_go(view)
    assert view.children == [] and button.view is None
    let_go(None)
    let_go(discord.utils.MISSING)  # what a request without buttons carries


def test_an_attachment_sent_and_closed_holds_no_cycle_and_still_closes() -> None:
    plain = discord.File(io.BytesIO(b"\x89PNG..."), filename="table.png")
    plain.close()  # as discord.py does after a request: the bytes' own close goes back on them
    assert id(plain.fp) in _reachable(vars(plain.fp)["close"])  # the cycle a plain file makes

    picture = attachment(b"\x89PNG...", filename="table.png", description="the table")
    assert picture.filename == "table.png" and picture.description == "the table"
    assert picture.fp.read() == b"\x89PNG..."
    picture.close()
    assert "close" not in vars(picture.fp)
    picture.fp.close()  # still closes as a file does
    assert picture.fp.closed


def test_every_attached_file_is_made_by_attachment() -> None:
    """A ``discord.File`` made anywhere else would bring the cycle back."""
    root = Path(__file__).resolve().parents[2] / "bot"
    makers = sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "discord.File(" in path.read_text()
    )
    assert makers == ["discord/attachments.py"]


def test_the_dealers_odds_leave_no_cycle_holding_their_memo() -> None:
    """``dealer_outcomes`` recurses through the shoe; a closure calling itself would keep
    ``memo`` (thousands of tuples) in a cycle after it returned. Blackjack tables work out
    these odds for their basic-strategy charts and trainers."""
    memo: dict[tuple[int, ...], tuple[float, ...]] = {}
    outcomes = dealer_outcomes(full_shoe(1), 6, h17=False, no_blackjack=False, memo=memo)
    assert len(outcomes) == 7 and abs(sum(outcomes) - 1.0) < 1e-9
    assert len(memo) > 50
    assert sys.getrefcount(memo) == 2  # this test's name for it, and getrefcount's argument
