"""The kinds a Hold'em table is described in: the stage of the hand and where each seat stands.

They belong to the game layer: the host fills them in, and the renderer and fronts read them.
"""

from __future__ import annotations

from enum import Enum

from engine.holdem import Street


class SeatStatus(Enum):
    """Where a Hold'em seat stands in the current hand."""

    ACTIVE = "active"
    """Dealt in and still in the hand (its cards show as backs unless shown)."""
    FOLDED = "folded"
    """Dealt in, then folded: dimmed, no cards."""
    ALL_IN = "all_in"
    """Dealt in with every chip in the pot."""
    SITTING_OUT = "sitting_out"
    """Seated but away, not dealt in (``bot.holdem.home_flow``: away and sitting out are one
    state): dimmed, shown "away"."""
    EMPTY = "empty"
    """No one in the chair."""
    WAITING = "waiting"
    """Seated and waiting for the next hand (joined mid-hand, or between hands)."""

    @property
    def in_hand(self) -> bool:
        """Whether the seat holds cards in the current hand."""
        return self in (SeatStatus.ACTIVE, SeatStatus.ALL_IN)


class Stage(Enum):
    """The stage of a Hold'em table as everyone sees it."""

    WAITING = "Waiting for players"
    """No hand is running and none is coming: the table lacks players."""
    NEXT_HAND = "Next hand in a moment"
    """Between hands: the next one is dealt shortly."""
    PREFLOP = "Pre-flop"
    FLOP = "Flop"
    TURN = "Turn"
    RIVER = "River"
    SHOWDOWN = "Showdown"
    """The hand is over and cards were compared: shown cards, descriptions and winnings."""
    HAND_OVER = "Hand over"
    """The hand is over because everyone else folded: no showdown."""

    @property
    def label(self) -> str:
        """The stage's name for display: ``"Pre-flop"``, ``"Flop"``."""
        return str(self.value)

    @property
    def has_hand(self) -> bool:
        """Whether a hand is on the table (running, or just finished with its result)."""
        return self not in (Stage.WAITING, Stage.NEXT_HAND)

    @property
    def is_over(self) -> bool:
        """Whether this is a finished hand's result (winnings on the seats)."""
        return self in (Stage.SHOWDOWN, Stage.HAND_OVER)

    @classmethod
    def of_engine(cls, street: Street | int) -> Stage:
        """The betting round the engine is on (0 preflop to 3 river)."""
        return _BETTING[int(street)]


_BETTING = (Stage.PREFLOP, Stage.FLOP, Stage.TURN, Stage.RIVER)
