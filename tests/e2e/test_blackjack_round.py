"""A Blackjack round end to end under Discord's real rate limits: two members bet, a third
looks on, the table message follows the round, and each member sees only their own answers."""

from __future__ import annotations

from bot.blackjack.events import RoundFinished, TableChanged
from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeMessage, ResponseKind
from tests.e2e.support.blackjack import BlackjackWorld, Factory, refusal
from tests.e2e.support.bot_world import World

HIDDEN = "🂠"


CARDS = "Th 9c 7d 6s Ts Td 4h"
"""Alice 10-6 and Bob 9-10 against a dealer 7 with a 10 in the hole; Alice draws a 4."""


async def bet_both(h: BlackjackWorld, world: World) -> FakeMessage:
    """Alice bets 100 and Bob 50; returns the betting table message with both bets on it."""
    await h.bet(world.alice, 100)
    await h.bet(world.bob, 50)
    return await h.wait_message(lambda m: "Bob" in m.text, "Bob's bet on the table")


async def deal(h: BlackjackWorld, world: World, betting: FakeMessage) -> None:
    """Bob presses Deal now."""
    dealt = await h.fake.click(world.bob, betting, label="Deal now")
    await dealt.wait_answered()
    assert dealt.response_kind is ResponseKind.DEFERRED_UPDATE_MESSAGE


async def test_bets_go_to_escrow_and_only_a_player_with_a_bet_may_deal(
    fake_discord: FakeDiscord, world: World, start_blackjack: Factory
) -> None:
    alice, bob, ada = world.alice, world.bob, world.admin
    h = await start_blackjack(cards=CARDS)
    storage: Storage = h.bot.storage

    placed = await h.bet(alice, 100)
    assert placed.reply.ephemeral_for is alice.user
    assert placed.reply.content.startswith(
        "Welcome to Felt! Your account is open with 1,000 chips.\n"
        "You bet 100 chips on round #1 (seat 1); you have 900 left. The cards are dealt <t:"
    )
    assert await storage.balance(world.guild.id, alice.id) == 900  # in escrow already
    betting = await h.wait_message(lambda m: "Alice" in m.text, "the betting table message")
    assert betting.button_labels == ["Deal now"]
    assert betting.content.startswith("Bets are open: `/blackjack deal` to join this round.")

    joined = await h.bet(bob, 50)
    assert "round #1 (seat 2); you have 950 left" in joined.reply.content
    betting = await h.wait_message(lambda m: "Bob" in m.text, "Bob's bet on the table")
    assert "Only players with a bet in this round can deal" in await refusal(
        h, ada, betting, label="Deal now"
    )
    await deal(h, world, betting)
    await h.wait_offer(alice)


async def test_a_turn_offers_legal_buttons_hides_the_hole_card_and_answers_privately(
    fake_discord: FakeDiscord, world: World, start_blackjack: Factory
) -> None:
    fake, alice, bob, ada = fake_discord, world.alice, world.bob, world.admin
    h = await start_blackjack(cards=CARDS)
    betting = await bet_both(h, world)
    await deal(h, world, betting)

    offer = await h.wait_offer(alice)
    assert offer.id == betting.id  # one table message for the whole round
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Hint"]
    assert offer.content.startswith(f"▶ <@{alice.id}> to act (16 against the dealer's 7♦)")
    assert "times out <t:" in offer.content
    assert HIDDEN in offer.text and "10♦" not in offer.text
    assert await refusal(h, bob, offer, label="Hit") == "It is not your turn."
    assert "You have no bet in this round" in await refusal(h, ada, offer, label="Stand")
    hint = await fake.click(alice, offer, label="Hint")
    await hint.wait_answered()
    assert hint.reply.ephemeral_for is alice.user
    assert hint.reply.content == "Basic strategy says: **Hit** (hard 16 against a Seven)."
    # What each member saw privately: their own answers only.
    assert [m.content[:11] for m in fake.ephemerals(alice)] == ["Welcome to ", "Basic strat"]
    assert [m.content[:10] for m in fake.ephemerals(bob)] == ["Welcome to", "It is not "]
    assert all("bet in this round" in m.content for m in fake.ephemerals(ada))


async def test_a_round_settles_on_its_one_table_message_within_discords_limits(
    fake_discord: FakeDiscord, world: World, start_blackjack: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_blackjack(cards=CARDS)
    storage: Storage = h.bot.storage
    betting = await bet_both(h, world)
    await deal(h, world, betting)

    await h.act(alice, "Hit")
    await h.act(alice, "Stand")
    offer = await h.wait_offer(bob)
    assert offer.button_labels == ["Hit", "Stand", "Double down", "Hint"]
    await h.act(bob, "Stand")

    results = await fake.wait_for_message(world.channel, lambda m: "Results" in m.text)
    assert results.embed is not None
    assert results.embed["title"] == "Round #1 · Results"
    assert results.embed["description"].splitlines() == [
        "Dealer: 7♦ 10♦ (17)",
        "**Alice** +100 (bet 100, paid 200): Hand 1: win (+100)",
        "  Trainer: Hit: correct · Stand: correct",
        "**Bob** +50 (bet 50, paid 100): Hand 1: win (+50)",
        "  Trainer: Stand: correct",
    ]
    await h.settle()
    final = h.table_message()
    assert final is not None and final.id == betting.id and len(h.table_messages()) == 1
    assert final.buttons == [] and final.content.startswith("Round over")
    assert "10♦" in final.text and HIDDEN not in final.text
    assert await storage.balance(world.guild.id, alice.id) == 1_100
    assert await storage.balance(world.guild.id, bob.id) == 1_050
    assert (await storage.check()).ok
    # Discord's limits held (5 edits per 5 s per channel) because edits were coalesced.
    assert fake.stats.rate_limited == 0
    assert fake.unacknowledged() == []
    # (Edits after a click go through that click's token: those count as edits too.)
    edits = [
        r for r in fake.requests if r.route.startswith(("PATCH /channels/", "PATCH /webhooks/"))
    ]
    changes = len(h.of(TableChanged))
    assert 0 < len(edits) < changes, (len(edits), changes)
    assert len(h.of(RoundFinished)) == 1
