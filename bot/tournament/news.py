"""What a running tournament tells its front besides each table's own events: the clock and
standings (``TournamentView``), players moved between tables, busts and the result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.tournament.late import LateEntry, LateRegistration, late_registration
from bot.tournament.memory import user_of
from bot.tournament.reconcile import PaymentSettled
from engine.tournament.seating import SeatReason
from engine.tournament.tournament import Phase, Tournament

LEADERS = 3
"""How many chip leaders the tournament message shows."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player still in, with their stack and table."""

    name: str
    user_id: int | None
    stack: int
    table: int


@dataclass(frozen=True, slots=True)
class TournamentView:
    """The tournament message: the level, the next one, when it changes, and who leads."""

    tournament_id: int
    name: str
    level: int
    blinds: str
    """The current level's blinds as a player reads them (``100/200 ante 200 (BB)``)."""
    next_blinds: str | None
    next_change_at: float | None
    """Unix seconds when the clock moves on (None: levels by hands, or the last level)."""
    on_break: bool
    players_left: int
    entries: int
    average_stack: int
    leaders: tuple[Standing, ...]
    prizes: tuple[int, ...]
    finished: bool = False
    late: LateRegistration | None = None
    """Late registration, if the structure has it (``bot.tournament.late``)."""


@dataclass(frozen=True, slots=True)
class ClockChanged:
    """The tournament message needs redrawing (a level, a break, a bust, a move)."""

    view: TournamentView


@dataclass(frozen=True, slots=True)
class PlayerMoved:
    """A player moved by balancing, a table's break or the final-table redraw: their seat at
    ``table`` is ready."""

    name: str
    user_id: int | None
    from_table: int | None
    table: int
    seat: int
    reason: SeatReason


@dataclass(frozen=True, slots=True)
class PlayerBusted:
    """A player is out, in ``place``."""

    name: str
    user_id: int | None
    place: int


@dataclass(frozen=True, slots=True)
class Placing:
    """One line of the result."""

    place: int
    name: str
    user_id: int | None
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentOver:
    """The tournament finished (by play or a deal); prizes are in the wallets."""

    placings: tuple[Placing, ...]
    by_deal: bool


@dataclass(frozen=True, slots=True)
class RebuyOffered:
    """News for one member: they busted during the rebuy period and may rebuy ``chips``
    tournament chips (for one entry's cost) until ``until`` (Unix seconds); their elimination
    waits for the answer, their table does not."""

    user_id: int
    name: str
    entry: int
    table: int
    chips: int
    until: float


TournamentNews = (
    ClockChanged
    | PlayerMoved
    | PlayerBusted
    | TournamentOver
    | LateEntry
    | RebuyOffered
    | PaymentSettled
)


def tournament_view(
    tournament_id: int, engine: Tournament, names: Mapping[str, str]
) -> TournamentView:
    """The tournament message's facts from the engine's state."""
    alive = engine.alive
    leaders = sorted(alive, key=lambda e: (-e.stack, e.number))[:LEADERS]
    standings = tuple(
        Standing(
            names.get(e.player, e.player),
            user_of(e.player),
            e.stack,
            (engine.seating.where(e.number) or (0, 0))[0],
        )
        for e in leaders
    )
    levels = engine.structure.levels
    number = engine.level_number
    following = levels[number] if number < len(levels) else None
    ante = engine.structure.ante_kind
    return TournamentView(
        tournament_id=tournament_id,
        name=engine.config.name,
        level=number,
        blinds=engine.level.label(ante),
        next_blinds=following.label(ante) if following is not None else None,
        next_change_at=engine.next_change_at,
        on_break=engine.on_break,
        players_left=engine.players_left,
        entries=len(engine.entries),
        average_stack=engine.chips_in_play // max(1, len(alive)),
        leaders=standings,
        prizes=engine.prizes(),
        finished=engine.phase is not Phase.RUNNING,
        late=late_registration(engine),
    )
