"""Refusals of a running tournament; each message is fit to show the member who asked."""

from __future__ import annotations

from bot.tables.errors import TableError


class TournamentRefusal(TableError):
    """A rebuy, add-on, re-entry or deal the tournament does not allow now."""
