"""The Discord front's error routing reads in one direction: the tree, confirmations, errors and
replies never import the bot, which reaches them through small protocols instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DiscordConfig, FeltConfig
from bot.discord.client import create_bot
from bot.discord.confirm import Confirmations, ConfirmingClient, confirmations_of
from bot.discord.errors import ErrorRouter, ErrorRoutingClient

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    ["bot.discord.replies", "bot.discord.errors", "bot.discord.tree", "bot.discord.confirm"],
)
def test_error_routing_module_does_not_import_the_bot(module: str) -> None:
    probe = f"import sys, {module}; print('bot.discord.client' in sys.modules)"
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPOSITORY, check=True
    )

    assert found.stdout.strip() == "False"


async def test_felt_bot_is_what_error_routing_and_confirmations_need() -> None:
    # Never started, so there is nothing to close.
    bot = create_bot(FeltConfig(discord=DiscordConfig(token="token")), extensions=())

    assert isinstance(bot, ErrorRoutingClient)
    assert isinstance(bot, ConfirmingClient)
    assert isinstance(bot.error_router, ErrorRouter)
    assert confirmations_of(bot) is bot.confirmations
    assert isinstance(bot.confirmations, Confirmations)
