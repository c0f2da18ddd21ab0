"""Every Blackjack decision end to end with stacked shoes: double, splits (aces and resplits
included), insurance and even money, surrender, a dealer blackjack found by the peek, pushes and
a turn that times out. Each test reads the table message and the results post as the channel
sees them, and the wallets and the ledger afterwards.

The fake Discord runs its rate limits ten times faster here (same counts, shorter windows);
``test_blackjack_round.py`` plays under the real ones.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from bot.blackjack.events import ActionTaken
from engine.blackjack import CASINO, Surrender
from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.support.blackjack import BlackjackWorld, Factory, refusal
from tests.e2e.support.bot_world import World, scaled_rules


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def results(h: BlackjackWorld, round_id: int) -> list[str]:
    """The lines of round ``round_id``'s results post, once the table caught up."""
    title = f"Round #{round_id} · Results"
    post = await h.fake.wait_for_message(
        h.channel, lambda m: m.embed is not None and m.embed.get("title") == title
    )
    await h.settle()
    assert post.embed is not None
    return str(post.embed["description"]).splitlines()


async def balance(h: BlackjackWorld, member: object) -> int:
    storage: Storage = h.bot.storage
    return await storage.balance(h.world.guild.id, member.id)  # type: ignore[attr-defined]


async def finish(h: BlackjackWorld) -> FakeMessage:
    """The end of every test: the ledger balances, no 429, no interaction left unanswered, and
    the last table message has no buttons left."""
    await h.settle()
    storage: Storage = h.bot.storage
    assert (await storage.check()).ok
    assert h.fake.stats.rate_limited == 0
    assert h.fake.unacknowledged() == []
    final = h.table_message()
    assert final is not None and final.buttons == []
    return final


async def test_double_down_escrows_twice_the_bet_and_pays_it(
    world: World, start_blackjack: Factory
) -> None:
    # Alice 6-5 = 11 against a dealer 6 (10 in the hole): she doubles into a 10; 16 busts.
    h = await start_blackjack(cards="6h 6c 5d Ts Tc Td")
    await h.bet(world.alice, 100)
    await h.deal_by_clock()
    offer = await h.wait_offer(world.alice)
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Hint"]
    await h.act(world.alice, "Double down")

    assert await results(h, 1) == [
        "Dealer: 6♣ 10♠ 10♦ (bust (26))",
        "**Alice** +200 (bet 200, paid 400): Hand 1: win (+200)",
        "  Trainer: Double down: correct",
    ]
    final = await finish(h)
    assert "6♥ 5♦ 10♣ (21) · bet 200 doubled · **WIN +200**" in final.text
    assert await balance(h, world.alice) == 1_200


async def test_split_resplit_and_double_after_split(world: World, start_blackjack: Factory) -> None:
    # Alice 8-8 against a dealer 6 (10 in the hole): split, split again, double the first hand
    # (8-3 takes a 10), stand on 8-9, hit 8-2 to 15; the dealer draws a 4 to 20.
    h = await start_blackjack(cards="8h 6c 8d Ts 8s 3c Tc 9h 2d 5h 4s")
    await h.bet(world.alice, 50)
    await h.deal_by_clock()
    offer = await h.wait_offer(world.alice)
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Split", "Hint"]
    await h.act(world.alice, "Split")
    offer = await h.wait_offer(world.alice)
    assert "Split" in offer.button_labels
    assert offer.content.startswith(f"▶ <@{world.alice.id}> to act (hand 1: 16 against")
    await h.act(world.alice, "Split")
    assert await balance(h, world.alice) == 850  # three bets of 50 in escrow
    offer = await h.wait_offer(world.alice)
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Hint"]
    await h.act(world.alice, "Double down")
    offer = await h.wait_offer(world.alice)
    assert offer.content.startswith(f"▶ <@{world.alice.id}> to act (hand 2: 17 against")
    await h.act(world.alice, "Stand")
    await h.act(world.alice, "Hit")
    await h.act(world.alice, "Stand")

    assert await results(h, 1) == [
        "Dealer: 6♣ 10♠ 4♠ (20)",
        "**Alice** ±0 (bet 200, paid 200): Hand 1: win (+100) · Hand 2: loss (-50) · "
        "Hand 3: loss (-50)",
        "  Trainer: Split: correct · Split: correct · Double down: correct · Stand: correct · "
        "Hit: basic strategy: double down (hard 10 vs 6), cost ~0.29 bets in expectation · "
        "Stand: correct",
    ]
    final = await finish(h)
    assert "hand 1: 8♥ 3♣ 10♣ (21) · bet 100 doubled · **WIN +100**" in final.text
    assert await balance(h, world.alice) == 1_000


async def test_split_aces_take_one_card_each_and_may_be_resplit(
    world: World, start_blackjack: Factory
) -> None:
    # A pair of aces against a 6; the first split ace draws another ace, which is split again.
    # Ace-king after a split is 21, not a blackjack, and pays even money.
    h = await start_blackjack(
        cards="Ah 6c Ad Ts As Kd Qc 9d 8h",
        rules=dataclasses.replace(CASINO, resplit_aces=True),
    )
    await h.bet(world.alice, 100)
    await h.deal_by_clock()
    await h.act(world.alice, "Split")
    offer = await h.wait_offer(world.alice)
    assert offer.button_labels == ["Stand", "Split", "Hint"]  # no hit on a split ace
    await h.act(world.alice, "Split")

    lines = await results(h, 1)
    assert lines[0] == "Dealer: 6♣ 10♠ 8♥ (bust (24))"
    assert lines[1] == (
        "**Alice** +300 (bet 300, paid 600): Hand 1: win (+100) · Hand 2: win (+100) · "
        "Hand 3: win (+100)"
    )
    final = await finish(h)
    assert "A♥ K♦ (21)" in final.text and "(blackjack)" not in final.text
    assert await balance(h, world.alice) == 1_300


