"""Refusals of the Blackjack table host, each with a message fit for the member who asked."""

from __future__ import annotations

from bot.tables.errors import TableError


class BlackjackError(TableError):
    """Base of the Blackjack host's refusals (a ``TableError``, so fronts show it the same way)."""


class BetRefused(BlackjackError):
    """A bet outside the limits, a second bet, more than the member has, or a full round."""


class NotInRoundError(BlackjackError):
    """The member has no bet in this round."""


class NoDecisionError(BlackjackError):
    """The member has nothing to decide now (someone else must)."""


class ActionRefused(BlackjackError):
    """The decision is not legal now, or its extra stake cannot be paid."""
