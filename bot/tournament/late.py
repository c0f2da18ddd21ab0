"""Late registration and re-entry in a running tournament: who may enter now (each refusal one
sentence), the entry's idempotency key, where the engine seated it, when registration closes
by the level clock, and catching up entries paid for before a restart.

The director's ``enter_late`` is the one path (``/tournament register``, the lobby's Register
button, ``/tournament buy reentry``): under its lock it advances the clock, asks
:func:`refusal`, moves the buy-in into the pool (``Storage.enter_tournament_late``, keyed by
:func:`entry_key`), registers the entry with the engine (``Tournament.register`` seats it with
``seat_late``: the table with the fewest players), saves, brings idle tables in line and tells
the front (:class:`LateEntry`). A crash between the payment and the save loses nothing: the
resumed director registers what storage has and the engine lacks (:func:`catch_up`); a
payment retried for the same entry replays its key, so it is paid once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.tournament.errors import TournamentRefusal
from bot.tournament.memory import Memory, player_key, user_of
from engine.errors import EngineError
from engine.tournament.events import PlayerRegistered, TournamentEvent
from engine.tournament.structure import Break, Level, Structure
from engine.tournament.tournament import Phase, Tournament
from storage import Storage
from storage.tournaments import TournamentEntry

_log = logging.getLogger("felt.tournament")


@dataclass(frozen=True, slots=True)
class LateRegistration:
    """Whether a tournament still takes entries, to the end of which level, and when that is
    (Unix seconds on the director's clock; None while the level clock cannot tell: levels by
    hands)."""

    open: bool
    until_level: int
    closes_at: float | None


@dataclass(frozen=True, slots=True)
class LateEntry:
    """A member registered late (or re-entered): their seat at ``table`` is ready."""

    name: str
    user_id: int | None
    table: int
    seat: int
    re_entry: bool
    entries: int
    """The field now, re-entries included."""


def closes_at(structure: Structure, step: int, step_started_at: float) -> float | None:
    """When late registration closes: the moment the first level after
    ``late_registration_levels`` starts (after any break that follows the last late level), for
    a clock at step ``step`` that started at ``step_started_at``; None when a step on the way
    is counted in hands, or registration has no end in the schedule."""
    late = structure.late_registration_levels
    moment = step_started_at
    for index in range(step, len(structure.steps)):
        current = structure.steps[index]
        if isinstance(current, Level) and structure.level_number(index) > late:
            return moment
        minutes = current.minutes if isinstance(current, (Level, Break)) else None
        if minutes is None:
            return None
        moment += 60 * minutes
    return None


def planned(structure: Structure, starts_at: float) -> LateRegistration | None:
    """Late registration of a tournament that starts at ``starts_at`` (None: it has none)."""
    if not structure.late_registration_levels:
        return None
    return LateRegistration(
        True, structure.late_registration_levels, closes_at(structure, 0, starts_at)
    )


def late_registration(engine: Tournament) -> LateRegistration | None:
    """Late registration of a running tournament as it stands (None: its structure has none)."""
    structure = engine.structure
    if not structure.late_registration_levels:
        return None
    is_open = engine.phase is Phase.RUNNING and engine.registration_open
    when = closes_at(structure, engine.clock.step, engine.clock.started_at) if is_open else None
    return LateRegistration(is_open, structure.late_registration_levels, when)


def entries_of(engine: Tournament, player: str) -> int:
    """How many entries ``player`` has had (their first and every re-entry)."""
    return sum(1 for entry in engine.entries.values() if entry.player == player)


def refusal(engine: Tournament, player: str) -> str | None:
    """Why ``player`` may not enter now, in one sentence (None: they may)."""
    if engine.phase is not Phase.RUNNING:
        return f"The tournament is {engine.phase.value}: it takes no more entries."
    if not engine.registration_open:
        late = engine.structure.late_registration_levels
        if not late:
            return "This tournament has no late registration: entries closed at the start."
        return f"Late registration is over: it closed at the end of level {late}."
    if engine.entry_of(player) is not None:
        return "You are already playing in this tournament (re-entry is for a busted player)."
    if engine.held_entry_of(player) is not None:
        return "Answer the rebuy offered at your bust first (re-entry is for a player who is out)."
    used = entries_of(engine, player)
    allowed = engine.structure.re_entries
    if used > allowed:
        if not allowed:
            return "This tournament has no re-entry: you have had your entry."
        times = "once" if allowed == 1 else f"{allowed} times"
        return f"You have re-entered {times}, the most this tournament allows."
    if len(engine.entries) >= engine.config.max_entries:
        return f"The tournament is full ({engine.config.max_entries} entries)."
    return None


class Desk(Protocol):
    """What :func:`enter` needs of the director (its lock held)."""

    storage: Storage
    tournament_id: int
    engine: Tournament
    memory: Memory


async def enter(desk: Desk, user_id: int, name: str) -> tuple[list[TournamentEvent], LateEntry]:
    """A member's entry now: refused (``TournamentRefusal``, nothing changed), or paid into the
    pool and registered with the engine, which seats it; the engine's events (for the director
    to save and apply) and the seat taken."""
    engine, player = desk.engine, player_key(user_id, None)
    refused = refusal(engine, player)
    if refused is not None:
        raise TournamentRefusal(refused)
    key = entry_key(desk.tournament_id, player, entries_of(engine, player) + 1)
    await desk.storage.enter_tournament_late(desk.tournament_id, user_id, key=key)
    desk.memory.names[player] = name
    events = engine.register(player)
    entry = seated(engine, events, desk.memory)
    assert entry is not None  # a running engine seats every entry it registers
    return events, entry


def entry_key(tournament_id: int, player: str, number: int) -> str:
    """The payment's idempotency key: the player's ``number``-th entry (1 for the first, 2 for
    the first re-entry) of this tournament, so a retry pays once and the next entry anew."""
    return f"tournament:{tournament_id}:{player}:entry:{number}"


def seated(
    engine: Tournament, events: Sequence[TournamentEvent], names: Memory
) -> LateEntry | None:
    """The news of the entry ``events`` registered: where it sits now (after any move the
    same events made)."""
    registered = next((e for e in events if isinstance(e, PlayerRegistered)), None)
    if registered is None:
        return None
    where = engine.seating.where(registered.entry)
    if where is None:
        return None
    player = registered.player
    name = names.names.get(player, player)
    return LateEntry(
        name, user_of(player), where[0], where[1], registered.re_entry, len(engine.entries)
    )


def catch_up(
    engine: Tournament,
    memory: Memory,
    entries: Sequence[TournamentEntry],
    name_of: Callable[[TournamentEntry], str],
) -> list[LateEntry]:
    """Register with a restored engine every entry storage was paid for and the saved state
    lacks (a crash between a late entry's payment and the save); the news of each."""
    if engine.phase is not Phase.RUNNING:
        return []
    caught: list[LateEntry] = []
    for row in entries:
        player = player_key(row.user_id, row.bot_name)
        for _ in range(1 + row.re_entries - entries_of(engine, player)):
            memory.names.setdefault(player, name_of(row))
            try:
                events = engine.register(player)
            except EngineError:
                _log.error(
                    "a paid entry could not be seated after a restart",
                    extra={"player": player, "entries": 1 + row.re_entries},
                )
                break
            news = seated(engine, events, memory)
            if news is not None:
                caught.append(news)
    return caught
