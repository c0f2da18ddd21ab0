"""Every attribute of a hand's state, slots and instance dictionary alike, for tests that check
an action changed nothing."""

from __future__ import annotations

from typing import Any

from engine.holdem import Hand


def hand_state(hand: Hand, *leave_out: str) -> dict[str, Any]:
    """The hand's attributes by name, but those in ``leave_out``."""
    names = [name for name in Hand.__slots__ if name != "__dict__"]
    state = {name: getattr(hand, name) for name in names if hasattr(hand, name)}
    state.update(hand.__dict__)
    return {name: value for name, value in state.items() if name not in leave_out}
