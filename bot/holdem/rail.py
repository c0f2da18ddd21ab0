"""The rail: spectators who get, by DM, the hole cards of hands already played.

The rules:

- The table's host turns the rail on with the option ``rail_delay`` (hands, 1 or more; 0 is
  off). A member who is not playing at the table (not seated, not waiting for a seat) watches
  with ``/holdem watch``; they stop with ``/holdem watch`` again, or by sitting down.
- When hand H has finished and is settled, each watcher gets the hole cards of hand
  H - rail_delay + 1 (with a delay of 1, hand H itself, just finished). Cards are read from the
  settled hand history in storage, never from the hand in play: the hand in progress can
  never reach a watcher, because it is not settled.
- Only the cards of players who allowed it (``/holdem rail allow:on``, remembered per member
  and server; off by default) and of bots; the others are named as hidden.
- Everyone sees who is watching: the table message lists the rail.
- Watchers are kept in memory: after a restart, watchers ask again.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.holdem.errors import RailError
from bot.holdem.settings import HoldemSettings
from engine.cards import Card
from engine.holdem.story import read_history, tell
from storage import HandStatus, Storage

RAIL_OFF = (
    "The rail is off at this table: its host can turn it on with "
    "`/holdem options change:rail_delay=1`."
)


@dataclass(frozen=True, slots=True)
class RailSeat:
    """One player's cards in a hand the rail sees."""

    seat_no: int
    name: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RailCards:
    """A finished hand's hole cards for one watcher: only players who allowed it and bots."""

    watcher_id: int
    hand_id: int
    seats: tuple[RailSeat, ...]
    hidden: tuple[str, ...]
    """Players of the hand who did not allow the rail."""


class Rail:
    """One table's watchers, by user id."""

    def __init__(self) -> None:
        self.watchers: dict[int, str] = {}

    def watch(self, user_id: int, name: str, settings: HoldemSettings, *, playing: bool) -> None:
        """Start watching, or a ``RailError`` saying why not."""
        if not settings.rail_delay:
            raise RailError(RAIL_OFF)
        if playing:
            raise RailError("You play at this table: the rail is for members who are not.")
        if user_id in self.watchers:
            raise RailError("You are already watching this table.")
        self.watchers[user_id] = name

    def unwatch(self, user_id: int) -> None:
        if self.watchers.pop(user_id, None) is None:
            raise RailError("You are not watching this table.")

    def names(self) -> tuple[str, ...]:
        return tuple(self.watchers[user_id] for user_id in sorted(self.watchers))

    def due(self, finished_hand: int, settings: HoldemSettings) -> int | None:
        """The hand the watchers get now that ``finished_hand`` is settled, if any."""
        if not settings.rail_delay or not self.watchers:
            return None
        hand_id = finished_hand - settings.rail_delay + 1
        return hand_id if hand_id >= 1 else None


async def rail_cards(
    storage: Storage, table_id: int, guild_id: int, hand_id: int, watchers: list[int]
) -> list[RailCards]:
    """What each watcher gets for settled hand ``hand_id`` (nothing for a voided hand)."""
    record = await storage.get_hand(table_id, hand_id)
    if record is None or record.status is not HandStatus.SETTLED or not record.phh:
        return []
    members = {seat.seat_no: seat.user_id for seat in record.seats}
    allowed = await storage.rail_consents(
        guild_id, tuple(sorted({u for u in members.values() if u is not None}))
    )
    shown, hidden = [], []
    for player in tell(read_history(record.phh)).players:
        user_id = members.get(player.seat_no)
        if (user_id is None or user_id in allowed) and player.hole is not None:
            shown.append(RailSeat(player.seat_no, player.name, player.hole))
        else:
            hidden.append(player.name)
    return [RailCards(w, hand_id, tuple(shown), tuple(hidden)) for w in watchers]
