"""How tournaments read in Discord: the lobby message, ``/tournament info`` and ``list``, and
the tournament refusals worded for members."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.discord.chips import chips
from bot.tournament.late import LateRegistration, planned
from engine.tournament import payouts
from engine.tournament.structure import Break, Level, Structure, parse_structure
from storage.tournaments import (
    AlreadyRegistered,
    NotRegistered,
    StaleTournamentState,
    TooFewEntries,
    TournamentEntry,
    TournamentFull,
    TournamentKind,
    TournamentNotOpen,
    TournamentRow,
    TournamentStatus,
    UnknownTournament,
)

LEVELS_SHOWN = 4
PLAYERS_LISTED = 30
KIND_NAMES = {TournamentKind.SIT_AND_GO: "Sit & Go", TournamentKind.MULTI_TABLE: "Multi-table"}
STATUS_LINES = {
    TournamentStatus.REGISTERING: "Registration is open.",
    TournamentStatus.RUNNING: "Running: registration is closed.",
    TournamentStatus.FINISHED: "Finished.",
    TournamentStatus.CANCELLED: "Cancelled: every buy-in was refunded.",
}
LATE_STATUSES = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


def stamp(moment: datetime, style: str) -> str:
    """A Discord timestamp tag (each member sees their own time zone)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def structure_of(row: TournamentRow) -> Structure:
    return parse_structure(row.structure)


def describe_structure(structure: Structure) -> str:
    """``Starting stack 1,500 · levels of 5 minutes: 10/20, 15/30, 25/50, 50/100 ante 100 (BB)…``"""
    levels = [step for step in structure.steps if isinstance(step, Level)]
    unit = "minutes" if levels[0].minutes is not None else "hands"
    shown = ", ".join(level.label(structure.ante_kind) for level in levels[:LEVELS_SHOWN])
    more = "…" if len(levels) > LEVELS_SHOWN else ""
    breaks = sum(1 for step in structure.steps if isinstance(step, Break))
    text = (
        f"Starting stack {structure.starting_stack:,} · levels of {levels[0].duration} {unit}: "
        f"{shown}{more}"
    )
    if breaks:
        text += f" · {breaks} break{'s' if breaks > 1 else ''}"
    if structure.late_registration_levels:
        text += f" · late registration to the end of level {structure.late_registration_levels}"
    if structure.re_entries:
        text += f" · {structure.re_entries} re-entr{'y' if structure.re_entries == 1 else 'ies'}"
    if structure.has_rebuys:
        text += (
            f" · rebuys ({structure.rebuy_limit} each, {structure.rebuy_chips:,} chips) "
            f"to level {structure.rebuy_levels}"
        )
    if structure.add_on_chips:
        text += f" · add-on of {structure.add_on_chips:,} chips at the break"
    return text


def field_size(row: TournamentRow, entries: Sequence[TournamentEntry]) -> int:
    """The entries that count for the payouts and ``max_entries``: re-entries included."""
    return max(row.entries, sum(1 + entry.re_entries for entry in entries))


def payout_line(row: TournamentRow, field: int | None = None) -> str:
    """The prizes for the field as it stands (the standard curve, the remainder rule)."""
    field = max(row.entries if field is None else field, 1)
    amounts = payouts.prizes(row.prize_pool, payouts.standard_shares(field))
    if not row.prize_pool:
        return f"Payouts: {len(amounts)} place{'s' if len(amounts) > 1 else ''} paid."
    shown = ", ".join(f"{_ordinal(place)} {amount:,}" for place, amount in enumerate(amounts, 1))
    return f"Payouts: {shown}."


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def start_line(row: TournamentRow) -> str:
    if row.status is not TournamentStatus.REGISTERING:
        return ""
    if row.starts_at is None:
        return f"Starts when full ({row.max_entries - row.entries} seat(s) left)."
    text = f"Starts {stamp(row.starts_at, 'F')} ({stamp(row.starts_at, 'R')})"
    if row.kind is TournamentKind.SIT_AND_GO:
        text += " or when full"
    if row.bots_fill:
        text += "; bots fill the empty seats then"
    return text + "."


def player_name(entry: TournamentEntry) -> str:
    return f"<@{entry.user_id}>" if entry.user_id is not None else f"🤖 {entry.bot_name}"


