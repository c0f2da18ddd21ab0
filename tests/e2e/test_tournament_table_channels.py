"""Tournament tables in channels of their own, through the fake Discord: ``/tournament create
tables:channel`` (or the server's ``/felt-admin config tournaments tables:channel``) plays each
table in a text channel ``t<id>-table-<n>`` of the tournament channel's category, with the same
table message and buttons; a crash in the middle reuses the channel; the channel is deleted a
minute after its table closes. Without Manage Channels the create is refused in one line."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.discord.cogs.holdem import Holdem
from bot.discord.tournament.table_homes import (
    CHANNEL_LINGER_SECONDS,
    NEEDS_MANAGE_CHANNELS,
    NO_MANAGE_CHANNELS,
    channel_name,
)
from storage.tournament_messages import TableHomeKind, TableHomeRow
from tests.e2e.fakediscord import FakeChannel, FakeDiscord, Permission
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_tournament_lobby import seen
from tests.e2e.test_tournament_sng import Running, play_out, start

SIT_AND_GO: dict[str, Any] = {
    "name": "Friday", "type": "sng", "buy_in": 100, "preset": "hyper", "max_entries": 4,
    "seats": 4, "start": "in 5m", "bots": True,
}  # fmt: skip


async def eventually(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``check()`` (a look at the database) holds."""
    for _ in range(400):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def table_channels(fake: FakeDiscord, tournament_id: int) -> list[FakeChannel]:
    prefix = channel_name(tournament_id, 0)[: -len("0")]
    return [c for c in fake.channels.values() if c.name.startswith(prefix)]


async def started(
    run: Running, world: World, lobby: FakeChannel, *, created: bool = False, **options: Any
) -> int:
    """A Sit & Go of Alice, Bob and two bots in ``lobby`` (created here unless ``created``),
    started."""
    fake = run.fake
    if not created:
        made = await fake.slash(world.admin, lobby, "tournament create", **SIT_AND_GO, **options)
        await made.wait_answered()
        assert made.errors == []
    await run.register((world.alice, world.bob), lobby)
    return await run.started(world.guild.id)


