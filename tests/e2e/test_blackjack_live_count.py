"""`/blackjack count at_table:true` through Discord: a member is asked, at a random moment and
only for their eyes, the running count of the table's live shoe, made from the cards the table has
shown (never the dealer's hole card while it is face down), and scored; the buttons carry no
answer; the question is opt-in per server and every misuse is refused with one ephemeral line."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.blackjack.counting import CountSystem
from bot.discord.blackjack.ids import LIVE_TEMPLATE
from bot.discord.blackjack.live_count import FOLLOWUP_SECONDS
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction
from tests.e2e.support.blackjack import BlackjackWorld, Factory, answered
from tests.e2e.support.bot_world import World, scaled_rules

# Alice 5♥ 4♦ against the dealer's 6♣, the hole card T♠ (face down), then the dealer draws 2♣.
# Shown at the deal: 5, 6, 4: a Hi-Lo count of +3 (+2 if the hole card were counted).
ROUND = "5h 6c 4d Ts 2c"
ASKS_AT_THE_DEAL = 113
"""A question generator that asks after 3 more cards, offering 0, +2, +3 and +6."""


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def command(h: BlackjackWorld, who: Any, name: str, **options: Any) -> FakeInteraction:
    interaction = await h.fake.slash(who, h.channel, name, **options)
    await answered(h.fake, interaction)
    return interaction


async def counting_on(h: BlackjackWorld, world: World) -> None:
    on = await command(h, world.admin, "felt-admin config blackjack", counting=True)
    assert on.reply.content.startswith("Blackjack table defaults updated")


async def test_a_member_is_asked_the_live_count_privately_and_it_excludes_the_hole_card(
    world: World, start_blackjack: Factory
) -> None:
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards=ROUND, count_rng=random.Random(ASKS_AT_THE_DEAL))
    await counting_on(h, world)
    await h.bet(alice, 100)
    armed = await command(h, bob, "blackjack count", at_table=True)
    assert armed.reply.ephemeral
    assert armed.reply.content.startswith("**Live count** (Hi-Lo): at a random moment of play")

    await h.deal_by_clock()
    await armed.wait_for_followups(1)
    question = armed.followups[0]
    assert question.ephemeral_for is bob.user
    assert "what is the running count" in question.content
    labels = [button.label for button in question.buttons]
    assert labels == ["+0", "+2", "+3", "+6"]
    # Each button names only the question and its own answer: none marks the right one.
    for button in question.buttons:
        match = re.fullmatch(LIVE_TEMPLATE, button.custom_id or "")
        assert match is not None and f"{int(match['answer']):+d}" == button.label
    assert not [m for m in h.posts() if "Live count" in m.text]

    clicked = await h.fake.click(bob, question, label="+3")
    await clicked.wait_answered()
    assert question.content.startswith(
        "✅ +3: correct. (Hi-Lo: 3 cards shown since the shuffle; true count +0.5.)\n"
        "Score 1/1 (100%) · streak 1"
    )
    assert [button.label for button in question.buttons] == ["Ask me again"]
    again = await h.fake.click(bob, question, label="Ask me again")
    await again.wait_answered()
    assert question.content.startswith("**Live count** (Hi-Lo): at a random moment")
    assert h.cog.live_counts.waiting(h.channel.id) == [bob.id]

    await h.act(alice, "Stand")
    await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    # Once the round is over the hole card is shown, and counted: T♠ -1, 2♣ +1.
    assert h.table().public_count(CountSystem.HILO).running == 3


async def test_a_wrong_ko_count_is_scored_with_the_right_one_from_ko_s_initial_count(
    world: World, start_blackjack: Factory
) -> None:
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards=ROUND, count_rng=random.Random(ASKS_AT_THE_DEAL))
    await counting_on(h, world)
    await h.bet(alice, 100)
    armed = await command(h, bob, "blackjack count", at_table=True, system="ko")
    await h.deal_by_clock()
    await armed.wait_for_followups(1)
    question = armed.followups[0]
    # Six decks: KO starts at 4 - 4 * 6 = -20; 5, 6 and 4 make -17.
    assert [button.label for button in question.buttons] == ["-20", "-18", "-17", "-14"]

    clicked = await h.fake.click(bob, question, label="-18")
    await clicked.wait_answered()
    assert question.content.startswith(
        "❌ -18: the running count was **-17**. (KO: 3 cards shown since the shuffle.)\n"
        "Score 0/1 (0%) · streak 0"
    )


async def test_live_count_refusals_are_ephemeral_and_arm_nothing(
    world: World, start_blackjack: Factory
) -> None:
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards=ROUND)
    off = await command(h, bob, "blackjack count", at_table=True)
    assert off.reply.content == "Counting practice is off on this server."
    await counting_on(h, world)
    no_table = await command(h, bob, "blackjack count", at_table=True)
    assert no_table.reply.content.startswith(
        "No Blackjack table is being played in this channel: `/blackjack deal` to start one"
    )
    await h.bet(alice, 100)
    with_cards = await command(h, bob, "blackjack count", at_table=True, cards=8)
    assert with_cards.reply.content == (
        "`cards` is for the drill: at a table you count what it shows."
    )
    for refused in (off, no_table, with_cards):
        assert refused.reply.ephemeral
    assert h.cog.live_counts.waiting(h.channel.id) == []


async def test_a_question_whose_moment_comes_too_late_to_follow_up_is_dropped(
    world: World, start_blackjack: Factory
) -> None:
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards=ROUND + " " + ROUND, count_rng=random.Random(ASKS_AT_THE_DEAL))
    await counting_on(h, world)
    await h.bet(alice, 100)
    await h.deal_by_clock()
    await h.act(alice, "Stand")
    await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    armed = await command(h, bob, "blackjack count", at_table=True)
    await h.scheduler.advance(FOLLOWUP_SECONDS)  # Discord no longer takes followups to it

    await h.bet(alice, 100)
    await h.deal_by_clock()  # three more cards: the moment has come, too late
    await h.wait_offer(alice)
    await h.settle()
    assert armed.followups == []
    assert h.cog.live_counts.waiting(h.channel.id) == []
