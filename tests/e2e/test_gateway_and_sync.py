"""Command sync only when changed, dev guilds, and the bot surviving reconnects and sharding."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.config import SyncMode
from bot.discord.client import FeltBot, apply_endpoints, create_bot
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import StartBot, World, bot_config


async def ping_answered(fake: FakeDiscord, member: Any, channel: Any) -> str:
    interaction = await fake.slash(member, channel, "ping")
    await interaction.wait_answered()
    assert interaction.errors == []
    return interaction.reply.content


class Extra(commands.Cog):
    @app_commands.command(name="extra", description="A command added in a new version")
    async def extra(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("extra", ephemeral=True)


# ----- command sync -----------------------------------------------------------------------------


async def test_restart_with_unchanged_commands_does_not_sync_again(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, tmp_path: Path
) -> None:
    first = await start_bot()
    await first.close()
    second = await start_bot()

    assert fake_discord.command_syncs == [None]
    assert [outcome.synced for outcome in second.sync_outcomes] == [False]
    state = json.loads((tmp_path / "felt.db.command-sync.json").read_text())
    assert list(state) == [f"{fake_discord.application_id}/global"]
    assert await ping_answered(fake_discord, world.alice, world.channel)


async def test_changed_commands_are_synced_again(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    first = await start_bot()
    await first.close()
    await start_bot(cogs=[lambda bot: Extra()])

    assert fake_discord.command_syncs == [None, None]
    names = {command["name"] for command in fake_discord.registered_commands()}
    assert "extra" in names


async def test_sync_always_and_never(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    first = await start_bot()
    await first.close()
    second = await start_bot(sync_commands=SyncMode.ALWAYS)
    await second.close()
    await start_bot(sync_commands=SyncMode.NEVER, cogs=[lambda bot: Extra()])

    assert fake_discord.command_syncs == [None, None]


async def test_dev_guilds_get_guild_commands_and_no_global_sync(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    await start_bot(dev_guild_ids=(world.guild.id,))

    assert fake_discord.command_syncs == [world.guild.id]
    assert fake_discord.registered_commands() == []
    guild_names = {c["name"] for c in fake_discord.registered_commands(world.guild.id)}
    assert {"ping", "about"} <= guild_names
    interaction = await fake_discord.slash(world.alice, world.channel, "ping")
    await interaction.wait_answered()
    assert interaction.data["guild_id"] == str(world.guild.id)
    assert interaction.reply.content.startswith("Pong")


async def test_a_refused_dev_guild_does_not_stop_the_others(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    missing_guild = 424242
    bot = await start_bot(dev_guild_ids=(missing_guild, world.guild.id))

    outcomes = {outcome.guild_id: outcome for outcome in bot.sync_outcomes}
    assert outcomes[missing_guild].error is not None
    assert not outcomes[missing_guild].synced
    assert outcomes[world.guild.id].synced
    assert await ping_answered(fake_discord, world.alice, world.channel)


# ----- the gateway ------------------------------------------------------------------------------


async def test_bot_resumes_after_a_reconnect_request(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await fake_discord.reconnect()
    await fake_discord.wait_until(
        lambda: fake_discord.gateway.resume_count == 1 and fake_discord.gateway.all_shards_ready()
    )

    assert fake_discord.gateway.identify_count == 1
    assert await ping_answered(fake_discord, world.alice, world.channel)


async def test_interaction_sent_while_disconnected_is_replayed_on_resume(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await fake_discord.drop_connection()
    interaction = await fake_discord.slash(world.alice, world.channel, "ping")
    await interaction.wait_answered()

    assert fake_discord.gateway.resume_count == 1
    assert interaction.reply.content.startswith("Pong")


async def test_bot_identifies_again_after_an_invalid_session(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await fake_discord.invalidate_session()
    await fake_discord.wait_until(
        lambda: fake_discord.gateway.identify_count == 2 and fake_discord.gateway.all_shards_ready()
    )

    assert fake_discord.gateway.resume_count == 0
    assert await ping_answered(fake_discord, world.bob, world.channel)


@pytest.fixture
async def sharded_fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(recommended_shards=2) as fake:
        yield fake


async def start_on(fake: FakeDiscord, tmp_path: Path, **discord_options: Any) -> FeltBot:
    config = bot_config(fake, tmp_path / "felt.db", **discord_options)
    restore = apply_endpoints(config.discord)
    bot = create_bot(config, identify_spacing=0)
    bot.restore_endpoints = restore  # type: ignore[attr-defined]
    bot.run_task = asyncio.create_task(bot.start(config.token))  # type: ignore[attr-defined]
    await fake.wait_until(fake.gateway.all_shards_ready, what="every shard to connect")
    return bot


async def stop(bot: FeltBot) -> None:
    await bot.close()
    await bot.run_task  # type: ignore[attr-defined]
    bot.restore_endpoints()  # type: ignore[attr-defined]


async def test_auto_sharded_bot_serves_guilds_on_every_shard(
    sharded_fake: FakeDiscord, tmp_path: Path
) -> None:
    guilds = [sharded_fake.create_guild(f"Guild {shard}", shard=shard) for shard in (0, 1)]
    channels = [sharded_fake.create_channel(guild, "poker") for guild in guilds]
    members = [sharded_fake.create_member(guild, "Player") for guild in guilds]
    bot = await start_on(sharded_fake, tmp_path)
    try:
        assert sorted(sharded_fake.gateway.current) == [0, 1]
        for member, channel in zip(members, channels, strict=True):
            assert await ping_answered(sharded_fake, member, channel)
        assert bot.shard_count == 2
    finally:
        await stop(bot)


async def test_configured_shard_ids_run_only_those_shards(
    sharded_fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = sharded_fake.create_guild("Shard one", shard=1)
    channel = sharded_fake.create_channel(guild, "poker")
    member = sharded_fake.create_member(guild, "Player")
    sharded_fake.expected_shards = [1]
    bot = await start_on(sharded_fake, tmp_path, shard_count=2, shard_ids=(1,))
    try:
        assert sorted(sharded_fake.gateway.current) == [1]
        assert await ping_answered(sharded_fake, member, channel)
    finally:
        await stop(bot)


async def test_configured_gateway_wins_over_the_one_discord_advertises(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    # A gateway proxy: REST says "connect to Discord", the config says "connect to the proxy".
    fake_discord.advertised_gateway_url = "ws://127.0.0.1:9/not-here"

    await start_bot()

    assert fake_discord.gateway.identify_count == 1
    assert await ping_answered(fake_discord, world.alice, world.channel)