async def test_a_sit_and_go_plays_in_a_table_channel_across_a_crash_which_goes_when_it_ends(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    fake = fake_discord
    world.guild.bot_permissions |= Permission.MANAGE_CHANNELS
    category = fake.create_category(world.guild, "Tournaments")
    lobby = fake.create_channel(world.guild, "tourney", category=category)
    run = await start(fake, start_bot)
    tid = await started(run, world, lobby, tables="channel")
    members = [world.alice, world.bob]
    await fake.wait_until(lambda: bool(table_channels(fake, tid)), what="the table channel")

    [channel] = table_channels(fake, tid)
    assert (channel.name, channel.parent_id, channel.is_thread) == (
        f"t{tid}-table-1",
        category.id,
        False,
    )
    await play_out(run, tid, members, clicks_at_most=3)
    assert any("holdem-table.png" in m.filenames for m in fake.channel_messages(channel))

    holdem = run.bot.get_cog("Holdem")  # a crash: no shutdown hook
    assert isinstance(holdem, Holdem)
    run.runner.halt()
    await holdem.halt()
    await run.bot.close()
    again = await start(fake, start_bot)
    await fake.wait_until(lambda: again.director(tid) is not None, what="the resume")
    director = again.director(tid)
    assert director is not None
    assert [table.channel_id for table in director.tables.values()] == [channel.id]
    await play_out(again, tid, members)
    assert director.done.is_set()
    assert table_channels(fake, tid) == [channel]  # kept a while, to read the last hand

    # The deletion is timed once the table's last messages are out; time moves until it runs.
    for _ in range(100):
        await again.tables.advance(CHANNEL_LINGER_SECONDS)
        if channel in fake.deleted_channels:
            break
        await asyncio.sleep(0.05)
    assert channel in fake.deleted_channels

    async def marked_removed() -> bool:
        homes = await again.bot.storage.tournament_table_homes(tid)
        return homes == [TableHomeRow(tid, 1, channel.id, TableHomeKind.CHANNEL, removed=True)]

    await eventually(marked_removed, "the home marked removed")
    assert table_channels(fake, tid) == []
    assert any("is over" in m.content for m in fake.channel_messages(lobby))
    assert (await again.bot.storage.check()).ok


async def test_a_table_channel_left_by_a_crash_after_the_end_is_deleted_at_the_next_start(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    fake = fake_discord
    world.guild.bot_permissions |= Permission.MANAGE_CHANNELS
    run = await start(fake, start_bot)
    made = await fake.slash(world.admin, world.channel, "tournament create", **SIT_AND_GO)
    await made.wait_answered()
    [row] = await run.bot.storage.list_tournaments(world.guild.id)
    tid = row.tournament_id
    # What a crash in the minute a table channel lingers leaves: the tournament over, its
    # channel still there and not marked removed.
    channel = fake.create_channel(world.guild, channel_name(tid, 1))
    storage = run.bot.storage
    await storage.remember_tournament_table_home(tid, 1, channel.id, TableHomeKind.CHANNEL)
    await storage.cancel_tournament(tid, reason="test", key="test-cancel")
    await run.bot.close()

    again = await start(fake, start_bot)

    await fake.wait_until(lambda: channel in fake.deleted_channels, what="the deletion")

    async def marked_removed() -> bool:
        return await again.bot.storage.leftover_tournament_channels() == []

    await eventually(marked_removed, "the home marked removed")
    homes = await again.bot.storage.tournament_table_homes(tid)
    assert homes == [TableHomeRow(tid, 1, channel.id, TableHomeKind.CHANNEL, removed=True)]


async def test_tables_in_channels_without_manage_channels_are_refused_in_one_line(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot)
    interaction = await fake_discord.slash(
        world.admin, world.channel, "tournament create", **SIT_AND_GO, tables="channel"
    )

    text = await seen(fake_discord, interaction)

    assert text == NEEDS_MANAGE_CHANNELS
    assert all(m.ephemeral_for is interaction.user for m in interaction.messages)
    assert await run.bot.storage.list_tournaments(world.guild.id) == []


async def test_the_servers_setting_puts_new_tournaments_tables_in_channels(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    world.guild.bot_permissions |= Permission.MANAGE_CHANNELS
    run = await start(fake_discord, start_bot)
    changed = await fake_discord.slash(
        world.admin, world.channel, "felt-admin config tournaments", tables="channel"
    )
    assert "tables in channels" in await seen(fake_discord, changed)

    tid = await started(run, world, world.channel)

    assert (await run.bot.storage.tournament_front(tid)).tables is TableHomeKind.CHANNEL
    director = run.director(tid)
    assert director is not None
    await fake_discord.wait_until(lambda: bool(director.tables), what="the table to open")
    [channel] = table_channels(fake_discord, tid)
    assert [table.channel_id for table in director.tables.values()] == [channel.id]
    assert channel.parent_id is None  # the tournament's channel is in no category
    threads = [c for c in fake_discord.channels.values() if c.is_thread]
    assert threads == []


async def test_a_table_plays_in_a_thread_when_manage_channels_was_taken_away_since_the_create(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    world.guild.bot_permissions |= Permission.MANAGE_CHANNELS
    run = await start(fake_discord, start_bot)
    created = await fake_discord.slash(
        world.admin, world.channel, "tournament create", **SIT_AND_GO, tables="channel"
    )
    await created.wait_answered()
    world.guild.bot_permissions &= ~Permission.MANAGE_CHANNELS
    tid = await started(run, world, world.channel, created=True)
    director = run.director(tid)
    assert director is not None
    await fake_discord.wait_until(lambda: bool(director.tables), what="the table to open")

    [thread] = [c for c in fake_discord.channels.values() if c.is_thread]
    assert [table.channel_id for table in director.tables.values()] == [thread.id]
    assert table_channels(fake_discord, tid) == []
    told = NO_MANAGE_CHANNELS.format(table=1)
    assert told in [m.content for m in fake_discord.channel_messages(world.channel)]
    homes = await run.bot.storage.tournament_table_homes(tid)
    assert [(home.kind, home.channel_id) for home in homes] == [(TableHomeKind.THREAD, thread.id)]


@pytest.mark.slow  # about two minutes of members clicking through the fake Discord
async def test_a_multi_table_tournament_in_channels_moves_members_with_a_mention_there(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    fake = fake_discord
    world.guild.bot_permissions |= Permission.MANAGE_CHANNELS
    category = fake.create_category(world.guild, "Tournaments")
    lobby = fake.create_channel(world.guild, "tourney", category=category)
    run = await start(fake, start_bot)
    members = [world.alice, world.bob, world.admin]
    members += [fake.create_member(world.guild, name) for name in ("Cy", "Di", "Ed")]
    created = await fake.slash(
        world.admin, lobby, "tournament create", name="Sunday", type="mtt", buy_in=50,
        preset="hyper", max_entries=6, seats=4, start="in 5m", tables="channel",
    )  # fmt: skip
    await created.wait_answered()
    await run.register(members, lobby)
    tid = await run.started(world.guild.id)
    director = run.director(tid)
    assert director is not None
    await fake.wait_until(lambda: len(director.tables) == 2, what="both tables")
    channels = table_channels(fake, tid)
    assert {c.name for c in channels} == {f"t{tid}-table-1", f"t{tid}-table-2"}
    assert all(c.parent_id == category.id and not c.is_thread for c in channels)

    await play_out(run, tid, members, level_up_every=3)
    assert director.done.is_set()
    moved = [
        m for c in channels for m in fake.channel_messages(c) if "you were moved here" in m.content
    ]
    assert moved, "the final table's redraw mentions the members it moves, in their channel"
    for _ in range(100):
        await run.tables.advance(CHANNEL_LINGER_SECONDS)
        if all(c in fake.deleted_channels for c in channels):
            break
        await asyncio.sleep(0.05)
    assert table_channels(fake, tid) == []
    assert sum(e.prize for e in await run.bot.storage.tournament_entries(tid)) == 6 * 50
    assert (await run.bot.storage.check()).ok
