"""A table message's edits go through the last click on it (``interaction_edits``): outside the
bot's global 50 requests/s and the channel's 5 edits per 5 s; through the channel before any
click, and again once a click's token no longer works."""

from __future__ import annotations

import time

from bot.discord.interaction_edits import INTERACTION_TOKEN_SECONDS, TOKEN_MARGIN_SECONDS
from bot.discord.pacing import Pacer
from tests.e2e.fakediscord import FakeDiscord, FakeMember
from tests.e2e.support.bot_world import World, channel_window
from tests.e2e.support.holdem import Factory, HoldemWorld

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
TOKEN_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"


async def heads_up(h: HoldemWorld, world: World) -> None:
    """Alice and Bob at a table of two, no bots: every turn is a member's."""
    opened = await h.fake.slash(world.alice, world.channel, "holdem start", seats=2, bots=0)
    await opened.wait_answered()
    joined = await h.fake.slash(world.bob, world.channel, "holdem join", buy_in=500)
    await joined.wait_answered()


async def whose_turn(h: HoldemWorld, world: World) -> FakeMember:
    """The member the table message offers the turn to (waiting for it)."""
    await h.fake.wait_until(
        lambda: any(h.offer(m) is not None for m in (world.alice, world.bob)),
        within=20,
        what="a member's turn on the table message",
    )
    return world.alice if h.offer(world.alice) is not None else world.bob


def edits_since(fake: FakeDiscord, start: int) -> list[str]:
    """The routes of the message edits answered since request ``start``."""
    return [r.route for r in fake.requests[start:] if r.route in (CHANNEL_EDIT, TOKEN_EDIT)]


async def test_holdem_turns_after_a_click_are_edited_through_its_token_not_the_channel(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    h = await start_holdem()
    await heads_up(h, world)
    await whose_turn(h, world)
    # Nobody clicked on the table message yet: nothing went through a click.
    assert TOKEN_EDIT not in edits_since(fake, 0)

    for _ in range(4):
        member = await whose_turn(h, world)
        start = len(fake.requests)
        await h.act(member)
        await whose_turn(h, world)
        edits = edits_since(fake, start)
        assert TOKEN_EDIT in edits, edits  # the next turn came through the click
        assert CHANNEL_EDIT not in edits, edits
    assert fake.stats.rate_limited == 0
    assert fake.unacknowledged() == []


async def test_holdem_edits_fall_back_to_the_channel_once_the_click_token_expired(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    h = await start_holdem()
    await heads_up(h, world)
    await h.act(await whose_turn(h, world))
    await whose_turn(h, world)
    # Discord's side of the token runs out (the bot's own reckoning has not yet); then the turn
    # times out, with no click to carry the change: the edit through the old token is refused,
    # and the table goes on through the channel.
    fake.clock.advance(INTERACTION_TOKEN_SECONDS + 1)
    offered = h.offer(await whose_turn(h, world))
    assert offered is not None
    start = len(fake.requests)
    await h.scheduler.expire_turn()
    await fake.wait_until(
        lambda: CHANNEL_EDIT in edits_since(fake, start), within=20, what="an edit by the channel"
    )
    refused = [r for r in fake.requests[start:] if r.route == TOKEN_EDIT and r.status == 401]
    assert len(refused) == 1  # the expired token was tried once, then forgotten
    shown = h.offer(await whose_turn(h, world))
    assert shown is not None and shown[1] != offered[1]  # the table moved on, on the message
    assert fake.stats.rate_limited == 0


async def test_holdem_a_click_older_than_its_tokens_life_is_not_used(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    skew = [0.0]
    pacer = Pacer(channel_window=channel_window(fake), clock=lambda: time.monotonic() + skew[0])
    h = await start_holdem(pacer=pacer)
    await heads_up(h, world)
    await h.act(await whose_turn(h, world))
    offered = h.offer(await whose_turn(h, world))
    assert offered is not None
    # The bot's own clock passes the token's life (less its margin): the turn that times out
    # next is edited through the channel, without trying the old token first.
    skew[0] = INTERACTION_TOKEN_SECONDS - TOKEN_MARGIN_SECONDS
    start = len(fake.requests)
    await h.scheduler.expire_turn()
    await fake.wait_until(
        lambda: CHANNEL_EDIT in edits_since(fake, start), within=20, what="an edit by the channel"
    )
    assert TOKEN_EDIT not in edits_since(fake, start)
    assert fake.stats.invalid == 0
