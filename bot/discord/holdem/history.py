"""``/holdem history``: a stored hand as a PHH file anyone may read.

Storage keeps each settled hand's full PHH (every hole card). The published file masks every
hole card that was never shown (``????``); the member who asked may see their own cards, in the
reply only, never in the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.holdem import phh


@dataclass(frozen=True, slots=True)
class PublishedHand:
    """The PHH text to attach, and the asker's own hole cards in that hand (if they played)."""

    text: str
    own_cards: tuple[Card, ...] | None


def publish_hand(full_text: str, seat_no: int | None) -> PublishedHand:
    """Mask ``full_text``'s unshown hole cards; ``seat_no`` is the asker's seat, if any."""
    history = phh.loads(full_text)
    hand = phh.replay(history)
    extra = {key: value for key, value in history.extra.items() if key != "finishing_stacks"}
    masked = phh.dumps(phh.from_hand(hand, reveal=False, **extra))
    own: tuple[Card, ...] | None = None
    seats = history.extra.get("seats")
    if seat_no is not None and isinstance(seats, list) and seat_no in seats:
        own = tuple(hand.hole_cards[seats.index(seat_no)])
    return PublishedHand(masked, own)
