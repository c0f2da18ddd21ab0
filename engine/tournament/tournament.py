"""A tournament as a sans-IO state machine: registration, the level clock, hands, eliminations,
rebuys, add-ons, re-entry, table moves and payouts. It never does I/O and never reads a clock.

The host feeds it what happened and takes events out, as with ``engine.holdem.Hand``:

    tournament = Tournament(config)
    tournament.register("alice"); tournament.register("bob"); ...
    events = tournament.start(now)                   # the draw, level 1
    setup = tournament.start_hand(table)             # who plays, stacks, stakes, button
    ... play ``Hand(setup.stakes, setup.stacks)`` ...
    events = tournament.finish_hand(table, final_stacks, rebuys={...})  # busts, moves, levels
    events = tournament.advance_clock(now)           # minutes-based levels and breaks

A bust during the rebuy period may be **held** (``finish_hand(..., hold={entry: until})``):
the entry leaves its table at once (the table plays on without it) but its elimination waits
for ``rebuy_held`` or ``decline_held``, or for ``until`` or the end of the rebuy period
(``advance_clock``), whichever comes first. Places follow the bust order, not the order of the
decisions: a bust queues its group (same-hand busts by starting stack) behind earlier ones, and
a group is placed only once no earlier bust is still held, so a rebuy that brings a held entry
back shifts the places of later busts before anyone is told them. The tournament cannot finish
while a bust is held.

``now`` is seconds on any clock the host likes (wall time or monotonic), as long as it is the
same one throughout. Every method checks everything before it changes anything: a refusal
(``TournamentStateError`` for "not now", ``TournamentSetupError`` for nonsense) leaves the
state exactly as it was. ``can_start_hand`` answers before ``start_hand`` refuses.
``to_dict``/``from_dict`` give a JSON-ready snapshot, so a restarted host resumes the
tournament (voiding a hand in play with ``void_hand``, as cash tables do).

Chips: every entry brings the starting stack; rebuys and add-ons add their chips; a hand only
moves chips between its players (``finish_hand`` refuses a result whose total differs). The
seating rules are ``engine.tournament.seating``'s; the payout and tie rules are
``engine.tournament.payouts``'s.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.holdem.stakes import Stakes
from engine.tournament import payouts
from engine.tournament.errors import TournamentSetupError, TournamentStateError
from engine.tournament.events import (
    AddOnBought,
    BreakStarted,
    BustHeld,
    Finish,
    LevelStarted,
    PlayerEliminated,
    PlayerRegistered,
    PlayerSeated,
    PlayerUnregistered,
    RebuyBought,
    Refund,
    RegistrationClosed,
    TableClosed,
    TournamentCancelled,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from engine.tournament.seating import Move, Seating, SeatReason
from engine.tournament.structure import Break, Format, Level, Structure, parse_structure

MIN_SEATS, MAX_SEATS = 2, 10


class Phase(StrEnum):
    """Where the tournament stands."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What an organiser sets. ``payout_shares`` are custom basis points (1st first; see
    ``payouts.custom_shares``), or ``None`` for the standard curve by entries. ``fee_percent``
    of everything collected is the house's. ``seed`` makes every draw reproducible."""

    name: str
    structure: Structure
    buy_in: int
    format: Format = Format.SIT_AND_GO
    seats_per_table: int = 9
    max_entries: int = 9
    fee_percent: int = 0
    payout_shares: tuple[int, ...] | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.buy_in, int) or self.buy_in < 1:
            raise TournamentSetupError(f"the buy-in must be at least 1 chip, not {self.buy_in!r}")
        if not MIN_SEATS <= self.seats_per_table <= MAX_SEATS:
            raise TournamentSetupError(
                f"tables seat {MIN_SEATS} to {MAX_SEATS}, not {self.seats_per_table}"
            )
        if self.max_entries < 2:
            raise TournamentSetupError(
                f"a tournament needs room for 2 entries, not {self.max_entries}"
            )
        if self.format is Format.SIT_AND_GO and self.max_entries > self.seats_per_table:
            raise TournamentSetupError(
                f"a Sit & Go is one table: at most {self.seats_per_table} entries, "
                f"not {self.max_entries}"
            )
        if self.format is Format.SIT_AND_GO and self.structure.late_registration_levels:
            raise TournamentSetupError("a Sit & Go starts when full: it has no late registration")
        payouts.fee_of(0, self.fee_percent)
        if self.payout_shares is not None:
            payouts.custom_shares([share / 100 for share in self.payout_shares])


