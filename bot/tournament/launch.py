"""Starting and resuming tournament directors from storage: the lobby's ``TournamentRunner``.

``TournamentDirectors.start`` takes a tournament the lobby started (its field frozen in
storage, bots filling a Sit & Go seated and paid by the house), registers every entry with the
engine in registration order, draws the seats (seeded by the tournament's id) and opens the
tables. ``resume_all`` rebuilds every running tournament after a restart
from its saved state: the hand that was in play at each table is voided (the state was saved
before it started), and the level clock runs on wall time, so it goes on where it is now.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from bot.holdem.seating import BotFactory
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import Scheduler
from bot.tournament import late
from bot.tournament.bust_rebuys import REBUY_WINDOW_SECONDS
from bot.tournament.director import TournamentDirector, TournamentFront
from bot.tournament.memory import Memory, player_key
from engine.tournament.structure import Format, parse_structure
from engine.tournament.tournament import Tournament, TournamentConfig
from storage import Storage
from storage.tournaments import LoadedTournament, TournamentEntry, TournamentKind, TournamentRow

_log = logging.getLogger("felt.tournament")

FrontFactory = Callable[[TournamentRow], TournamentFront]
"""The front for one tournament (its threads, its tournament message)."""

NameOf = Callable[[int, int], str]
"""A member's display name from (guild id, user id)."""


def config_of(row: TournamentRow) -> TournamentConfig:
    """The engine's configuration of a stored tournament. The fee is paid on top of each
    buy-in and kept by the house, so the engine's pool is the buy-ins alone (no fee percent);
    the seed is the tournament's id, so its draws are reproducible."""
    kind = Format.SIT_AND_GO if row.kind is TournamentKind.SIT_AND_GO else Format.MULTI_TABLE
    return TournamentConfig(
        name=row.name,
        structure=parse_structure(row.structure),
        buy_in=row.buy_in,
        format=kind,
        seats_per_table=row.seats_per_table,
        max_entries=row.max_entries,
        seed=row.tournament_id,
    )


class TournamentDirectors:
    """Every running tournament of this process; implements ``TournamentRunner``."""

    def __init__(
        self,
        *,
        storage: Storage,
        scheduler: Scheduler,
        fronts: FrontFactory,
        bots: BotFactory,
        names: NameOf,
        settings: HoldemSettings | None = None,
        rebuy_window: float = REBUY_WINDOW_SECONDS,
    ) -> None:
        self.storage = storage
        self.running: dict[int, TournamentDirector] = {}
        self._claimed: set[int] = set()
        """Tournaments this process runs or is opening: claimed before any await, so a start
        and the resume at startup never open one twice."""
        self._scheduler = scheduler
        self._fronts = fronts
        self._bots = bots
        self._names = names
        self._settings = settings or HoldemSettings(bots=0, between_hands_seconds=3.0)
        self._rebuy_window = rebuy_window

    async def start(self, tournament_id: int) -> None:
        """Run a tournament the lobby has just started in storage (``Storage.start_tournament``
        froze the field and seated its bots): the draw and the first hands come from a timer,
        so this returns at once."""

        if tournament_id in self._claimed:
            return
        self._claimed.add(tournament_id)

        async def run() -> None:
            try:
                await self._resume(await self.storage.load_tournament(tournament_id))
            except Exception:
                _log.exception("tournament %s could not start; a restart resumes it", tournament_id)

        self._scheduler.call_later(0.0, run)

    async def resume_all(self) -> list[int]:
        """Resume every running tournament of this process's guilds; their ids."""
        resumed: list[int] = []
        for loaded in await self.storage.running_tournaments():
            if loaded.tournament.tournament_id in self._claimed:
                continue
            self._claimed.add(loaded.tournament.tournament_id)
            try:
                await self._resume(loaded)
            except Exception:
                _log.exception("tournament %s could not resume", loaded.tournament.tournament_id)
                continue
            resumed.append(loaded.tournament.tournament_id)
        return resumed

    async def _resume(self, loaded: LoadedTournament) -> None:
        row, state = loaded.tournament, loaded.state
        caught: list[late.LateEntry] = []
        if state is None:  # stopped between freezing the field and the first save: draw again
            engine, memory = self._fresh(row, loaded.entries)
            engine.start(self._scheduler.now())
        else:
            engine = Tournament.from_dict(state["engine"])
            memory = Memory.from_dict(state["director"])
            # A late entry paid for just before a crash, the save not made: seat it now.
            caught = late.catch_up(engine, memory, loaded.entries, lambda e: self._name(row, e))
        front = self._fronts(row)
        await self._run(row, engine, memory, front, version=loaded.state_version)
        for news in caught:  # their seat-ready mention, as if the crash had not happened
            try:
                await front.publish(news)
            except Exception:
                _log.exception("could not announce a late entry seated after a restart")

    def _fresh(
        self, row: TournamentRow, entries: Sequence[TournamentEntry]
    ) -> tuple[Tournament, Memory]:
        engine = Tournament(config_of(row))
        names: dict[str, str] = {}
        for entry in entries:
            player = player_key(entry.user_id, entry.bot_name)
            engine.register(player)
            names[player] = self._name(row, entry)
        return engine, Memory(names)

    def _name(self, row: TournamentRow, entry: TournamentEntry) -> str:
        if entry.user_id is not None:
            return self._names(row.guild_id, entry.user_id)
        return entry.bot_name or player_key(None, entry.bot_name)

    async def _run(
        self,
        row: TournamentRow,
        engine: Tournament,
        memory: Memory,
        front: TournamentFront,
        *,
        version: int,
    ) -> None:
        director = TournamentDirector(
            storage=self.storage,
            tournament_id=row.tournament_id,
            guild_id=row.guild_id,
            engine=engine,
            memory=memory,
            version=version,
            scheduler=self._scheduler,
            front=front,
            bots=self._bots,
            settings=self._settings.with_changes(seats=row.seats_per_table),
            rebuy_window=self._rebuy_window,
        )
        self.running[row.tournament_id] = director
        await director.open()

    async def suspend_all(self, reason: str = "Felt is restarting") -> None:
        """Void every table's hand in play for a shutdown (the saved state has its start)."""
        for director in list(self.running.values()):
            for table in list(director.tables.values()):
                await table.suspend(reason)
