"""The tournament message in the lobby channel: the level, the next level's blinds with a live
``<t:...:R>`` countdown, players left, the average stack, the chip leaders and the payouts.

Posted when the tournament starts and edited as it changes, at most once every
``EDIT_EVERY_SECONDS`` (a busy tournament changes after every hand at every table; Discord's
rate limits do not allow an edit for each)."""

from __future__ import annotations

import logging

import discord

from bot.discord.tournament.formatting import late_line
from bot.tables.clock import Scheduler, TimerHandle
from bot.tournament.news import TournamentView

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


class ClockMessage:
    """One tournament's message: posted once, then edited to the latest view."""

    def __init__(
        self, client: discord.Client, guild_id: int, channel_id: int, scheduler: Scheduler
    ) -> None:
        self._channel = client.get_partial_messageable(channel_id, guild_id=guild_id)
        self._scheduler = scheduler
        self._message_id: int | None = None
        self._latest: TournamentView | None = None
        self._timer: TimerHandle | None = None

    async def show(self, view: TournamentView) -> None:
        """Post the message now the first time; later, edit within ``EDIT_EVERY_SECONDS``."""
        self._latest = view
        if self._message_id is None:
            try:
                message = await self._channel.send(tournament_text(view))
            except discord.HTTPException:
                _log.warning("could not post a tournament message", exc_info=True)
                return
            self._message_id = message.id
            return
        if view.finished:
            await self._edit()
        elif self._timer is None:
            self._timer = self._scheduler.call_later(EDIT_EVERY_SECONDS, self._edit)

    async def _edit(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._message_id is None or self._latest is None:
            return
        try:
            await self._channel.get_partial_message(self._message_id).edit(
                content=tournament_text(self._latest)
            )
        except discord.HTTPException:
            _log.warning("could not edit a tournament message", exc_info=True)