@dataclass(frozen=True, slots=True)
class HandSetup:
    """The next hand at a table: entries and seats in PHH order (the button last), their
    stacks, the level's stakes, and the level number."""

    table: int
    button: int
    entries: tuple[int, ...]
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    stakes: Stakes
    level: int


@dataclass(slots=True)
class EntryState:
    """One entry's record (read-only outside this module)."""

    number: int
    player: str
    stack: int
    rebuys: int = 0
    add_ons: int = 0
    place: int | None = None
    busted: bool = False
    """Out of chips and off the tables (a place is given, or waits behind a held bust, or
    the entry's own rebuy decision is held)."""

    @property
    def alive(self) -> bool:
        """Still in the tournament."""
        return self.place is None and not self.busted


@dataclass(frozen=True, slots=True)
class HeldBust:
    """A bust whose elimination waits for a rebuy decision: the deadline (host's clock) and the
    seat it left, to sit back in after a rebuy when that seat is still free."""

    until: float
    table: int
    seat: int


@dataclass(slots=True)
class _Clock:
    step: int = 0
    started_at: float = 0.0
    now: float = 0.0
    hands: dict[int, int] = field(default_factory=dict)
    """Hands finished per table in this step (hand-counted levels)."""


class Tournament:
    """One tournament; see the module docstring."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.phase = Phase.REGISTERING
        self.entries: dict[int, EntryState] = {}
        self.seating = Seating(config.seats_per_table)
        self.clock = _Clock()
        self.busy: dict[int, HandSetup] = {}
        """Tables with a hand in play, and the setup it started from."""
        self.bust_groups: list[list[int]] = []
        """Eliminated entries, worst first; one group per tie."""
        self.held: dict[int, HeldBust] = {}
        """Busts waiting for a rebuy decision."""
        self.unplaced: list[list[int]] = []
        """Busted groups in bust order (worst first) whose places wait behind a held bust."""
        self.registration_open = True
        self.results: tuple[Finish, ...] = ()
        self._draws = 0
        self._index()

    def _index(self) -> None:
        """Rebuild the lookups derived from ``entries`` (each player's entries, how many are
        out), so questions asked every hand do not scan a thousand entries."""
        self._by_player: dict[str, list[int]] = {}
        for entry in self.entries.values():
            self._by_player.setdefault(entry.player, []).append(entry.number)
        self._out = sum(1 for entry in self.entries.values() if not entry.alive)

    # ------------------------------------------------------------------ questions

    @property
    def structure(self) -> Structure:
        """The levels, stacks and rebuy rules."""
        return self.config.structure

    @property
    def alive(self) -> list[EntryState]:
        """Entries still playing, in entry order."""
        return [entry for entry in self.entries.values() if entry.alive]

    @property
    def players_left(self) -> int:
        """How many entries are still playing."""
        return len(self.entries) - self._out

    @property
    def step(self) -> Level | Break:
        """The current level or break."""
        return self.structure.steps[self.clock.step]

    @property
    def level_number(self) -> int:
        """The current level's number (during a break: the level before it)."""
        return self.structure.level_number(self.clock.step)

    @property
    def level(self) -> Level:
        """The level whose blinds the next hand uses (after a break: the next level)."""
        steps = self.structure.steps
        for index in range(self.clock.step, len(steps)):
            step = steps[index]
            if isinstance(step, Level):
                return step
        raise AssertionError("a structure never ends on a break")  # checked by Structure

    @property
    def on_break(self) -> bool:
        """Whether the clock is in a break (no hand may start)."""
        return isinstance(self.step, Break)

    @property
    def next_change_at(self) -> float | None:
        """When the clock moves to the next step (``None``: hand-counted, or the last level)."""
        step = self.step
        if self.clock.step + 1 >= len(self.structure.steps):
            return None
        if isinstance(step, Level) and step.minutes is None:
            return None
        minutes = step.minutes
        assert minutes is not None
        return self.clock.started_at + 60 * minutes

    @property
    def collected(self) -> int:
        """Wallet chips paid in: buy-ins, rebuys and add-ons."""
        payments = sum(1 + e.rebuys + e.add_ons for e in self.entries.values())
        return payments * self.config.buy_in

    @property
    def fee(self) -> int:
        """The house's share of what was collected."""
        return payouts.fee_of(self.collected, self.config.fee_percent)

    @property
    def prize_pool(self) -> int:
        """What is paid out: collected minus the fee."""
        return payouts.prize_pool(self.collected, self.fee)

    @property
    def chips_issued(self) -> int:
        """Tournament chips handed out: starting stacks, rebuys and add-ons."""
        structure = self.structure
        return sum(
            structure.starting_stack
            + e.rebuys * structure.rebuy_chips
            + e.add_ons * structure.add_on_chips
            for e in self.entries.values()
        )

    @property
    def chips_in_play(self) -> int:
        """Tournament chips in the stacks (a hand in play counts its starting stacks)."""
        return sum(entry.stack for entry in self.entries.values())

    def shares(self) -> tuple[int, ...]:
        """The pay table in basis points for the entries so far."""
        return payouts.shares_for(len(self.entries), self.config.payout_shares)

    def prizes(self) -> tuple[int, ...]:
        """The prize for 1st, 2nd, ... place, in wallet chips."""
        return payouts.prizes(self.prize_pool, self.shares())

    def entry_of(self, player: str) -> EntryState | None:
        """``player``'s live entry, if they have one."""
        numbers = self._by_player.get(player)
        if not numbers:
            return None
        entry = self.entries[numbers[-1]]  # earlier entries of a player have all busted
        return entry if entry.alive else None

    def can_start_hand(self, table: int) -> bool:
        """Whether ``start_hand(table)`` would deal a hand now."""
        return (
            self.phase is Phase.RUNNING
            and not self.on_break
            and table in self.seating.tables
            and table not in self.busy
            and self.seating.count(table) >= 2
        )

    # ------------------------------------------------------------------ registration

    def register(self, player: str) -> list[TournamentEvent]:
        """A new entry for ``player`` (a re-entry if they busted before, during late
        registration); once running it is seated at once."""
        if not player:
            raise TournamentSetupError("a player needs a name")
        self._check_can_register(player)
        re_entry = player in self._by_player
        number = len(self.entries) + 1
        self.entries[number] = EntryState(number, player, self.structure.starting_stack)
        self._by_player.setdefault(player, []).append(number)
        events: list[TournamentEvent] = [PlayerRegistered(number, player, re_entry)]
        if self.phase is Phase.RUNNING:
            events.append(PlayerSeated(self.seating.seat_late(number, self._rng())))
            events += self._rearrange()
        return events

    def _check_can_register(self, player: str) -> None:
        if self.phase not in (Phase.REGISTERING, Phase.RUNNING) or not self.registration_open:
            raise TournamentStateError("registration is closed")
        if len(self.entries) >= self.config.max_entries:
            raise TournamentStateError(
                f"the tournament is full ({self.config.max_entries} entries)"
            )
        if self.entry_of(player) is not None:
            raise TournamentStateError(f"{player} is already registered")
        if self.held_entry_of(player) is not None:
            raise TournamentStateError(f"{player} has a rebuy decision to make first")
        used = len(self._by_player.get(player, ()))
        if used and self.phase is Phase.REGISTERING:
            raise TournamentStateError(f"{player} is already registered")
        if used > self.structure.re_entries:
            raise TournamentStateError(
                f"{player} has used every re-entry ({self.structure.re_entries})"
            )

    def unregister(self, player: str) -> list[TournamentEvent]:
        """Withdraw ``player``'s entry before the start (entries are renumbered in order)."""
        if self.phase is not Phase.REGISTERING:
            raise TournamentStateError("entries can only be withdrawn before the start")
        entry = self.entry_of(player)
        if entry is None:
            raise TournamentStateError(f"{player} is not registered")
        rest = [e.player for e in self.entries.values() if e.number != entry.number]
        self.entries = {
            n: EntryState(n, name, self.structure.starting_stack)
            for n, name in enumerate(rest, start=1)
        }
        self._index()
        return [PlayerUnregistered(entry.number, player)]

    def cancel(self) -> list[TournamentEvent]:
        """Call the tournament off (not once finished): everything paid in is due back."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise TournamentStateError(f"the tournament is already {self.phase.value}")
        buy_in = self.config.buy_in
        refunds = tuple(
            Refund(e.number, e.player, buy_in * (1 + e.rebuys + e.add_ons))
            for e in self.entries.values()
        )
        self.phase = Phase.CANCELLED
        self.busy.clear()
        self.held.clear()
        return [TournamentCancelled(refunds)]

    def start(self, now: float) -> list[TournamentEvent]:
        """Draw the seats and start level 1 at time ``now``."""
        if self.phase is not Phase.REGISTERING:
            raise TournamentStateError(f"the tournament is {self.phase.value}, it cannot start")
        if len(self.entries) < 2:
            raise TournamentStateError("a tournament needs at least 2 entries to start")
        self.phase = Phase.RUNNING
        self.clock = _Clock(0, now, now)
        moves = self.seating.draw(list(self.entries), self._rng())
        events: list[TournamentEvent] = [
            TournamentStarted(len(self.entries), len(self.seating.tables))
        ]
        events += [PlayerSeated(move) for move in moves]
        events.append(LevelStarted(1, self.level))
        if not self.structure.late_registration_levels:
            self.registration_open = False
            events.append(RegistrationClosed())
        return events

    # ------------------------------------------------------------------ hands

    def start_hand(self, table: int) -> HandSetup:
        """The next hand at ``table``: the table is in a hand until ``finish_hand`` or
        ``void_hand``."""
        if not self.can_start_hand(table):
            raise TournamentStateError(self._why_no_hand(table))
        button, order = self.seating.next_hand(table)
        row = self.seating.tables[table]
        entries = tuple(row[seat] for seat in order)
        stacks = tuple(self.entries[entry].stack for entry in entries)
        setup = HandSetup(
            table,
            button,
            entries,
            order,
            stacks,
            self.level.stakes(stacks, self.structure.ante_kind),
            self.structure.level_number(self._next_level_step()),
        )
        self.busy[table] = setup
        return setup

    def _why_no_hand(self, table: int) -> str:
        if self.phase is not Phase.RUNNING:
            return f"the tournament is {self.phase.value}"
        if self.on_break:
            return "the tournament is on a break"
        if table not in self.seating.tables:
            return f"there is no table {table}"
        if table in self.busy:
            return f"table {table} is already in a hand"
        return f"table {table} has fewer than 2 players"

    def _next_level_step(self) -> int:
        steps = self.structure.steps
        for index in range(self.clock.step, len(steps)):
            if isinstance(steps[index], Level):
                return index
        return self.clock.step

    def void_hand(self, table: int) -> None:
        """Forget the hand in play at ``table`` (a restart): stacks stay as they were."""
        if table not in self.busy:
            raise TournamentStateError(f"table {table} is not in a hand")
        del self.busy[table]

    def finish_hand(
        self,
        table: int,
        stacks: Mapping[int, int],
        rebuys: Collection[int] = (),
        hold: Mapping[int, float] | None = None,
    ) -> list[TournamentEvent]:
        """Record the hand at ``table``: ``stacks`` maps each entry dealt in to its stack
        after the hand; ``rebuys`` are busted entries that buy back in at once (during the
        rebuy period); ``hold`` maps busted entries whose rebuy decision is still to come to
        its deadline (see the module docstring). Then eliminations, the hand clock, table
        moves and the finish."""
        hold = hold or {}
        setup = self._check_result(table, stacks, rebuys, hold)
        del self.busy[table]
        self.seating.buttons[table] = setup.button
        for entry in setup.entries:
            self.entries[entry].stack = stacks[entry]
        events: list[TournamentEvent] = []
        for entry in sorted(rebuys):
            events.append(self._buy_rebuy(entry))
        events += self._eliminate(setup, hold)
        self.clock.hands[table] = self.clock.hands.get(table, 0) + 1
        events += self._count_hand()
        events += self._end_offers(None)
        events += self._rearrange()
        events += self._finish_if_won()
        return events

    def _check_result(
        self,
        table: int,
        stacks: Mapping[int, int],
        rebuys: Collection[int],
        hold: Mapping[int, float],
    ) -> HandSetup:
        setup = self.busy.get(table)
        if setup is None:
            raise TournamentStateError(f"table {table} is not in a hand")
        if set(stacks) != set(setup.entries):
            raise TournamentSetupError(
                f"the result must give the stack of every entry dealt in at table {table}"
            )
        for entry, stack in stacks.items():
            if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
                raise TournamentSetupError(f"entry {entry}: a stack must be a whole number >= 0")
        if sum(stacks.values()) != sum(setup.stacks):
            raise TournamentSetupError(
                f"the hand at table {table} ended with {sum(stacks.values())} chips, "
                f"not the {sum(setup.stacks)} it started with"
            )
        for entry in rebuys:
            if entry not in stacks or stacks[entry] != 0:
                raise TournamentSetupError(f"entry {entry} did not bust in this hand")
            if not self.may_rebuy(entry, stack=0):
                raise TournamentStateError(f"entry {entry} cannot rebuy now")
        for entry, until in hold.items():
            if entry not in stacks or stacks[entry] != 0 or entry in rebuys:
                raise TournamentSetupError(f"entry {entry} did not bust in this hand")
            if not isinstance(until, int | float) or isinstance(until, bool):
                raise TournamentSetupError(f"entry {entry}: a deadline must be a time")
            if not self.may_rebuy(entry, stack=0):
                raise TournamentStateError(f"entry {entry} cannot rebuy now")
        return setup

    def _eliminate(self, setup: HandSetup, hold: Mapping[int, float]) -> list[TournamentEvent]:
        """Busted entries, ranked by their stack at the start of the hand (bigger finishes
        higher; equal starting stacks tie), queued for their places; those in ``hold`` wait
        for their rebuy decision."""
        busted = [e for e in setup.entries if self.entries[e].stack == 0]
        if not busted:
            return []
        start = dict(zip(setup.entries, setup.stacks, strict=True))
        events: list[TournamentEvent] = []
        for amount in sorted({start[e] for e in busted}):
            group = sorted(e for e in busted if start[e] == amount)
            for entry in group:
                state = self.entries[entry]
                state.busted = True
                self._out += 1
                where = self.seating.where(entry)
                self.seating.remove(entry)
                if entry in hold:
                    assert where is not None  # dealt in, so seated
                    self.held[entry] = HeldBust(hold[entry], where[0], where[1])
                    events.append(BustHeld(entry, state.player, hold[entry]))
            self.unplaced.append(group)
        return events + self._place_ready()

    def _place_ready(self) -> list[TournamentEvent]:
        """Place the queued bust groups that no held bust precedes, in bust order: a group
        finishes below everyone still playing or busted after it."""
        events: list[TournamentEvent] = []
        while self.unplaced and not any(e in self.held for e in self.unplaced[0]):
            group = self.unplaced.pop(0)
            place = self.players_left + sum(len(later) for later in self.unplaced) + 1
            for entry in group:
                state = self.entries[entry]
                state.place = place
                events.append(PlayerEliminated(entry, state.player, place))
            self.bust_groups.append(group)
        return events

    def _count_hand(self) -> list[TournamentEvent]:
        step = self.step
        if not isinstance(step, Level) or step.hands is None:
            return []
        if max(self.clock.hands.values(), default=0) < step.hands:
            return []
        if self.clock.step + 1 >= len(self.structure.steps):
            return []
        return self._next_step(self.clock.now)

    # ------------------------------------------------------------------ the clock

    def advance_clock(self, now: float) -> list[TournamentEvent]:
        """Move the clock to ``now``: minutes-based levels and breaks that ran out end."""
        if now < self.clock.now:
            raise TournamentSetupError(f"the clock cannot go back ({now} < {self.clock.now})")
        if self.phase is not Phase.RUNNING:
            raise TournamentStateError(f"the tournament is {self.phase.value}")
        self.clock.now = now
        events: list[TournamentEvent] = []
        while (due := self.next_change_at) is not None and now >= due:
            events += self._next_step(due)
        events += self._end_offers(now)
        events += self._finish_if_won()
        return events

    def _next_step(self, at: float) -> list[TournamentEvent]:
        self.clock.step += 1
        self.clock.started_at = at
        self.clock.hands = {}
        step = self.step
        events: list[TournamentEvent] = []
        if isinstance(step, Break):
            events.append(BreakStarted(step.minutes, step.add_on))
        else:
            events.append(LevelStarted(self.level_number, step))
        late = self.structure.late_registration_levels
        if self.registration_open and self.level_number > late:
            self.registration_open = False
            events.append(RegistrationClosed())
        return events

    # ------------------------------------------------------------------ rebuys, add-ons

    def may_rebuy(self, entry: int, *, stack: int | None = None) -> bool:
        """Whether the rules sell ``entry`` a rebuy now (the period, the limit, a stack at or
        below the starting stack: its own, or ``stack`` for one that just busted)."""
        structure = self.structure
        state = self.entries.get(entry)
        return (
            state is not None
            and state.alive
            and self.phase is Phase.RUNNING
            and structure.has_rebuys
            and self.level_number <= structure.rebuy_levels
            and state.rebuys < structure.rebuy_limit
            and (state.stack if stack is None else stack) <= structure.starting_stack
        )

    def can_rebuy(self, entry: int) -> bool:
        """Whether ``rebuy(entry)`` would sell a rebuy now."""
        where = self.seating.where(entry)
        in_hand = where is not None and where[0] in self.busy
        return not in_hand and self.may_rebuy(entry)

    def rebuy(self, entry: int) -> list[TournamentEvent]:
        """A rebuy between hands for a player at or below the starting stack."""
        if not self.can_rebuy(entry):
            raise TournamentStateError(f"entry {entry} cannot rebuy now")
        return [self._buy_rebuy(entry)]

    @property
    def next_offer_end(self) -> float | None:
        """The earliest deadline of a held bust (``None``: none is held)."""
        return min((held.until for held in self.held.values()), default=None)

    @property
    def next_deadline(self) -> float | None:
        """When ``advance_clock`` next has something to do: a step change or an offer's end."""
        due = [at for at in (self.next_change_at, self.next_offer_end) if at is not None]
        return min(due, default=None)

    @property
    def rebuy_period_ends_at(self) -> float | None:
        """When the clock leaves the rebuy period, if that is known now (``None``: no rebuys
        now, or a hand-counted step comes first)."""
        structure = self.structure
        if not structure.has_rebuys or self.level_number > structure.rebuy_levels:
            return None
        at, steps = self.clock.started_at, structure.steps
        for index in range(self.clock.step, len(steps)):
            if structure.level_number(index) > structure.rebuy_levels:
                return at
            minutes = steps[index].minutes
            if minutes is None:
                return None
            at += 60 * minutes
        return None

    def held_entry_of(self, player: str) -> int | None:
        """``player``'s entry whose bust is held, if any."""
        return next((n for n in self._by_player.get(player, ()) if n in self.held), None)

    def can_rebuy_held(self, entry: int) -> bool:
        """Whether ``rebuy_held(entry)`` would bring the held bust back now."""
        state = self.entries.get(entry)
        structure = self.structure
        return (
            entry in self.held
            and state is not None
            and self.phase is Phase.RUNNING
            and self.level_number <= structure.rebuy_levels
            and state.rebuys < structure.rebuy_limit
        )

    def rebuy_held(self, entry: int) -> list[TournamentEvent]:
        """The held bust ``entry`` rebuys: back in with the rebuy's chips, in the seat it left
        when that is still free (else seated as a late entry is), off the bust order."""
        if not self.can_rebuy_held(entry):
            raise TournamentStateError(f"entry {entry} has no rebuy to take now")
        held = self.held.pop(entry)
        state = self.entries[entry]
        state.busted = False
        self._out -= 1
        self.unplaced = [[e for e in g if e != entry] for g in self.unplaced]
        self.unplaced = [group for group in self.unplaced if group]
        events: list[TournamentEvent] = [self._buy_rebuy(entry)]
        row = self.seating.tables.get(held.table)
        if row is not None and held.seat not in row and len(row) < self.seating.seats:
            row[held.seat] = entry
            events.append(PlayerSeated(Move(entry, held.table, held.seat, SeatReason.DRAW)))
        else:
            events.append(PlayerSeated(self.seating.seat_late(entry, self._rng())))
        events += self._place_ready()
        events += self._rearrange()
        return events

    def decline_held(self, entry: int) -> list[TournamentEvent]:
        """The held bust ``entry`` does not rebuy: it is eliminated in its bust-order place."""
        if entry not in self.held or self.phase is not Phase.RUNNING:
            raise TournamentStateError(f"entry {entry} has no rebuy decision pending")
        return self._release([entry]) + self._finish_if_won()

    def _end_offers(self, now: float | None) -> list[TournamentEvent]:
        """Held busts whose deadline is ``now`` or past, or all once the period is over."""
        if not self.held:
            return []
        if self.level_number > self.structure.rebuy_levels:
            return self._release(sorted(self.held))
        return self._release(
            sorted(e for e, h in self.held.items() if now is not None and h.until <= now)
        )

    def _release(self, entries: Collection[int]) -> list[TournamentEvent]:
        for entry in entries:
            del self.held[entry]
        return self._place_ready()

    def _buy_rebuy(self, entry: int) -> RebuyBought:
        state = self.entries[entry]
        state.rebuys += 1
        state.stack += self.structure.rebuy_chips
        return RebuyBought(entry, self.structure.rebuy_chips, state.rebuys)

    def can_add_on(self, entry: int) -> bool:
        """Whether ``add_on(entry)`` would sell the add-on now."""
        state = self.entries.get(entry)
        step = self.step
        return (
            self.phase is Phase.RUNNING
            and state is not None
            and state.alive
            and state.add_ons == 0
            and isinstance(step, Break)
            and step.add_on
        )

    def add_on(self, entry: int) -> list[TournamentEvent]:
        """The add-on, once per entry, during the add-on break."""
        if not self.can_add_on(entry):
            raise TournamentStateError(f"entry {entry} cannot take the add-on now")
        state = self.entries[entry]
        state.add_ons += 1
        state.stack += self.structure.add_on_chips
        return [AddOnBought(entry, self.structure.add_on_chips)]

    # ------------------------------------------------------------------ moves and the end

    def _rng(self) -> random.Random:
        """A fresh generator per draw, from the seed and the draw's number: reproducible, and
        nothing but a counter to store."""
        self._draws += 1
        return random.Random(f"felt-tournament:{self.config.seed}:{self._draws}")

    def _rearrange(self) -> list[TournamentEvent]:
        if self.phase is not Phase.RUNNING or self.players_left < 2:
            return []
        before = set(self.seating.tables)
        moves: list[Move] = self.seating.rearrange(set(self.busy), self._rng())
        events: list[TournamentEvent] = [PlayerSeated(move) for move in moves]
        events += [TableClosed(n) for n in sorted(before - set(self.seating.tables))]
        return events

    def _finish_if_won(self) -> list[TournamentEvent]:
        if self.phase is not Phase.RUNNING or self.players_left > 1 or self.held:
            return []
        alive = self.alive
        self.registration_open = False
        groups = [[entry.number for entry in alive], *reversed(self.bust_groups)]
        return [self._finish(groups, None)]

    def _finish(
        self, groups: list[list[int]], deal: Mapping[int, int] | None
    ) -> TournamentFinished:
        table = payouts.places_prizes(groups, self.prizes())
        if deal is not None:
            table.update({entry: (table[entry][0], amount) for entry, amount in deal.items()})
        results = tuple(
            Finish(place, entry, self.entries[entry].player, prize)
            for entry, (place, prize) in sorted(
                table.items(), key=lambda item: (item[1][0], item[0])
            )
        )
        for finish in results:
            self.entries[finish.entry].place = finish.place
        self._index()  # everyone has a place now: nobody is left playing
        self.phase = Phase.FINISHED
        self.results = results
        self.busy.clear()
        return TournamentFinished(results, by_deal=deal is not None)

    def remaining_prizes(self) -> tuple[int, ...]:
        """The prizes still to be won by the players left, best place first (what a deal
        divides; ``icm`` takes them as its payouts)."""
        left = self.players_left
        return self.prizes()[:left] + (0,) * max(0, left - len(self.prizes()))

    def deal(self, amounts: Mapping[int, int]) -> list[TournamentEvent]:
        """End the tournament by a deal every remaining player accepted: ``amounts`` gives
        each live entry's prize (summing to ``remaining_prizes``); places follow the stacks."""
        if self.phase is not Phase.RUNNING or self.busy:
            raise TournamentStateError("a deal is made between hands of a running tournament")
        if self.held:
            raise TournamentStateError("no deal while a rebuy decision is pending")
        if self.registration_open:
            raise TournamentStateError("no deal while registration is open: the prizes may grow")
        alive = {entry.number for entry in self.alive}
        if set(amounts) != alive:
            raise TournamentSetupError(
                "a deal must give a prize to every remaining player, and only them"
            )
        if any(not isinstance(v, int) or v < 0 for v in amounts.values()):
            raise TournamentSetupError("deal prizes must be whole numbers >= 0")
        due = sum(self.remaining_prizes())
        if sum(amounts.values()) != due:
            raise TournamentSetupError(
                f"a deal must share exactly {due} chips, not {sum(amounts.values())}"
            )
        ranked = sorted(alive, key=lambda e: (-self.entries[e].stack, e))
        groups = [[entry] for entry in ranked] + list(reversed(self.bust_groups))
        return [self._finish(groups, amounts)]

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot of everything; ``from_dict`` rebuilds the tournament."""
        config = self.config
        return {
            "config": {
                "name": config.name,
                "structure": config.structure.to_mapping(),
                "buy_in": config.buy_in,
                "format": config.format.value,
                "seats_per_table": config.seats_per_table,
                "max_entries": config.max_entries,
                "fee_percent": config.fee_percent,
                "payout_shares": list(config.payout_shares) if config.payout_shares else None,
                "seed": config.seed,
            },
            "phase": self.phase.value,
            "entries": [
                [e.number, e.player, e.stack, e.rebuys, e.add_ons, e.place, e.busted]
                for e in self.entries.values()
            ],
            "held": {str(n): [h.until, h.table, h.seat] for n, h in self.held.items()},
            "unplaced": self.unplaced,
            "tables": {
                str(n): {str(seat): entry for seat, entry in row.items()}
                for n, row in self.seating.tables.items()
            },
            "buttons": {str(n): button for n, button in self.seating.buttons.items()},
            "clock": [self.clock.step, self.clock.started_at, self.clock.now],
            "hands": {str(n): count for n, count in self.clock.hands.items()},
            "bust_groups": self.bust_groups,
            "registration_open": self.registration_open,
            "results": [[f.place, f.entry, f.player, f.prize] for f in self.results],
            "draws": self._draws,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        """The tournament ``to_dict`` saved. A hand that was in play is voided: the tables
        in ``busy`` then are ready for a new hand, stacks as they were before it."""
        try:
            return cls._restore(data)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise TournamentSetupError(f"not a saved tournament: {error!r}") from None

    @classmethod
    def _restore(cls, data: Mapping[str, Any]) -> Tournament:
        raw = data["config"]
        shares = raw["payout_shares"]
        config = TournamentConfig(
            raw["name"],
            parse_structure(raw["structure"]),
            raw["buy_in"],
            Format(raw["format"]),
            raw["seats_per_table"],
            raw["max_entries"],
            raw["fee_percent"],
            tuple(shares) if shares else None,
            raw["seed"],
        )
        tournament = cls(config)
        tournament.phase = Phase(data["phase"])
        tournament.entries = {
            row[0]: EntryState(
                row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6:7] and row[6])
            )
            for row in data["entries"]
        }
        # Saved before busts could be held: none are.
        tournament.held = {
            int(n): HeldBust(until, table, seat)
            for n, (until, table, seat) in data.get("held", {}).items()
        }
        tournament.unplaced = [list(group) for group in data.get("unplaced", [])]
        tournament.seating = Seating(
            config.seats_per_table,
            {int(n): {int(s): e for s, e in row.items()} for n, row in data["tables"].items()},
            {int(n): button for n, button in data["buttons"].items()},
        )
        step, started_at, now = data["clock"]
        hands = {int(n): count for n, count in data["hands"].items()}
        tournament.clock = _Clock(step, started_at, now, hands)
        tournament.bust_groups = [list(group) for group in data["bust_groups"]]
        tournament.registration_open = data["registration_open"]
        tournament.results = tuple(Finish(*row) for row in data["results"])
        tournament._draws = data["draws"]
        tournament._index()
        return tournament
