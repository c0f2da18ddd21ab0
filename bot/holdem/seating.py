"""``Seating``: who sits where at a Hold'em table, and every chip movement in or out of a seat.

It owns the seats, the members waiting for a bot's chair, pending rebuys, sit-out counters
and bot chairs; it moves chips only through storage, each movement keyed by the occupancy of
the seat it concerns (never at random), so a movement re-sent after a lost answer applies once.
It knows nothing of turns, timers or the hand being played: the host tells it when a hand ends.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.holdem.errors import BuyInError, NotSeatedError, TableError
from bot.holdem.events import (
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PlayerSatOut,
    TableEvent,
)
from bot.holdem.settings import HoldemSettings
from bot.holdem.snapshot import SeatFacts
from bot.tables.events import Notice
from bot.tables.moves import move_chips, seat_key
from engine.bots.personality import Personality, PersonalityError
from engine.holdem import Action, Hand
from storage import BalanceLimitExceeded, InsufficientChips, InvalidAmount, OccupiedSeat, Storage

OUT_OF_CHIPS = "out of chips"
BOT_NAMES = (
    "Ada", "Turing", "Hopper", "Knuth", "Lovelace",
    "Shannon", "Dijkstra", "Babbage", "Boole", "Church",
)  # fmt: skip
_log = logging.getLogger("felt.holdem")
REFUSED = (TableError, InsufficientChips, InvalidAmount, BalanceLimitExceeded)
"""What a movement applied between hands may meet; it is told in the channel, not raised."""


class BotBrain(Protocol):
    """A bot seat's brain: picks a legal action for engine player ``player``.

    ``decide`` runs in a worker thread; it must only read the hand.
    """

    def decide(self, hand: Hand, player: int) -> Action: ...


@runtime_checkable
class PersonalBrain(BotBrain, Protocol):
    """A brain with a personality (``engine.bots.Personality``): how it plays within its level,
    and its name. Seating stores it with the seat and gives it back after a restart."""

    @property
    def personality(self) -> Personality: ...


class BotFactory(Protocol):
    """Builds a bot from its name, strategy name (``smart:hard``) and own random generator;
    with ``personality`` (the one stored with the seat) it plays as before a restart, without
    one a new one is drawn."""

    def __call__(
        self,
        name: str,
        strategy: str,
        rng: random.Random,
        personality: Personality | None = None,
    ) -> BotBrain: ...


Publish = Callable[[TableEvent], Awaitable[None]]


@dataclass(slots=True)
class Seat:
    """One occupied seat. ``identity`` names this occupancy; its movements' keys derive from it."""

    seat_no: int
    name: str
    stack: int
    user_id: int | None
    identity: str
    bot: BotBrain | None = None
    bot_name: str | None = None
    personality: Personality | None = None
    """A bot's personality, as stored with the seat (None for members and simple brains)."""
    sitting_out: bool = False
    sit_out_reason: str = ""
    leaving: bool = False
    timeouts: int = 0
    hands_sat_out: int = 0
    pending_rebuy: int = 0

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def plays_itself(self) -> bool:
        """Leaving or away: the timeout rule plays this seat's turns at once."""
        return self.leaving or self.sitting_out

    def facts(self) -> SeatFacts:
        return SeatFacts(self.seat_no, self.name, self.user_id, self.stack, self.sitting_out)


@dataclass(frozen=True, slots=True)
class PendingJoin:
    """A member who takes a bot's chair when the hand in progress ends."""

    user_id: int
    name: str
    buy_in: int
    key: str


