"""The Blackjack engine's refusals, each a specific subclass of the engine's error branches."""

from __future__ import annotations

from engine.errors import EngineError, IllegalActionError, MalformedInputError


class RulesError(MalformedInputError):
    """A rule set that cannot be built: an unknown option name or a value out of range."""


class UnknownRuleError(RulesError):
    """A rule name that is not one of ``Rules``'s options."""


class BadRuleValueError(RulesError):
    """A rule value of the wrong kind or out of range."""


class BetError(MalformedInputError):
    """A bet or seat that cannot be played: not a positive whole number of chips, a bad seat."""


class MalformedActionError(MalformedInputError):
    """Something passed as an action that is not an ``Action``, or a seat that is not a seat."""


class RoundStateError(IllegalActionError):
    """An action before the deal or after the round is over."""


class ShoeExhaustedError(EngineError):
    """A stacked shoe ran out of cards, or a real shoe has every card on the table."""


class SimulationError(EngineError):
    """A simulation worker failed or stopped; the message says which and why."""
