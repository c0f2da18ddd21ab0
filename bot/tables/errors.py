"""The base of every table host's refusals (Hold'em and Blackjack)."""

from __future__ import annotations


class TableError(Exception):
    """A refusal from a table host. Fronts show the message to the member who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class StaleActionError(TableError):
    """A button from an earlier hand or round, or from an earlier point of it (double clicks
    land here), at either game."""


STALE_BUTTON = "That button is out of date: the table has moved on."
"""The one refusal of a click offered at an earlier point of a hand or round, at either game."""
