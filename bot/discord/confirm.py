"""Asking "are you sure?" with Confirm and Cancel buttons before a destructive command runs.

Only the member who asked can answer; Cancel, the timeout, or a restart in between change
nothing. The buttons are ``DynamicItem``s (their custom_id carries a random token), so a click
after a restart is still answered (with "this question is closed") instead of failing; what to
run on Confirm is kept in memory on the bot (``bot.confirmations``), never in the custom_id.

    async def set_balance(self, interaction, member, amount):
        async def apply(click: discord.Interaction) -> str:
            change = await storage.admin_set(..., key=str(interaction.id))
            return f"Done: {member.mention} now has {change.balance:,} chips."

        await interaction.client.confirmations.ask(interaction, "Set ...?", apply)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import discord

from bot.discord.errors import Refusal
from bot.discord.replies import Interaction, acknowledge
from bot.discord.tree import route_errors

_log = logging.getLogger("felt.discord.confirm")

CONFIRM_TIMEOUT_SECONDS = 60.0
CUSTOM_ID_PREFIX = "felt:confirm"
CANCELLED = "Cancelled: nothing was changed."
TIMED_OUT = "Timed out: nothing was changed. Run the command again if you still want this."
CLOSED = (
    "This question is closed (it was answered, timed out, or Felt restarted): nothing was "
    "changed. Run the command again if you still want this."
)

ConfirmedAction = Callable[[Interaction], Awaitable[str]]
"""Runs on Confirm with the button's (already acknowledged) interaction; returns the text that
replaces the question."""


@dataclass(slots=True)
class PendingConfirmation:
    """A question waiting for its answer."""

    token: str
    owner_id: int
    prompt: str
    action: ConfirmedAction
    expires_at: float
    asked: Interaction
    """The command's interaction: its token edits the question when it times out."""
    timer: asyncio.TimerHandle | None = None


class Confirmations:
    """The open questions of one bot, by token."""

    def __init__(
        self, clock: Callable[[], float], *, timeout: float = CONFIRM_TIMEOUT_SECONDS
    ) -> None:
        self._clock = clock
        self.timeout = timeout
        self._pending: dict[str, PendingConfirmation] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._pending)

    async def ask(
        self,
        interaction: Interaction,
        prompt: str,
        action: ConfirmedAction,
        *,
        confirm_label: str = "Confirm",
    ) -> None:
        """Show ``prompt`` with Confirm and Cancel to the member who used ``interaction``.

        The question is ephemeral: ``interaction`` must be unanswered or deferred ephemerally.
        """
        token = secrets.token_hex(8)
        pending = PendingConfirmation(
            token=token,
            owner_id=interaction.user.id,
            prompt=prompt,
            action=action,
            expires_at=self._clock() + self.timeout,
            asked=interaction,
        )
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton(token, confirm=True, label=confirm_label))
        view.add_item(ConfirmButton(token, confirm=False, label="Cancel"))
        self._pending[token] = pending
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=prompt, view=view)
            else:
                await interaction.response.send_message(prompt, view=view, ephemeral=True)
        except BaseException:
            self._pending.pop(token, None)
            raise
        pending.timer = asyncio.get_running_loop().call_later(self.timeout, self._time_out, token)

    def get(self, token: str) -> PendingConfirmation | None:
        return self._pending.get(token)

    def take(self, token: str) -> PendingConfirmation | None:
        """Remove the question so it cannot be answered twice."""
        pending = self._pending.pop(token, None)
        if pending is not None and pending.timer is not None:
            pending.timer.cancel()
        return pending

    def expired(self, pending: PendingConfirmation) -> bool:
        return self._clock() >= pending.expires_at

    def close(self) -> None:
        """Forget every question (the bot is closing): their buttons will answer CLOSED."""
        for pending in self._pending.values():
            if pending.timer is not None:
                pending.timer.cancel()
        self._pending.clear()
        for task in self._tasks:
            task.cancel()

    def _time_out(self, token: str) -> None:
        pending = self.take(token)
        if pending is None:
            return
        task = asyncio.get_running_loop().create_task(_show_timed_out(pending))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _show_timed_out(pending: PendingConfirmation) -> None:
    with contextlib.suppress(discord.HTTPException):
        await pending.asked.edit_original_response(
            content=f"{pending.prompt}\n\n{TIMED_OUT}", view=None
        )


@runtime_checkable
class ConfirmingClient(Protocol):
    """What a Confirm or Cancel click needs of the client (``FeltBot`` is one)."""

    confirmations: Confirmations


def confirmations_of(client: discord.Client) -> Confirmations | None:
    return client.confirmations if isinstance(client, ConfirmingClient) else None


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=re.escape(CUSTOM_ID_PREFIX) + r":(?P<token>[0-9a-f]{16}):(?P<choice>yes|no)",
):
    """Confirm or Cancel on a question; the custom_id carries only the token and the choice."""

    def __init__(self, token: str, *, confirm: bool, label: str) -> None:
        choice = "yes" if confirm else "no"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"{CUSTOM_ID_PREFIX}:{token}:{choice}",
            )
        )
        self.token = token
        self.confirm = confirm

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ConfirmButton:
        return cls(
            match["token"],
            confirm=match["choice"] == "yes",
            label=getattr(item, "label", None) or "",
        )

    async def callback(self, interaction: Interaction) -> None:
        async with route_errors(interaction, "confirmation button"):
            await self._answer(interaction)

    async def _answer(self, interaction: Interaction) -> None:
        book = confirmations_of(interaction.client)
        pending = book.get(self.token) if book is not None else None
        if book is None or pending is None:
            raise Refusal(CLOSED)
        if interaction.user.id != pending.owner_id:
            raise Refusal(f"Only <@{pending.owner_id}> can answer this question.")
        book.take(self.token)
        if book.expired(pending):
            await interaction.response.edit_message(
                content=f"{pending.prompt}\n\n{TIMED_OUT}", view=None
            )
            return
        if not self.confirm:
            await interaction.response.edit_message(
                content=f"{pending.prompt}\n\n{CANCELLED}", view=None
            )
            return
        # The action may wait on the database: acknowledge first, edit the question after.
        await acknowledge(interaction)
        try:
            outcome = await pending.action(interaction)
        except Exception:
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    content=f"{pending.prompt}\n\nNothing was changed.", view=None
                )
            raise
        await interaction.edit_original_response(content=outcome, view=None)
