"""The engine's error hierarchy: one base, a branch for malformed input and one for refusals."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises; its message is fit to show a player."""


class MalformedInputError(EngineError, ValueError):
    """Input that cannot be understood at all (a card like "Zz", a negative amount)."""


class CardParseError(MalformedInputError):
    """Text that is not a card or list of cards."""


class UnknownStrategyError(MalformedInputError):
    """A strategy name that is not one of the known strategies; the message names the choices."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now; the state is left unchanged."""


class NotYourTurnError(IllegalActionError):
    """An action from a player or seat that is not the one to act (or has nothing to decide)."""


class ActionNotAllowedError(IllegalActionError):
    """An action the rules do not allow for this player now (checking facing a bet, a double on
    three cards, ...)."""
