"""The home-game turn rules a Hold'em table adds to its hands: time banks, away, pre-actions and
the rail. ``HandLifecycle`` mixes ``HomeFlow`` in; its rules live in ``bot.holdem.timebank``,
``bot.holdem.preactions`` and ``bot.holdem.rail``, and away is described here.

Away is the table's one notion of a member who keeps their seat without playing (what
``/holdem sitout`` has always done, named "away" on the table): a member goes away by choice
(``/holdem sitout`` or the Away button) or is put away after ``away_after`` turns in a row
timed out. While away, any turn of theirs still due in the hand in progress is played at once
by the timeout rule (check, else fold: no timer wait), they are dealt no new hand, and after
``max_sit_out_hands`` hands away they are cashed out. ``/holdem back`` (or Back) deals them in
again from the next hand.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.holdem.errors import PreActionError
from bot.holdem.events import PlayerSatOut, TableEvent
from bot.holdem.order import SeatOrder
from bot.holdem.preactions import PreAction, PreActions
from bot.holdem.rail import Rail, rail_cards
from bot.holdem.seating import Seat, Seating
from bot.holdem.settings import HoldemSettings
from bot.holdem.timebank import TimeBanks
from bot.tables.clock import Scheduler, TimerHandle
from bot.tables.events import Notice
from engine.holdem import Hand
from storage import Storage, StorageError

_log = logging.getLogger("felt.holdem")


def times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


class HomeFlow:
    """Time banks, away, pre-actions and the rail of one table (mixed into its lifecycle)."""

    if TYPE_CHECKING:
        storage: Storage
        table_id: int
        guild_id: int
        settings: HoldemSettings
        seating: Seating
        hand: Hand | None
        hand_id: int
        order: SeatOrder
        time_banks: TimeBanks
        preactions: PreActions
        rail: Rail
        _lock: asyncio.Lock
        _scheduler: Scheduler
        _deadline: float | None
        _turn_timer: TimerHandle | None

        async def _timeout(self, hand_id: int, action_count: int) -> None: ...
        async def publish(self, event: TableEvent) -> None: ...
        async def _publish_table(self) -> None: ...

    # ----- time banks and missed turns (lock held) ---------------------------------------------

    async def start_time_bank(self, seat: Seat, hand_id: int, action_count: int) -> bool:
        """The turn timer ran out: start the member's time bank, if it has seconds left (and
        say so); False when the timeout rule must play."""
        if seat.user_id is None or self.time_banks.running is not None:
            return False  # a bot, or it is the bank that ran out
        now = self._scheduler.now()
        deadline = self.time_banks.start(seat.user_id, now, self.settings)
        if deadline is None:
            return False
        self._deadline = deadline

        async def bank_out() -> None:
            await self._timeout(hand_id, action_count)

        self._turn_timer = self._scheduler.call_later(deadline - now, bank_out)
        await self.publish(Notice(f"{seat.name} is on their time bank ({deadline - now:.0f} s)."))
        await self._publish_table()
        return True

    async def publish_missed_turn(self, seat: Seat) -> None:
        """A member's turn timed out: after ``away_after`` in a row, they are put away."""
        seat.timeouts += 1
        if seat.user_id is None or seat.sitting_out or seat.timeouts < self.settings.away_after:
            return
        seat.sitting_out = True
        seat.sit_out_reason = f"timed out {times(seat.timeouts)}"
        reason = f"timed out {times(seat.timeouts)} in a row"
        await self.publish(PlayerSatOut(seat.seat_no, seat.name, seat.user_id, reason))

    async def after_hand_flow(self) -> None:
        """After a hand is settled: time-bank refills and saving, then the rail's DMs."""
        members = [s.user_id for s in self.seating.seats.values() if s.user_id is not None]
        try:
            await self.time_banks.after_hand(
                self.storage, self.table_id, self.hand_id, members, self.settings
            )
        except StorageError:
            _log.exception("could not save the time banks of table %s", self.table_id)
        await self._send_rail()

    async def _send_rail(self) -> None:
        playing = {s.user_id for s in self.seating.seats.values()}
        playing |= {pending.user_id for pending in self.seating.pending.values()}
        for user_id in [u for u in self.rail.watchers if u in playing]:
            del self.rail.watchers[user_id]  # sitting down ends watching
        due = self.rail.due(self.hand_id, self.settings)
        if due is None:
            return
        try:
            sent = await rail_cards(
                self.storage, self.table_id, self.guild_id, due, sorted(self.rail.watchers)
            )
        except StorageError:
            _log.exception("could not read hand %s for the rail", due)
            return
        for cards in sent:
            await self.publish(cards)

    # ----- member commands -------------------------------------------------------------------

    async def pre_act(self, user_id: int, choice: PreAction | None) -> PreAction | None:
        """Tick (or with None, untick) a pre-action for the member's next turn in this hand;
        returns what stands now. Refused with one line when it cannot apply."""
        async with self._lock:
            seat = self.seating.require(user_id)
            hand = self.hand
            player = self.order.player(seat.seat_no)
            if hand is None or hand.is_complete or player is None:
                raise PreActionError("You are not in the hand being played.")
            if not hand.live[player] or hand.is_all_in(player):
                raise PreActionError("You have nothing left to decide in this hand.")
            turn = hand.turn
            if turn is not None and turn.player == player:
                raise PreActionError("It is your turn: act now.")
            owes = max(hand.bets) > hand.bets[player]
            if choice is PreAction.CHECK and owes:
                raise PreActionError("You face a bet: tick Check/Fold or Call any instead.")
            self.preactions.arm(seat.seat_no, self.hand_id, hand, choice)
            return self.preactions.armed(seat.seat_no, self.hand_id, hand, player)

    def pre_action_of(self, user_id: int) -> PreAction | None:
        """The member's pre-action that stands now, if any (their own view only)."""
        seat_no = self.seating.seat_of(user_id)
        player = None if seat_no is None else self.order.player(seat_no)
        if seat_no is None or player is None or self.hand is None:
            return None
        return self.preactions.armed(seat_no, self.hand_id, self.hand, player)

    async def watch(self, user_id: int, name: str) -> bool:
        """Start watching (True) or, for a watcher, stop (False)."""
        async with self._lock:
            if user_id in self.rail.watchers:
                self.rail.unwatch(user_id)
                watching = False
            else:
                playing = self.seating.seat_of(user_id) is not None or self.seating.is_waiting(
                    user_id
                )
                self.rail.watch(user_id, name, self.settings, playing=playing)
                watching = True
            await self._publish_table()
            return watching