async def test_insurance_and_even_money_decided_in_any_order(
    world: World, start_blackjack: Factory
) -> None:
    # Alice 10-9, Bob ace-king; the dealer shows an ace with a king in the hole.
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards="Th Ah Ac 9d Kh Ks")
    await h.bet(alice, 100)
    await h.bet(bob, 100)
    await h.deal_by_clock()
    offer = await h.wait_offer(alice)
    # Each player sees which choice is theirs: insurance for Alice, even money for Bob.
    assert offer.button_labels == [
        "Insurance · Alice",
        "Even money · Bob",
        "No insurance",
        "Hint",
    ]
    assert offer.content.startswith(
        f"The dealer shows an ace. Insurance? <@{alice.id}> and <@{bob.id}> decide"
    )
    assert await refusal(h, bob, offer, label="Insurance · Alice") == (
        "Insurance is not on offer for you now: **Even money** or **No insurance**."
    )
    # Both decide on the same message, at once: Bob's click lands after Alice's moved the
    # round on a step, and still counts.
    first = await h.fake.click(alice, offer, label="Insurance · Alice")
    second = await h.fake.click(bob, offer, label="Even money · Bob")
    await asyncio.gather(first.wait_answered(), second.wait_answered())

    assert await results(h, 1) == [
        "Dealer: A♣ K♠ (blackjack)",
        "**Alice** ±0 (bet 150, paid 150): Hand 1: loss (-100) · Insurance (+100)",
        "  Trainer: Insurance: basic strategy: no insurance (insurance vs A), cost ~0.04 bets "
        "in expectation",
        "**Bob** +100 (bet 100, paid 200): Hand 1: even money (+100)",
        "  Trainer: Even money: basic strategy: no insurance (insurance vs A), cost ~0.04 bets "
        "in expectation",
    ]
    assert first.followups == [] and second.followups == []  # neither was refused
    await finish(h)
    assert await balance(h, alice) == 1_000
    assert await balance(h, bob) == 1_100


async def test_late_surrender_returns_half_the_bet(world: World, start_blackjack: Factory) -> None:
    h = await start_blackjack(
        cards="Th Tc 6d 7s", rules=dataclasses.replace(CASINO, surrender=Surrender.LATE)
    )
    await h.bet(world.alice, 100)
    await h.deal_by_clock()
    offer = await h.wait_offer(world.alice)
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Surrender", "Hint"]
    await h.act(world.alice, "Surrender")

    assert await results(h, 1) == [
        "Dealer: 10♣ 7♠ (17)",
        "**Alice** -50 (bet 100, paid 50): Hand 1: surrender (-50)",
        "  Trainer: Surrender: correct",
    ]
    await finish(h)
    assert await balance(h, world.alice) == 950


async def test_dealer_blackjack_found_by_the_peek_then_a_round_of_pushes(
    world: World, start_blackjack: Factory
) -> None:
    # Round 1: the dealer shows a 10 and peeks an ace: Alice's 19 loses only her bet, Bob's
    # ace-king pushes; nobody is asked anything. Round 2: 18 everywhere, everyone pushes.
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards="Th Ah Tc 9d Kh As  Th 9c Tc 8d 9s 8h")
    await h.bet(alice, 100)
    await h.bet(bob, 50)
    await h.deal_by_clock()
    assert await results(h, 1) == [
        "Dealer: 10♣ A♠ (blackjack)",
        "**Alice** -100 (bet 100, paid 0): Hand 1: loss (-100)",
        "**Bob** ±0 (bet 50, paid 50): Hand 1: push (+0)",
    ]
    assert not any(event.automatic is False for event in h.of(ActionTaken))
    first_round = await finish(h)

    await h.bet(alice, 100)
    await h.bet(bob, 50)
    await h.deal_by_clock()
    offer = await h.wait_offer(alice)
    assert offer.id != first_round.id  # a new table message for the new round
    await h.act(alice, "Stand")
    offer = await h.wait_offer(bob)
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Split", "Hint"]
    await h.act(bob, "Stand")
    assert await results(h, 2) == [
        "Dealer: 10♣ 8♥ (18)",
        "**Alice** ±0 (bet 100, paid 100): Hand 1: push (+0)",
        "  Trainer: Stand: correct",
        "**Bob** ±0 (bet 50, paid 50): Hand 1: push (+0)",
        "  Trainer: Stand: correct",
    ]
    await finish(h)
    messages = h.table_messages()
    assert [m.id for m in messages] == [first_round.id, offer.id]
    assert "Round #1" in messages[0].text and "PUSH" in messages[0].text  # round 1 kept its result
    assert await balance(h, alice) == 900
    assert await balance(h, bob) == 1_000


async def test_a_turn_that_times_out_stands(world: World, start_blackjack: Factory) -> None:
    h = await start_blackjack(cards="Th 7d 6s Td")
    await h.bet(world.alice, 100)
    await h.deal_by_clock()
    await h.wait_offer(world.alice)
    await h.time_out()
    assert await results(h, 1) == [
        "Dealer: 7♦ 10♦ (17)",
        "**Alice** -100 (bet 100, paid 0): Hand 1: loss (-100)",
    ]
    final = await finish(h)
    assert "Alice: Stand (timed out)" in final.text
    assert await balance(h, world.alice) == 900
