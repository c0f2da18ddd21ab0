"""Stored hands written as files players and trackers read: PHH, PokerStars text or OHH JSON.

One place decides what a file may show: the hero's own hole cards (when the file is for one
player) and the cards shown at showdown, never anyone else's. ``felt db export hands`` and
``/holdem hands`` both write through here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC
from enum import StrEnum
from typing import TextIO

from engine.holdem import ohh, phh, pokerstars
from engine.holdem.phh import HandHistory
from engine.holdem.pokerstars import HandLabel, hand_id_of
from engine.holdem.story import masked_history, read_history, tell
from storage.hand_export import StoredHand
from storage.tournaments import TournamentHand, TournamentRow


class HandFormat(StrEnum):
    """A hand-history file format."""

    PHH = "phh"
    """PHH (TOML), several hands as a ``.phhs`` file."""
    POKERSTARS = "pokerstars"
    """PokerStars text, which PokerTracker, Hold'em Manager, Hand2Note and GTO Wizard import."""
    OHH = "ohh"
    """Open Hand History JSON."""

    @property
    def extension(self) -> str:
        """The usual file name extension."""
        return {"phh": "phhs", "pokerstars": "txt", "ohh": "ohh"}[self.value]


FORMAT_NAMES = ", ".join(kind.value for kind in HandFormat)


def label_of(hand: StoredHand, history: HandHistory, *, practice: bool) -> HandLabel:
    """The hand's exported id, table name and time."""
    stored = hand.table_name or history.extra.get("table")
    base = str(stored) if stored else "Felt"
    return HandLabel(
        hand_id=hand_id_of(hand.table_id, hand.hand_id),
        table_name=f"{base} {hand.table_id}",
        started_at=hand.started_at,
        practice=practice,
    )


def hero_of(hand: StoredHand, history: HandHistory) -> int | None:
    """The queried member's PHH index in this hand, if the hand was read for a member."""
    seats = history.extra.get("seats")
    if hand.seat_no is None or not isinstance(seats, list) or hand.seat_no not in seats:
        return None
    return seats.index(hand.seat_no)


def tournament_hands(row: TournamentRow, hands: Sequence[TournamentHand]) -> list[StoredHand]:
    """A tournament's kept hands as stored hands for no hero (nobody's hole cards but the ones
    shown at showdown), each table named as the director numbered it, in the order given."""
    return [
        StoredHand(
            table_id=hand.table_no,
            hand_id=hand.hand_no,
            guild_id=row.guild_id,
            table_name=f"{row.name} tournament {row.tournament_id} table",
            started_at=hand.ended_at,
            phh=hand.phh,
            seat_no=None,
        )
        for hand in hands
    ]


def render_hand(hand: StoredHand, kind: HandFormat, *, practice: bool = False) -> str:
    """One stored hand in ``kind``, as its hero (if any) may see it."""
    history = read_history(hand.phh)
    hero = hero_of(hand, history)
    label = label_of(hand, history, practice=practice)
    if kind is HandFormat.PHH:
        moment = hand.started_at.astimezone(UTC)
        extra = dict(history.extra)
        extra.update(
            hand=label.hand_id,
            table=label.shown_table,
            year=moment.year,
            month=moment.month,
            day=moment.day,
            time=moment.time().replace(microsecond=0, tzinfo=None),
            time_zone="UTC",
        )
        return phh.dumps(replace(masked_history(history, hero), extra=extra))
    story = tell(history)
    if kind is HandFormat.POKERSTARS:
        return pokerstars.dumps(story, label, hero=hero)
    return ohh.dumps(story, label, hero=hero) + "\n"


def write_hands(
    hands: Iterable[StoredHand],
    kind: HandFormat,
    out: TextIO,
    *,
    practice_guilds: frozenset[int] = frozenset(),
    first: bool = True,
) -> int:
    """Write ``hands`` to ``out`` in ``kind``, separated as the format wants; how many.

    ``first=False`` continues a file already started (a later batch of the same export).
    """
    count = 0
    for hand in hands:
        text = render_hand(hand, kind, practice=hand.guild_id in practice_guilds)
        if kind is HandFormat.PHH:
            text = f"[{hand_id_of(hand.table_id, hand.hand_id)}]\n{text}"
        if not (first and count == 0):
            # Each hand ends in a newline: PokerStars wants two blank lines between hands (its
            # parsers split there), OHH and PHH one.
            out.write("\n\n" if kind is HandFormat.POKERSTARS else "\n")
        out.write(text)
        count += 1
    return count
