"""What a table channel's Discord request may fail with and survive, and how it is logged."""

from __future__ import annotations

import logging

import aiohttp
import discord

from storage import Game

_log = logging.getLogger("felt.discord.channel")

SEND_FAILURES = (discord.HTTPException, aiohttp.ClientError, TimeoutError)
"""What a Discord request may fail with and the channel survives (it logs and moves on)."""
GONE = (discord.NotFound, discord.Forbidden)
"""A message that can no longer be edited: it is forgotten, not retried."""


def log_failure(what: str, error: BaseException, channel_id: int, game: Game) -> None:
    _log.warning(
        "%s: %s",
        what,
        error,
        extra={
            "channel_id": channel_id,
            "game": game.value,
            "status": getattr(error, "status", None),
            "code": getattr(error, "code", None),
        },
    )
