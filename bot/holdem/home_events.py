"""What home-game options add to the table's picture and its events: the run-count question
and the after-hand buttons on the snapshot, and the reveals, rabbit hunts and bounties."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card


@dataclass(frozen=True, slots=True)
class RunCountAsk:
    """Everyone still in is all in before the river: the members in ``user_ids`` are asked how
    many times to run the board (1 to ``max_runs``) until ``deadline`` (no answer = once)."""

    hand_id: int
    action_count: int
    user_ids: tuple[int, ...]
    max_runs: int
    deadline: float


@dataclass(frozen=True, slots=True)
class AfterHandOffer:
    """What players of the hand just finished may still do, until the next hand is dealt."""

    hand_id: int
    can_rabbit_hunt: bool
    can_show: bool
    """Some member dealt in has hole cards nobody has seen."""


@dataclass(frozen=True, slots=True)
class CardsRevealed:
    """A player showed hole cards after the hand (their choice; nothing changes)."""

    hand_id: int
    seat_no: int
    name: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RabbitHuntDealt:
    """The board cards that would have come, on each board; only a look."""

    hand_id: int
    name: str
    """Who asked to see them."""
    boards: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class BountyCollected:
    """A pot won with 7-2 offsuit, shown: every other player dealt in paid the bounty (each up
    to what they had)."""

    hand_id: int
    seat_no: int
    name: str
    payments: tuple[tuple[int, str, int], ...]
    """(seat, name, chips) of each payer."""

    @property
    def total(self) -> int:
        return sum(amount for _seat, _name, amount in self.payments)


HomeEvent = CardsRevealed | RabbitHuntDealt | BountyCollected
