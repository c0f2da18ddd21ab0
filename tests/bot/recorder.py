"""A presenter for host tests that keeps every event a table publishes."""

from __future__ import annotations

from typing import Generic, TypeVar

from bot.blackjack.events import TableEvent as BlackjackEvent
from bot.holdem.events import HoleCards
from bot.holdem.events import TableEvent as HoldemEvent
from bot.holdem.rail import RailCards

E = TypeVar("E")
"""The kind of event a recorder keeps (Hold'em's or Blackjack's)."""
K = TypeVar("K")


class Recorder(Generic[E]):
    """A presenter that keeps every event."""

    def __init__(self) -> None:
        self.events: list[E] = []

    async def publish(self, event: E) -> None:
        self.events.append(event)

    def of(self, kind: type[K]) -> list[K]:
        return [event for event in self.events if isinstance(event, kind)]

    def public(self) -> list[E]:
        return [event for event in self.events if not isinstance(event, (HoleCards, RailCards))]


HoldemRecorder = Recorder[HoldemEvent]
BlackjackRecorder = Recorder[BlackjackEvent]
