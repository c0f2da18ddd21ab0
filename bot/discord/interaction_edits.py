"""Table-message edits through a member's click: that interaction's token edits the message.

A click on a table message's button is acknowledged with a deferred update; for 15 minutes
after, ``PATCH /webhooks/{app}/{token}/messages/@original`` edits the message the button was
on. Discord documents interaction endpoints as "not bound to the bot's Global Rate Limit", and
the webhook route has its own bucket per token (about 5 edits per 2 s), not the channel's 5
edits per 5 s. So once a member has clicked on a table message, its edits (the next turn offer,
a result) cost neither the bot-wide 50 requests/s shared by a thousand tables nor the channel's
edits: a table of members plays at its own pace. Until then (a table's first turns, a new table
message) edits go through the channel, paced as before.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.pacing import ChannelBudget

INTERACTION_TOKEN_SECONDS = 15 * 60.0
"""How long Discord honours an interaction's token for followups and edits."""
TOKEN_MARGIN_SECONDS = 60.0
"""Stop using a token this long before it expires (its click reached us a little after Discord
created it, and an edit may wait a while for its bucket)."""
TOKEN_EDIT_LIMIT = 5
TOKEN_EDIT_WINDOW_SECONDS = 2.0
"""Discord's commonly observed bucket for interaction-webhook edits: 5 per 2 s per token."""


@dataclass(slots=True)
class Courier:
    """A deferred click on table message ``message_id``: edits of that message can go through
    its token until ``expires_at`` (clock time), within its own ``budget``."""

    interaction: discord.Interaction[Any]
    message_id: int
    expires_at: float
    budget: ChannelBudget

    async def edit(self, **fields: Any) -> None:
        """Edit the message the click was on (``edit_original_response``'s fields)."""
        await self.interaction.edit_original_response(**fields)


def detached(interaction: discord.Interaction[Any]) -> discord.Interaction[Any]:
    """A copy of ``interaction`` that can edit its message, without its ``response``.

    discord.py caches an interaction's ``InteractionResponse``, which points back at the
    interaction: a reference cycle, and with it the clicked message and its components. A
    courier keeps its click for up to 15 minutes, so the cycle would live through a full garbage
    collection, be frozen there (``collector.short_pauses``) and wait for the hourly thaw once
    the courier let go: about a kilobyte for every click. The copy shares the original's parts
    but not its cycle, so reference counting frees both: the original when its handler is done,
    the copy with its courier. An edit through the copy needs only the token and the state.
    """
    kept = copy.copy(interaction)
    with contextlib.suppress(AttributeError):
        delattr(kept, "_cs_response")  # asked again, it would be a fresh answer, not this one's
    # ``original_response()`` keeps the message it fetched, whose state points back at the
    # original interaction: asked again, the copy fetches it again.
    kept._original_response = None
    return kept


def release(interaction: discord.Interaction[Any]) -> None:
    """End the reference cycle between ``interaction`` and its cached ``response``, once its
    handler is done (``TableButton.callback``, ``FeltCommandTree``).

    The response stays, with what it knows (``is_done``), but now points at a ``detached`` copy,
    so reference counting frees the interaction, its message and its components as soon as
    nothing else holds them. Otherwise a click under way during a full garbage collection
    would be frozen there (``collector.short_pauses``) and wait for the hourly thaw. A task
    still holding the interaction can go on using it and its response as before.
    """
    interaction._original_response = None  # as in ``detached``: it points back at the interaction
    response = getattr(interaction, "_cs_response", None)
    if response is not None:
        response._parent = detached(interaction)


class Couriers:
    """The freshest usable click for each of a channel's table messages."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._by_message: dict[int, Courier] = {}

    def take(self, interaction: discord.Interaction[Any], message_id: int) -> None:
        """Keep ``interaction`` (acknowledged with a deferred update of ``message_id``) as the
        way to edit that message (a copy without its answer: ``detached``)."""
        now = self._clock()
        for old in [m for m, courier in self._by_message.items() if courier.expires_at <= now]:
            del self._by_message[old]  # an old table message's clicks, past their time
        expires_at = now + INTERACTION_TOKEN_SECONDS - TOKEN_MARGIN_SECONDS
        budget = ChannelBudget(TOKEN_EDIT_LIMIT, TOKEN_EDIT_WINDOW_SECONDS, self._clock)
        courier = Courier(detached(interaction), message_id, expires_at, budget)
        self._by_message[message_id] = courier

    def live(self, message_id: int | None) -> Courier | None:
        """The click that can edit ``message_id`` now, if any (expired ones are forgotten)."""
        if message_id is None:
            return None
        courier = self._by_message.get(message_id)
        if courier is not None and courier.expires_at <= self._clock():
            del self._by_message[message_id]
            return None
        return courier

    def drop(self, message_id: int) -> None:
        """Stop using clicks on ``message_id`` (an edit through one failed, or it is gone)."""
        self._by_message.pop(message_id, None)

    def __len__(self) -> int:
        return len(self._by_message)
