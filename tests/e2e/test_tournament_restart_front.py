"""A tournament's Discord front survives a restart through the fake Discord: the tournament
message (level, next level with its ``<t:...:R>`` countdown, players, payouts) is found again
from storage and edited at once, after a graceful shutdown and after a crash; a tournament or
lobby message someone deleted is posted again and its new id stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.discord.cogs.holdem import Holdem
from bot.discord.tournament.clock_message import tournament_text
from storage.tournament_messages import MessageRef
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_tournament_sng import Running, play_out, start


async def eventually(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``check()`` (a look at the database) holds: a message is posted before its id
    is stored."""
    for _ in range(400):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def level_lines(text: str) -> list[str]:
    """The title, the level and the next level with its countdown (the rest changes with every
    hand, and edits are paced)."""
    return text.splitlines()[:3]


def clock_messages(fake: FakeDiscord, world: World) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(world.channel) if m.content.startswith("⏱️")]


async def sit_and_go_under_way(run: Running, world: World) -> int:
    """A hyper Sit & Go of Alice, Bob and two bots, started and a few clicks in."""
    fake = run.fake
    created = await fake.slash(
        world.admin, world.channel, "tournament create", name="Friday", type="sng", buy_in=100,
        preset="hyper", max_entries=4, seats=4, start="in 5m", bots=True,
    )  # fmt: skip
    await created.wait_answered()
    await run.register((world.alice, world.bob), world.channel)
    tid = await run.started(world.guild.id)
    await play_out(run, tid, [world.alice, world.bob], clicks_at_most=3)
    await fake.wait_until(lambda: len(clock_messages(fake, world)) == 1, what="the message")
    return tid


async def restart(run: Running, how: str, start_bot: StartBot) -> Running:
    if how == "graceful":
        await run.bot.shutdown()
    else:  # a crash: no shutdown hook; the hands in play are lost, the saved state is not
        holdem = run.bot.get_cog("Holdem")
        assert isinstance(holdem, Holdem)
        run.runner.halt()
        await holdem.halt()
        await run.bot.close()
    return await start(run.fake, start_bot)


@pytest.mark.parametrize("how", ["graceful", "crash"])
async def test_the_tournament_message_is_edited_again_after_a_restart(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, how: str
) -> None:
    run = await start(fake_discord, start_bot)
    tid = await sit_and_go_under_way(run, world)
    [message] = clock_messages(fake_discord, world)
    front = await run.bot.storage.tournament_front(tid)
    assert front.clock == MessageRef(world.channel.id, message.id)
    edits = message.edits

    again = await restart(run, how, start_bot)
    await fake_discord.wait_until(lambda: again.director(tid) is not None, what="the resume")
    director = again.director(tid)
    assert director is not None
    next_change = director.view().next_change_at
    assert next_change is not None  # a hyper level runs on minutes: there is a countdown
    await fake_discord.wait_until(
        lambda: message.edits > edits, what="the same message edited after the restart"
    )

    assert clock_messages(fake_discord, world) == [message]
    assert level_lines(message.content) == level_lines(tournament_text(director.view()))
    assert f"<t:{int(next_change)}:R>" in message.content
    assert (await again.bot.storage.tournament_front(tid)).clock == front.clock


async def test_a_deleted_tournament_message_is_posted_again_and_its_id_stored(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot)
    tid = await sit_and_go_under_way(run, world)
    [old] = clock_messages(fake_discord, world)
    fake_discord.delete_message(old)

    again = await restart(run, "crash", start_bot)
    await fake_discord.wait_until(
        lambda: len(clock_messages(fake_discord, world)) == 1, what="the message posted again"
    )

    [new] = clock_messages(fake_discord, world)
    assert new.id != old.id and old.deleted

    async def new_id_stored() -> bool:
        front = await again.bot.storage.tournament_front(tid)
        return front.clock == MessageRef(world.channel.id, new.id)

    await eventually(new_id_stored, "the new message's id stored")
    director = again.director(tid)
    assert director is not None
    assert level_lines(new.content) == level_lines(tournament_text(director.view()))


async def test_a_deleted_lobby_message_is_posted_again_on_the_next_registration(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot)
    created = await fake_discord.slash(
        world.admin, world.channel, "tournament create", name="Later", type="mtt", buy_in=50,
        start="in 2h",
    )  # fmt: skip
    await created.wait_answered()
    await fake_discord.wait_until(
        lambda: any(
            m.content.startswith("🏆") for m in fake_discord.channel_messages(world.channel)
        ),
        what="the lobby message",
    )
    [row] = await run.bot.storage.list_tournaments(world.guild.id)
    tid, first = row.tournament_id, row.lobby_message_id

    async def lobby_stored() -> bool:
        nonlocal first
        first = (await run.bot.storage.get_tournament(tid) or row).lobby_message_id
        return first is not None

    await eventually(lobby_stored, "the lobby message's id stored")
    assert first is not None
    fake_discord.delete_message(world.channel.messages[first])

    registered = await fake_discord.slash(world.alice, world.channel, "tournament register")
    await registered.wait_answered()

    assert registered.errors == []
    await fake_discord.wait_until(
        lambda: any(
            m.content.startswith("🏆") for m in fake_discord.channel_messages(world.channel)
        ),
        what="the lobby message posted again",
    )
    [again] = [m for m in fake_discord.channel_messages(world.channel) if m.content[:1] == "🏆"]

    async def new_id_stored() -> bool:
        stored = await run.bot.storage.get_tournament(tid)
        return stored is not None and stored.lobby_message_id == again.id

    await eventually(new_id_stored, "the new lobby message's id stored")
    lobby = world.channel.messages[again.id]
    assert not lobby.deleted and "Register" in lobby.button_labels
    assert "Entries: 1/" in lobby.content
