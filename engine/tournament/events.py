"""What a tournament reports: small frozen events, past tense, for the host to show and store."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tournament.seating import Move
from engine.tournament.structure import Level


@dataclass(frozen=True, slots=True)
class PlayerRegistered:
    """``player`` holds entry ``entry`` (a re-entry when they had busted before)."""

    entry: int
    player: str
    re_entry: bool = False


@dataclass(frozen=True, slots=True)
class PlayerUnregistered:
    """``player`` withdrew entry ``entry`` before the start; their buy-in is due back."""

    entry: int
    player: str


@dataclass(frozen=True, slots=True)
class TournamentStarted:
    """Play began with ``entries`` entries at ``tables`` tables."""

    entries: int
    tables: int


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """An entry took a seat: the draw, a late registration, a balancing move, a broken table
    or the final-table redraw (``move.reason``)."""

    move: Move


@dataclass(frozen=True, slots=True)
class TableClosed:
    """Table ``table`` has no one left at it (broken, or merged into the final table)."""

    table: int


@dataclass(frozen=True, slots=True)
class LevelStarted:
    """Level ``number`` (from 1) begins; hands dealt from now use its blinds."""

    number: int
    level: Level


@dataclass(frozen=True, slots=True)
class BreakStarted:
    """A break of ``minutes`` begins; add-ons are sold during it when ``add_on``."""

    minutes: int
    add_on: bool


@dataclass(frozen=True, slots=True)
class RegistrationClosed:
    """Late registration (and re-entry) is over."""


@dataclass(frozen=True, slots=True)
class RebuyBought:
    """Entry ``entry`` bought rebuy number ``count`` for ``chips`` chips (one buy-in)."""

    entry: int
    chips: int
    count: int


@dataclass(frozen=True, slots=True)
class AddOnBought:
    """Entry ``entry`` bought the add-on for ``chips`` chips (one buy-in)."""

    entry: int
    chips: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """Entry ``entry`` is out in ``place`` (shared with others busted in the same hand with
    the same starting stack, who all get the best place of those they share)."""

    entry: int
    player: str
    place: int


@dataclass(frozen=True, slots=True)
class BustHeld:
    """Entry ``entry`` busted during the rebuy period and may still rebuy: it is off its table
    and its elimination waits for the decision, until ``until`` at the latest (the host's
    clock). Its place, if it declines, is already fixed by the bust order."""

    entry: int
    player: str
    until: float


@dataclass(frozen=True, slots=True)
class Finish:
    """One entry's result: finishing place and prize in wallet chips."""

    place: int
    entry: int
    player: str
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    """The tournament is over; ``results`` best place first, every entry once. ``by_deal``
    when the last players agreed a deal instead of playing on."""

    results: tuple[Finish, ...]
    by_deal: bool = False


@dataclass(frozen=True, slots=True)
class Refund:
    """What one entry paid in, due back on cancellation."""

    entry: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class TournamentCancelled:
    """The tournament was called off; every entry's payments are due back."""

    refunds: tuple[Refund, ...]


TournamentEvent = (
    PlayerRegistered
    | PlayerUnregistered
    | TournamentStarted
    | PlayerSeated
    | TableClosed
    | LevelStarted
    | BreakStarted
    | RegistrationClosed
    | RebuyBought
    | AddOnBought
    | PlayerEliminated
    | BustHeld
    | TournamentFinished
    | TournamentCancelled
)
