"""A new table's first posts (its announcement, then its table message) go first bot-wide: a
table starts within seconds however busy the bot is with other tables' redraws and posts."""

from __future__ import annotations

from bot.discord.pacing import Pacer
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World, channel_window
from tests.e2e.support.holdem import Factory


async def test_holdem_a_new_tables_announcement_and_table_message_are_pressing(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    pacer = Pacer(channel_window=channel_window(fake_discord))
    h = await start_holdem(pacer=pacer)
    opened = await fake_discord.slash(world.alice, world.channel, "holdem start", bots=0)
    await opened.wait_answered()
    await fake_discord.wait_until(
        lambda: h.table_message() is not None, within=10, what="the table message"
    )
    await h.cog.presenters[world.channel.id].drain()
    posts = [m for m in fake_discord.channel_messages(world.channel) if not m.ephemeral]
    assert len(posts) == 2 and "opened a Hold'em table" in posts[0].text
    # Both went out as pressing requests (the announcement ahead of the table message too).
    assert pacer.granted == {"urgent": 2}
