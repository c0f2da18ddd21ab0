"""The Hold'em table host: the commands members send to one table, each under its lock.

The host seats members and takes their actions; ``HandLifecycle`` (``bot.holdem.flow``) deals
each hand, runs its turns and timers and settles it in storage. Seats and their chips are
``Seating``'s, words are ``narrate``'s, the public picture is ``table_snapshot``'s, and seat
numbers meet engine players only in ``SeatOrder``. It never imports Discord: a front calls
these methods and receives ``TableEvent``s through a ``Presenter``.

Every command takes the table's lock, so a double click, a timer and a bot can never act at
once; each action carries the hand id and action number it was offered at, and one validator,
``check_offer``, refuses a stale or repeated click in one wording.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from bot.holdem.errors import (
    AlreadySeatedError,
    BuyInError,
    InvalidActionError,
    NotSeatedError,
    OutOfTurnError,
    TableError,
    TableFullError,
)
from bot.holdem.events import (
    HandCancelled,
    Offer,
    PlayerReturned,
    PlayerSatOut,
    TableEvent,
    TableLifecycle,
)
from bot.holdem.flow import EquityFunction, HandLifecycle
from bot.holdem.home_after import rabbit_hunt, reveal
from bot.holdem.home_runs import choose_runs
from bot.holdem.home_settings import apply_option_changes
from bot.holdem.order import SeatOrder, to_act
from bot.holdem.seating import BotFactory, PendingJoin
from bot.holdem.settings import HoldemSettings
from bot.holdem.timebank import TimeBanks
from bot.tables.clock import Scheduler
from bot.tables.errors import STALE_BUTTON, StaleActionError
from bot.tables.events import Notice
from bot.tables.moves import move_chips
from bot.tables.presenter import Presenter
from engine.cards import Card
from engine.errors import EngineError
from engine.holdem import Action
from storage import Storage, TableInfo

__all__ = ["STALE_BUTTON", "EquityFunction", "HoldemTable"]


class HoldemTable(HandLifecycle):
    """One Hold'em table. Create with ``HoldemTable.create`` or ``HoldemTable.restore``."""

    away_keeps_seat: ClassVar[bool] = False
    """Whether sitting out and leaving keep the seat dealt in, posting and folding, with no
    chip going back to a wallet (a tournament table); here they stop the dealing and cash out."""

    # ------------------------------------------------------------------ construction

    @classmethod
    async def create(
        cls,
        *,
        storage: Storage,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        name: str,
        settings: HoldemSettings,
        key: str,
        scheduler: Scheduler,
        presenter: Presenter[TableEvent],
        bots: BotFactory,
        equity: EquityFunction | None = None,
        rng: random.Random | None = None,
    ) -> HoldemTable:
        """Open a new table in storage (it starts empty; the opener joins next)."""
        settings = settings.validated()
        stored = {**settings.to_json(), "host_user_id": host_user_id}
        opened = await storage.open_table(guild_id, channel_id, settings=stored, name=name, key=key)
        return cls(
            storage=storage,
            table_id=opened.table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            host_user_id=host_user_id,
            settings=settings,
            scheduler=scheduler,
            presenter=presenter,
            bots=bots,
            equity=equity,
            rng=rng,
        )

    @classmethod
    async def restore(
        cls,
        info: TableInfo,
        *,
        storage: Storage,
        scheduler: Scheduler,
        presenter: Presenter[TableEvent],
        bots: BotFactory,
        equity: EquityFunction | None = None,
        rng: random.Random | None = None,
    ) -> HoldemTable:
        """Rebuild a table from storage after a restart (recovery has voided any open hand)."""
        stored = dict(info.settings)
        host = stored.pop("host_user_id", None)
        table = cls(
            storage=storage,
            table_id=info.table_id,
            guild_id=info.guild_id,
            channel_id=info.channel_id,
            name=info.name or f"Table {info.table_id}",
            host_user_id=host if isinstance(host, int) else None,
            settings=HoldemSettings.from_json(stored),
            scheduler=scheduler,
            presenter=presenter,
            bots=bots,
            equity=equity,
            rng=rng,
            last_hand_id=info.last_hand_id or 0,
        )
        for seat in info.seats:
            table.seating.restore(seat)
        table.time_banks = TimeBanks(await storage.time_banks(info.table_id))
        return table

    async def resume(self) -> None:
        """After a restore: show the table and deal when enough players are in."""
        async with self._lock:
            await self._publish_table()
            await self._maybe_start_hand()

    # --------------------------------------------------------------------- queries

    @property
    def is_closed(self) -> bool:
        """Whether the table has closed (every seat cashed out)."""
        return self.status is TableLifecycle.CLOSED

    async def wait_closed(self) -> None:
        """Wait until the table has closed."""
        await self._closed.wait()

    def is_waiting(self, user_id: int) -> bool:
        """Whether the member waits to take a bot's chair when this hand ends."""
        return self.seating.is_waiting(user_id)

    def hole_cards(self, user_id: int) -> tuple[int, tuple[Card, ...]] | None:
        """(hand id, cards) of the member's hand in progress, for their eyes only."""
        seat_no = self.seat_of(user_id)
        player = self.order.player(seat_no) if seat_no is not None else None
        if self.hand is None or player is None:
            return None
        return self.hand_id, tuple(self.hand.hole_cards[player])

    def check_offer(self, user_id: int, hand_id: int, action_count: int) -> Offer:
        """What the member may do at the point (``hand_id``, ``action_count``) they were offered.

        Pure and read-only: fronts call it to refuse a click at once, ``act`` calls it under
        the lock. Each refusal has one wording.
        """
        seat_no = self.seat_of(user_id)
        if seat_no is None:
            raise NotSeatedError("It is not your turn: you are not seated at this table.")
        hand = self.hand
        if hand is None or hand.is_complete or hand_id != self.hand_id:
            raise StaleActionError("That hand is over.")
        if action_count != hand.action_count:
            raise StaleActionError(STALE_BUTTON)
        legal = hand.turn
        player = self.order.player(seat_no)
        if player is None or to_act(hand) != player or legal is None:
            raise OutOfTurnError("It is not your turn.")
        return Offer.of(legal, seat_no)

    # ------------------------------------------------------------------ membership

    async def join(
        self, user_id: int, name: str, buy_in: int | None = None, *, key: str | None = None
    ) -> int:
        """Seat a member with ``buy_in`` chips (default: the table's default buy-in).

        Takes an empty seat, or a bot's seat (at once between hands, else from the next hand).
        Returns the seat number. ``key`` (the member's request) makes a repeated join apply once.
        """
        async with self._lock:
            self._require_open()
            seating = self.seating
            if seating.seat_of(user_id) is not None or seating.is_waiting(user_id):
                raise AlreadySeatedError("You already have a seat at this table.")
            amount = self.settings.default_buy_in if buy_in is None else buy_in
            seating.check_buy_in(amount, 0)
            request = key or f"holdem:{self.table_id}:join:{user_id}:after-hand:{self.hand_id}"
            await self.storage.ensure_account(self.guild_id, user_id)
            free = seating.free_seats()
            bot_seats = [s.seat_no for s in self.seats.values() if s.is_bot]
            bot_seats = [n for n in bot_seats if n not in seating.pending]
            if not free and not bot_seats:
                raise TableFullError("This table is full. Try again when someone leaves.")
            seat_no = free[0] if free else bot_seats[-1]
            if not free and self.hand is not None:
                if await self.storage.balance(self.guild_id, user_id) < amount:
                    raise BuyInError(f"You do not have {amount:,} chips for that buy-in.")
                seating.pending[seat_no] = PendingJoin(user_id, name, amount, request)
                bot = self.seats[seat_no].name
                await self.publish(Notice(f"{name} takes {bot}'s seat from the next hand."))
                return seat_no
            if not free:
                await seating.remove(self.seats[seat_no], "made room for a player")
            await seating.buy_in(seat_no, user_id, name, amount, request)
            await self._publish_table()
            await self._maybe_start_hand()
            return seat_no

    async def leave(self, user_id: int) -> bool:
        """Leave and cash out: now between hands, else when the hand ends (then returns False).

        A player who leaves mid-hand has their remaining turns played at once by the timeout
        rule (check if possible, otherwise fold): the table never waits on someone gone.
        """
        async with self._lock:
            for seat_no, pending in list(self.seating.pending.items()):
                if pending.user_id == user_id:
                    del self.seating.pending[seat_no]
                    await self.publish(Notice(f"{pending.name} no longer waits for a seat."))
                    return True
            seat = self.seating.require(user_id)
            if self._in_hand(seat.seat_no):
                seat.leaving = True
                await self.publish(Notice(f"{seat.name} will leave after this hand."))
                await self._play_for_leavers()
                return self.seat_of(user_id) is None
            await self.seating.remove(seat, "left the table")
            await self._after_membership_change()
            return True

    async def sit_out(self, user_id: int) -> None:
        """Stop being dealt in from the next hand (the seat and chips stay)."""
        async with self._lock:
            seat = self.seating.require(user_id)
            if seat.sitting_out:
                raise TableError("You are already sitting out.")
            seat.sitting_out = True
            seat.sit_out_reason = "by choice"
            await self.publish(PlayerSatOut(seat.seat_no, seat.name, user_id, "by choice"))
            await self._publish_table()
            await self._play_for_leavers()  # away: no waiting on their turns in this hand

    async def back(self, user_id: int) -> None:
        """Be dealt in again from the next hand."""
        async with self._lock:
            seat = self.seating.require(user_id)
            if not seat.sitting_out:
                raise TableError("You are not sitting out.")
            if seat.stack + seat.pending_rebuy == 0:
                raise TableError("You have no chips at this table: rebuy first.")
            seat.sitting_out = False
            seat.timeouts = 0
            seat.hands_sat_out = 0
            await self.publish(PlayerReturned(seat.seat_no, seat.name, user_id))
            await self._publish_table()
            await self._maybe_start_hand()

    async def rebuy(
        self, user_id: int, amount: int | None = None, *, key: str | None = None
    ) -> int:
        """Add chips to a seat, up to the maximum buy-in; during a hand it applies after it.

        The maximum is checked against the stack the seat has now (its chips in the pot
        already gone), and again when the rebuy applies. Returns the chips added (or to be).
        """
        async with self._lock:
            seat = self.seating.require(user_id)
            in_hand = self._in_hand(seat.seat_no)
            player = self.order.player(seat.seat_no)
            stack = self.hand.stacks[player] if in_hand and self.hand and player is not None else 0
            room = self.seating.rebuy_room(seat, stack if in_hand else seat.stack)
            amount = room if amount is None else amount
            _check_rebuy(amount, room, self.settings.max_buy_in)
            if in_hand:
                if await self.storage.balance(self.guild_id, user_id) < amount:
                    raise BuyInError(f"You do not have {amount:,} chips.")
                seat.pending_rebuy += amount
                await self.publish(Notice(f"{seat.name} adds {amount:,} chips after this hand."))
                return amount
            request = key or f"{seat.identity}:rebuy:after-hand:{self.hand_id}:from:{seat.stack}"
            await self.seating.rebuy(seat, amount, request)
            await self._publish_table()
            await self._maybe_start_hand()
            return amount

    async def stop(self, user_id: int, *, is_admin: bool = False) -> bool:
        """End the table after the current hand (host or admin only). True if closed already."""
        async with self._lock:
            if user_id != self.host_user_id and not is_admin:
                raise TableError("Only the player who opened this table or an admin can stop it.")
            self._require_open()
            self.status = TableLifecycle.STOPPING
            if self.hand is None:
                await self._close("stopped")
                return True
            await self.publish(Notice("The table closes after this hand."))
            await self._publish_table()
            return False

    async def change_options(
        self, user_id: int, changes: Mapping[str, Any], *, is_admin: bool = False
    ) -> HoldemSettings:
        """Change home-game options (host or admin only), from the next hand."""
        async with self._lock:
            self._require_open()
            settings = await apply_option_changes(self, user_id, changes, is_admin=is_admin)
            await self._publish_table()
            return settings

    async def suspend(self, reason: str = "Felt is restarting") -> None:
        """Pause for a shutdown: void an unfinished hand (stacks back to its start), deal no more.

        Seats and chips stay at the table in storage, so ``restore`` brings it back as it was.
        """
        async with self._lock:
            self._suspended = True
            self._cancel_timers()
            if self.status is TableLifecycle.CLOSED:
                return
            hand = self.hand
            if hand is not None and not hand.is_complete:
                for seat_no, stack in (await self._void_hand(reason)).items():
                    if seat_no in self.seats:
                        self.seats[seat_no].stack = stack
                self.hand = None
                self.order = SeatOrder()
                await self.publish(HandCancelled(self.hand_id, reason))
            await self.publish(Notice(f"{reason}: this table will be back in a moment."))

    async def _void_hand(self, reason: str) -> dict[int, int]:
        """Cancel the unfinished hand durably; each seat's stack from before it, by seat."""
        key = f"holdem:{self.table_id}:hand:{self.hand_id}:void"
        voided = await move_chips(
            "void",
            lambda: self.storage.void_hand(self.table_id, self.hand_id, reason=reason, key=key),
        )
        return dict(voided.stacks)

    async def close(self, reason: str) -> None:
        """Close now: an unfinished hand is voided and every seat cashed out."""
        async with self._lock:
            if self.status is TableLifecycle.CLOSED:
                return
            if self.hand is not None and not self.hand.is_complete:
                await self.publish(HandCancelled(self.hand_id, reason))
            await self._close(reason)

    # -------------------------------------------------------------------- acting

    async def act(self, user_id: int, hand_id: int, action_count: int, action: Action) -> None:
        """Apply a member's action offered at (``hand_id``, ``action_count``)."""
        async with self._lock:
            offer = self.check_offer(user_id, hand_id, action_count)
            hand = self.hand
            player = self.order.player(offer.seat_no)
            assert hand is not None and player is not None
            try:
                events = hand.act(player, action)
            except EngineError as error:
                raise InvalidActionError(_sentence(str(error))) from None
            self.seats[offer.seat_no].timeouts = 0
            self.preactions.forget(offer.seat_no)
            await self._after_events(events, automatic=False)

    # ------------------------------------------------------------------ home games

    async def choose_runs(self, user_id: int, hand_id: int, count: int) -> None:
        """A member all in answers how many times to run the board."""
        async with self._lock:
            await choose_runs(self, user_id, hand_id, count)

    async def rabbit_hunt(self, user_id: int, hand_id: int) -> None:
        """A member dealt into the hand just finished sees the cards that would have come."""
        async with self._lock:
            await rabbit_hunt(self, user_id, hand_id)

    async def show_cards(self, user_id: int, hand_id: int, cards: tuple[int, ...]) -> None:
        """A member dealt into the hand just finished shows hole cards nobody saw."""
        async with self._lock:
            await reveal(self, user_id, hand_id, cards)


def _check_rebuy(amount: int, room: int, maximum: int) -> None:
    if room <= 0:
        raise BuyInError(f"You already have the maximum buy-in ({maximum:,}).")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise BuyInError("A rebuy must be a positive whole number of chips.")
    if amount > room:
        raise BuyInError(f"You can add at most {room:,} chips (the maximum buy-in is {maximum:,}).")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
