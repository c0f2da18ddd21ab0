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
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from discord.http import Route
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeInteraction, FakeMember

from bot.config import DatabaseConfig, DiscordConfig, FeltConfig
from bot.discord.client import CogFactory, FeltBot, apply_endpoints, create_bot
from storage import Storage


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


async def open_storage(
    fake: FakeDiscord, config: FeltConfig, storage_class: type[Storage] = Storage
) -> Storage:
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
                storage = await open_storage(fake_discord, chosen)
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


@dataclasses.dataclass
class Probe:
    """A plain discord.py client (not Felt) that hands every interaction to the test.

    Tests of the fake itself use it to break Discord's rules on purpose.
    """

    client: discord.Client
    received: asyncio.Queue[discord.Interaction[Any]]
    fake: FakeDiscord
    world: World
    task: asyncio.Task[None]

    async def command(self, who: Any = None) -> tuple[FakeInteraction, discord.Interaction[Any]]:
        """Run /probe as ``who`` (Alice by default): the fake's record and discord.py's object."""
        sent = await self.fake.slash(who or self.world.alice, self.world.channel, "probe")
        return sent, await asyncio.wait_for(self.received.get(), 10)

    async def request(self, method: str, path: str, **parameters: Any) -> Any:
        """A raw REST call through discord.py's own HTTP client (auth, JSON, rate limits)."""
        payload = parameters.pop("json", None)
        return await self.client.http.request(Route(method, path, **parameters), json=payload)

    async def close(self) -> None:
        await self.client.close()
        await self.task


async def connect_probe(fake: FakeDiscord, world: World, **options: Any) -> Probe:
    """Connect a plain discord.py client with one global command, /probe."""
    received: asyncio.Queue[discord.Interaction[Any]] = asyncio.Queue()
    client = discord.Client(intents=discord.Intents(guilds=True), **options)

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        received.put_nowait(interaction)

    async def setup_hook() -> None:
        assert client.application_id is not None
        await client.http.bulk_upsert_global_commands(
            client.application_id, [{"name": "probe", "description": "Probe", "type": 1}]
        )

    client.event(on_interaction)
    client.setup_hook = setup_hook  # type: ignore[method-assign]
    task = asyncio.create_task(client.start(fake.token))
    task.add_done_callback(lambda _task: fake.changed())
    await fake.wait_until(lambda: fake.gateway.all_shards_ready() or task.done())
    if task.done():
        task.result()
    return Probe(client, received, fake, world, task)


@pytest.fixture
async def probe(fake_discord: FakeDiscord, world: World) -> AsyncIterator[Probe]:
    restore = apply_endpoints(
        DiscordConfig(api_base_url=fake_discord.api_base_url, gateway_url=fake_discord.gateway_url)
    )
    try:
        connected = await connect_probe(fake_discord, world)
        yield connected
        await connected.close()
    finally:
        restore()


def channel_window(fake: FakeDiscord) -> float:
    """The fake's window for message posts and edits in a channel, so that a test's ``Pacer``
    keeps to the limits the fake enforces (the scaled ones too)."""
    return max(
        rule.window
        for route, rule in fake.rate_limiter.rules.items()
        if route.endswith(("/channels/{channel_id}/messages", "/messages/{message_id}"))
        and not route.startswith(("DELETE", "GET"))
    )
