"""Blackjack side bets through Discord: an admin turns 21+3 (five-tier) and Perfect Pairs on,
members place them with `/blackjack deal`, they are escrowed with the opening bet and settled on
the opening cards; `/blackjack rules` shows each pay table with its exact house edge; bets the
table does not take are refused; a crash mid-round refunds the side bets too; `db check` stays
exact throughout."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction
from tests.e2e.support.blackjack import BlackjackWorld, Factory, answered
from tests.e2e.support.bot_world import World, scaled_rules

# Alice 7♥ 9♥ against the 8♥: a straight flush for 21+3, no pair; the dealer's ten makes 18.
STRAIGHT_FLUSH = "7h 8h 9h Ts 5c 5d"
# Alice 10♥ 8♦ against a 9: Felt dies while she decides.
PLAIN = "Th 9c 8d 7s 5c 5d"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def command(h: BlackjackWorld, who: Any, name: str, **options: Any) -> FakeInteraction:
    interaction = await h.fake.slash(who, h.channel, name, **options)
    await answered(h.fake, interaction)
    return interaction


async def side_bets_on(h: BlackjackWorld, world: World) -> None:
    changed = await command(
        h,
        world.admin,
        "felt-admin config blackjack",
        side_21_3="five_tier",
        perfect_pairs=True,
        max_side_bet=25,
    )
    assert changed.reply.content.startswith("Blackjack table defaults updated")


async def test_side_bets_are_placed_escrowed_and_paid_on_the_opening_cards(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=STRAIGHT_FLUSH)
    await side_bets_on(h, world)
    storage: Storage = h.bot.storage

    rules = await h.fake.slash(alice, h.channel, "blackjack rules")
    await rules.wait_answered()
    assert rules.reply.embed is not None
    text = str(rules.reply.embed["description"])
    assert "**21+3** (five-tier" in text and "straight flush 40 to 1" in text
    assert "**Perfect Pairs** (your two cards): perfect pair 25 to 1" in text
    assert text.count("House edge **") == 2
    too_big = await h.bet(alice, 100, perfect_pairs=26)
    assert too_big.reply.content == "Perfect Pairs bets at this table are 1 to 25 chips."
    assert too_big.reply.ephemeral
    assert await storage.balance(world.guild.id, alice.id) == 1_000

    await h.bet(alice, 100, side_21_3=5, perfect_pairs=5)
    assert await storage.balance(world.guild.id, alice.id) == 890
    await h.deal_by_clock()
    await h.act(alice, "Stand")
    results = await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    await h.settle()

    assert (
        "**Alice** +95 (bet 110, paid 205): Hand 1: loss (-100) · 21+3: straight flush (+200) · "
        "Perfect Pairs: no pair (-5)"
    ) in results.text
    assert await storage.balance(world.guild.id, alice.id) == 1_095
    assert (await storage.check()).ok


async def test_a_crash_mid_round_refunds_the_side_bets_with_the_bet(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=PLAIN)
    await side_bets_on(h, world)
    await h.bet(alice, 100, side_21_3=10)
    await h.deal_by_clock()
    await h.wait_offer(alice)
    await h.settle()

    await h.cog.halt()  # a crash: no refund, no goodbye
    await h.bot.close()
    restarted = await start_blackjack(cards=PLAIN)
    storage: Storage = restarted.bot.storage

    notice = await h.fake.wait_for_message(world.channel, lambda m: "cancelled" in m.text)
    assert notice.embed is not None
    assert notice.embed["description"].endswith(f"Refunded: <@{alice.id}> 110")
    assert await storage.balance(world.guild.id, alice.id) == 1_000
    assert (await storage.check()).ok
