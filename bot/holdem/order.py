"""``SeatOrder``: the seats dealt into one hand, and the translation between seats and players.

The engine numbers a hand's players from 0 (left of the button) to n-1 (the button); members
see seat numbers. Every translation between the two goes through one ``SeatOrder``, so engine
indices never reach a front.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from engine.holdem import Action, Check, Fold, Hand, HandOptions, Stakes


@dataclass(frozen=True, slots=True)
class SeatOrder:
    """The dealt-in seats in engine order: player 0 sits left of the button, the button last."""

    seats: tuple[int, ...] = ()

    @classmethod
    def around(cls, players: Sequence[int], button: int) -> SeatOrder:
        """The order of a hand dealt to ``players`` (seat numbers, ascending) with ``button``."""
        after = list(players).index(button) + 1
        return cls(tuple(players[after:]) + tuple(players[:after]))

    def seat(self, player: int) -> int:
        """The seat number of engine player ``player``."""
        return self.seats[player]

    def player(self, seat_no: int) -> int | None:
        """The engine player sitting in ``seat_no``, or None if the seat is not dealt in."""
        return self.seats.index(seat_no) if seat_no in self.seats else None

    @property
    def button(self) -> int | None:
        """The button's seat, if a hand is dealt."""
        return self.seats[-1] if self.seats else None

    def blinds(self) -> tuple[int | None, int | None]:
        """(small blind seat, big blind seat); heads-up the button posts the small blind."""
        if len(self.seats) < 2:
            return None, None
        if len(self.seats) == 2:
            return self.seats[1], self.seats[0]
        return self.seats[0], self.seats[1]

    def __contains__(self, seat_no: object) -> bool:
        return seat_no in self.seats

    def __iter__(self) -> Iterator[int]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __bool__(self) -> bool:
        return bool(self.seats)


def to_act(hand: Hand) -> int | None:
    """The engine player whose turn it is, if anyone's."""
    return hand.turn.player if hand.turn is not None else None


def timeout_action(hand: Hand) -> Action:
    """The timeout rule: check if possible, otherwise fold."""
    legal = hand.turn
    return Check() if legal is not None and legal.can_check else Fold()


@dataclass(frozen=True, slots=True)
class Deal:
    """The next hand's players in engine order, their stacks by seat, its stakes and its
    home-game options (a tournament deals plain hands)."""

    order: SeatOrder
    stacks: Mapping[int, int]
    stakes: Stakes
    options: HandOptions = field(default_factory=HandOptions)


def next_button(button: int | None, players: list[int], rng: random.Random) -> int:
    """The seat of the next hand's button: the next seated player after ``button`` (a random
    one for a table's first hand)."""
    if button is None:
        return players[rng.randrange(len(players))]
    later = [n for n in players if n > button]
    return later[0] if later else players[0]
