"""Refusals of the bots package, each a specific subclass of the engine's error branches."""

from __future__ import annotations

from engine.errors import EngineError, IllegalActionError, MalformedInputError


class BotError(EngineError):
    """Base of the bots package's errors."""


class UnknownStrategyError(BotError, MalformedInputError):
    """A strategy name (or difficulty) that is not one of the known ones."""


class NotSeatsTurnError(BotError, IllegalActionError):
    """A view was asked for a seat that has nothing to decide now."""


class IllegalBotActionError(BotError, IllegalActionError):
    """A strategy returned an action the rules do not allow now (a bug in the strategy)."""
