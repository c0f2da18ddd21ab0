"""A Hold'em table in play survives Discord's own failures: a dropped gateway connection and a
burst of 5xx answers. The hand goes on, clicks keep working, no chip is lost, and no member sees
"This interaction failed"."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Storage
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld

CREATE_MESSAGE = "POST /channels/{channel_id}/messages"
TOKEN_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
APOLOGY = "Sorry, something went wrong"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def open_table(h: HoldemWorld, world: World) -> None:
    opened = await h.fake.slash(world.alice, world.channel, "holdem start", seats=3, bots=2)
    await opened.wait_answered()
    assert "Your table is open" in opened.reply.content
    await h.wait_offer(world.alice)


def assert_every_interaction_answered(fake: FakeDiscord) -> None:
    assert fake.unacknowledged() == []
    for interaction in fake.interactions.values():
        assert interaction.acknowledged, interaction
        assert interaction.errors == [], interaction.errors
        assert all(APOLOGY not in message.content for message in interaction.messages)


def unsent(fake: FakeDiscord) -> list[str]:
    """The requests answered 5xx that did not reach Discord later: not the same post again, nor a
    later edit of the same message (a newer edit may carry newer content)."""
    requests = fake.requests
    missing = []
    for index, failed in enumerate(requests):
        if failed.status < 500:
            continue
        succeeded = [
            request
            for request in requests[index + 1 :]
            if request.route == failed.route
            and request.path == failed.path
            and request.status < 300
        ]
        if failed.route == CREATE_MESSAGE:
            succeeded = [request for request in succeeded if request.body == failed.body]
        if not succeeded:
            missing.append(f"{failed.status} {failed.route}")
    return missing


async def test_holdem_table_survives_a_dropped_gateway_connection(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    h = await start_holdem()
    await open_table(h, world)
    resumes = fake.gateway.resume_count

    await fake.drop_connection()
    await fake.wait_until(lambda: fake.gateway.resume_count > resumes, what="the bot to resume")

    hands = h.hands_finished()
    await h.play([world.alice], until=lambda: h.hands_finished() >= hands + 2)
    assert_every_interaction_answered(fake)
    storage: Storage = h.bot.storage
    assert (await storage.check()).ok


# Once Alice has clicked, the table message is edited through her click's token
# (``bot/discord/interaction_edits.py``): that is the edit route a burst hits.
@pytest.mark.parametrize("route", [TOKEN_EDIT, CREATE_MESSAGE])
async def test_holdem_table_survives_a_burst_of_server_errors(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory, route: str
) -> None:
    fake = fake_discord
    h = await start_holdem()
    await open_table(h, world)

    fake.fail_next(500, 502, 503, 500, route=route)
    hands = h.hands_finished()
    await h.play([world.alice], until=lambda: h.hands_finished() >= hands + 2 and not fake.faults)

    assert [status for status, _route in fake.faults.served] == [500, 502, 503, 500]
    await fake.wait_until(lambda: not unsent(fake), what="each failed request sent again")
    assert_every_interaction_answered(fake)
    storage: Storage = h.bot.storage
    assert (await storage.check()).ok


async def test_a_server_error_on_an_interaction_callback_is_retried_in_time(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    h = await start_holdem()
    await open_table(h, world)

    fake.fail_next(500, route="POST /interactions/{interaction_id}/{token}/callback")
    clicked = await h.act(world.alice)

    assert fake.faults.served[0][1].startswith("POST /interactions/")
    assert clicked.acknowledged and clicked.errors == []
    assert_every_interaction_answered(fake)
