"""The four betting rounds of a Hold'em hand."""

from __future__ import annotations

from enum import IntEnum


class Street(IntEnum):
    """A betting round."""

    PREFLOP = 0
    """Hole cards only."""
    FLOP = 1
    """Three board cards."""
    TURN = 2
    """Four board cards."""
    RIVER = 3
    """Five board cards; after its betting comes the showdown."""
