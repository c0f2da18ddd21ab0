"""A plain discord.py client (not Felt) on the fake Discord, for tests of the fake itself."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.config import DiscordConfig
from bot.discord.client import apply_endpoints
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction
from tests.e2e.support.bot_world import World


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
