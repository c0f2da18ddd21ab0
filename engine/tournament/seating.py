"""Who sits where: the opening draw, the button, and table balancing and breaking by the TDA
rules, with the final-table redraw. Pure and deterministic for a given generator.

The rules as applied here (between hands: a table in a hand is never touched):

* **Button**: it moves to the next occupied seat each hand (a moving button; seats emptied by
  eliminations are skipped). Heads-up the button posts the small blind.
* **Breaking**: as soon as the players left fit in one table fewer, a table breaks. Tables
  break in a fixed order, highest number first; when that table is in a hand, the next one in
  order that is not breaks instead, so no table waits. Its players are drawn at random, in a
  random order, each to a random empty seat of the table then with the fewest players (TDA: a
  player from a broken table may land anywhere, big blind included).
* **Balancing**: whenever the most and fewest players at two tables differ by 2 or more, one
  player moves from a table with the most to the table with the fewest. The player who would
  be big blind next at the table they leave moves (so nobody skips or repeats a blind), into the
  empty seat of the new table that gets the big blind soonest, the big blind itself when
  possible (the equivalent position); ties go to the lower seat number.
* **Final table**: when the players left fit at one table, every table stops after its hand
  and all players are redrawn to random seats of table 1, with the button on a random player.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

FINAL_TABLE = 1
"""The number of the table the final table is drawn at."""


class SeatReason(StrEnum):
    """Why a player took a seat."""

    DRAW = "draw"
    """The opening draw (or a late registration's)."""
    BALANCE = "balance"
    """Moved to balance the tables."""
    BREAK = "break"
    """Their table broke."""
    FINAL_TABLE = "final_table"
    """The final-table redraw."""


@dataclass(frozen=True, slots=True)
class Move:
    """A player changing seats: from ``(from_table, from_seat)`` (``None`` when newly seated)
    to ``(table, seat)``."""

    entry: int
    table: int
    seat: int
    reason: SeatReason
    from_table: int | None = None
    from_seat: int | None = None


def hand_order(occupied: Iterable[int], button: int | None) -> tuple[int, tuple[int, ...]]:
    """The next hand's button seat and its players' seats in PHH order (first after the
    button, the button last), for a moving button that was at ``button`` last hand."""
    seats = sorted(occupied)
    if not seats:
        raise ValueError("no occupied seat")
    if button is None:
        new_button = seats[0]
    else:
        later = [seat for seat in seats if seat > button]
        new_button = later[0] if later else seats[0]
    at = seats.index(new_button)
    order = tuple(seats[at + 1 :] + seats[: at + 1])
    return new_button, order


def big_blind_seat(order: Sequence[int]) -> int:
    """The big blind's seat in a hand whose players sit in PHH order ``order``."""
    return order[0] if len(order) == 2 else order[1]


def hands_until_big_blind(occupied: Iterable[int], button: int | None, seat: int) -> int:
    """How many hands from the next one until ``seat`` (occupied) posts the big blind."""
    _, order = hand_order(occupied, button)
    big = big_blind_seat(order)
    players = sorted(order)
    return (players.index(seat) - players.index(big)) % len(players)


class Seating:
    """Tables (number -> seat -> entry) and their buttons, with the TDA moves. ``seats`` is
    the number of seats at every table (numbered from 1)."""

    def __init__(
        self,
        seats: int,
        tables: Mapping[int, Mapping[int, int]] | None = None,
        buttons: Mapping[int, int | None] | None = None,
    ) -> None:
        self.seats = seats
        self.tables: dict[int, dict[int, int]] = {
            number: dict(row) for number, row in (tables or {}).items()
        }
        self.buttons: dict[int, int | None] = dict(buttons or {})

    # ---------------------------------------------------------------- questions

    def count(self, table: int) -> int:
        """Players seated at ``table``."""
        return len(self.tables[table])

    def counts(self) -> dict[int, int]:
        """Players seated at each table."""
        return {number: len(row) for number, row in self.tables.items()}

    @property
    def players(self) -> int:
        """Players seated at all tables."""
        return sum(len(row) for row in self.tables.values())

    def where(self, entry: int) -> tuple[int, int] | None:
        """``(table, seat)`` of ``entry``, if seated."""
        for number, row in self.tables.items():
            for seat, seated in row.items():
                if seated == entry:
                    return number, seat
        return None

    def next_hand(self, table: int) -> tuple[int, tuple[int, ...]]:
        """The next hand's button and seats in PHH order at ``table``."""
        return hand_order(self.tables[table], self.buttons.get(table))

    def next_big_blind(self, table: int) -> int:
        """The entry who would post the big blind in ``table``'s next hand."""
        _, order = self.next_hand(table)
        return self.tables[table][big_blind_seat(order)]

    # ---------------------------------------------------------------- changes

    def draw(self, entries: Sequence[int], rng: random.Random) -> list[Move]:
        """The opening draw: as few tables as hold everyone, players spread evenly at random,
        each table's button on a random player."""
        count = max(1, -(-len(entries) // self.seats))
        shuffled = list(entries)
        rng.shuffle(shuffled)
        moves = []
        for index in range(count):
            number = index + 1
            group = shuffled[index::count]
            chairs = sorted(rng.sample(range(1, self.seats + 1), len(group)))
            rng.shuffle(chairs)
            self.tables[number] = dict(zip(chairs, group, strict=True))
            self.buttons[number] = _random_button(self.tables[number], rng)
            moves += [
                Move(entry, number, chair, SeatReason.DRAW)
                for chair, entry in zip(chairs, group, strict=True)
            ]
        return moves

    def seat_late(self, entry: int, rng: random.Random) -> Move:
        """Seat a late entry at a random empty seat of the table with the fewest players (a
        new table when every table is full; balancing then brings it company)."""
        counts = self.counts()
        open_tables = [n for n in sorted(counts) if counts[n] < self.seats]
        if open_tables:
            fewest = min(counts[n] for n in open_tables)
            number = rng.choice([n for n in open_tables if counts[n] == fewest])
        else:
            number = max(self.tables, default=0) + 1
            self.tables[number] = {}
            self.buttons[number] = None
        seat = rng.choice(self._empty(number))
        self.tables[number][seat] = entry
        return Move(entry, number, seat, SeatReason.DRAW)

    def remove(self, entry: int) -> None:
        """Take a player off their table (eliminated)."""
        where = self.where(entry)
        if where is not None:
            del self.tables[where[0]][where[1]]

    def rearrange(self, busy: set[int], rng: random.Random) -> list[Move]:
        """Every break, balancing move and final-table redraw due now, tables in ``busy``
        (in a hand) left alone; the moves in the order they were made."""
        moves: list[Move] = []
        while True:
            for step in (self._final_table, self._break, self._balance):
                made = step(busy, rng)
                if made is not None:
                    moves += made
                    break
            else:
                return moves

    # Each step returns the moves it made (possibly none, when it only closed an empty table)
    # or None when it had nothing to do.

    def _final_table(self, busy: set[int], rng: random.Random) -> list[Move] | None:
        if len(self.tables) < 2 or self.players > self.seats or busy & set(self.tables):
            return None
        everyone = [
            (n, seat, entry)
            for n in sorted(self.tables)
            for seat, entry in sorted(self.tables[n].items())
        ]
        rng.shuffle(everyone)
        chairs = rng.sample(range(1, self.seats + 1), len(everyone))
        self.tables = {FINAL_TABLE: {}}
        moves = []
        for (number, seat, entry), chair in zip(everyone, chairs, strict=True):
            self.tables[FINAL_TABLE][chair] = entry
            moves.append(Move(entry, FINAL_TABLE, chair, SeatReason.FINAL_TABLE, number, seat))
        self.buttons = {FINAL_TABLE: _random_button(self.tables[FINAL_TABLE], rng)}
        return moves

    def _break(self, busy: set[int], rng: random.Random) -> list[Move] | None:
        if len(self.tables) < 2 or self.players > (len(self.tables) - 1) * self.seats:
            return None
        if self.players <= self.seats:
            return None  # the final table is due: it waits for every hand to end, then redraws
        empty = [n for n in self.tables if not self.tables[n] and n not in busy]
        if empty:  # an emptied table closes without moving anyone
            del self.tables[empty[0]]
            self.buttons.pop(empty[0], None)
            return []
        candidates = [n for n in sorted(self.tables, reverse=True) if n not in busy]
        if not candidates:
            return None
        broken = candidates[0]
        leaving = sorted(self.tables.pop(broken).items())
        self.buttons.pop(broken, None)
        rng.shuffle(leaving)
        moves = []
        counts = self.counts()
        for seat, entry in leaving:
            fewest = min(counts.values())
            number = rng.choice([n for n in sorted(counts) if counts[n] == fewest])
            counts[number] += 1
            chair = rng.choice(self._empty(number))
            self.tables[number][chair] = entry
            moves.append(Move(entry, number, chair, SeatReason.BREAK, broken, seat))
        return moves

    def _balance(self, busy: set[int], rng: random.Random) -> list[Move] | None:
        if len(self.tables) < 2:
            return None
        counts = self.counts()
        fewest = min(counts.values())
        most = max(counts.values())
        if most - fewest < 2:
            return None
        sources = [n for n in sorted(counts) if counts[n] == most and n not in busy]
        if not sources:
            return None
        source = sources[0]
        target = min(n for n in counts if counts[n] == fewest)
        entry = self.next_big_blind(source)
        from_seat = next(seat for seat, seated in self.tables[source].items() if seated == entry)
        chair = self.equivalent_seat(target)
        del self.tables[source][from_seat]
        self.tables[target][chair] = entry
        return [Move(entry, target, chair, SeatReason.BALANCE, source, from_seat)]

    def equivalent_seat(self, table: int) -> int:
        """The empty seat at ``table`` that would post the big blind soonest (the big blind
        itself when possible), the lower seat number on a tie."""
        occupied = set(self.tables[table])
        button = self.buttons.get(table)
        if not occupied:
            return 1

        def wait(seat: int) -> tuple[int, int]:
            return hands_until_big_blind(occupied | {seat}, button, seat), seat

        return min(self._empty(table), key=wait)

    def _empty(self, table: int) -> list[int]:
        return [seat for seat in range(1, self.seats + 1) if seat not in self.tables[table]]


def _random_button(row: Mapping[int, int], rng: random.Random) -> int | None:
    """A button placed so that a random player has it in the first hand: the hand's button is
    the next occupied seat after the stored one, so store the seat before the drawn player."""
    if not row:
        return None
    seats = sorted(row)
    chosen = rng.choice(seats)
    return chosen - 1 if chosen > 1 else 0
