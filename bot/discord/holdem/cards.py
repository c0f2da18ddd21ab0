"""``My cards`` and ``/holdem cards``: a member's hole cards, for their eyes only, with the private
panel of pre-actions and Away / Back (``bot.discord.holdem.preactions``)."""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import Executor
from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.holdem import formatting
from bot.discord.holdem.preactions import panel_text, panel_view
from bot.discord.holdem.presenter import TablePresenter
from bot.discord.table_look import render_off_loop
from bot.holdem.errors import NotSeatedError
from bot.holdem.host import HoldemTable
from bot.render import render_cards
from engine.cards import Card

CARDS_RENDER_SECONDS = 60.0
"""How long the cards' picture may take to draw before the answer stays text only."""


async def send_hole_cards(
    interaction: discord.Interaction[Any],
    table: HoldemTable,
    presenter: TablePresenter | None,
    executor: Executor | None,
) -> None:
    """Answer ``interaction`` privately with the member's cards in the hand in progress."""
    user_id = interaction.user.id
    if table.is_waiting(user_id):
        raise NotSeatedError("You are waiting for a seat: your cards come with your first hand.")
    if table.seat_of(user_id) is None:
        raise NotSeatedError("Only players seated at this table have cards here.")
    found = table.hole_cards(user_id)
    panel = panel_view(table, user_id) or discord.utils.MISSING
    if found is None:
        not_in = "You are not in this hand: your cards come with the next one."
        await interaction.response.send_message(
            f"{not_in}\n{panel_text(table, user_id)}", view=panel, ephemeral=True
        )
        return
    hand_id, cards = found
    image = presenter.hole_image(user_id, hand_id) if presenter is not None else None
    await interaction.response.send_message(
        f"Hand #{hand_id}: your cards are **{formatting.hole_cards_text(cards)}**\n"
        + panel_text(table, user_id),
        file=_cards_file(image) if image is not None else discord.utils.MISSING,
        view=panel,
        ephemeral=True,
    )
    if image is None:
        await _attach_picture(interaction, cards, presenter, user_id, hand_id, executor)


async def _attach_picture(
    interaction: discord.Interaction[Any],
    cards: tuple[Card, ...],
    presenter: TablePresenter | None,
    user_id: int,
    hand_id: int,
    executor: Executor | None,
) -> None:
    """Draw the cards' picture and add it to the answer already sent (through the interaction's
    token: no part of the bot's global limit). The answer went out first because the drawing
    threads may be busy with a thousand tables, and a click must be answered at once."""
    image = None
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(CARDS_RENDER_SECONDS):
            image = await render_off_loop(executor, render_cards, cards)  # None if it failed
    if image is None:
        return  # the text says the cards; the picture is a nicety
    if presenter is not None:
        presenter.remember_hole_image(user_id, hand_id, image)
    with contextlib.suppress(discord.HTTPException):  # dismissed, or the token expired
        await interaction.edit_original_response(attachments=[_cards_file(image)])


def _cards_file(image: bytes) -> discord.File:
    return attachment(image, filename=formatting.CARDS_IMAGE_NAME, description="Your hole cards")