class Seating:
    """The seats of one table and the chips that enter and leave them."""

    def __init__(
        self,
        *,
        storage: Storage,
        table_id: int,
        guild_id: int,
        settings: HoldemSettings,
        bots: BotFactory,
        rng: random.Random,
        publish: Publish,
    ) -> None:
        self.storage = storage
        self.table_id = table_id
        self.guild_id = guild_id
        self.settings = settings
        self.seats: dict[int, Seat] = {}
        self.pending: dict[int, PendingJoin] = {}
        self._bots = bots
        self._rng = rng
        self._publish = publish
        self._vacated: dict[int, str] = {}
        """The identity of each chair's last occupant, so a new bot there has a new key."""

    # ----- queries -----------------------------------------------------------------------------

    def seat_of(self, user_id: int) -> int | None:
        """The seat number of a member, if seated."""
        return next((s.seat_no for s in self.seats.values() if s.user_id == user_id), None)

    def is_waiting(self, user_id: int) -> bool:
        """Whether the member waits to take a bot's chair after this hand."""
        return any(pending.user_id == user_id for pending in self.pending.values())

    def require(self, user_id: int, refusal: str = "You are not seated at this table.") -> Seat:
        """The member's seat, or a refusal."""
        seat_no = self.seat_of(user_id)
        if seat_no is None:
            raise NotSeatedError(refusal)
        return self.seats[seat_no]

    def facts(self) -> tuple[SeatFacts, ...]:
        return tuple(self.seats[n].facts() for n in sorted(self.seats))

    def names(self) -> dict[int, str]:
        return {seat_no: seat.name for seat_no, seat in self.seats.items()}

    def has_members(self) -> bool:
        """Whether any member sits here or waits for a chair."""
        return any(not seat.is_bot for seat in self.seats.values()) or bool(self.pending)

    def players(self) -> list[int]:
        """Seats to deal in: not sitting out, with chips."""
        return [
            n for n in sorted(self.seats) if not self.seats[n].sitting_out and self.seats[n].stack
        ]

    def free_seats(self) -> list[int]:
        return [
            n
            for n in range(1, self.settings.seats + 1)
            if n not in self.seats and n not in self.pending
        ]

    def check_buy_in(self, amount: int, stack: int) -> None:
        """Refuse a buy-in or rebuy that would leave the stack outside the table's limits."""
        s = self.settings
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BuyInError("A buy-in must be a whole number of chips.")
        if not s.min_buy_in <= amount + stack <= s.max_buy_in:
            raise BuyInError(f"The buy-in here is {s.min_buy_in:,} to {s.max_buy_in:,} chips.")

    def rebuy_room(self, seat: Seat, stack: int) -> int:
        """Chips a rebuy may still add to a seat whose stack is (or will be) ``stack``."""
        return self.settings.max_buy_in - stack - seat.pending_rebuy

    # ----- chips in and out --------------------------------------------------------------------

    def restore(self, stored: OccupiedSeat) -> None:
        """Seat again who storage says sits here (after a restart)."""
        who = stored.user_id if stored.user_id is not None else f"bot:{stored.bot_name}"
        since = f"joined:{stored.joined_at.isoformat()}"
        identity = seat_key(self.table_id, stored.seat_no, who, since)
        if stored.is_bot:
            bot_name = stored.bot_name or f"Bot {stored.seat_no}"
            self.seats[stored.seat_no] = self._bot_seat(
                stored.seat_no, bot_name, stored.stack, identity, _stored_personality(stored)
            )
        else:
            name = stored.display_name or f"Player {stored.seat_no}"
            self.seats[stored.seat_no] = Seat(
                stored.seat_no, name, stored.stack, stored.user_id, identity
            )

    async def buy_in(self, seat_no: int, user_id: int, name: str, amount: int, key: str) -> None:
        """Seat a member with chips from their wallet (``key`` comes from their request)."""
        try:
            change = await move_chips(
                "buy-in",
                lambda: self.storage.buy_in(
                    self.table_id, seat_no, user_id, amount, key=key, display_name=name
                ),
            )
        except InsufficientChips:
            balance = await self.storage.balance(self.guild_id, user_id)
            raise BuyInError(
                f"You have {balance:,} chips; a buy-in of {amount:,} needs more."
            ) from None
        except (InvalidAmount, BalanceLimitExceeded) as error:
            raise BuyInError(str(error)) from None
        self.seats[seat_no] = Seat(seat_no, name, change.stack, user_id, key)
        await self._publish(PlayerJoined(seat_no, name, user_id, amount))

    async def rebuy(self, seat: Seat, amount: int, key: str) -> None:
        """Add chips to a seat now (no hand may be running at this seat)."""
        try:
            change = await move_chips(
                "rebuy", lambda: self.storage.rebuy(self.table_id, seat.seat_no, amount, key=key)
            )
        except InsufficientChips:
            raise BuyInError(f"You do not have {amount:,} chips.") from None
        except (InvalidAmount, BalanceLimitExceeded) as error:
            raise BuyInError(str(error)) from None
        seat.stack = change.stack
        if seat.sitting_out and seat.sit_out_reason == OUT_OF_CHIPS and seat.user_id is not None:
            seat.sitting_out = False
            await self._publish(PlayerReturned(seat.seat_no, seat.name, seat.user_id))
        await self._publish(Notice(f"{seat.name} adds {amount:,} chips."))

    async def remove(self, seat: Seat, reason: str) -> None:
        """Cash a seat out to its wallet (or the house, for a bot) and free the chair."""
        cash = await move_chips(
            "cash-out",
            lambda: self.storage.cash_out(
                self.table_id, seat.seat_no, key=f"{seat.identity}:cashout"
            ),
        )
        del self.seats[seat.seat_no]
        self._vacated[seat.seat_no] = seat.identity
        await self._publish(PlayerLeft(seat.seat_no, seat.name, seat.user_id, cash.amount, reason))

    async def fill_bots(self, next_hand: int) -> None:
        """Seat bots in empty chairs up to the table's bot count; refill busted bots."""
        humans = sum(1 for seat in self.seats.values() if not seat.is_bot)
        bots = [seat for seat in self.seats.values() if seat.is_bot]
        wanted = 0
        if humans:
            wanted = min(self.settings.bots, self.settings.seats - humans - len(self.pending))
        for seat in sorted(bots, key=lambda s: -s.seat_no)[: max(0, len(bots) - wanted)]:
            if seat.seat_no not in self.pending:
                await self.remove(seat, "made room")
        for seat in [s for s in self.seats.values() if s.is_bot]:
            if seat.stack < self.settings.big_blind:
                await self._refill(seat, next_hand)
        count = sum(1 for seat in self.seats.values() if seat.is_bot)
        used = {seat.bot_name for seat in self.seats.values() if seat.is_bot}
        names = [name for name in BOT_NAMES if name not in used]
        for seat_no in self.free_seats():
            if count >= wanted or not names:
                break
            await self._seat_bot(seat_no, names.pop(0), next_hand)
            count += 1

    async def _seat_bot(self, seat_no: int, bot_name: str, next_hand: int) -> None:
        amount = self.settings.default_buy_in
        before = hashlib.sha1(self._vacated.get(seat_no, "").encode()).hexdigest()[:12]
        since = f"hand:{next_hand}:after:{before}"
        identity = seat_key(self.table_id, seat_no, f"bot:{bot_name}", since)
        # The bot draws its personality as it sits; the seat keeps it for a restart.
        seat = self._bot_seat(seat_no, bot_name, 0, identity)
        text = seat.personality.text if seat.personality is not None else None
        change = await move_chips(
            "bot seating",
            lambda: self.storage.seat_bot(
                self.table_id, seat_no, bot_name, amount, key=identity, personality=text
            ),
        )
        seat.stack = change.stack
        self.seats[seat_no] = seat
        await self._publish(PlayerJoined(seat_no, seat.name, None, amount))

    async def _refill(self, seat: Seat, next_hand: int) -> None:
        amount = self.settings.default_buy_in - seat.stack
        if amount > 0:
            key = f"{seat.identity}:refill:hand:{next_hand}"
            change = await move_chips(
                "bot refill",
                lambda: self.storage.rebuy(self.table_id, seat.seat_no, amount, key=key),
            )
            seat.stack = change.stack

    def _bot_seat(
        self,
        seat_no: int,
        bot_name: str,
        stack: int,
        identity: str,
        personality: Personality | None = None,
    ) -> Seat:
        seed = self._rng.randrange(2**63)
        brain = self._bots(
            bot_name, self.settings.bot_strategy, random.Random(seed), personality=personality
        )
        if isinstance(brain, PersonalBrain):
            personality = brain.personality
        return Seat(seat_no, f"🤖 {bot_name}", stack, None, identity, brain, bot_name, personality)

    # ----- after a hand ------------------------------------------------------------------------

    async def after_hand(self, dealt: set[int], hand_id: int) -> None:
        """Apply what waited for the end of hand ``hand_id``: counters, rebuys, leavers, joins."""
        for seat in list(self.seats.values()):
            if seat.seat_no not in dealt and seat.sitting_out and seat.user_id is not None:
                seat.hands_sat_out += 1
                if seat.hands_sat_out >= self.settings.max_sit_out_hands:
                    seat.leaving = True
            if seat.pending_rebuy and not seat.leaving:
                await self._deferred_rebuy(seat, hand_id)
            if seat.leaving:
                reason = "left the table"
                if seat.hands_sat_out >= self.settings.max_sit_out_hands:
                    reason = f"sat out {seat.hands_sat_out} hands"
                await self.remove(seat, reason)
            elif seat.stack == 0 and seat.user_id is not None and not seat.sitting_out:
                seat.sitting_out = True
                seat.sit_out_reason = OUT_OF_CHIPS
                await self._publish(
                    PlayerSatOut(seat.seat_no, seat.name, seat.user_id, "out of chips: rebuy")
                )
        for seat_no, pending in list(self.pending.items()):
            del self.pending[seat_no]
            if seat_no in self.seats:
                await self.remove(self.seats[seat_no], "made room for a player")
            try:
                await self.buy_in(
                    seat_no, pending.user_id, pending.name, pending.buy_in, pending.key
                )
            except REFUSED as error:
                await self._publish(Notice(f"{pending.name} could not sit down: {error}"))

    async def _deferred_rebuy(self, seat: Seat, hand_id: int) -> None:
        # Checked again against the stack the hand left: a rebuy never goes past the maximum.
        amount, seat.pending_rebuy = seat.pending_rebuy, 0
        amount = min(amount, self.settings.max_buy_in - seat.stack)
        if amount <= 0:
            await self._publish(
                Notice(f"{seat.name}'s rebuy is not needed: the stack is at the maximum.")
            )
            return
        try:
            await self.rebuy(seat, amount, f"{seat.identity}:rebuy:after-hand:{hand_id}")
        except REFUSED as error:
            await self._publish(Notice(f"{seat.name}'s rebuy failed: {error}"))


def _stored_personality(stored: OccupiedSeat) -> Personality | None:
    """The personality stored with a bot's seat; None (a new one is drawn) for a bot seated
    before seats kept one, or for text that cannot be read (logged: the bot still plays)."""
    if stored.bot_personality is None:
        return None
    try:
        return Personality.parse(stored.bot_personality)
    except PersonalityError:
        _log.warning(
            "table %s seat %s: unreadable bot personality %r; drawing a new one",
            stored.table_id,
            stored.seat_no,
            stored.bot_personality,
        )
        return None
