"""Blackjack with the house's bots, through Discord: an admin sets `bot_seats`, bots are dealt in
with bets from the house, play basic strategy after a pause, and are settled through the ledger;
every decision a member makes is graded in the results; a crash mid-round gives the house its
bots' bets back at the next start, and `db check` stays exact throughout.

Rate limits run ten times faster here (same counts, shorter windows).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.blackjack.events import RoundFinished
from bot.blackjack.seats import BOT_THINK_SECONDS
from engine.blackjack import CASINO
from engine.blackjack.sidebets import TwentyOneThreePaytable
from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction
from tests.e2e.support.blackjack import BlackjackWorld, Factory, answered
from tests.e2e.support.bot_world import World, scaled_rules

# Alice (seat 1) 6-5 against the dealer's 6; the bots (seats 6 and 7) T-7 and 9-8; the hole card
# 9; Alice hits a 2; the dealer draws a ten and busts.
ROUND_ONE = "6h Th 9s 6d 5c 7s 8d 9c 2h Ts"
# Alice T-8 against a 7, the bots 9-7 and 9-5: Felt dies while Alice decides.
ROUND_TWO = "Th 9h 9c 7d 8s 7c 5d 4h 2c 2d 2s Ts Ts Ts"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def command(h: BlackjackWorld, who: Any, name: str, **options: Any) -> FakeInteraction:
    interaction = await h.fake.slash(who, h.channel, name, **options)
    await answered(h.fake, interaction)
    return interaction


async def bots_play_out(h: BlackjackWorld) -> None:
    """Give the bots the time they think, decision after decision, until the round is over."""
    for _decision in range(20):
        if h.table().round is None:
            return
        await h.scheduler.advance(BOT_THINK_SECONDS)
    raise AssertionError("the bots did not finish the round")


async def house(storage: Storage) -> int:
    rows = await storage._read(
        lambda tx: tx.all("SELECT balance FROM accounts WHERE kind = 'house'")
    )
    return int(rows[0][0])


async def test_bots_from_the_servers_setting_play_and_settle_through_the_ledger(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=ROUND_ONE)
    seats = await command(h, world.admin, "felt-admin config blackjack", bot_seats=2)
    assert seats.reply.content.startswith("Blackjack table defaults updated")
    storage: Storage = h.bot.storage

    await h.bet(alice, 100)
    await h.deal_by_clock()
    assert await house(storage) == -20  # two bots' minimum bets, from the house
    await h.act(alice, "Hit")
    await h.act(alice, "Stand")
    thinking = await h.wait_message(lambda m: "is thinking" in m.content, "a bot to think")
    assert "Shannon Bot (a bot) is thinking" in thinking.content
    assert thinking.buttons == []  # nobody can press anything for a bot
    hint = await command(h, alice, "blackjack hint")
    assert hint.reply.content == "You have no decision to make right now."
    assert hint.reply.ephemeral
    for _bot in range(2):
        await h.scheduler.advance(BOT_THINK_SECONDS)
    results = await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    await h.settle()

    assert "**Shannon Bot (bot)** +10" in results.text
    assert "**Dijkstra Bot (bot)** +10" in results.text
    assert (
        "Trainer: Hit: basic strategy: double down (hard 11 vs 6), cost ~0.34 bets in "
        "expectation · Stand: correct"
    ) in results.text
    [finished] = h.of(RoundFinished)
    assert {result.name: result.net for result in finished.results}["Alice"] == 100
    assert await storage.balance(world.guild.id, alice.id) == 1_100
    assert await house(storage) == -100  # the bots' wins are the house's own chips
    grades = await storage.decision_grades(world.guild.id, alice.id)
    assert (grades.decisions, grades.correct) == (2, 1)
    assert (await storage.check()).ok
    assert h.fake.stats.rate_limited == 0


async def test_a_crash_mid_round_gives_the_bots_bets_back_to_the_house(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=ROUND_TWO, overrides={"bot_seats": 2})
    storage: Storage = h.bot.storage
    await h.bet(alice, 100)
    await h.deal_by_clock()
    await h.wait_offer(alice)
    assert await house(storage) == -20
    await h.settle()

    await h.cog.halt()  # a crash: no refund, no goodbye
    await h.bot.close()
    restarted = await start_blackjack(cards=ROUND_TWO, overrides={"bot_seats": 2})
    storage = restarted.bot.storage

    notice = await h.fake.wait_for_message(world.channel, lambda m: "cancelled" in m.text)
    assert notice.embed is not None
    assert notice.embed["description"].endswith(f"Refunded: <@{alice.id}> 100")  # no bots named
    assert await house(storage) == 0
    assert await storage.balance(world.guild.id, alice.id) == 1_000
    assert (await storage.check()).ok
    # The table plays on with its bots.
    await restarted.bet(alice, 100)
    await restarted.deal_by_clock()
    await restarted.act(alice, "Stand")
    await bots_play_out(restarted)
    await h.fake.wait_for_message(world.channel, lambda m: "Round #2 · Results" in m.text)
    await restarted.settle()
    assert (await storage.check()).ok


# Six decks (the casino rules), 21+3 (classic) and Perfect Pairs. Round 1, all low cards: Alice
# 2♣ 2♦ (a mixed pair) hits 2♠ 3♦ 3♥ 4♦ and stands on 16; the counting bot 3♣ 6♣ doubles on 9 v
# 4 and draws 4♥; the dealer 4♣ 2♥ draws 5♣ 5♦ 6♦ and busts: fourteen low cards, a Hi-Lo count
# of +14 with 298 cards left (true count +2.4). Round 2 is dealt from more low cards; Felt dies
# while Alice decides.
COUNTED = dataclasses.replace(CASINO, side_21_3=TwentyOneThreePaytable.CLASSIC, perfect_pairs=True)
LOW_ROUNDS = "2c 3c 4c 2d 6c 2h 2s 3d 3h 4d 4h 5c 5d 6d " + "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d"


async def test_counting_bots_and_side_bets_bet_by_the_count_and_a_crash_refunds_them_all(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=LOW_ROUNDS, rules=COUNTED)
    counting = await command(
        h,
        world.admin,
        "felt-admin config blackjack",
        bot_seats=1,
        bot_strategy="hilo",
        bot_spread=8,
    )
    assert counting.reply.content.startswith("Blackjack table defaults updated")
    rules = await command(h, alice, "blackjack rules")
    assert rules.reply.embed is not None
    assert "**House bots**: 1, Hi-Lo counting, betting 1-8 minimum bets by the true count." in str(
        rules.reply.embed["description"]
    )
    storage: Storage = h.bot.storage

    await h.bet(alice, 100, side_21_3=10, perfect_pairs=5)
    await h.deal_by_clock()
    assert await house(storage) == -10  # a fresh shoe: the bot bets the minimum
    for _card in range(4):
        await h.act(alice, "Hit")
    await h.act(alice, "Stand")
    await bots_play_out(h)
    results = await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    await h.settle()
    assert "21+3: nothing (-10) · Perfect Pairs: mixed pair (+30)" in results.text
    after_one = await house(storage)
    wallet = await storage.balance(world.guild.id, alice.id)
    assert (await storage.check()).ok

    await h.bet(alice, 100, side_21_3=10)
    await h.deal_by_clock()
    await h.wait_offer(alice)
    assert await house(storage) == after_one - 20  # a true count of +2.4: two minimum bets
    await h.settle()
    await h.cog.halt()  # a crash: no refund, no goodbye
    await h.bot.close()
    restarted = await start_blackjack(cards=LOW_ROUNDS, rules=COUNTED)
    storage = restarted.bot.storage

    notice = await h.fake.wait_for_message(
        world.channel, lambda m: "Round #2 was cancelled" in m.text
    )
    assert notice.embed is not None
    assert notice.embed["description"].endswith(f"Refunded: <@{alice.id}> 110")
    assert await house(storage) == after_one
    assert await storage.balance(world.guild.id, alice.id) == wallet
    assert (await storage.check()).ok
