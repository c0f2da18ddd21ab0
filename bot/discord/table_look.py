"""What a game's table message is to its table channel: a payload, and how it is drawn.

Both games' payloads (``TablePayload`` of each game's ``formatting``) are frozen dataclasses with
these fields; the channel compares them to skip edits and builds its requests from them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

import discord

_log = logging.getLogger("felt.discord.channel")


class TablePayload(Protocol):
    """What a game's table message shows; two equal payloads need no edit."""

    @property
    def content(self) -> str: ...
    @property
    def buttons(self) -> tuple[Any, ...]: ...
    @property
    def view(self) -> Any: ...
    @property
    def alt_text(self) -> str: ...
    def embed(self) -> discord.Embed: ...


P = TypeVar("P", bound=TablePayload)


@dataclass(frozen=True, slots=True)
class TableLook:
    """How a game's table messages are drawn and given buttons."""

    render: Callable[[Any], bytes]
    """The picture of a payload's ``view`` (PNG bytes; runs in a worker thread)."""
    image_name: str
    build_view: Callable[[list[Any]], discord.ui.View | None]


def without_buttons(payload: P) -> P:
    """``payload`` as an old table message shows it: no buttons, no turn line."""
    return cast(P, dataclasses.replace(cast(Any, payload), content="", buttons=()))


def with_content(payload: P, content: str) -> P:
    return cast(P, dataclasses.replace(cast(Any, payload), content=content))


async def render_off_loop(
    executor: Executor | None, render: Callable[[Any], bytes], argument: Any
) -> bytes | None:
    """``render(argument)`` in a worker thread; None (and a log line) if it failed."""
    try:
        return await asyncio.get_running_loop().run_in_executor(executor, render, argument)
    except Exception:
        _log.exception("rendering failed; sending text only")
        return None
