"""What an organiser types into ``/tournament create``, read and checked: the start time, the
structure preset, the table size and the field, and the fee the server's setting adds.

The start is one of (case-insensitive, surrounding spaces ignored):

- ``full`` (or nothing): a Sit & Go that starts when every seat is taken;
- a Discord timestamp, as Discord's own time picker and ``<t:...>`` tags write it:
  ``<t:1767225600>`` or ``<t:1767225600:R>`` (any style letter);
- ``in`` and a duration of hours and minutes: ``in 30m``, ``in 2h``, ``in 1h30m``;
- a UTC date and time: ``2026-12-31 20:00`` (``T`` between them is fine too).

Anything else is refused with one line that says these forms; so is a time in the past, or
more than :data:`MAX_DAYS_AHEAD` days away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.discord.errors import Refusal
from bot.numbers import MAX_NUMBER_LENGTH, NumberError, quote, read_whole
from engine.tournament.structure import PRESET_NAMES, Format, Structure, preset
from engine.tournament.tournament import MAX_SEATS, MIN_SEATS
from storage.tournaments import TournamentKind

MAX_DAYS_AHEAD = 30
MIN_LEAD_SECONDS = 60
"""A start time must be at least this far ahead, so registration is open for a moment."""
DEFAULT_SEATS = 9
DEFAULT_MTT_ENTRIES = 100
MAX_ENTRIES = 1_000
START_HELP = (
    "`full`, a Discord timestamp like `<t:1767225600:R>`, `in 1h30m`, "
    "or a UTC time like `2026-12-31 20:00`"
)

_TIMESTAMP = re.compile(r"<t:(?P<seconds>-?[0-9]{1,12})(?::[a-zA-Z])?>", re.ASCII)
_DURATION = re.compile(
    r"in\s+(?:(?P<hours>[0-9]{1,3})\s*h(?:ours?|rs?)?)?\s*"
    r"(?:(?P<minutes>[0-9]{1,4})\s*m(?:in(?:utes?)?)?)?",
    re.ASCII | re.IGNORECASE,
)
_CALENDAR = re.compile(
    r"(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})[ T](?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2})"
    r"(?:\s*UTC)?",
    re.ASCII | re.IGNORECASE,
)


class InvalidTournamentOption(Refusal):
    """An option of ``/tournament create`` that cannot be used."""


def read_start(text: str | None, now: datetime) -> datetime | None:
    """The start time ``text`` names (None: when full), or :class:`InvalidTournamentOption`.

    >>> now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    >>> read_start("in 1h30m", now)
    datetime.datetime(2026, 1, 1, 13, 30, tzinfo=datetime.timezone.utc)
    >>> read_start("<t:1767279600:R>", now).isoformat()
    '2026-01-01T15:00:00+00:00'
    >>> read_start(" Full ", now) is None
    True
    """
    stripped = (text or "").strip()
    if stripped.lower() in ("", "full", "when full"):
        return None
    if len(stripped) > MAX_NUMBER_LENGTH:
        raise InvalidTournamentOption(f"The start must be {START_HELP}, not {quote(stripped)}.")
    moment = _moment(stripped, now)
    if moment is None:
        raise InvalidTournamentOption(f"The start must be {START_HELP}, not {quote(stripped)}.")
    if moment < now + timedelta(seconds=MIN_LEAD_SECONDS):
        raise InvalidTournamentOption(
            f"The start must be at least a minute from now; {quote(stripped)} is not."
        )
    if moment > now + timedelta(days=MAX_DAYS_AHEAD):
        raise InvalidTournamentOption(
            f"The start must be within {MAX_DAYS_AHEAD} days; {quote(stripped)} is further."
        )
    return moment


def _moment(text: str, now: datetime) -> datetime | None:
    if (match := _TIMESTAMP.fullmatch(text)) is not None:
        try:
            return datetime.fromtimestamp(read_whole(match["seconds"]), UTC)
        except (NumberError, OverflowError, OSError, ValueError):
            return None
    if (match := _DURATION.fullmatch(text)) is not None and (match["hours"] or match["minutes"]):
        hours = read_whole(match["hours"] or "0")
        minutes = read_whole(match["minutes"] or "0")
        return now + timedelta(hours=hours, minutes=minutes)
    if (match := _CALENDAR.fullmatch(text)) is not None:
        try:
            day = datetime.fromisoformat(match["date"])
            return day.replace(
                hour=read_whole(match["hour"]), minute=read_whole(match["minute"]), tzinfo=UTC
            )
        except ValueError:
            return None
    return None


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """A checked ``/tournament create``: everything storage needs to open the lobby."""

    name: str
    kind: TournamentKind
    buy_in: int
    fee: int
    structure: Structure
    seats_per_table: int
    max_entries: int
    starts_at: datetime | None
    bots_fill: bool


def plan_tournament(
    *,
    name: str,
    kind: str,
    buy_in: int,
    preset_name: str,
    seats: int | None,
    max_entries: int | None,
    start: str | None,
    bots: bool,
    fee_percent: int,
    now: datetime,
    rebuys: bool = False,
) -> TournamentPlan:
    """Check every option of ``/tournament create`` (each refusal one line)."""
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= 100:
        raise InvalidTournamentOption("The name must be 1 to 100 characters.")
    try:
        chosen = TournamentKind(kind)
    except ValueError:
        raise InvalidTournamentOption("The type must be `sng` or `mtt`.") from None
    if preset_name not in PRESET_NAMES:
        raise InvalidTournamentOption(f"The preset must be one of {', '.join(PRESET_NAMES)}.")
    table = DEFAULT_SEATS if seats is None else seats
    if not MIN_SEATS <= table <= MAX_SEATS:
        raise InvalidTournamentOption(f"Tables seat {MIN_SEATS} to {MAX_SEATS} players.")
    sit_and_go = chosen is TournamentKind.SIT_AND_GO
    field = (
        max_entries if max_entries is not None else (table if sit_and_go else DEFAULT_MTT_ENTRIES)
    )
    if sit_and_go and not 2 <= field <= table:
        raise InvalidTournamentOption(
            f"A Sit & Go is one table: 2 to {table} entries (its seats per table)."
        )
    if not 2 <= field <= MAX_ENTRIES:
        raise InvalidTournamentOption(f"A tournament takes 2 to {MAX_ENTRIES:,} entries.")
    starts_at = read_start(start, now)
    if starts_at is None and not sit_and_go:
        raise InvalidTournamentOption(
            f"A multi-table tournament needs a start time: {START_HELP.split(', ', 1)[1]}."
        )
    if bots and not sit_and_go:
        raise InvalidTournamentOption("Bots can only fill a Sit & Go.")
    if bots and starts_at is None:
        raise InvalidTournamentOption(
            "Bots fill the empty seats at the start time: give a start time, not `full`."
        )
    # A multi-table preset keeps its late registration and re-entry (``bot/tournament/late.py``).
    structure = preset(preset_name, Format.SIT_AND_GO if sit_and_go else Format.MULTI_TABLE)
    if rebuys:
        structure = structure.with_rebuys()
    fee = buy_in * fee_percent // 100
    return TournamentPlan(cleaned, chosen, buy_in, fee, structure, table, field, starts_at, bots)
