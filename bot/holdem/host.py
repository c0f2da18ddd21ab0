"""The Hold'em table host: one table's lifecycle, between the engine, storage and a front.

The host owns the seats and buy-ins (through storage), deals hands with the engine, knows whose
turn it is, runs turn timers and bot pacing on an injected ``Scheduler``, settles every hand in
storage, handles sitting out and leaving, and can be rebuilt from storage after a restart. It
never imports Discord: a front (Discord or terminal) calls its methods and receives
``TableEvent``s through a ``Presenter``.

Every method that changes the table takes the table's lock, so a double click, a timer and a bot
can never act at once; each action carries the hand id and the action number it was offered
for, so a stale or repeated click is refused and one click applies exactly once. Chips move only
through storage, each movement keyed for idempotency: a retried request is applied once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.holdem.errors import (
    AlreadySeatedError,
    BuyInError,
    InvalidActionError,
    NotSeatedError,
    NotYourTurnError,
    StaleActionError,
    TableClosedError,
    TableError,
    TableFullError,
)
from bot.holdem.events import (
    ActionTaken,
    HandFinished,
    HandsTabled,
    HandStarted,
    HandVoided,
    HoleCards,
    Notice,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PlayerSatOut,
    PotResult,
    SeatSnapshot,
    ShownHand,
    StreetDealt,
    TableChanged,
    TableClosed,
    TableEvent,
    TableSnapshot,
    TableStatus,
    TurnStarted,
)
from bot.holdem.settings import HoldemSettings
from bot.render.models import SeatStatus
from bot.tables.clock import Scheduler, TimerHandle
from engine.bots import TableStats
from engine.bots.runner import HandBot
from engine.cards import Card
from engine.errors import EngineError
from engine.holdem import (
    Action,
    ActionKind,
    BetReturned,
    BoardDealt,
    CardsShown,
    Check,
    Event,
    Fold,
    Hand,
    PlayerActed,
    PotAwarded,
    Stakes,
    phh,
)
from storage import (
    BalanceLimitExceeded,
    InsufficientChips,
    InvalidAmount,
    SeatResult,
    Storage,
    TableInfo,
)

_log = logging.getLogger("felt.holdem")

STREET_NAMES = ("Preflop", "Flop", "Turn", "River")
TIMEOUTS_BEFORE_SITTING_OUT = 2
BOT_NAMES = (
    "Ada",
    "Turing",
    "Hopper",
    "Knuth",
    "Lovelace",
    "Shannon",
    "Dijkstra",
    "Babbage",
    "Boole",
    "Church",
)


class Presenter(Protocol):
    """Where a table's events go. Must return quickly: queue slow work (Discord requests)."""

    async def publish(self, event: TableEvent) -> None: ...


class BotPlayer(Protocol):
    """A bot seat's brain: picks a legal action for engine player ``player``.

    ``decide`` runs in a worker thread; it must only read the hand.
    """

    def decide(self, hand: Hand, player: int) -> Action: ...


BotFactory = Callable[[str, str, random.Random], BotPlayer]
"""Builds a bot from (bot name, strategy name, its own random generator)."""

EquityFunction = Callable[[Sequence[tuple[Card, ...]], Sequence[Card]], Sequence[float]]
"""Chances to win or share for face-up hands on a partial board (runs in a worker thread)."""


@dataclass(slots=True)
class _Seat:
    seat_no: int
    name: str
    stack: int
    user_id: int | None
    bot: BotPlayer | None = None
    bot_name: str | None = None
    sitting_out: bool = False
    sit_out_reason: str = ""
    leaving: bool = False
    timeouts: int = 0
    hands_sat_out: int = 0
    pending_rebuy: int = 0

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass(slots=True)
class _PendingJoin:
    user_id: int
    name: str
    buy_in: int
    key: str