def players_line(entries: Sequence[TournamentEntry]) -> str:
    if not entries:
        return "Registered: nobody yet."
    names = [player_name(entry) for entry in entries[:PLAYERS_LISTED]]
    more = f" and {len(entries) - PLAYERS_LISTED} more" if len(entries) > PLAYERS_LISTED else ""
    return f"Registered: {', '.join(names)}{more}."


def results_line(entries: Sequence[TournamentEntry]) -> str:
    placed = sorted(
        (entry for entry in entries if entry.place is not None), key=lambda e: e.place or 0
    )
    paid = [
        f"{_ordinal(e.place or 0)} {player_name(e)} {chips(e.prize)}" for e in placed if e.prize
    ]
    return "Results: " + (", ".join(paid) if paid else "no prizes") + "."


def late_line(late: LateRegistration) -> str:
    """``Late registration open until the end of level 4 (<t:...:R>).``"""
    when = f" (closes <t:{int(late.closes_at)}:R>)" if late.closes_at is not None else ""
    return f"Late registration open until the end of level {late.until_level}{when}."


def lobby_text(
    row: TournamentRow,
    entries: Sequence[TournamentEntry],
    late: LateRegistration | None = None,
) -> str:
    """The lobby message: what it is, the structure, who is in, the pool and the start.
    ``late`` is a running tournament's late registration (the director's); before the start it
    is read from the structure and the start time."""
    fee = f" + {row.fee:,} fee" if row.fee else ""
    field = field_size(row, entries)
    lines = [
        f"🏆 **{row.name}** · {KIND_NAMES[row.kind]} #{row.tournament_id}",
        f"Buy-in: {chips(row.buy_in)}{fee} · {row.seats_per_table} per table · "
        f"Entries: {field}/{row.max_entries} · Prize pool: {chips(row.prize_pool)}",
        describe_structure(structure_of(row)),
        payout_line(row, field),
        players_line(entries),
    ]
    if row.status is TournamentStatus.FINISHED:
        lines.append(results_line(entries))
    start = start_line(row)
    lines.append(start or STATUS_LINES[row.status])
    if row.status is TournamentStatus.REGISTERING and row.starts_at is not None:
        late = planned(structure_of(row), row.starts_at.timestamp())
    if start:
        lines.append(STATUS_LINES[row.status])
    elif row.status is TournamentStatus.RUNNING and late is not None and late.open:
        lines[-1] = "Running."
    if late is not None and late.open and row.status in LATE_STATUSES:
        lines.append(late_line(late))
    return "\n".join(lines)


def list_line(row: TournamentRow) -> str:
    when = ""
    if row.status is TournamentStatus.REGISTERING:
        when = "when full" if row.starts_at is None else stamp(row.starts_at, "R")
    else:
        when = row.status.value
    return (
        f"#{row.tournament_id} **{row.name}** · {KIND_NAMES[row.kind]} · "
        f"{chips(row.buy_in)} · {row.entries}/{row.max_entries} · {when}"
    )


def describe_tournament_refusal(error: BaseException) -> str:
    """A tournament refusal from storage worded for the member (one line)."""
    match error:
        case UnknownTournament(tournament_id=tournament_id):
            return f"There is no tournament #{tournament_id} here."
        case TournamentNotOpen(tournament_id=tournament_id, status=status):
            return f"Tournament #{tournament_id} has {_status_words(status)}."
        case TournamentFull(tournament_id=tournament_id, max_entries=most):
            return f"Tournament #{tournament_id} is full ({most} entries)."
        case AlreadyRegistered(tournament_id=tournament_id):
            return f"You are already registered in tournament #{tournament_id}."
        case NotRegistered(tournament_id=tournament_id):
            return f"You are not registered in tournament #{tournament_id}."
        case TooFewEntries(tournament_id=tournament_id, entries=entries):
            return f"Tournament #{tournament_id} cannot start with {entries} entries."
        case StaleTournamentState():
            return "The tournament changed meanwhile; please try again."
    return str(error)


def _status_words(status: TournamentStatus) -> str:
    return {
        TournamentStatus.REGISTERING: "not started yet",
        TournamentStatus.RUNNING: "already started",
        TournamentStatus.FINISHED: "already finished",
        TournamentStatus.CANCELLED: "been cancelled",
    }[status]
