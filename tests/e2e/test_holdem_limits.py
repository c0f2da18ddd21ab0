"""Under Discord's real per-channel limits (5 messages and 5 edits per 5 s), hands that bots play
out in milliseconds cost no 429: the table message skips to the latest state, and tells the
streets and results (the last hands' results stay on it) instead of a post for each."""

from __future__ import annotations

import re

from bot.discord.holdem.presenter import POST_LINGER_SECONDS
from bot.holdem.events import HandFinished, StreetDealt, TableChanged
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World
from tests.e2e.support.holdem import Factory
from tests.e2e.support.privacy import check_privacy

HANDS = 3
RESULT_TOLD = re.compile(r"Hand #(\d+)(?: · Result|:)")
"""A result on the table message: the last hand's in full, the ones before in a line each."""


async def test_holdem_bot_bursts_stay_within_the_channel_limits(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice = fake_discord, world.alice
    h = await start_holdem(linger=POST_LINGER_SECONDS)
    opened = await fake.slash(alice, world.channel, "holdem start", bots=5)
    await opened.wait_answered()

    # Alice folds whenever she can; five bots then play each hand out at once.
    while h.hands_finished() < HANDS:
        message, _ref = await h.wait_offer(alice, within=60)
        await h.act(alice, "Fold" if "Fold" in message.button_labels else "Check")
    await h.wait_offer(alice, within=60)  # the table message caught up with the next hand

    def told() -> set[int]:
        """The hands whose result some post or edit in the channel showed."""
        channel = str(world.channel.id)
        # An edit through a member's click names no channel: this test has only one.
        sent = [
            str(r.body)
            for r in fake.requests
            if (channel in r.path or r.route.startswith("PATCH /webhooks/")) and r.status < 400
        ]
        return {int(n) for body in sent for n in RESULT_TOLD.findall(body)}

    await fake.wait_until(
        lambda: told() >= set(range(1, HANDS + 1)), within=60, what="every result shown"
    )
    assert fake.stats.rate_limited == 0
    assert fake.unacknowledged() == []
    channel = f"/channels/{world.channel.id}/messages"
    created = [
        r for r in fake.requests if r.route.startswith("POST /channels/") and channel in r.path
    ]
    edited = [
        r for r in fake.requests if r.route == "PATCH /channels/{channel_id}/messages/{message_id}"
    ]
    streets_and_results = len(h.of(StreetDealt)) + len(h.of(HandFinished))
    assert streets_and_results >= 2 * HANDS
    assert len(created) <= 2  # the table message and the sit-down notices: no post per street
    assert len(edited) < len(h.of(TableChanged)) / 2  # edits skipped to the latest state
    assert check_privacy(fake, h).problems == []
