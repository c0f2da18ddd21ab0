"""Fixtures that run the fake Discord and the unmodified bot in the test's event loop.

- ``fake_discord``: a started ``FakeDiscord`` on 127.0.0.1, port 0 (xdist-safe);
- ``world``: a guild with a #poker channel, two members and an admin;
- ``start_bot``: starts a ``FeltBot`` pointed at the fake through config only (``api_base_url``
  and ``gateway_url``), with a real SQLite storage in ``tmp_path`` opened the way ``felt run``
  opens it (migrated, recovered), waits until the fake sent it its guilds, and closes both after
  the test. Storage and bot read the fake's clock, so ``fake.clock.advance()`` moves days for
  ``/daily`` and expires confirmations without waiting;
- ``felt_bot``: ``start_bot()`` with the default cogs.

The bot is not waited on until ``on_ready`` (discord.py fires it about 2 s after the last guild);
interactions are handled before that.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.config import DatabaseConfig, DiscordConfig, FeltConfig
from bot.discord.client import CogFactory, FeltBot, apply_endpoints, create_bot
from storage import Storage
from tests.e2e.fakediscord import (
    DEFAULT_RULES,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    RateLimitRule,
)

S = TypeVar("S", bound=Storage)


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


def storage_clock(fake: FakeDiscord) -> Callable[[], datetime]:
    """The storage's clock: the fake's, so a test can move the day forward."""
    return lambda: datetime.fromtimestamp(fake.clock.now(), UTC)


async def open_storage(fake: FakeDiscord, config: FeltConfig, storage_class: type[S]) -> S:
    """A storage for ``config``'s database as ``felt run`` opens it (a subclass may be slow or
    failing on purpose)."""
    return await storage_class.open(
        config.database.path, clock=storage_clock(fake), economy=config.economy.settings()
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
    storages: dict[str, Storage] = {}

    async def start(
        *,
        cogs: Sequence[CogFactory] = (),
        extensions: Sequence[str] | None = None,
        config: FeltConfig | None = None,
        storage: Storage | None = None,
        wait: bool = True,
        **discord: Any,
    ) -> FeltBot:
        chosen = config or bot_config(fake_discord, tmp_path / "felt.db", **discord)
        if storage is None:
            # A restart in the same test reuses the database, as a real restart would.
            storage = storages.get(chosen.database.path)
            if storage is None:
                storage = await open_storage(fake_discord, chosen, Storage)
        if storages.get(chosen.database.path) not in (None, storage):
            await storages[chosen.database.path].close()
        storages[chosen.database.path] = storage
        recovery = await storage.recover()
        restores.append(apply_endpoints(chosen.discord))
        bot = create_bot(
            chosen,
            cogs=cogs,
            extensions=extensions,
            identify_spacing=0,
            storage=storage,
            recovery=recovery,
            clock=fake_discord.clock,
        )
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
        for storage in storages.values():
            await storage.close()
        for restore in reversed(restores):
            restore()


@pytest.fixture
async def felt_bot(start_bot: StartBot, world: World) -> FeltBot:
    return await start_bot()


def channel_window(fake: FakeDiscord) -> float:
    """The fake's window for message posts and edits in a channel, so that a test's ``Pacer``
    keeps to the limits the fake enforces (the scaled ones too)."""
    return max(
        rule.window
        for route, rule in fake.rate_limiter.rules.items()
        if route.endswith(("/channels/{channel_id}/messages", "/messages/{message_id}"))
        and not route.startswith(("DELETE", "GET"))
    )


def scaled_rules(speed: float) -> dict[str, RateLimitRule]:
    """Discord's per-route limits with windows ``speed`` times shorter (same counts): the same
    pacing problem, played faster."""
    return {
        route: RateLimitRule(rule.limit, rule.window / speed, rule.bucket)
        for route, rule in DEFAULT_RULES.items()
    }
