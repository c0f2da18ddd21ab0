"""What the Blackjack front refuses, end to end: bad bets (each one private and changing nothing),
acting out of turn, double clicks, stale buttons; and the rules, hints and the admin's settings.

Rate limits run ten times faster here (same counts, shorter windows).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.blackjack.events import ActionTaken, BetPlaced
from bot.tables.errors import STALE_BUTTON
from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, Permission, ResponseKind
from tests.e2e.support.blackjack import BlackjackWorld, Factory, refusal
from tests.e2e.support.bot_world import World, scaled_rules

LIMITS = "Bets at this table are 10 to 500 chips."
WHOLE = "The bet must be a whole number of chips."


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


def frozen(message: FakeMessage) -> FakeMessage:
    """The message as a client that has not seen the next edit yet still shows it."""
    return dataclasses.replace(message, components=copy.deepcopy(message.components))


@pytest.mark.parametrize(
    ("bet", "unchecked", "reply"),
    [
        (0, True, LIMITS),
        (-25, True, LIMITS),
        (5, False, LIMITS),
        (501, False, LIMITS),
        (2**53 - 1, False, LIMITS),
        (10**30, True, LIMITS),
        ("ten", True, WHOLE),
        (12.5, True, WHOLE),
        (True, True, WHOLE),
    ],
)
async def test_bad_bets_are_refused_privately_and_change_nothing(
    world: World, start_blackjack: Factory, bet: Any, unchecked: bool, reply: str
) -> None:
    h = await start_blackjack()
    refused = await h.bet(world.alice, bet, unchecked=unchecked)
    assert refused.reply.content == reply
    assert refused.reply.ephemeral_for is world.alice.user
    assert h.fake.channel_messages(world.channel) == []
    assert h.fake.visible_to(world.bob) == []
    assert h.events == []
    storage: Storage = h.bot.storage
    account = await storage.get_account(world.guild.id, world.alice.id)
    assert account is None or account.balance == 1_000
    assert (await storage.check()).ok


async def test_a_bet_in_a_channel_where_felt_cannot_post_is_refused_before_any_chip_moves(
    world: World, start_blackjack: Factory
) -> None:
    h = await start_blackjack()
    h.fake.deny_bot(world.channel, Permission.ATTACH_FILES)
    refused = await h.bet(world.alice, 10, unchecked=True)
    assert refused.reply.ephemeral_for is world.alice.user
    assert refused.reply.content == (
        "Felt cannot show a table here: it lacks the **Attach Files** permission in this "
        "channel. Ask a server admin to allow it, or play in another channel."
    )
    assert await h.bot.storage.get_account(world.guild.id, world.alice.id) is None
    assert h.of(BetPlaced) == []


async def test_a_bet_above_the_balance_a_second_bet_and_a_bet_during_play_are_refused(
    world: World, start_blackjack: Factory
) -> None:
    alice, bob, ada = world.alice, world.bob, world.admin
    h = await start_blackjack(cards="Th 7d 6s Td")
    # The admin raises the limit above what members hold.
    config = await h.fake.slash(ada, world.channel, "felt-admin config blackjack", max_bet=5_000)
    await config.wait_answered()
    assert "max bet 5,000" in config.reply.content

    too_much = await h.bet(alice, 1_500)
    assert too_much.reply.content == "You have 1,000 chips, not enough for 1,500."
    assert too_much.reply.ephemeral_for is alice.user
    await h.bet(alice, 100)
    again = await h.bet(alice, 50)
    assert again.reply.content == "You already bet 100 on this round."
    await h.deal_by_clock()
    await h.wait_offer(alice)
    during = await h.bet(bob, 50)
    assert during.reply.content == "A round is being played. Bet again when it is over."
    storage: Storage = h.bot.storage
    assert await storage.balance(world.guild.id, alice.id) == 900
    assert await storage.balance(world.guild.id, bob.id) == 1_000
    assert [event.name for event in h.of(BetPlaced)] == ["Alice"]
    assert [m.content for m in h.fake.ephemerals(bob)] == [during.reply.content]


async def test_out_of_turn_double_clicks_and_stale_buttons_apply_once_or_are_refused(
    world: World, start_blackjack: Factory
) -> None:
    # Alice 10-6 and Bob 9-10 against a dealer 7 (10 in the hole); Alice draws a 4.
    alice, bob, ada = world.alice, world.bob, world.admin
    h = await start_blackjack(cards="Th 9c 7d 6s Ts Td 4h")
    await h.bet(alice, 100)
    await h.bet(bob, 50)
    betting = frozen(await h.wait_message(lambda m: "Bob" in m.text, "both bets on the table"))
    await h.deal_by_clock()
    offer = await h.wait_offer(alice)
    before = frozen(offer)

    assert await refusal(h, bob, offer, label="Stand") == "It is not your turn."
    assert await refusal(h, ada, offer, label="Hit") == (
        "You have no bet in this round: `/blackjack deal` to join the next one."
    )
    assert await refusal(h, alice, betting, label="Deal now") == "The cards are already dealt."

    # A double click: both reach the bot; the hit applies once, the other click is refused.
    first = await h.fake.click(alice, offer, label="Hit")
    second = await h.fake.click(alice, offer, label="Hit")
    await asyncio.gather(first.wait_acknowledged(), second.wait_acknowledged())

    def refusals() -> list[FakeMessage]:
        return [m for m in first.messages + second.messages if m.ephemeral]

    await h.fake.wait_until(lambda: len(refusals()) == 1, what="one refusal")
    (refused,) = refusals()
    assert refused.ephemeral_for is alice.user
    assert refused.content == STALE_BUTTON
    assert [e.text for e in h.of(ActionTaken)] == ["Alice: Hit"]
    assert {first.response_kind, second.response_kind} <= {
        ResponseKind.DEFERRED_UPDATE_MESSAGE,
        ResponseKind.CHANNEL_MESSAGE,
    }

    # A button from before the hit (a client that missed the edit) is stale too.
    assert await refusal(h, alice, before, label="Stand") == (STALE_BUTTON)
    await h.act(alice, "Stand")
    await h.act(bob, "Stand")
    await h.fake.wait_for_message(world.channel, lambda m: "Results" in m.text)
    await h.settle()
    assert await refusal(h, bob, before, label="Hit") == (
        "That round is over: its buttons no longer do anything."
    )
    assert [e.text for e in h.of(ActionTaken)] == [
        "Alice: Hit",
        "Alice: Stand",
        "Bob: Stand",
    ]
    storage: Storage = h.bot.storage
    assert await storage.balance(world.guild.id, alice.id) == 1_100
    assert (await storage.check()).ok
    assert h.fake.stats.rate_limited == 0
    assert h.fake.unacknowledged() == []


async def test_rules_hints_and_the_admins_settings(world: World, start_blackjack: Factory) -> None:
    alice, bob, ada = world.alice, world.bob, world.admin
    h: BlackjackWorld = await start_blackjack(cards="Th 6c 6d Ts  Th 6c 6d Ts")

    rules = await h.fake.slash(bob, world.channel, "blackjack rules")
    await rules.wait_answered()
    assert rules.reply.ephemeral_for is bob.user
    embed = rules.reply.embed
    assert embed is not None
    lines = str(embed["description"]).splitlines()
    assert lines[:3] == [
        "• 6 decks, reshuffled once about 75% has been dealt.",
        "• A blackjack (an ace and a ten-value card as your first two cards) pays 3 to 2.",
        "• The dealer stands on every 17, soft or hard.",
    ]
    assert "• No surrender." in lines
    assert lines[-1].startswith("House edge with basic strategy: **0.40%**")
    assert embed["fields"][0]["value"].startswith(
        "Bets 10 to 500 chips · 10 s to bet before the deal · 20 s per decision"
    )

    nothing = await h.fake.slash(alice, world.channel, "blackjack hint")
    await nothing.wait_answered()
    assert nothing.reply.content == "No round is being played here: `/blackjack deal` to start one."

    # Round 1: Alice holds 16 against a 6; basic strategy says stand; Bob has no hand.
    await h.bet(alice, 100)
    await h.deal_by_clock()
    offer = await h.wait_offer(alice)
    assert "Hint" in offer.button_labels
    hint = await h.fake.slash(alice, world.channel, "blackjack hint")
    await hint.wait_answered()
    assert hint.reply.ephemeral_for is alice.user
    assert hint.reply.content.startswith("Basic strategy says: **Stand** (hard 16 against a Six")
    other = await h.fake.slash(bob, world.channel, "blackjack hint")
    await other.wait_answered()
    assert other.reply.content == "You have no hand in play."
    await h.act(alice, "Stand")
    await h.fake.wait_for_message(world.channel, lambda m: "Results" in m.text)

    # The admin turns hints off: the next round has no Hint button and refuses the command.
    config = await h.fake.slash(ada, world.channel, "felt-admin config blackjack", hints=False)
    await config.wait_answered()
    await h.bet(alice, 100)
    await h.deal_by_clock()
    offer = await h.wait_offer(alice)
    assert offer.button_labels == ["Hit", "Stand", "Double down"]
    off = await h.fake.slash(alice, world.channel, "blackjack hint")
    await off.wait_answered()
    assert off.reply.content == "Hints are turned off on this server."
    rules = await h.fake.slash(alice, world.channel, "blackjack rules")
    await rules.wait_answered()
    assert rules.reply.embed is not None
    assert "hints are off on this server" in rules.reply.embed["fields"][0]["value"]
    await h.act(alice, "Stand")
    await h.settle()
    assert h.fake.stats.rate_limited == 0


async def test_a_double_without_the_chips_is_refused_and_changes_nothing(
    world: World, start_blackjack: Factory
) -> None:
    alice, ada = world.alice, world.admin
    h = await start_blackjack(cards="6h 6c 5d Ts Tc Td")
    storage: Storage = h.bot.storage
    await storage.ensure_account(world.guild.id, alice.id)
    await storage.admin_take(world.guild.id, alice.id, 850, actor_id=ada.id, key="test:take")
    await h.bet(alice, 100)
    await h.deal_by_clock()
    offer = await h.wait_offer(alice)
    step = h.table().snapshot().step
    assert await refusal(h, alice, offer, label="Double down") == (
        "Double down needs 100 more chips; you have 50."
    )
    assert h.table().snapshot().step == step
    assert await storage.balance(world.guild.id, alice.id) == 50
    await h.act(alice, "Stand")  # 11 stands; the dealer's 16 takes a 10 and busts
    await h.fake.wait_for_message(world.channel, lambda m: "Results" in m.text)
    await h.settle()
    assert await storage.balance(world.guild.id, alice.id) == 250
    assert (await storage.check()).ok