class HoldemTable:
    """One Hold'em table. Create with ``HoldemTable.create`` or ``HoldemTable.restore``."""

    def __init__(
        self,
        *,
        storage: Storage,
        table_id: int,
        guild_id: int,
        channel_id: int,
        name: str,
        host_user_id: int | None,
        settings: HoldemSettings,
        scheduler: Scheduler,
        presenter: Presenter,
        bots: BotFactory,
        equity: EquityFunction | None = None,
        rng: random.Random | None = None,
        last_hand_id: int = 0,
    ) -> None:
        self.storage = storage
        self.table_id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.name = name
        self.host_user_id = host_user_id
        self.settings = settings
        self.status = TableStatus.OPEN
        self.hand: Hand | None = None
        self.hand_id = last_hand_id
        self.seats: dict[int, _Seat] = {}
        self._scheduler = scheduler
        self._presenter = presenter
        self._bots = bots
        self._equity = equity
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self._lock = asyncio.Lock()
        self._order: list[int] = []
        self._button: int | None = None
        self._turn_timer: TimerHandle | None = None
        self._deadline: float | None = None
        self._next_hand_timer: TimerHandle | None = None
        self._pending: dict[int, _PendingJoin] = {}
        self._running_pot = 0
        self._last_actions: dict[int, str] = {}
        self.stats = TableStats()
        """Public statistics of everyone who played here, for the bots to read."""
        self._closed = asyncio.Event()
        self._suspended = False

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
        presenter: Presenter,
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
        presenter: Presenter,
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
            if seat.is_bot:
                bot_name = seat.bot_name or f"Bot {seat.seat_no}"
                table.seats[seat.seat_no] = table._new_bot_seat(seat.seat_no, bot_name, seat.stack)
            else:
                table.seats[seat.seat_no] = _Seat(
                    seat.seat_no, seat.display_name or f"Player {seat.seat_no}", seat.stack,
                    seat.user_id,
                )  # fmt: skip
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
        return self.status is TableStatus.CLOSED

    async def wait_closed(self) -> None:
        """Wait until the table has closed."""
        await self._closed.wait()

    def seat_of(self, user_id: int) -> int | None:
        """The seat number of a member, if seated."""
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat.seat_no
        return None

    def hole_cards(self, user_id: int) -> tuple[int, tuple[Card, ...]] | None:
        """(hand id, cards) of the member's hand in progress, for their eyes only."""
        seat_no = self.seat_of(user_id)
        if self.hand is None or seat_no is None or seat_no not in self._order:
            return None
        return self.hand_id, tuple(self.hand.hole_cards[self._order.index(seat_no)])

    def snapshot(self) -> TableSnapshot:
        """The table as everyone may see it."""
        hand = self.hand
        seats = []
        to_act_seat: int | None = None
        if hand is not None and hand.turn is not None:
            to_act_seat = self._order[hand.turn.player]
        won = self._winnings()
        blinds = self._blind_seats()
        for seat_no in sorted(self.seats):
            seat = self.seats[seat_no]
            bet, status, description = 0, self._idle_status(seat), ""
            shown: tuple[Card, ...] = ()
            if hand is not None and seat_no in self._order:
                player = self._order.index(seat_no)
                bet = hand.bets[player]
                stack = hand.stacks[player]
                # A hand shown at showdown stays in view even when it lost (the engine stops
                # counting losers as live before it builds the pots).
                if not hand.live[player] and not hand.shown[player]:
                    status = SeatStatus.FOLDED
                elif hand.stacks[player] == 0 and not hand.is_complete:
                    status = SeatStatus.ALL_IN
                else:
                    status = SeatStatus.ACTIVE
                if hand.shown[player]:
                    shown = tuple(hand.hole_cards[player])
                    value = hand.value_of(player)
                    description = value.description if value is not None else ""
            else:
                stack = seat.stack
            seats.append(
                SeatSnapshot(
                    seat_no=seat_no,
                    name=seat.name,
                    user_id=seat.user_id,
                    is_bot=seat.is_bot,
                    stack=stack,
                    bet=bet,
                    status=status,
                    is_button=seat_no == self._button and hand is not None,
                    is_to_act=seat_no == to_act_seat,
                    is_small_blind=seat_no == blinds[0],
                    is_big_blind=seat_no == blinds[1],
                    shown_cards=shown,
                    description=description,
                    last_action=self._last_actions.get(seat_no, ""),
                    won=won.get(seat_no, 0),
                )
            )
        live_hand = hand is not None and not hand.is_complete
        return TableSnapshot(
            table_id=self.table_id,
            name=self.name,
            status=self.status,
            seat_count=self.settings.seats,
            small_blind=self.settings.small_blind,
            big_blind=self.settings.big_blind,
            ante=self.settings.ante,
            hand_id=self.hand_id if hand is not None else None,
            street=_street_name(hand),
            board=tuple(hand.board) if hand is not None else (),
            pots=tuple(pot.amount for pot in hand.pots()) if live_hand and hand else (),
            total_pot=hand.pot_total if hand is not None else 0,
            to_act_seat=to_act_seat,
            deadline=self._deadline if to_act_seat is not None else None,
            legal=hand.turn if live_hand and hand else None,
            action_count=hand.action_count if hand is not None else 0,
            seats=tuple(seats),
        )

    def _player_keys(self) -> list[tuple[str, int | str]]:
        """A stable identity for each player of the hand, in PHH order."""
        keys: list[tuple[str, int | str]] = []
        for seat_no in self._order:
            seat = self.seats[seat_no]
            keys.append(("user", seat.user_id) if seat.user_id is not None else ("bot", seat.name))
        return keys

    def _winnings(self) -> dict[int, int]:
        won: dict[int, int] = {}
        if self.hand is not None and self.hand.is_complete:
            for event in self.hand.events:
                if isinstance(event, PotAwarded):
                    for player, share in event.shares:
                        seat_no = self._order[player]
                        won[seat_no] = won.get(seat_no, 0) + share
        return won

    def _blind_seats(self) -> tuple[int | None, int | None]:
        """(small blind seat, big blind seat) of the hand in progress."""
        if self.hand is None or len(self._order) < 2:
            return None, None
        if len(self._order) == 2:  # heads-up: the button posts the small blind
            return self._order[1], self._order[0]
        return self._order[0], self._order[1]

    def _idle_status(self, seat: _Seat) -> SeatStatus:
        return SeatStatus.SITTING_OUT if seat.sitting_out else SeatStatus.WAITING

    # ------------------------------------------------------------------ membership

    async def join(
        self, user_id: int, name: str, buy_in: int | None = None, *, key: str | None = None
    ) -> int:
        """Seat a member with ``buy_in`` chips (default: the table's default buy-in).

        Takes an empty seat, or a bot's seat (at once between hands, else from the next hand).
        Returns the seat number.
        """
        async with self._lock:
            self._require_open()
            if self.seat_of(user_id) is not None or any(
                pending.user_id == user_id for pending in self._pending.values()
            ):
                raise AlreadySeatedError("You already have a seat at this table.")
            amount = self.settings.default_buy_in if buy_in is None else buy_in
            self._check_buy_in(amount, 0)
            request = key or self._fresh_key("join", user_id)
            await self.storage.ensure_account(self.guild_id, user_id)
            free = [n for n in range(1, self.settings.seats + 1) if n not in self.seats]
            free = [n for n in free if n not in self._pending]
            if free:
                seat_no = free[0]
                await self._buy_in(seat_no, user_id, name, amount, request)
                await self._publish_table()
                await self._maybe_start_hand()
                return seat_no
            bot_seats = [
                seat.seat_no
                for seat in self.seats.values()
                if seat.is_bot and seat.seat_no not in self._pending
            ]
            if not bot_seats:
                raise TableFullError("This table is full. Try again when someone leaves.")
            seat_no = bot_seats[-1]
            if self.hand is None:
                await self._remove_seat(self.seats[seat_no], "made room for a player")
                await self._buy_in(seat_no, user_id, name, amount, request)
                await self._publish_table()
                await self._maybe_start_hand()
                return seat_no
            if await self.storage.balance(self.guild_id, user_id) < amount:
                raise BuyInError(f"You do not have {amount:,} chips for that buy-in.")
            self._pending[seat_no] = _PendingJoin(user_id, name, amount, request)
            bot = self.seats[seat_no].name
            await self._publish(Notice(f"{name} takes {bot}'s seat from the next hand."))
            return seat_no

    async def leave(self, user_id: int) -> bool:
        """Leave and cash out: now between hands, else at the end of the hand (returns False)."""
        async with self._lock:
            for seat_no, pending in list(self._pending.items()):
                if pending.user_id == user_id:
                    del self._pending[seat_no]
                    await self._publish(Notice(f"{pending.name} no longer waits for a seat."))
                    return True
            seat = self._require_seat(user_id)
            if self._in_hand(seat.seat_no):
                seat.leaving = True
                await self._publish(Notice(f"{seat.name} will leave after this hand."))
                return False
            await self._remove_seat(seat, "left the table")
            await self._after_membership_change()
            return True

    async def sit_out(self, user_id: int) -> None:
        """Stop being dealt in from the next hand (the seat and chips stay)."""
        async with self._lock:
            seat = self._require_seat(user_id)
            if seat.sitting_out:
                raise TableError("You are already sitting out.")
            seat.sitting_out = True
            seat.sit_out_reason = "by choice"
            await self._publish(PlayerSatOut(seat.seat_no, seat.name, user_id, "by choice"))
            await self._publish_table()

    async def back(self, user_id: int) -> None:
        """Be dealt in again from the next hand."""
        async with self._lock:
            seat = self._require_seat(user_id)
            if not seat.sitting_out:
                raise TableError("You are not sitting out.")
            if seat.stack + seat.pending_rebuy == 0:
                raise TableError("You have no chips at this table: rebuy first.")
            seat.sitting_out = False
            seat.timeouts = 0
            seat.hands_sat_out = 0
            await self._publish(PlayerReturned(seat.seat_no, seat.name, user_id))
            await self._publish_table()
            await self._maybe_start_hand()

    async def rebuy(
        self, user_id: int, amount: int | None = None, *, key: str | None = None
    ) -> int:
        """Add chips to a seat, up to the maximum buy-in; during a hand it applies after it.

        Returns the chips added (or to be added).
        """
        async with self._lock:
            seat = self._require_seat(user_id)
            top_up = self.settings.max_buy_in - seat.stack - seat.pending_rebuy
            if amount is None:
                amount = top_up
            if top_up <= 0:
                raise BuyInError(
                    f"You already have the maximum buy-in ({self.settings.max_buy_in:,})."
                )
            if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
                raise BuyInError("A rebuy must be a positive whole number of chips.")
            if amount > top_up:
                raise BuyInError(
                    f"You can add at most {top_up:,} chips (the maximum buy-in is "
                    f"{self.settings.max_buy_in:,})."
                )
            if self._in_hand(seat.seat_no):
                if await self.storage.balance(self.guild_id, user_id) < amount:
                    raise BuyInError(f"You do not have {amount:,} chips.")
                seat.pending_rebuy += amount
                await self._publish(Notice(f"{seat.name} adds {amount:,} chips after this hand."))
                return amount
            await self._apply_rebuy(seat, amount, key or self._fresh_key("rebuy", user_id))
            await self._publish_table()
            await self._maybe_start_hand()
            return amount

    async def stop(self, user_id: int, *, is_admin: bool = False) -> bool:
        """End the table after the current hand (host or admin only). True if closed already."""
        async with self._lock:
            if user_id != self.host_user_id and not is_admin:
                raise TableError("Only the player who opened this table or an admin can stop it.")
            self._require_open()
            self.status = TableStatus.STOPPING
            if self.hand is None:
                await self._close("stopped")
                return True
            await self._publish(Notice("The table closes after this hand."))
            await self._publish_table()
            return False

    async def suspend(self, reason: str = "Felt is restarting") -> None:
        """Pause for a shutdown: void an unfinished hand (stacks back to its start), deal no more.

        Seats and chips stay at the table in storage, so ``restore`` brings it back as it was.
        """
        async with self._lock:
            self._suspended = True
            self._cancel_turn_timer()
            if self._next_hand_timer is not None:
                self._next_hand_timer.cancel()
                self._next_hand_timer = None
            if self.status is TableStatus.CLOSED:
                return
            hand = self.hand
            if hand is not None and not hand.is_complete:
                voided = await self.storage.void_hand(
                    self.table_id,
                    self.hand_id,
                    reason=reason,
                    key=f"holdem:{self.table_id}:hand:{self.hand_id}:void",
                )
                for seat_no, stack in voided.stacks.items():
                    if seat_no in self.seats:
                        self.seats[seat_no].stack = stack
                self.hand = None
                self._order = []
                await self._publish(HandVoided(self.hand_id, reason))
            await self._publish(Notice(f"{reason}: this table will be back in a moment."))

    async def close(self, reason: str) -> None:
        """Close now: an unfinished hand is voided and every seat cashed out."""
        async with self._lock:
            if self.status is TableStatus.CLOSED:
                return
            if self.hand is not None and not self.hand.is_complete:
                await self._publish(HandVoided(self.hand_id, reason))
            await self._close(reason)

    # -------------------------------------------------------------------- acting

    async def act(self, user_id: int, hand_id: int, action_count: int, action: Action) -> None:
        """Apply a member's action offered at (``hand_id``, ``action_count``)."""
        async with self._lock:
            hand = self.hand
            seat_no = self.seat_of(user_id)
            if seat_no is None:
                raise NotSeatedError("You are not seated at this table.")
            if hand is None or hand.is_complete or hand_id != self.hand_id:
                raise StaleActionError("That hand is over.")
            if seat_no not in self._order:
                raise NotYourTurnError("You are not in this hand.")
            player = self._order.index(seat_no)
            if hand.turn is None or hand.turn.player != player:
                raise NotYourTurnError("It is not your turn.")
            if action_count != hand.action_count:
                raise StaleActionError("That button is out of date; use the latest one.")
            try:
                events = hand.act(player, action)
            except EngineError as error:
                raise InvalidActionError(_sentence(str(error))) from None
            self.seats[seat_no].timeouts = 0
            await self._after_events(events, automatic=False)

    async def _bot_turn(self, hand_id: int, action_count: int) -> None:
        async with self._lock:
            hand = self.hand
            if hand is None or hand_id != self.hand_id or hand.action_count != action_count:
                return
            if hand.turn is None:
                return
            player = hand.turn.player
            seat = self.seats[self._order[player]]
            assert seat.bot is not None
            try:
                if isinstance(seat.bot, HandBot):
                    # engine.bots reads its opponents from the table's public statistics.
                    seat.bot.stats = self.stats
                    keys = self._player_keys()
                    action = await asyncio.to_thread(seat.bot.decide, hand, player, keys)
                else:
                    action = await asyncio.to_thread(seat.bot.decide, hand, player)
                events = hand.act(player, action)
            except Exception:
                _log.exception("bot %s failed to act; it checks or folds", seat.name)
                legal = hand.turn
                assert legal is not None
                events = hand.act(player, Check() if legal.can_check else Fold())
            await self._after_events(events, automatic=False)

    async def _timeout(self, hand_id: int, action_count: int) -> None:
        async with self._lock:
            hand = self.hand
            if hand is None or hand_id != self.hand_id or hand.action_count != action_count:
                return
            if hand.turn is None:
                return
            player = hand.turn.player
            seat = self.seats[self._order[player]]
            legal = hand.turn
            assert legal is not None
            seat.timeouts += 1
            events = hand.act(player, Check() if legal.can_check else Fold())
            if seat.timeouts >= TIMEOUTS_BEFORE_SITTING_OUT and seat.user_id is not None:
                seat.sitting_out = True
                seat.sit_out_reason = "timed out twice"
                await self._publish(
                    PlayerSatOut(seat.seat_no, seat.name, seat.user_id, "timed out twice in a row")
                )
            await self._after_events(events, automatic=True)

    # -------------------------------------------------------------------- hand flow

    async def _maybe_start_hand(self) -> None:
        """Deal a new hand if none is running and enough players are in (lock held)."""
        if self.hand is not None or self.status is not TableStatus.OPEN or self._suspended:
            return
        if self._next_hand_timer is not None:
            return  # the pause after the last hand is still running
        await self._fill_bots()
        players = [
            seat_no
            for seat_no in sorted(self.seats)
            if not self.seats[seat_no].sitting_out and self.seats[seat_no].stack > 0
        ]
        humans = [n for n in players if not self.seats[n].is_bot]
        if len(players) < 2 or not humans:
            await self._publish_table()
            return
        self._button = self._next_button(players)
        after = players.index(self._button) + 1
        self._order = players[after:] + players[:after]
        stacks = [self.seats[n].stack for n in self._order]
        hand_id = self.hand_id + 1
        await self.storage.start_hand(
            self.table_id,
            hand_id,
            {n: self.seats[n].stack for n in self._order},
            key=f"holdem:{self.table_id}:hand:{hand_id}:start",
        )
        s = self.settings
        stakes = Stakes.standard(len(players), s.small_blind, s.big_blind, s.ante)
        self.hand = Hand(stakes, stacks, rng=self._rng)
        self.hand_id = hand_id
        self._last_actions = {}
        self._running_pot = self.hand.pot_total
        for seat_no in self._order:
            self.seats[seat_no].hands_sat_out = 0
        await self._publish(HandStarted(hand_id, self._button, tuple(self._order)))
        for player, seat_no in enumerate(self._order):
            user_id = self.seats[seat_no].user_id
            if user_id is not None:
                cards = tuple(self.hand.hole_cards[player])
                await self._publish(HoleCards(hand_id, seat_no, user_id, cards))
        await self._publish_table()
        await self._next_turn()

    def _next_button(self, players: list[int]) -> int:
        if self._button is None:
            return players[self._rng.randrange(len(players))]
        later = [n for n in players if n > self._button]
        return later[0] if later else players[0]

    async def _after_events(self, events: list[Event], *, automatic: bool) -> None:
        hand = self.hand
        assert hand is not None
        shown: list[ShownHand] = []
        for event in events:
            match event:
                case PlayerActed():
                    self._running_pot += event.added
                    await self._publish(self._describe_action(event, automatic))
                case BetReturned(amount=amount):
                    self._running_pot -= amount
                case CardsShown(player=player, cards=cards, description=description):
                    seat = self.seats[self._order[player]]
                    shown.append(ShownHand(seat.seat_no, seat.name, cards, description))
                case BoardDealt(street=street, cards=cards):
                    self._last_actions = {}
                    if shown:  # hands tabled before a board card: an all-in run-out
                        await self._table_hands(shown, events, event)
                        shown = []
                    board = self._board_until(events, event)
                    await self._publish(
                        StreetDealt(
                            self.hand_id, STREET_NAMES[street], cards, board, self._running_pot
                        )
                    )
                case _:
                    pass
        await self._publish_table()
        if hand.is_complete:
            await self._finish_hand()
        else:
            await self._next_turn()

    def _board_until(self, events: list[Event], until: BoardDealt) -> tuple[Card, ...]:
        """The board as it stood when ``until`` was dealt (a run-out deals several at once)."""
        hand = self.hand
        assert hand is not None
        later = 0
        seen = False
        for event in events:
            if event is until:
                seen = True
            elif seen and isinstance(event, BoardDealt):
                later += len(event.cards)
        return tuple(hand.board[: len(hand.board) - later])

    async def _table_hands(
        self, shown: list[ShownHand], events: list[Event], first_board: BoardDealt
    ) -> None:
        """All-in before the river: show the hands and each one's chance to win."""
        hand = self.hand
        assert hand is not None
        board = self._board_until(events, first_board)[: -len(first_board.cards)]
        equities: tuple[tuple[int, float], ...] = ()
        if self._equity is not None and len(shown) >= 2:
            try:
                chances = await asyncio.to_thread(
                    self._equity, [s.cards for s in shown], list(board)
                )
                equities = tuple(zip((s.seat_no for s in shown), chances, strict=True))
            except Exception:
                _log.exception("equity calculation failed")
        await self._publish(HandsTabled(self.hand_id, board, tuple(shown), equities))

    def _describe_action(self, event: PlayerActed, automatic: bool) -> ActionTaken:
        seat = self.seats[self._order[event.player]]
        match event.kind:
            case ActionKind.FOLD:
                text = f"{seat.name} folds"
            case ActionKind.CHECK:
                text = f"{seat.name} checks"
            case ActionKind.CALL:
                text = f"{seat.name} calls {event.added:,}"
            case ActionKind.BET:
                text = f"{seat.name} bets {event.bet_to:,}"
            case ActionKind.RAISE:
                text = f"{seat.name} raises to {event.bet_to:,}"
        if event.all_in and event.kind is not ActionKind.FOLD:
            text += " (all-in)"
        self._last_actions[seat.seat_no] = (
            "All-in" if event.all_in and event.kind is not ActionKind.FOLD
            else text.removeprefix(seat.name).strip().capitalize()
        )  # fmt: skip
        if automatic:
            text += " (timed out)"
        return ActionTaken(
            self.hand_id,
            seat.seat_no,
            seat.name,
            event.kind,
            event.bet_to,
            event.all_in,
            automatic,
            text,
        )

    async def _next_turn(self) -> None:
        hand = self.hand
        assert hand is not None
        self._cancel_turn_timer()
        if hand.turn is None:
            return
        player = hand.turn.player
        seat = self.seats[self._order[player]]
        hand_id, count = self.hand_id, hand.action_count
        if seat.bot is not None:
            self._deadline = None
            self._turn_timer = self._scheduler.call_later(
                self.settings.bot_delay_seconds, lambda: self._bot_turn(hand_id, count)
            )
            return
        assert seat.user_id is not None
        legal = hand.turn
        assert legal is not None
        self._deadline = self._scheduler.now() + self.settings.turn_seconds
        self._turn_timer = self._scheduler.call_later(
            self.settings.turn_seconds, lambda: self._timeout(hand_id, count)
        )
        await self._publish(
            TurnStarted(hand_id, count, seat.seat_no, seat.user_id, self._deadline, legal)
        )
        await self._publish_table()

    def _cancel_turn_timer(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        self._deadline = None

    async def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        self._cancel_turn_timer()
        final = {seat_no: hand.stacks[p] for p, seat_no in enumerate(self._order)}
        names = [self.seats[n].name for n in self._order]
        results: dict[int, SeatResult] = {}
        pots: list[PotResult] = []
        for event in hand.events:
            if isinstance(event, PotAwarded):
                winners = tuple(
                    (self._order[p], names[p], share) for p, share in event.shares if share
                )
                pots.append(PotResult(event.pot, event.amount, winners, event.description))
                for p, share in event.shares:
                    if share:
                        seat_no = self._order[p]
                        best = max(results.get(seat_no, SeatResult()).pot_won, event.amount)
                        results[seat_no] = SeatResult(won=True, pot_won=best)
        text = phh.dumps(
            phh.from_hand(
                hand,
                hand=self.hand_id,
                table=self.name,
                players=names,
                seats=list(self._order),
                seat_count=self.settings.seats,
            )
        )
        await self.storage.settle_hand(
            self.table_id,
            self.hand_id,
            final,
            phh=text,
            results=results,
            key=f"holdem:{self.table_id}:hand:{self.hand_id}:settle",
        )
        for seat_no, stack in final.items():
            self.seats[seat_no].stack = stack
        self.stats.record(hand.events, self._player_keys())
        # Hands tabled before an all-in run-out were described on a partial board: describe
        # every shown hand on the final one.
        shown = tuple(
            ShownHand(self._order[e.player], names[e.player], e.cards, _described(hand, e.player))
            for e in hand.events
            if isinstance(e, CardsShown)
        )
        net = tuple(
            (seat_no, names[p], hand.stacks[p] - hand.starting_stacks[p])
            for p, seat_no in enumerate(self._order)
        )
        result = HandFinished(
            self.hand_id, tuple(hand.board), tuple(pots), shown, net, self.snapshot()
        )
        await self._publish(result)
        await self._between_hands()

    async def _between_hands(self) -> None:
        """Apply what waited for the hand's end, then schedule the next hand."""
        dealt = set(self._order)
        self.hand = None
        self._order = []
        for seat in list(self.seats.values()):
            if seat.seat_no not in dealt and seat.sitting_out and seat.user_id is not None:
                seat.hands_sat_out += 1
                if seat.hands_sat_out >= self.settings.max_sit_out_hands:
                    seat.leaving = True
            if seat.pending_rebuy and not seat.leaving:
                amount, seat.pending_rebuy = seat.pending_rebuy, 0
                try:
                    await self._apply_rebuy(seat, amount, self._fresh_key("rebuy", seat.user_id))
                except (TableError, InsufficientChips, InvalidAmount, BalanceLimitExceeded) as e:
                    await self._publish(Notice(f"{seat.name}'s rebuy failed: {e}"))
            if seat.leaving:
                reason = "left the table"
                if seat.hands_sat_out >= self.settings.max_sit_out_hands:
                    reason = f"sat out {seat.hands_sat_out} hands"
                await self._remove_seat(seat, reason)
            elif seat.stack == 0 and seat.user_id is not None and not seat.sitting_out:
                seat.sitting_out = True
                seat.sit_out_reason = "out of chips"
                await self._publish(
                    PlayerSatOut(seat.seat_no, seat.name, seat.user_id, "out of chips: rebuy")
                )
        for seat_no, pending in list(self._pending.items()):
            del self._pending[seat_no]
            if seat_no in self.seats:
                await self._remove_seat(self.seats[seat_no], "made room for a player")
            try:
                await self._buy_in(
                    seat_no, pending.user_id, pending.name, pending.buy_in, pending.key
                )
            except (TableError, InsufficientChips, InvalidAmount, BalanceLimitExceeded) as error:
                await self._publish(Notice(f"{pending.name} could not sit down: {error}"))
        if self.status is TableStatus.STOPPING:
            await self._close("stopped")
            return
        await self._after_membership_change(schedule=True)

    async def _after_membership_change(self, *, schedule: bool = False) -> None:
        if not any(not seat.is_bot for seat in self.seats.values()) and not self._pending:
            await self._close("no players are left")
            return
        await self._publish_table()
        if schedule:
            self._schedule_next_hand()
        else:
            await self._maybe_start_hand()

    def _schedule_next_hand(self) -> None:
        if self._next_hand_timer is not None:
            self._next_hand_timer.cancel()

        async def deal() -> None:
            async with self._lock:
                self._next_hand_timer = None
                await self._maybe_start_hand()

        self._next_hand_timer = self._scheduler.call_later(
            self.settings.between_hands_seconds, deal
        )

    # ------------------------------------------------------------------- chips and seats

    async def _buy_in(self, seat_no: int, user_id: int, name: str, amount: int, key: str) -> None:
        try:
            change = await self.storage.buy_in(
                self.table_id, seat_no, user_id, amount, key=key, display_name=name
            )
        except InsufficientChips:
            balance = await self.storage.balance(self.guild_id, user_id)
            raise BuyInError(
                f"You have {balance:,} chips; a buy-in of {amount:,} needs more."
            ) from None
        except (InvalidAmount, BalanceLimitExceeded) as error:
            raise BuyInError(str(error)) from None
        self.seats[seat_no] = _Seat(seat_no, name, change.stack, user_id)
        await self._publish(PlayerJoined(seat_no, name, user_id, amount))

    async def _apply_rebuy(self, seat: _Seat, amount: int, key: str) -> None:
        try:
            change = await self.storage.rebuy(self.table_id, seat.seat_no, amount, key=key)
        except InsufficientChips:
            raise BuyInError(f"You do not have {amount:,} chips.") from None
        except (InvalidAmount, BalanceLimitExceeded) as error:
            raise BuyInError(str(error)) from None
        seat.stack = change.stack
        if seat.sitting_out and seat.sit_out_reason == "out of chips" and seat.user_id is not None:
            seat.sitting_out = False
            await self._publish(PlayerReturned(seat.seat_no, seat.name, seat.user_id))
        await self._publish(Notice(f"{seat.name} adds {amount:,} chips."))

    async def _remove_seat(self, seat: _Seat, reason: str) -> None:
        cash = await self.storage.cash_out(
            self.table_id, seat.seat_no, key=self._fresh_key("cashout", seat.seat_no)
        )
        del self.seats[seat.seat_no]
        await self._publish(PlayerLeft(seat.seat_no, seat.name, seat.user_id, cash.amount, reason))

    async def _fill_bots(self) -> None:
        """Seat bots in empty chairs up to the table's bot count; refund busted bots."""
        humans = sum(1 for seat in self.seats.values() if not seat.is_bot)
        bots = [seat for seat in self.seats.values() if seat.is_bot]
        wanted = 0
        if humans:
            wanted = min(self.settings.bots, self.settings.seats - humans - len(self._pending))
        for seat in sorted(bots, key=lambda s: -s.seat_no)[: max(0, len(bots) - wanted)]:
            if seat.seat_no not in self._pending:
                await self._remove_seat(seat, "made room")
        for seat in [s for s in self.seats.values() if s.is_bot]:
            if seat.stack < self.settings.big_blind:
                await self._apply_bot_refill(seat)
        count = sum(1 for seat in self.seats.values() if seat.is_bot)
        used = {seat.bot_name for seat in self.seats.values() if seat.is_bot}
        names = [name for name in BOT_NAMES if name not in used]
        for seat_no in range(1, self.settings.seats + 1):
            if count >= wanted or not names:
                break
            if seat_no in self.seats or seat_no in self._pending:
                continue
            bot_name = names.pop(0)
            amount = self.settings.default_buy_in
            change = await self.storage.seat_bot(
                self.table_id,
                seat_no,
                bot_name,
                amount,
                key=self._fresh_key("bot", seat_no),
            )
            seat = self._new_bot_seat(seat_no, bot_name, change.stack)
            self.seats[seat_no] = seat
            count += 1
            await self._publish(PlayerJoined(seat_no, seat.name, None, amount))

    async def _apply_bot_refill(self, seat: _Seat) -> None:
        amount = self.settings.default_buy_in - seat.stack
        if amount > 0:
            change = await self.storage.rebuy(
                self.table_id, seat.seat_no, amount, key=self._fresh_key("botrefill", seat.seat_no)
            )
            seat.stack = change.stack

    def _new_bot_seat(self, seat_no: int, bot_name: str, stack: int) -> _Seat:
        strategy = self.settings.bot_strategy
        seed = self._rng.randrange(2**63)
        brain = self._bots(bot_name, strategy, random.Random(seed))
        return _Seat(seat_no, f"🤖 {bot_name}", stack, None, bot=brain, bot_name=bot_name)

    async def _close(self, reason: str) -> None:
        self._cancel_turn_timer()
        if self._next_hand_timer is not None:
            self._next_hand_timer.cancel()
            self._next_hand_timer = None
        closed = await self.storage.close_table(self.table_id, key=f"holdem:{self.table_id}:close")
        names = {seat.seat_no: seat.name for seat in self.seats.values()}
        cash_outs = tuple(
            (names.get(c.seat_no, c.bot_name or "?"), c.user_id, c.amount) for c in closed.cash_outs
        )
        self.seats.clear()
        self._pending.clear()
        self.hand = None
        self._order = []
        self.status = TableStatus.CLOSED
        await self._publish(TableClosed(reason, cash_outs))
        self._closed.set()

    # ------------------------------------------------------------------------ helpers

    def _require_open(self) -> None:
        if self.status is not TableStatus.OPEN:
            raise TableClosedError("This table is closing.")

    def _require_seat(self, user_id: int) -> _Seat:
        seat_no = self.seat_of(user_id)
        if seat_no is None:
            raise NotSeatedError("You are not seated at this table.")
        return self.seats[seat_no]

    def _in_hand(self, seat_no: int) -> bool:
        return self.hand is not None and not self.hand.is_complete and seat_no in self._order

    def _check_buy_in(self, amount: int, stack: int) -> None:
        s = self.settings
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BuyInError("A buy-in must be a whole number of chips.")
        if not s.min_buy_in <= amount + stack <= s.max_buy_in:
            raise BuyInError(f"The buy-in here is {s.min_buy_in:,} to {s.max_buy_in:,} chips.")

    def _fresh_key(self, kind: str, who: object) -> str:
        return f"holdem:{self.table_id}:{kind}:{who}:{uuid.uuid4().hex}"

    async def _publish(self, event: TableEvent) -> None:
        try:
            await self._presenter.publish(event)
        except Exception:  # a front's failure must never break the game or lose chips
            _log.exception("presenter failed on %s", type(event).__name__)

    async def _publish_table(self) -> None:
        await self._publish(TableChanged(self.snapshot()))


def _described(hand: Hand, player: int) -> str:
    value = hand.value_of(player)
    return value.description if value is not None and len(hand.board) == 5 else ""


def _street_name(hand: Hand | None) -> str:
    if hand is None:
        return ""
    return "Showdown" if hand.is_complete else STREET_NAMES[hand.street]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
