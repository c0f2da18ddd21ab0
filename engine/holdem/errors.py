"""Refusals raised by the Hold'em engine. Every one leaves the hand exactly as it was.

Not your turn and an action not allowed now are the engine's, shared with Blackjack
(``engine/errors.py``).
"""

from __future__ import annotations

from engine.errors import IllegalActionError, MalformedInputError


class HoldemError(IllegalActionError):
    """Base of the Hold'em engine's refusals of an action."""


class RaiseAmountError(HoldemError):
    """A bet or raise "to" amount outside the legal range."""


class HandCompleteError(HoldemError):
    """The hand is over; nothing more can be done in it."""


class InvalidSetupError(MalformedInputError):
    """A hand cannot start with these stakes, stacks or cards."""
