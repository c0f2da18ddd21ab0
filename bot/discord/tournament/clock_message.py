"""The tournament message in the lobby channel: the level, the next level's blinds with a live
``<t:...:R>`` countdown, players left, the average stack, the chip leaders and the payouts.

Posted when the tournament starts (its id stored, so a restart edits it again) and edited as it
changes, at most once every ``EDIT_EVERY_SECONDS`` (a busy tournament changes after every hand
at every table; Discord's rate limits do not allow an edit for each)."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.discord.client import FeltBot
from bot.discord.tournament.formatting import late_line
from bot.tables.clock import Scheduler, TimerHandle
from bot.tournament.news import TournamentView
from storage.tournaments import TournamentRow

_log = logging.getLogger("felt.discord.tournament")

EDIT_EVERY_SECONDS = 10.0
ORDINALS = {1: "st", 2: "nd", 3: "rd"}


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``23rd``."""
    suffix = "th" if 10 <= place % 100 <= 20 else ORDINALS.get(place % 10, "th")
    return f"{place}{suffix}"


def tournament_text(view: TournamentView) -> str:
    """The tournament message's text."""
    lines = [f"⏱️ **{view.name}** (#{view.tournament_id})"]
    if view.finished:
        lines.append("The tournament is over.")
    elif view.on_break:
        when = f" — play resumes <t:{int(view.next_change_at)}:R>" if view.next_change_at else ""
        lines.append(f"☕ On a break{when}. Next: level {view.level + 1}, {view.next_blinds}.")
    else:
        lines.append(f"Level {view.level}: **{view.blinds}**")
        if view.next_blinds is not None:
            when = f" <t:{int(view.next_change_at)}:R>" if view.next_change_at else ""
            lines.append(f"Next: {view.next_blinds}{when}")
    if view.late is not None and view.late.open and not view.finished:
        lines.append(late_line(view.late))
    lines.append(
        f"Players left: {view.players_left} of {view.entries} · "
        f"average stack {view.average_stack:,}"
    )
    if view.leaders and not view.finished:
        leaders = " · ".join(
            f"{rank}. {s.name} {s.stack:,} (table {s.table})"
            for rank, s in enumerate(view.leaders, start=1)
        )
        lines.append(f"Chip leaders: {leaders}")
    payouts = " · ".join(
        f"{ordinal(place)} {prize:,}" for place, prize in enumerate(view.prizes, start=1)
    )
    lines.append(f"Payouts: {payouts}")
    return "\n".join(lines)


UNKNOWN_MESSAGE = 10008
"""Discord's error code for a message that does not exist (deleted)."""


class ClockMessage:
    """One tournament's message: posted once, then edited to the latest view.

    Its channel and id are stored (``storage/tournament_messages.py``), so after a restart the
    first view edits the same message at once (the countdown is right from the start); a
    message deleted meanwhile (Discord answers 404 Unknown Message) is posted again and the new
    id stored."""

    def __init__(
        self,
        client: FeltBot,
        row: TournamentRow,
        scheduler: Scheduler,
    ) -> None:
        self._client = client
        self._tournament_id = row.tournament_id
        self._guild_id = row.guild_id
        self._channel_id = row.channel_id
        self._scheduler = scheduler
        self._message_id: int | None = None
        self._looked_up = False
        self._latest: TournamentView | None = None
        self._timer: TimerHandle | None = None
        self._lock = asyncio.Lock()

    @property
    def message_id(self) -> int | None:
        """The message shown now (None before it is first posted)."""
        return self._message_id

    async def show(self, view: TournamentView) -> None:
        """Post the message now the first time (or edit the stored one at once after a
        restart); later, edit within ``EDIT_EVERY_SECONDS``."""
        self._latest = view
        if not self._looked_up or self._message_id is None or view.finished:
            await self._edit()
        elif self._timer is None:
            self._timer = self._scheduler.call_later(EDIT_EVERY_SECONDS, self._edit)

    async def _edit(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        async with self._lock:
            if not self._looked_up:
                stored = (await self._client.storage.tournament_front(self._tournament_id)).clock
                if stored is not None:
                    self._channel_id, self._message_id = stored.channel_id, stored.message_id
                self._looked_up = True
            if self._latest is None:
                return
            text = tournament_text(self._latest)
            if self._message_id is None:
                await self._post(text)
                return
            channel = self._client.get_partial_messageable(
                self._channel_id, guild_id=self._guild_id
            )
            try:
                await channel.get_partial_message(self._message_id).edit(content=text)
            except discord.HTTPException as error:
                if isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE:
                    await self._post(text)  # deleted by someone: show it again
                    return
                _log.warning("could not edit a tournament message", exc_info=True)

    async def _post(self, text: str) -> None:
        channel = self._client.get_partial_messageable(self._channel_id, guild_id=self._guild_id)
        try:
            message = await channel.send(text)
        except discord.HTTPException:
            _log.warning("could not post a tournament message", exc_info=True)
            return
        self._message_id = message.id
        await self._client.storage.set_tournament_clock_message(
            self._tournament_id, self._channel_id, message.id
        )
