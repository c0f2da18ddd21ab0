"""The tournament director: runs one tournament's state machine (``engine.tournament``) on
Hold'em table hosts, and keeps it durable.

Each table of the engine's seating is a ``TournamentTable``; the director answers its hooks.
A hand starts with ``deal`` (the clock is advanced first, so a hand always plays the current
level) and ends with ``settle``: the engine records the stacks, busts, rebuys, moves, levels
and the finish, the hand's PHH is kept with its tournament, and the whole state is saved
(compare-and-set) before the table goes on. Tables never wait on each other: a move only
touches tables between hands (the engine's rule), each table is brought in line with the
engine's seating (``_sync``) when it is idle or at its own hand's end, and idle tables are
woken by a timer, never awaited. Lock order: a table's lock, then the director's; the director
never takes a table's lock while it holds its own.

Players are named in the engine ``u<user id>`` (members) or ``b<name>`` (bots). The button
moves (``engine.tournament.seating``: each hand to the next occupied seat, seats emptied by
busts skipped; no dead button).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.holdem.events import TableEvent
from bot.holdem.order import Deal, SeatOrder
from bot.holdem.seating import BotBrain, BotFactory, Seat
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import Callback, Scheduler, TimerHandle
from bot.tables.presenter import Presenter
from bot.tournament import late, reconcile
from bot.tournament.bust_rebuys import REBUY_WINDOW_SECONDS, BustRebuyDesk
from bot.tournament.deals import MAX_DEAL_PLAYERS, DealKind, DealOffer, deal_offer
from bot.tournament.errors import TournamentRefusal
from bot.tournament.memory import Memory, player_key, user_of
from bot.tournament.news import (
    ClockChanged,
    Placing,
    PlayerBusted,
    PlayerMoved,
    TournamentNews,
    TournamentOver,
    TournamentView,
    tournament_view,
)
from bot.tournament.table import TournamentTable
from engine.tournament.events import (
    BustHeld,
    PlayerEliminated,
    PlayerSeated,
    TournamentEvent,
    TournamentFinished,
)
from engine.tournament.seating import SeatReason
from engine.tournament.tournament import Phase, Tournament
from storage import Storage
from storage.tournaments import EntryPayment

_log = logging.getLogger("felt.tournament")


@dataclass(frozen=True, slots=True)
class TableHome:
    """Where a table lives in a front: its host id (unique among tables), channel and
    presenter."""

    table_id: int
    channel_id: int
    presenter: Presenter[TableEvent]


class TournamentFront(Protocol):
    """A front for a running tournament (Discord threads, a test's recorder)."""

    async def open_table(self, table_no: int, known: tuple[int, int] | None) -> TableHome:
        """A home for table ``table_no``; ``known`` is its (table id, channel id) from
        before a restart, to reuse."""
        ...

    def hosted(self, table: TournamentTable) -> None:
        """The table built for ``open_table``'s home (its commands and buttons go to it)."""
        ...

    async def publish(self, news: TournamentNews) -> None: ...


class TournamentDirector:
    """One running tournament. Build with ``bot.tournament.launch``."""

    def __init__(
        self,
        *,
        storage: Storage,
        tournament_id: int,
        guild_id: int,
        engine: Tournament,
        memory: Memory,
        version: int,
        scheduler: Scheduler,
        front: TournamentFront,
        bots: BotFactory,
        settings: HoldemSettings,
        rebuy_window: float = REBUY_WINDOW_SECONDS,
    ) -> None:
        self.storage = storage
        self.tournament_id = tournament_id
        self.guild_id = guild_id
        self.engine = engine
        self.memory = memory
        self.version = version
        self.tables: dict[int, TournamentTable] = {}
        self._scheduler = scheduler
        self._front = front
        self._bots = bots
        self._settings = settings
        self._brains: dict[str, BotBrain] = {}
        self._held: set[int] = set()
        """Tables between their hand's settlement and their own sync."""
        self._lock = asyncio.Lock()
        self._tick: TimerHandle | None = None
        self.deal_offer: DealOffer | None = None
        self._deal_hold = False
        """A deal was asked for: no hand starts until it is taken or called off."""
        self._accepted: dict[DealKind, set[int]] = {}
        self.bust_rebuys = BustRebuyDesk(self, scheduler, self._news, rebuy_window)
        self.done = asyncio.Event()

    @property
    def settling(self) -> frozenset[int]:
        """Tables whose hand is settled but not yet shown and synced."""
        return frozenset(self._held)

    # ------------------------------------------------------------------ opening

    async def open(self) -> None:
        """Build a host for every table of the engine's seating and start dealing."""
        async with self._lock:
            # Rebuys and add-ons paid just before a crash, the save not made: apply or refund.
            entries = await self.storage.tournament_entries(self.tournament_id)
            events, settled = await reconcile.settle_payments(self, entries)
            for table_no in sorted(self.engine.seating.tables):
                await self._open_table(table_no)
            for told in settled:
                await self._news(told)
            await self._apply(events)  # saves, tells and syncs; the tournament message
            self._schedule_tick()
            self.bust_rebuys.resume()
        for table in list(self.tables.values()):
            await table.kick()

    async def _open_table(self, table_no: int) -> TournamentTable:
        home = await self._front.open_table(table_no, self.memory.homes.get(table_no))
        self.memory.homes[table_no] = (home.table_id, home.channel_id)
        table = TournamentTable(
            storage=self.storage,
            table_id=home.table_id,
            guild_id=self.guild_id,
            channel_id=home.channel_id,
            name=f"{self.engine.config.name} · table {table_no}",
            host_user_id=None,
            settings=self._settings,
            scheduler=self._scheduler,
            presenter=home.presenter,
            bots=self._bots,
            rng=random.Random(f"felt-tournament-deck:{self.engine.config.seed}:{table_no}"),
            last_hand_id=self.memory.hands.get(table_no, 0),
        )
        table.attach(self, table_no)
        table.show_level(self.engine.level)
        self.tables[table_no] = table
        self._front.hosted(table)
        self._sync(table)
        return table

    # ------------------------------------------------------------------ the table's hooks

    async def deal(self, table: TournamentTable) -> Deal | None:
        """The next hand at ``table``, or None (a break, too few players, the end)."""
        async with self._lock:
            await self._advance_clock()
            engine, table_no = self.engine, table.table_no
            if not engine.can_start_hand(table_no) or table_no in self._held or self._deal_hold:
                return None
            self._sync(table)
            setup = engine.start_hand(table_no)
            table.show_level(engine.level)
            stacks = dict(zip(setup.seats, setup.stacks, strict=True))
            return Deal(SeatOrder(setup.seats), stacks, setup.stakes)

    async def settle(
        self, table: TournamentTable, final_stacks: Mapping[int, int], phh: str
    ) -> None:
        """Record a finished hand: the engine's result, its history, the saved state."""
        async with self._lock:
            setup = self.engine.busy[table.table_no]
            by_seat = dict(zip(setup.seats, setup.entries, strict=True))
            stacks = {by_seat[seat]: stack for seat, stack in final_stacks.items()}
            self._held.add(table.table_no)
            hold = self.bust_rebuys.hold(stacks)
            events = self.engine.finish_hand(table.table_no, stacks, hold=hold)
            self.memory.hands[table.table_no] = table.hand_id
            await self._save()
            # After the save: a hand lost to a crash before it is voided, never kept twice.
            await self.storage.record_tournament_hand(
                self.tournament_id, table.table_no, table.hand_id, level=setup.level, phh=phh
            )
            await self._apply(events, saved=True)

    def void(self, table: TournamentTable) -> dict[int, int]:
        """Forget the hand in play at ``table`` (a shutdown): the stacks from before it."""
        setup = self.engine.busy.get(table.table_no)
        if setup is None:
            return {}
        self.engine.void_hand(table.table_no)
        return dict(zip(setup.seats, setup.stacks, strict=True))

    async def after_hand(self, table: TournamentTable) -> None:
        """A table's hand is over and shown: bring its seats in line, or close it."""
        async with self._lock:
            self._held.discard(table.table_no)
            if table.table_no in self.engine.seating.tables and not self._over:
                self._sync(table)
                return
            self.tables.pop(table.table_no, None)
        reason = "the tournament is over" if self._over else "this table broke"
        await table._close(reason)  # the table's lock is held: it called us
        self._finish_if_done()

    # ------------------------------------------------------------------ the engine's events

    @property
    def _over(self) -> bool:
        return self.engine.phase is not Phase.RUNNING

    async def _apply(self, events: list[TournamentEvent], *, saved: bool = False) -> None:
        """Save, tell the front, open and sync tables, then pay out if it is over (lock held)."""
        if not saved:
            await self._save()
        finished: TournamentFinished | None = None
        for event in events:
            match event:
                case PlayerEliminated(player=player, place=place):
                    name = self.memory.names.get(player, player)
                    await self._news(PlayerBusted(name, user_of(player), place))
                case PlayerSeated(move=move) if move.reason is not SeatReason.DRAW:
                    player = self.engine.entries[move.entry].player
                    name = self.memory.names.get(player, player)
                    moved = PlayerMoved(
                        name, user_of(player), move.from_table, move.table, move.seat, move.reason
                    )
                    await self._news(moved)
                case TournamentFinished():
                    finished = event
                case BustHeld(entry=entry):
                    await self.bust_rebuys.offered(entry)
                    self._schedule_tick()
                case _:
                    pass
        for table_no in sorted(self.engine.seating.tables):
            if table_no not in self.tables and not self._over:
                await self._open_table(table_no)
        await self._rearrange()
        if finished is not None:
            await self._pay(finished)
        await self._news(ClockChanged(self.view()))

    async def _rearrange(self) -> None:
        """Bring idle tables in line with the engine; close those that broke; wake the rest."""
        for table_no, table in list(self.tables.items()):
            if table_no in self._held or table_no in self.engine.busy or table.hand is not None:
                continue
            if table_no not in self.engine.seating.tables or self._over:
                del self.tables[table_no]
                reason = "the tournament is over" if self._over else "this table broke"
                self._scheduler.call_later(0.0, self._closer(table, reason))
                continue
            self._sync(table)
            if not table.dealing:
                self._scheduler.call_later(0.0, table.kick)

    def _closer(self, table: TournamentTable, reason: str) -> Callback:
        async def close() -> None:
            await table.finish(reason)
            self._finish_if_done()

        return close

    def _finish_if_done(self) -> None:
        if self._over and not self.tables:
            self.done.set()

    async def _pay(self, finished: TournamentFinished) -> None:
        """Places and prizes by player (a re-entered player: best place, prizes summed)."""
        places: dict[int | str, int] = {}
        prizes: dict[int | str, int] = {}
        placings: list[Placing] = []
        for result in finished.results:
            user = user_of(result.player)
            key: int | str = user if user is not None else result.player[1:]
            places[key] = min(places.get(key, result.place), result.place)
            prizes[key] = prizes.get(key, 0) + result.prize
            name = self.memory.names.get(result.player, result.player)
            placings.append(Placing(result.place, name, user, result.prize))
        await self.storage.finish_tournament(
            self.tournament_id, places, prizes, key=f"tournament:{self.tournament_id}:finish"
        )
        if self._tick is not None:
            self._tick.cancel()
        await self._news(TournamentOver(tuple(placings), finished.by_deal))
        self._finish_if_done()

    # ------------------------------------------------------------------ purchases and deals

    async def buy(self, user_id: int, payment: EntryPayment) -> str:
        """A rebuy, add-on or re-entry for a member, paid into the pool first; what happened,
        in a sentence. Between hands only for the member's table (refused otherwise)."""
        player = player_key(user_id, None)
        if payment is EntryPayment.RE_ENTRY:  # one path for every entry after the start
            seat = await self.enter_late(user_id, self.memory.names.get(player, player))
            return f"Done: you re-entered at table {seat.table}, seat {seat.seat}."
        async with self._lock:
            entry = self.engine.entry_of(player)
            number = entry.number if entry is not None else 0
            count = reconcile.bought(self.engine, player, payment)
            if not _may_buy(self.engine, number, payment):
                raise TournamentRefusal(_NOT_NOW[payment])
            key = f"tournament:{self.tournament_id}:{player}:{payment.value}:{count + 1}"
            await self.storage.pay_tournament_entry(self.tournament_id, user_id, payment, key=key)
            if payment is EntryPayment.REBUY:
                events = self.engine.rebuy(number)
            else:
                events = self.engine.add_on(number)
            await self._apply(events)
        chips = self.engine.entry_of(player)
        return f"Done: you have {chips.stack if chips else 0:,} chips."

    async def enter_late(self, user_id: int, name: str) -> late.LateEntry:
        """A member's late registration or re-entry (``bot.tournament.late.enter``)."""
        async with self._lock:
            await self._advance_clock()
            events, entry = await late.enter(self, user_id, name)
            await self._apply(events)
            await self._news(entry)
            return entry

    async def decide_rebuy(self, player: str, take: bool) -> None:
        """``player`` takes or declines the rebuy offered at their bust (``bust_rebuys``)."""
        async with self._lock:
            if not self._over:
                await self._advance_clock()  # an offer past its deadline has ended
            await self._apply(await self.bust_rebuys.decide(player, take))
            self._schedule_tick()

    async def offer_deal(self) -> DealOffer:
        """ICM and chip-chop splits of the prizes left, from the stacks now. No hand starts
        from the first ask until the deal is taken or called off; while one is in play, the
        ask is refused (ask again when it ends: the stacks must be settled)."""
        async with self._lock:
            engine = self.engine
            if self._over or engine.registration_open:
                raise TournamentRefusal("A deal is made once registration has closed.")
            if engine.players_left > MAX_DEAL_PLAYERS:
                raise TournamentRefusal(f"A deal is for {MAX_DEAL_PLAYERS} players or fewer.")
            self._deal_hold = True
            if engine.busy:
                raise TournamentRefusal("No new hand starts now: ask again when this one ends.")
            if self.deal_offer is None:
                self.deal_offer = deal_offer(engine, self.memory.names)
                self._accepted = {}
            return self.deal_offer

    async def accept_deal(self, offer: DealOffer, user_id: int, kind: DealKind) -> bool:
        """``user_id`` accepts ``kind`` of ``offer``; True when that made everyone agree and
        the deal ended the tournament."""
        async with self._lock:
            if offer is not self.deal_offer:
                raise TournamentRefusal("That deal is no longer on offer.")
            if user_id not in offer.members:
                raise TournamentRefusal("Only the players still in can accept a deal.")
            if not offer.bots_accept(kind):
                raise TournamentRefusal("The bots still in decline a chip-chop; ICM only.")
            agreed = self._accepted.setdefault(kind, set())
            agreed.add(user_id)
            if agreed != offer.members:
                return False
            self.deal_offer, self._deal_hold = None, False
            amounts = dict(zip(offer.entries, offer.split(kind).amounts, strict=True))
            await self._apply(self.engine.deal(amounts))
            return True

    async def call_off_deal(self) -> None:
        """No deal: the tables deal again."""
        async with self._lock:
            self.deal_offer, self._deal_hold = None, False
            await self._rearrange()

    # ------------------------------------------------------------------ the clock

    async def _advance_clock(self) -> None:
        if self._over:
            return
        now = max(self._scheduler.now(), self.engine.clock.now)
        events = self.engine.advance_clock(now)
        if events:
            await self._apply(events)
            self._schedule_tick()

    def _schedule_tick(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
        due = self.engine.next_deadline
        if due is None or self._over:
            return
        self._tick = self._scheduler.call_later(due - self._scheduler.now(), self._on_tick)

    async def _on_tick(self) -> None:
        async with self._lock:
            self._tick = None
            await self._advance_clock()
            self._schedule_tick()

    # ------------------------------------------------------------------ seats

    def _sync(self, table: TournamentTable) -> None:
        """Make the host's seats the engine's row for this table (between hands only)."""
        row = self.engine.seating.tables.get(table.table_no, {})
        for seat_no, seat in list(table.seats.items()):
            entry = row.get(seat_no)
            player = seat.identity.rsplit(":", 1)[-1]
            if seat.sitting_out:
                self.memory.away.add(player)
            elif seat.user_id is not None:
                self.memory.away.discard(player)
            if entry is None or self.engine.entries[entry].player != player:
                table.unseat(seat_no)
        for seat_no, entry in row.items():
            state = self.engine.entries[entry]
            if seat_no in table.seats:
                table.seats[seat_no].stack = state.stack
                continue
            player = state.player
            user = user_of(player)
            brain = None if user is not None else self._brain(player)
            name = self.memory.names.get(player, player)
            if brain is not None:
                name = f"🤖 {name}"
            identity = f"tournament:{self.tournament_id}:{player}"
            seat = Seat(seat_no, name, state.stack, user, identity, brain, name if brain else None)
            table.place(seat, away=player in self.memory.away)

    def _brain(self, player: str) -> BotBrain:
        brain = self._brains.get(player)
        if brain is None:
            rng = random.Random(f"felt-tournament-bot:{self.engine.config.seed}:{player}")
            brain = self._bots(player[1:], self._settings.bot_strategy, rng)
            self._brains[player] = brain
        return brain

    # ------------------------------------------------------------------ saving and telling

    async def _save(self) -> None:
        state = {"engine": self.engine.to_dict(), "director": self.memory.to_dict()}
        self.version = await self.storage.save_tournament_state(
            self.tournament_id, state, self.version + 1
        )

    async def _news(self, news: TournamentNews) -> None:
        try:
            await self._front.publish(news)
        except Exception:
            _log.exception("tournament front failed on %s", type(news).__name__)

    def view(self) -> TournamentView:
        """The tournament message's facts."""
        return tournament_view(self.tournament_id, self.engine, self.memory.names)


_NOT_NOW = {
    EntryPayment.REBUY: "No rebuy now: rebuys are for stacks at or below the starting stack, "
    "between your hands, during the rebuy levels.",
    EntryPayment.ADD_ON: "No add-on now: it is sold once, during the add-on break.",
}


def _may_buy(engine: Tournament, entry: int, payment: EntryPayment) -> bool:
    if payment is EntryPayment.REBUY:
        return entry > 0 and engine.can_rebuy(entry)
    return entry > 0 and engine.can_add_on(entry)
