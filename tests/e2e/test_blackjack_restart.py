"""Blackjack across restarts: a crash mid-round is refunded by recovery at the next start and the
channel is told, and the table message from before the crash loses its buttons; a shutdown
refunds the round in play itself and says so.

Rate limits run ten times faster here (same counts, shorter windows).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.blackjack.events import RoundRefunded
from storage import RoundStatus, Storage
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.blackjack import BlackjackWorld, Factory
from tests.e2e.support.bot_world import World, scaled_rules


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def balances(h: BlackjackWorld, world: World) -> tuple[int, int]:
    storage: Storage = h.bot.storage
    return (
        await storage.balance(world.guild.id, world.alice.id),
        await storage.balance(world.guild.id, world.bob.id),
    )


async def test_a_crash_mid_round_is_refunded_at_the_next_start_and_the_channel_told(
    world: World, start_blackjack: Factory
) -> None:
    # Alice splits her 8s (two bets of 100 in escrow), Bob bet 50; then Felt dies.
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards="8h 9c 6c 8d Qh Ts 3c 9h 8s")
    await h.bet(alice, 100)
    await h.bet(bob, 50)
    await h.deal_by_clock()
    await h.act(alice, "Split")
    offer = await h.wait_offer(alice)
    assert await balances(h, world) == (800, 950)
    await h.settle()

    await h.cog.halt()  # a crash: no refund, no goodbye
    await h.bot.close()
    restarted = await start_blackjack(cards="Th 7d 6s Td")

    notice = await h.fake.wait_for_message(world.channel, lambda m: "cancelled" in m.text)
    assert notice.embed is not None
    assert notice.embed["description"] == (
        "Round #1 was cancelled (Felt restarted during this round): every bet is back in its "
        f"wallet.\nRefunded: <@{alice.id}> 200 · <@{bob.id}> 50"
    )
    assert await balances(restarted, world) == (1_000, 1_000)
    storage: Storage = restarted.bot.storage
    assert (await storage.check()).ok
    record = await storage.get_round(1)
    assert record is not None and record.status is RoundStatus.REFUNDED

    # The old table message loses its buttons (its picture and text stay as they were).
    shown = (offer.content, [dict(embed) for embed in offer.embeds], offer.filenames)
    await h.fake.wait_until(lambda: offer.buttons == [], what="the old buttons to be taken off")
    assert (offer.content, offer.embeds, offer.filenames) == shown
    assert "Round #1" in offer.text
    # And the table plays on.
    await restarted.bet(alice, 100)
    await restarted.deal_by_clock()
    await restarted.act(alice, "Stand")
    await h.fake.wait_for_message(world.channel, lambda m: "Round #2 · Results" in m.text)
    await restarted.settle()
    assert await balances(restarted, world) == (900, 1_000)
    assert (await storage.check()).ok
    assert h.fake.stats.rate_limited == 0


async def test_a_shutdown_refunds_the_round_in_play_and_says_so(
    world: World, start_blackjack: Factory
) -> None:
    alice, bob = world.alice, world.bob
    h = await start_blackjack(cards="6h 6c 5d Ts Tc Td")
    await h.bet(alice, 100)
    await h.deal_by_clock()
    await h.wait_offer(alice)
    late = await h.bet(bob, 40)
    assert late.reply.content == "A round is being played. Bet again when it is over."
    await h.bot.shutdown()

    assert [event.reason for event in h.of(RoundRefunded)] == ["Felt is restarting"]
    notice = await h.fake.wait_for_message(world.channel, lambda m: "cancelled" in m.text)
    assert notice.embed is not None
    assert notice.embed["description"] == (
        "Round #1 was cancelled (Felt is restarting): every bet is back in its wallet."
    )
    table_message = h.table_message()
    assert table_message is not None and table_message.buttons == []
    assert table_message.content == (
        "This round was cancelled (Felt is restarting): every bet is back in its wallet."
    )
    storage: Storage = h.bot.storage
    assert await storage.balance(world.guild.id, alice.id) == 1_000
    assert (await storage.check()).ok
    assert h.fake.stats.rate_limited == 0

    # The next start finds nothing to refund and says nothing more.
    restarted = await start_blackjack()
    await restarted.bet(alice, 10)
    await restarted.settle()
    assert len([m for m in restarted.posts() if "cancelled" in m.text]) == 1
