"""A tournament table: a Hold'em table host whose stakes come from the level and whose chips are
tournament chips, so its hands move no wallet chip.

``TournamentTable`` is ``HoldemTable`` (the same hand flow, turns, timers, narration, table
message, DMs and buttons) with the host's three hand hooks pointed at the director instead of
storage's escrow: ``_next_deal`` asks it who is dealt, with what stacks and stakes;
``_settle`` gives it the final stacks; ``_void_hand`` takes the stacks back from before the
hand. Seats are the director's to fill and empty (``sync_seats``), never a member's:

* sitting out (by choice, after two timeouts, or by leaving) keeps the seat: the player is
  still dealt in, posts the blinds and antes, and their turns are played at once by the
  timeout rule (check if free, otherwise fold), so nobody stalls a table and a player who left
  is blinded away;
* joining, rebuying here and stopping the table are refused: the director runs those.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from bot.holdem.errors import TableError
from bot.holdem.events import HoldemTableClosed, PlayerSatOut, TableLifecycle
from bot.holdem.host import HoldemTable
from bot.holdem.narrate import HandSummary
from bot.holdem.order import Deal
from bot.holdem.seating import Seat, Seating
from engine.holdem import Hand
from engine.tournament.structure import Level
from storage import Bounty

LEFT = "left the table: blinded away"
NOT_HERE = "Tournament seats are drawn by the director; use /tournament for that."


class TableDirector(Protocol):
    """What a tournament table asks of its tournament (``bot.tournament.director``)."""

    async def deal(self, table: TournamentTable) -> Deal | None: ...

    async def settle(
        self, table: TournamentTable, final_stacks: Mapping[int, int], phh: str
    ) -> None: ...

    def void(self, table: TournamentTable) -> dict[int, int]: ...

    async def after_hand(self, table: TournamentTable) -> None: ...


class TournamentSeating(Seating):
    """Seats the director fills: no buy-ins, no bots filling chairs, nobody cashed out."""

    def players(self) -> list[int]:
        """Every seat with chips is dealt in, sitting out or not (it posts and folds)."""
        return [n for n in sorted(self.seats) if self.seats[n].stack]

    async def fill_bots(self, next_hand: int) -> None:
        """Bots are tournament entries the director seats; none fills a chair here."""

    async def after_hand(self, dealt: set[int], hand_id: int) -> None:
        """Nothing waits for a hand's end here: busts and moves are the director's."""


class TournamentTable(HoldemTable):
    """One table of a running tournament; built by the director."""

    away_keeps_seat = True

    director: TableDirector
    table_no: int

    def attach(self, director: TableDirector, table_no: int) -> None:
        """Take the seats from ``Seating`` to the tournament's ``TournamentSeating``."""
        self.director = director
        self.table_no = table_no
        old = self.seating
        self.seating = TournamentSeating(
            storage=self.storage,
            table_id=self.table_id,
            guild_id=self.guild_id,
            settings=self.settings,
            bots=old._bots,
            rng=self._rng,
            publish=self.publish,
        )

    # ------------------------------------------------------------------ the director's side

    def show_level(self, level: Level) -> None:
        """Show the level's blinds on the table message (each hand takes its stakes itself)."""
        self.settings = replace(
            self.settings, small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante
        )
        self.seating.settings = self.settings

    def place(self, seat: Seat, away: bool) -> None:
        """Seat a player the director drew or moved here (sitting out if ``away``)."""
        seat.sitting_out = seat.leaving = away
        seat.sit_out_reason = LEFT if away else ""
        self.seats[seat.seat_no] = seat

    def unseat(self, seat_no: int) -> None:
        """Free a chair (a bust, or a move away); no chip leaves: they are the tournament's."""
        self.seats.pop(seat_no, None)

    @property
    def dealing(self) -> bool:
        """Whether a hand is in play or the pause before the next one is running."""
        return self.hand is not None or self._next_hand_timer is not None

    async def kick(self) -> None:
        """Deal if a hand can start now (after a break, or when players arrive)."""
        async with self._lock:
            await self._publish_table()
            await self._maybe_start_hand()

    async def finish(self, reason: str) -> None:
        """Close the table for good (broken, or the tournament is over)."""
        async with self._lock:
            await self._close(reason)

    # ------------------------------------------------------------------ the host's hooks

    async def _next_deal(self, hand_id: int) -> Deal | None:
        for seat in self.seats.values():
            seat.leaving = seat.sitting_out  # a seat sitting out posts, then its turns play at once
        return await self.director.deal(self)

    async def _settle(self, hand: Hand, summary: HandSummary, text: str) -> list[Bounty]:
        await self.director.settle(self, summary.final_stacks, text)
        for seat_no, stack in summary.final_stacks.items():
            self.seats[seat_no].stack = stack
        return []  # tournaments play no 7-2 bounties

    async def _void_hand(self, reason: str) -> dict[int, int]:
        return self.director.void(self)

    async def _between_hands(self) -> None:
        await super()._between_hands()
        await self.director.after_hand(self)

    async def _after_membership_change(self, *, schedule: bool = False) -> None:
        # A table of bots alone still plays: it is part of the tournament.
        await self._publish_table()
        if schedule and self.status is TableLifecycle.OPEN and not self._suspended:
            self._schedule_next_hand()
        elif not schedule:
            await self._maybe_start_hand()

    async def _close(self, reason: str) -> None:
        self._cancel_timers()
        self.seats.clear()
        self.hand = None
        self.status = TableLifecycle.CLOSED
        await self.publish(HoldemTableClosed(reason, ()))
        self._closed.set()

    # ------------------------------------------------------------------ members' commands

    async def join(
        self, user_id: int, name: str, buy_in: int | None = None, *, key: str | None = None
    ) -> int:
        raise TableError(NOT_HERE)

    async def rebuy(
        self, user_id: int, amount: int | None = None, *, key: str | None = None
    ) -> int:
        raise TableError(NOT_HERE)

    async def stop(self, user_id: int, *, is_admin: bool = False) -> bool:
        raise TableError("A tournament table stops when its tournament moves its players.")

    async def leave(self, user_id: int) -> bool:
        """Leave: the seat stays and is blinded away (the turns play at once)."""
        async with self._lock:
            seat = self.seating.require(user_id)
            seat.sitting_out = seat.leaving = True
            seat.sit_out_reason = LEFT
            await self.publish(PlayerSatOut(seat.seat_no, seat.name, user_id, LEFT))
            if self._in_hand(seat.seat_no):
                await self._play_for_leavers()
            await self._publish_table()
            return True
