"""Fixtures that run the fake Discord and the unmodified bot in the test's event loop.

- ``fake_discord``: a started ``FakeDiscord`` on 127.0.0.1, port 0 (xdist-safe);
- ``world``: a guild with a #poker channel, two members and an admin;
- ``start_bot``: starts a ``FeltBot`` pointed at the fake through config only (``api_base_url``
  and ``gateway_url``), waits until the fake sent it its guilds, and closes it after the test;
- ``felt_bot``: ``start_bot()`` with the default cogs.

The bot is not waited on until ``on_ready`` (discord.py fires it about 2 s after the last guild);
interactions are handled before that.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember

from bot.config import DatabaseConfig, DiscordConfig, FeltConfig
from bot.discord.client import CogFactory, FeltBot, apply_endpoints, create_bot


@dataclasses.dataclass(frozen=True, slots=True)
class World:
    """A small server to play in."""

    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    admin: FakeMember


def bot_config(fake: FakeDiscord, database: Path, **discord: Any) -> FeltConfig:
    """A config that points the bot at ``fake`` and keeps its files under ``database``'s folder."""
    return FeltConfig(
        discord=DiscordConfig(
            token=fake.token,
            api_base_url=fake.api_base_url,
            gateway_url=fake.gateway_url,
            **discord,
        ),
        database=DatabaseConfig(path=str(database)),
    )


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    guild = fake_discord.create_guild("Felt Club")
    channel = fake_discord.create_channel(guild, "poker")
    return World(
        guild=guild,
        channel=channel,
        alice=fake_discord.create_member(guild, "Alice"),
        bob=fake_discord.create_member(guild, "Bob"),
        admin=fake_discord.create_member(guild, "Ada", admin=True),
    )


StartBot = Callable[..., Awaitable[FeltBot]]


@pytest.fixture
async def start_bot(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[StartBot]:
    running: list[tuple[FeltBot, asyncio.Task[None]]] = []
    restores: list[Callable[[], None]] = []

    async def start(
        *,
        cogs: Sequence[CogFactory] = (),
        extensions: Sequence[str] | None = None,
        config: FeltConfig | None = None,
        wait: bool = True,
        **discord: Any,
    ) -> FeltBot:
        chosen = config or bot_config(fake_discord, tmp_path / "felt.db", **discord)
        restores.append(apply_endpoints(chosen.discord))
        bot = create_bot(chosen, cogs=cogs, extensions=extensions, identify_spacing=0)
        task = asyncio.create_task(bot.start(chosen.token))
        task.add_done_callback(lambda _task: fake_discord.changed())
        running.append((bot, task))
        if wait:
            await fake_discord.wait_until(
                lambda: fake_discord.gateway.all_shards_ready() or task.done(),
                what="the bot to connect",
            )
            if task.done():
                task.result()  # raise the bot's startup error in the test
        return bot

    try:
        yield start
    finally:
        for bot, task in reversed(running):
            await bot.close()
            await asyncio.wait([task], timeout=10)
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        for restore in reversed(restores):
            restore()


@pytest.fixture
async def felt_bot(start_bot: StartBot, world: World) -> FeltBot:
    return await start_bot()
