"""The life of a Hold'em hand under its table's lock: dealing, turns, timers, settlement.

``HandLifecycle`` holds what the hand in progress needs (the engine hand, its ``SeatOrder``,
the turn and next-hand timers) and runs it from the deal to storage's settlement and the pause
before the next one. Every method here runs with the table's lock held; the commands members
send, which take the lock, are ``HoldemTable``'s (``bot.holdem.host``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence

from bot.holdem import home_after, home_runs
from bot.holdem.errors import TableClosingError
from bot.holdem.events import (
    HandDealt,
    HandFinished,
    HandsTabled,
    HoldemTableClosed,
    HoleCards,
    Offer,
    TableChanged,
    TableEvent,
    TableLifecycle,
    TableSnapshot,
    TurnStarted,
)
from bot.holdem.home_flow import HomeFlow
from bot.holdem.ledger import closing_session
from bot.holdem.narrate import HandSummary, narrate, posted, summarise
from bot.holdem.order import Deal, SeatOrder, next_button, timeout_action, to_act
from bot.holdem.preactions import PreActions
from bot.holdem.rail import Rail
from bot.holdem.seating import BotFactory, Seat, Seating
from bot.holdem.settings import HoldemSettings
from bot.holdem.snapshot import TableState, table_snapshot
from bot.holdem.timebank import TimeBanks
from bot.tables.clock import Scheduler, TimerHandle
from bot.tables.moves import move_chips
from bot.tables.presenter import Presenter
from engine.bots import DecisionFacts, SeatView, TableStats, think_time
from engine.bots.runner import HandBot
from engine.cards import Card
from engine.holdem import Action, Event, Hand, Phase, phh
from storage import Bounty, Storage

_log = logging.getLogger("felt.holdem")

EquityFunction = Callable[[Sequence[tuple[Card, ...]], Sequence[Card]], Sequence[float]]
"""Chances to win or share for face-up hands on a partial board (runs in a worker thread)."""


class HandLifecycle(HomeFlow):
    """A table's hand in progress and its timers; ``HoldemTable`` adds the commands."""

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
        presenter: Presenter[TableEvent],
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
        self.status = TableLifecycle.OPEN
        self.hand: Hand | None = None
        self.hand_id = last_hand_id
        self.order = SeatOrder()
        self._scheduler = scheduler
        self._presenter = presenter
        self._equity = equity
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self.seating = Seating(
            storage=storage,
            table_id=table_id,
            guild_id=guild_id,
            settings=settings,
            bots=bots,
            rng=self._rng,
            publish=self.publish,
        )
        self._lock = asyncio.Lock()
        self._button: int | None = None
        self._turn_timer: TimerHandle | None = None
        self._deadline: float | None = None
        self._next_hand_timer: TimerHandle | None = None
        self._next_hand_at: float | None = None
        self._running_pot = 0
        self._last_actions: dict[int, str] = {}
        self.stats = TableStats()
        """Public statistics of everyone who played here, for the bots to read."""
        self._closed = asyncio.Event()
        self._suspended = False
        self.time_banks, self.preactions, self.rail = TimeBanks(), PreActions(), Rail()
        self.run_consent = home_runs.RunConsent()
        self.finished_hand: home_after.FinishedHand | None = None

    # --------------------------------------------------------------------- queries

    @property
    def seats(self) -> dict[int, Seat]:
        """The occupied seats by number."""
        return self.seating.seats

    def seat_of(self, user_id: int) -> int | None:
        """The seat number of a member, if seated."""
        return self.seating.seat_of(user_id)

    def snapshot(self) -> TableSnapshot:
        """The table as everyone may see it."""
        state = TableState(
            table_id=self.table_id,
            name=self.name,
            status=self.status,
            settings=self.settings,
            hand_id=self.hand_id,
            seats=self.seating.facts(),
            last_actions=dict(self._last_actions),
            next_hand_at=self._next_hand_at,
            time_bank=self.time_banks.running is not None,
            rail=self.rail.names(),
        )
        snapshot = table_snapshot(state, self.hand, self.order, self._deadline)
        return home_after.decorate(home_runs.decorate(snapshot, self), self)

    # -------------------------------------------------------------------- turns

    async def _bot_turn(self, hand_id: int, action_count: int) -> None:
        """A bot decides at once, then seems to think for as long as a person would over that
        decision (``engine.bots.think_time``: trash folds quickly, all-ins take the table's
        whole bot delay) before its action is played."""
        async with self._lock:
            hand = self.hand
            player = to_act(hand) if hand is not None else None
            if not self._still(hand_id, action_count) or hand is None or player is None:
                return
            seat = self.seats[self.order.seat(player)]
            assert seat.bot is not None
            try:
                if isinstance(seat.bot, HandBot):
                    # engine.bots reads its opponents from the table's public statistics.
                    seat.bot.stats = self.stats
                    keys = self._player_keys()
                    action = await asyncio.to_thread(seat.bot.decide, hand, player, keys)
                else:
                    action = await asyncio.to_thread(seat.bot.decide, hand, player)
                facts = DecisionFacts.of(SeatView.from_hand(hand, player), action)
            except Exception:
                _log.exception("bot %s failed to act; it checks or folds", seat.name)
                action = timeout_action(hand)
                facts = DecisionFacts.of(SeatView.from_hand(hand, player), action)
            # The spread is drawn from the turn itself, not the table's generator, so seeded
            # tables deal the same cards whatever the bots think.
            jitter = random.Random(f"think:{self.table_id}:{hand_id}:{action_count}").random()
            pause = think_time(facts, self.settings.bot_delay_seconds, jitter)
            self._turn_timer = self._scheduler.call_later(
                pause, lambda: self._bot_act(hand_id, action_count, action)
            )

    async def _bot_act(self, hand_id: int, action_count: int, action: Action) -> None:
        async with self._lock:
            hand = self.hand
            player = to_act(hand) if hand is not None else None
            if not self._still(hand_id, action_count) or hand is None or player is None:
                return
            try:
                events = hand.act(player, action)
            except Exception:
                _log.exception("bot in seat %s chose an illegal action", self.order.seat(player))
                events = hand.act(player, timeout_action(hand))
            await self._after_events(events, automatic=False)

    async def _timeout(self, hand_id: int, action_count: int) -> None:
        async with self._lock:
            hand = self.hand
            player = to_act(hand) if hand is not None else None
            if not self._still(hand_id, action_count) or hand is None or player is None:
                return
            seat = self.seats[self.order.seat(player)]
            if await self.start_time_bank(seat, hand_id, action_count):
                return
            events = hand.act(player, timeout_action(hand))
            await self.publish_missed_turn(seat)
            await self._after_events(events, automatic=True)

    def _still(self, hand_id: int, action_count: int) -> bool:
        hand = self.hand
        return (
            hand is not None
            and hand_id == self.hand_id
            and hand.action_count == action_count
            and not hand.is_complete
        )

    async def _play_for_leavers(self) -> None:
        """Play at once, by the timeout rule, every turn of a player who has left (lock held)."""
        hand = self.hand
        while hand is not None and self.hand is hand and not hand.is_complete:
            player = to_act(hand)
            if player is None or not self.seats[self.order.seat(player)].plays_itself:
                return
            if hand.phase is Phase.RUN_COUNT:
                return  # leavers answer the run count in ``home_runs.ask_run_counts``
            events = hand.act(player, timeout_action(hand))
            await self._after_events(events, automatic=True, leavers=False)

    # -------------------------------------------------------------------- hand flow

    async def _maybe_start_hand(self) -> None:
        """Deal a new hand if none is running and enough players are in (lock held)."""
        if self.hand is not None or self.status is not TableLifecycle.OPEN or self._suspended:
            return
        if self._next_hand_timer is not None:
            return  # the pause after the last hand is still running
        hand_id = self.hand_id + 1
        deal = await self._next_deal(hand_id)
        if deal is None:
            await self._publish_table()
            return
        order, self._button = deal.order, deal.order.seats[-1]
        hand = Hand(
            deal.stakes, [deal.stacks[n] for n in order], rng=self._rng, options=deal.options
        )
        self.hand, self.order, self.hand_id = hand, order, hand_id
        self.finished_hand = None
        self._last_actions = {}
        self._running_pot = posted(hand.events)
        for seat_no in order:
            self.seats[seat_no].hands_sat_out = 0
        await self.publish(HandDealt(hand_id, self._button, order.seats))
        for player, seat_no in enumerate(order):
            user_id = self.seats[seat_no].user_id
            if user_id is not None:
                cards = tuple(hand.hole_cards[player])
                await self.publish(HoleCards(hand_id, seat_no, user_id, cards))
        # A hand can be over as soon as it is dealt (everyone all in on the blinds and antes):
        # the deal's own events go the same way as any action's, on to settlement.
        await self._after_events(list(hand.events), automatic=False)

    async def _next_deal(self, hand_id: int) -> Deal | None:
        """Hand ``hand_id``'s players, stacks and stakes, durable before its first action (None:
        no hand now). A tournament table (``bot.tournament.table``) takes them from its level."""
        await self.seating.fill_bots(hand_id)
        players = self.seating.players()
        if len(players) < 2 or not any(not self.seats[n].is_bot for n in players):
            return None
        order = SeatOrder.around(players, next_button(self._button, players, self._rng))
        stacks = {n: self.seats[n].stack for n in order}
        key = f"holdem:{self.table_id}:hand:{hand_id}:start"
        await move_chips(
            "hand start", lambda: self.storage.start_hand(self.table_id, hand_id, stacks, key=key)
        )
        stakes, options = home_runs.hand_setup(self.settings, hand_id, len(players))
        return Deal(order, stacks, stakes, options)

    async def _after_events(
        self, events: list[Event], *, automatic: bool, leavers: bool = True
    ) -> None:
        hand = self.hand
        assert hand is not None
        await home_runs.announce(self, events)
        told = narrate(
            events,
            hand,
            self.order,
            self.seating.names(),
            hand_id=self.hand_id,
            running_pot=self._running_pot,
            last_actions=self._last_actions,
            automatic=automatic,
        )
        self._last_actions = dict(told.last_actions)
        self._running_pot = told.running_pot
        for event in told.events:
            if isinstance(event, HandsTabled):
                await self.publish(await self._with_equities(event))
            else:
                await self.publish(event)
        if hand.is_complete:
            # No table picture of its own: the result carries it, so the shown cards are never
            # on the table message before the hand's result is published.
            await self._finish_hand()
            return
        if hand.phase is Phase.RUN_COUNT:
            await home_runs.ask_run_counts(self)
            return
        await self._publish_table()
        if leavers and self._leaver_to_act():
            await self._play_for_leavers()
        else:
            await self._next_turn()

    def _leaver_to_act(self) -> bool:
        player = to_act(self.hand) if self.hand is not None else None
        return player is not None and self.seats[self.order.seat(player)].plays_itself

    async def _with_equities(self, tabled: HandsTabled) -> HandsTabled:
        """All-in before the river: each shown hand's chance to win (in a worker thread)."""
        if self._equity is None or len(tabled.hands) < 2:
            return tabled
        try:
            chances = await asyncio.to_thread(
                self._equity, [s.cards for s in tabled.hands], list(tabled.board)
            )
        except Exception:
            _log.exception("equity calculation failed")
            return tabled
        equities = tuple(zip((s.seat_no for s in tabled.hands), chances, strict=True))
        return HandsTabled(tabled.hand_id, tabled.board, tabled.hands, equities)

    async def _next_turn(self) -> None:
        hand = self.hand
        assert hand is not None
        self._cancel_turn_timer()
        player = to_act(hand)
        if player is None:
            return
        seat = self.seats[self.order.seat(player)]
        hand_id, count = self.hand_id, hand.action_count
        if seat.bot is not None:
            # The bot's pause comes after its decision (see ``_bot_turn``).
            self._turn_timer = self._scheduler.call_later(
                0.0, lambda: self._bot_turn(hand_id, count)
            )
            return
        assert seat.user_id is not None
        turn = hand.turn
        assert turn is not None
        if (chosen := self.preactions.take(seat.seat_no, hand_id, hand, turn)) is not None:
            await self._after_events(hand.act(player, chosen), automatic=False)
            return
        offer = Offer.of(turn, seat.seat_no)
        self._deadline = self._scheduler.now() + self.settings.turn_seconds
        self._turn_timer = self._scheduler.call_later(
            self.settings.turn_seconds, lambda: self._timeout(hand_id, count)
        )
        await self.publish(
            TurnStarted(hand_id, count, seat.seat_no, seat.user_id, self._deadline, offer)
        )
        await self._publish_table()

    async def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        self._cancel_turn_timer()
        self.run_consent.cancel()
        names = self.seating.names()
        summary = summarise(hand, self.order, names)
        text = phh.dumps(
            phh.from_hand(
                hand,
                hand=self.hand_id,
                table=self.name,
                players=[names[n] for n in self.order],
                seats=list(self.order),
                seat_count=self.settings.seats,
            )
        )
        owed = await self._settle(hand, summary, text)
        self.stats.record(hand.events, self._player_keys())
        await self.publish(
            HandFinished(
                self.hand_id,
                tuple(hand.board),
                summary.pots,
                summary.shown,
                summary.net,
                self.snapshot(),
            )
        )
        if owed:
            await self.publish(home_after.bounty_event(self.hand_id, owed, names))
        await self._between_hands()

    async def _settle(self, hand: Hand, summary: HandSummary, text: str) -> list[Bounty]:
        """Make the finished hand's result durable and update the seats' stacks; returns the
        7-2 bounties paid at showdown (a cash table: storage's settlement with its bounties)."""
        return await home_after.settle(self, hand, summary, text)

    async def _between_hands(self) -> None:
        """Apply what waited for the hand's end, then schedule the next hand."""
        dealt = set(self.order)
        self.hand = None
        self.order = SeatOrder()
        await self.seating.after_hand(dealt, self.hand_id)
        await self.after_hand_flow()
        if self.status is TableLifecycle.STOPPING:
            await self._close("stopped")
            return
        await self._after_membership_change(schedule=True)

    async def _after_membership_change(self, *, schedule: bool = False) -> None:
        if not self.seating.has_members():
            await self._close("no players are left")
            return
        if schedule:
            self._schedule_next_hand()
            await self._publish_table()
        else:
            await self._publish_table()
            await self._maybe_start_hand()

    def _schedule_next_hand(self) -> None:
        if self._next_hand_timer is not None:
            self._next_hand_timer.cancel()

        async def deal() -> None:
            async with self._lock:
                self._next_hand_timer = None
                self._next_hand_at = None
                await self._maybe_start_hand()

        delay = self.settings.between_hands_seconds
        # The countdown only promises a hand when one can be dealt.
        if len(self.seating.players()) >= 2 or self.seating.pending:
            self._next_hand_at = self._scheduler.now() + delay
        self._next_hand_timer = self._scheduler.call_later(delay, deal)

    async def _close(self, reason: str) -> None:
        self._cancel_timers()
        key = f"holdem:{self.table_id}:close"
        closed = await move_chips("close", lambda: self.storage.close_table(self.table_id, key=key))
        names = self.seating.names()
        cash_outs = tuple(
            (names.get(c.seat_no, c.bot_name or "?"), c.user_id, c.amount) for c in closed.cash_outs
        )
        self.seats.clear()
        self.seating.pending.clear()
        self.hand = None
        self.order = SeatOrder()
        self.status = TableLifecycle.CLOSED
        settled = await closing_session(self.storage, self.table_id)
        await self.publish(HoldemTableClosed(reason, cash_outs, settled))
        self._closed.set()

    # ------------------------------------------------------------------------ helpers

    def _require_open(self) -> None:
        if self.status is not TableLifecycle.OPEN:
            raise TableClosingError("This table is closing.")

    def _in_hand(self, seat_no: int) -> bool:
        return self.hand is not None and not self.hand.is_complete and seat_no in self.order

    def _player_keys(self) -> list[tuple[str, int | str]]:
        """A stable identity for each player of the hand, in PHH order."""
        keys: list[tuple[str, int | str]] = []
        for seat_no in self.order:
            seat = self.seats[seat_no]
            keys.append(("user", seat.user_id) if seat.user_id is not None else ("bot", seat.name))
        return keys

    def _cancel_turn_timer(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        self._deadline = None
        self.time_banks.stop(self._scheduler.now())

    def _cancel_timers(self) -> None:
        self._cancel_turn_timer()
        self.run_consent.cancel()
        if self._next_hand_timer is not None:
            self._next_hand_timer.cancel()
            self._next_hand_timer = None
        self._next_hand_at = None

    async def publish(self, event: TableEvent) -> None:
        """Send an event to the front; a front's failure never breaks the game or loses chips."""
        try:
            await self._presenter.publish(event)
        except Exception:
            _log.exception("presenter failed on %s", type(event).__name__)

    async def _publish_table(self) -> None:
        await self.publish(TableChanged(self.snapshot()))
