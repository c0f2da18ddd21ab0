"""The picture a table message's next request carries: drawn off the event loop, once per view."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Executor
from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.table_edits import Message
from bot.discord.table_look import P, TableLook, TablePayload, render_off_loop


async def draw_ahead(
    found: Message[Any],
    payload: TablePayload[Any] | None,
    look: TableLook,
    executor: Executor | None,
) -> None:
    """Draw the picture ``found``'s next request (showing ``payload``) will carry, if it needs a
    new one: before the bot-wide wait, so a granted request goes out at once."""
    if payload is None or (found.sent is not None and payload.view == found.sent.view):
        return
    if found.picture is None or found.picture[0] != payload.view:
        image = await render_off_loop(executor, look.render, payload.view)
        found.picture = (payload.view, image)


async def picture_file(
    found: Message[Any], payload: TablePayload[Any], look: TableLook, executor: Executor | None
) -> discord.File | None:
    """The picture of ``payload`` as a file to send (drawn now unless it already was)."""
    if found.picture is None or found.picture[0] != payload.view:
        image = await render_off_loop(executor, look.render, payload.view)
    else:
        image = found.picture[1]
    found.picture = None
    if image is None:
        return None
    return attachment(image, filename=look.image_name, description=payload.alt_text)


async def edit_picture(
    found: Message[Any],
    payload: P,
    previous: P | None,
    look: TableLook,
    executor: Executor | None,
    congested: bool,
) -> tuple[discord.File | None, P | None]:
    """The picture an edit of ``found`` from ``previous`` to ``payload`` carries (None: it keeps
    the one it has), and what the message then shows (None: nothing new, no edit). While the
    painters are ``congested`` a picture not drawn yet is left for a redraw (``drawing``): the
    buttons and the text go now with the picture the message has."""
    if previous is not None and payload.view == previous.view:
        return None, payload
    drawn = found.picture is not None and found.picture[0] == payload.view
    if drawn or previous is None or not congested:
        return await picture_file(found, payload, look, executor), payload
    found.picture = None  # drawn for a state gone by: its redraw draws the state then
    shown = dataclasses.replace(payload, view=previous.view)
    return None, (None if shown == previous else shown)
