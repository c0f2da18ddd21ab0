"""The tournament model's refusals: malformed setups, and actions not allowed now."""

from __future__ import annotations

from engine.errors import IllegalActionError, MalformedInputError


class StructureError(MalformedInputError):
    """A structure (levels, breaks, stacks, rebuys) that cannot be played; the message names
    the one thing wrong."""


class PayoutError(MalformedInputError):
    """Payout percentages or prizes that cannot be paid (not summing to 100, rising, ...)."""


class IcmError(MalformedInputError):
    """Stacks or payouts an equity calculation cannot be run with."""


class TournamentSetupError(MalformedInputError):
    """A tournament configuration or a hand result that makes no sense (unknown entry,
    chips created or lost, a stored state that does not read back)."""


class TournamentStateError(IllegalActionError):
    """Something the tournament does not allow now (registering after registration closed,
    a rebuy after the rebuy period, a hand at a table that is not ready). The state is left
    exactly as it was."""
