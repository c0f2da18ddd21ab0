"""Refusals raised by the Hold'em engine. Every one leaves the hand exactly as it was."""

from __future__ import annotations

from engine.errors import IllegalActionError, MalformedInputError


class HoldemError(IllegalActionError):
    """Base of the Hold'em engine's refusals of an action."""


class NotYourTurnError(HoldemError):
    """The player who tried to act is not the player to act."""


class ActionNotAllowedError(HoldemError):
    """The action is not one of the legal actions now (checking facing a bet, ...)."""


class RaiseAmountError(HoldemError):
    """A bet or raise "to" amount outside the legal range."""


class HandCompleteError(HoldemError):
    """The hand is over; nothing more can be done in it."""


class InvalidSetupError(MalformedInputError):
    """A hand cannot start with these stakes, stacks or cards."""
