"""The trainer's record through Discord: after a round with a mistake, `/stats` shows the member's
decisions graded and the expected chips lost to mistakes (all time and per season), and
`/leaderboard board:accuracy` shows each ranked member's expected chips lost beside the accuracy."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction
from tests.e2e.support.blackjack import BlackjackWorld, Factory, answered
from tests.e2e.support.bot_world import World, scaled_rules

# Alice 6♥ 5♣ against the dealer's 6♦ (hole 9♣): she hits (basic strategy doubles) a 2♥ and
# stands (correct); the dealer draws a ten and busts.
HIT_ON_ELEVEN = "6h 6d 5c 9c 2h Ts"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def command(h: BlackjackWorld, who: Any, name: str, **options: Any) -> FakeInteraction:
    interaction = await h.fake.slash(who, h.channel, name, **options)
    await answered(h.fake, interaction)
    return interaction


async def test_stats_and_the_accuracy_board_show_the_expected_chips_lost_to_mistakes(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=HIT_ON_ELEVEN)
    await h.bet(alice, 100)
    await h.deal_by_clock()
    await h.act(alice, "Hit")
    await h.act(alice, "Stand")
    await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    await h.settle()
    storage: Storage = h.bot.storage
    grades = await storage.decision_grades(world.guild.id, alice.id)
    assert (grades.decisions, grades.correct) == (2, 1) and grades.expected_loss > 30
    lost = f"~{grades.expected_loss:,.2f}"

    for options in ({}, {"season": 1}):
        stats = await command(h, alice, "stats", game="blackjack", **options)
        assert stats.reply.embed is not None
        fields = {field["name"]: field["value"] for field in stats.reply.embed["fields"]}
        assert "Basic strategy: 50.0%" in fields["Blackjack"]
        assert (
            f"Decisions graded: 2 · Expected chips lost to mistakes: {lost}"
            in (fields["Blackjack"])
        )

    board = await command(h, alice, "leaderboard", board="accuracy", min_hands=1)
    assert board.reply.embed is not None
    (line,) = board.reply.embed["description"].splitlines()
    assert re.fullmatch(
        rf"\*\*1\.\*\* <@{alice.id}> · 50\.0% · {re.escape(lost)} chips lost to mistakes", line
    )
