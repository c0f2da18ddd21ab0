"""The lobby of each tournament: when it starts, and keeping its message up to date.

A tournament starts when storage says so and then belongs to the director (the
``TournamentRunner``): the lobby only decides *when*. A Sit & Go without a start time starts
the moment its last seat is taken; one with a start time starts then (or when full, whichever
comes first), filled with house-paid bots if its organiser asked for them. A multi-table
tournament starts at its time. At the start time a field of fewer than 2 entries is cancelled
and everyone is refunded. After a restart, :meth:`Lobby.restore` schedules the start of every
tournament still registering (one whose time passed meanwhile starts at once).

The lobby reads time from the scheduler (``bot/tables/clock.py``), so tests move it by hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from bot.tables.clock import Scheduler, TimerHandle
from bot.tournament.lobby_hooks import TournamentRunner
from engine.bots.personality import NAMES as BOT_NAMES
from storage import Storage
from storage.tournaments import (
    TournamentEntry,
    TournamentFull,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
)

_log = logging.getLogger("felt.discord.tournament")

TOO_FEW = "fewer than 2 entries at the start time"


class LobbyBoard(Protocol):
    """Shows a tournament's lobby (the Discord front posts or edits its message)."""

    async def show(self, row: TournamentRow, entries: Sequence[TournamentEntry]) -> None: ...


def start_key(tournament_id: int) -> str:
    """The start's idempotency key: one start per tournament, whoever triggers it."""
    return f"tournament:{tournament_id}:start"


def bot_names(taken: Sequence[TournamentEntry], seats: int) -> list[str]:
    """Names for the bots that fill ``seats`` empty seats (never one already entered)."""
    used = {entry.bot_name for entry in taken}
    free = [name for name in BOT_NAMES if name not in used]
    names = free[:seats]
    number = 1
    while len(names) < seats:
        candidate = f"Bot {number}"
        if candidate not in used:
            names.append(candidate)
        number += 1
    return names


class Lobby:
    """Starts (or cancels) tournaments when they are due and refreshes their lobby messages."""

    def __init__(
        self,
        storage: Storage,
        scheduler: Scheduler,
        runner: TournamentRunner,
        board: LobbyBoard,
    ) -> None:
        self.storage = storage
        self.scheduler = scheduler
        self.runner = runner
        self.board = board
        self._timers: dict[int, TimerHandle] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.scheduler.now(), UTC)

    async def restore(self, guild_id: int | None = None) -> int:
        """Schedule the start of every tournament still registering; how many."""
        rows = await self.storage.list_tournaments(guild_id, (TournamentStatus.REGISTERING,))
        for row in rows:
            self.schedule(row)
        return len(rows)

    def schedule(self, row: TournamentRow) -> None:
        """Run :meth:`start_if_due` at the tournament's start time (if it has one)."""
        if row.starts_at is None or row.status is not TournamentStatus.REGISTERING:
            return
        previous = self._timers.pop(row.tournament_id, None)
        if previous is not None:
            previous.cancel()
        delay = max(0.0, (row.starts_at - self.now()).total_seconds())
        tournament_id = row.tournament_id

        async def due() -> None:
            self._timers.pop(tournament_id, None)
            await self.start_if_due(tournament_id)

        self._timers[tournament_id] = self.scheduler.call_later(delay, due)

    def stop(self) -> None:
        """Call off every pending start (the cog unloads; a restart reschedules them)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def refresh(self, tournament_id: int) -> TournamentRow | None:
        """Show the tournament's lobby as it stands now."""
        row = await self.storage.get_tournament(tournament_id)
        if row is not None:
            entries = await self.storage.tournament_entries(tournament_id)
            await self.board.show(row, entries)
        return row

    async def changed(self, tournament_id: int) -> None:
        """After a registration or unregistration: refresh, and start a full Sit & Go."""
        row = await self.refresh(tournament_id)
        if (
            row is not None
            and row.status is TournamentStatus.REGISTERING
            and row.kind is TournamentKind.SIT_AND_GO
            and row.entries >= row.max_entries
        ):
            await self._begin(row, fill=False)

    async def start_if_due(self, tournament_id: int) -> None:
        """At the start time: start with the field as it is (bots filling a Sit & Go that
        asked for them), or cancel and refund a field of fewer than 2."""
        row = await self.storage.get_tournament(tournament_id)
        if row is None or row.status is not TournamentStatus.REGISTERING:
            return
        if row.starts_at is not None and row.starts_at > self.now():
            self.schedule(row)  # moved (or fired early): wait for the real time
            return
        await self._begin(row, fill=row.bots_fill)

    async def _begin(self, row: TournamentRow, *, fill: bool) -> None:
        lock = self._locks.setdefault(row.tournament_id, asyncio.Lock())
        async with lock:
            current = await self.storage.get_tournament(row.tournament_id)
            if current is None or current.status is not TournamentStatus.REGISTERING:
                return
            entries = await self.storage.tournament_entries(row.tournament_id)
            bots = bot_names(entries, current.max_entries - current.entries) if fill else []
            if current.entries + len(bots) < 2:
                await self.storage.cancel_tournament(
                    current.tournament_id,
                    reason=TOO_FEW,
                    key=f"tournament:{current.tournament_id}:cancel:too-few",
                )
                await self.refresh(current.tournament_id)
                return
            try:
                await self.storage.start_tournament(
                    current.tournament_id, bots=bots, key=start_key(current.tournament_id)
                )
            except TournamentFull:
                # A member registered between the count and the start: the seats the bots
                # were to fill are fewer now. Start again with the field as it is.
                if not fill:
                    raise
                self._locks.pop(current.tournament_id, None)
                return await self._begin(current, fill=fill)
            timer = self._timers.pop(current.tournament_id, None)
            if timer is not None:
                timer.cancel()
            await self.refresh(current.tournament_id)
            try:
                await self.runner.start(current.tournament_id)
            except Exception:
                # The tournament is running in storage: a restart resumes it through the
                # director's own recovery. The lobby has nothing to undo.
                _log.exception(
                    "the tournament director failed to start a tournament",
                    extra={"tournament_id": current.tournament_id},
                )
