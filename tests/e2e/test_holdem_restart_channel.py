"""A Hold'em table restored after a restart, as its channel sees it: Discord's per-channel buckets
may still be full from just before the restart, so the first requests wait them out instead of
drawing 429s.

Discord's real per-channel limits here (5 posts and 5 edits per 5 s): the restored channel's
first request waits up to 5 s.
"""

from __future__ import annotations

from tests.e2e.fakediscord import FakeDiscord, FakeMember
from tests.e2e.support.bot_world import World
from tests.e2e.support.holdem import Factory, HoldemWorld

CHANNEL_ROUTES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
)


async def open_table(fake: FakeDiscord, world: World) -> None:
    opened = await fake.slash(world.alice, world.channel, "holdem start", seats=3, bots=1)
    await opened.wait_answered()
    joined = await fake.slash(world.bob, world.channel, "holdem join", buy_in=500)
    await joined.wait_answered()


async def a_members_turn(h: HoldemWorld, members: list[FakeMember]) -> None:
    member = await h.next_turn(members, lambda: False)
    assert member is not None


async def test_holdem_restart_waits_out_the_channel_buckets_left_full_before_it(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, members = fake_discord, [world.alice, world.bob]
    first = await start_holdem()
    await open_table(fake, world)
    await a_members_turn(first, members)
    old_message = first.table_message()
    assert old_message is not None and old_message.buttons != []
    hand = first.table().hand_id

    await first.cog.halt()  # a crash, right after a burst that filled both buckets
    await first.bot.close()
    for route in CHANNEL_ROUTES:
        fake.rate_limiter.fill(route, str(world.channel.id))
    second = await start_holdem()

    await fake.wait_for_message(world.channel, lambda m: f"Hand #{hand} was cancelled" in m.text)
    await fake.wait_until(lambda: old_message.buttons == [], what="the old buttons to go")
    await a_members_turn(second, members)
    assert fake.stats.rate_limited == 0
