"""A Blackjack winner whose wallet is at the chip limit through Discord: the round is settled, not
stuck; the result says how much could not be paid, the table takes the next round, and `db check`
stays exact."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import MAX_CHIPS, Storage
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.blackjack import Factory
from tests.e2e.support.bot_world import World, scaled_rules

# Alice 10♥ 10♦ against the 9♣ and 7♠: the dealer draws a ten and busts; then a plain round.
ALICE_WINS = "Th 9c Td 7s Ts " + "Th 9c 8d 7s 5c 5d"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def test_a_winner_at_the_chip_limit_is_paid_up_to_it_and_the_table_plays_on(
    world: World, start_blackjack: Factory
) -> None:
    alice = world.alice
    h = await start_blackjack(cards=ALICE_WINS)
    storage: Storage = h.bot.storage
    await h.bet(alice, 100)
    await storage.admin_set(world.guild.id, alice.id, MAX_CHIPS - 30, actor_id=1, key="fill")
    await h.deal_by_clock()
    await h.act(alice, "Stand")
    results = await h.fake.wait_for_message(h.channel, lambda m: "Round #1 · Results" in m.text)
    await h.settle()

    assert "170 chips not paid: the wallet is at the chip limit" in results.text
    assert await storage.balance(world.guild.id, alice.id) == MAX_CHIPS
    assert (await storage.check()).ok
    await storage.admin_set(world.guild.id, alice.id, 1_000, actor_id=1, key="empty")
    await h.bet(alice, 100)
    await h.deal_by_clock()
    assert h.table().round_id is not None and h.table().round_id != 1
    assert await storage.balance(world.guild.id, alice.id) == 900
