"""What a game's table message is to its table channel: a payload, and how it is drawn.

Both games' table messages are a ``TablePayload`` (each game's ``formatting`` fills one in); the
channel compares them to skip edits and builds its requests from them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

from bot.discord.table_components import ButtonSpec, let_go

_log = logging.getLogger("felt.discord.channel")


TABLE_COLOUR = 0x1F7A45
"""The felt green of both games' table messages."""

V = TypeVar("V")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TablePayload(Generic[V]):
    """Everything on a table message; two equal payloads need no edit. ``view`` is what the
    game's renderer draws, attached as ``image_name``."""

    content: str
    title: str
    description: str
    footer: str
    view: V
    buttons: tuple[ButtonSpec, ...]
    alt_text: str
    image_name: str
    news: str = ""
    """What this state tells that must not wait behind other tables' redraws (a hand's
    result): an edit that changes it goes first (``table_edits.pressing``)."""

    def embed(self) -> discord.Embed:
        embed = discord.Embed(title=self.title, description=self.description, colour=TABLE_COLOUR)
        embed.set_image(url=f"attachment://{self.image_name}")
        embed.set_footer(text=self.footer)
        return embed


P = TypeVar("P", bound=TablePayload[Any])


@dataclass(frozen=True, slots=True)
class TableLook:
    """How a game's table messages are drawn and given buttons."""

    render: Callable[[Any], bytes]
    """The picture of a payload's ``view`` (PNG bytes; runs in a worker thread)."""
    image_name: str
    build_view: Callable[[list[Any]], discord.ui.View | None]

    def fields(self, payload: TablePayload[Any], *, pictured: bool = True) -> dict[str, Any]:
        """The fields of a request that posts or edits a table message to show ``payload``
        (its picture's file apart: ``pictured`` says whether it has one). ``view`` is None
        when it has no buttons."""
        embed = payload.embed()
        if not pictured:
            embed.set_image(url=None)
        return {
            "content": payload.content or None,
            "embed": embed,
            "view": self.build_view(list(payload.buttons)),
            "allowed_mentions": discord.AllowedMentions.none(),
        }


async def sending(request: Awaitable[T], fields: dict[str, Any]) -> T:
    """The answer to ``request``, which sends ``fields``; its view is let go afterwards,
    answered or not (``table_components.let_go``)."""
    try:
        return await request
    finally:
        let_go(fields.get("view"))


def without_buttons(payload: P) -> P:
    """``payload`` as an old table message shows it: no buttons, no turn line."""
    return dataclasses.replace(payload, content="", buttons=())


def with_content(payload: P, content: str) -> P:
    return dataclasses.replace(payload, content=content)


async def render_off_loop(
    executor: Executor | None, render: Callable[[Any], bytes], argument: Any
) -> bytes | None:
    """``render(argument)`` in a worker thread; None (and a log line) if it failed."""
    try:
        return await asyncio.get_running_loop().run_in_executor(executor, render, argument)
    except Exception:
        _log.exception("rendering failed; sending text only")
        return None
