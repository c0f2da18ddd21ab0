"""Home-game options driven through the table message's buttons: run it twice (consent and
refusals), rabbit hunt, showing 7-2 after a fold and collecting the bounty."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.holdem.events import HandFinished
from bot.holdem.order import SeatOrder
from engine.cards import Card
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMember, FakeMessage
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.decks import deck
from tests.e2e.support.holdem import Factory, HoldemWorld, button


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def slash(
    fake: FakeDiscord, who: FakeMember, world: World, command: str, **options: Any
) -> FakeMessage:
    sent = await fake.slash(who, world.channel, command, **options)
    await sent.wait_answered()
    return sent.reply


def seven_deuce(holder: list[HoldemWorld]) -> Callable[[], list[Card]]:
    """Hand 1's deck: Alice (seat 1) holds 7s2d, Bob (seat 2) AhAc, whoever has the button."""

    def cards() -> list[Card]:
        table = holder[0].table()
        assert table._button is not None
        order = SeatOrder.around(table.seating.players(), table._button)
        holes = {1: "7s2d", 2: "AhAc"}
        return deck([holes[seat] for seat in order], "7c7d2hKsQs")

    return cards


async def refused(fake: FakeDiscord, clicked: FakeInteraction) -> str:
    await fake.wait_until(lambda: bool(clicked.followups), what="the refusal")
    reply = clicked.followups[0]
    assert reply.ephemeral
    return reply.content


async def shove_and_answer(h: HoldemWorld, alice: FakeMember, bob: FakeMember) -> None:
    """Alice goes all in preflop (whoever acts first), Bob calls."""
    while True:
        member = await h.next_turn(
            [alice, bob], until=lambda: h.table().snapshot().run_count_ask is not None
        )
        if member is None:
            return
        message, _ref = await h.wait_offer(member)
        label = (
            button(message, "All-in")
            if member is alice
            and any(label.startswith("All-in") for label in message.button_labels)
            else None
        )
        await h.act(member, label)


async def test_run_it_twice_through_the_buttons(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob, ada = fake_discord, world.alice, world.bob, world.admin
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=2, bots=0, options="run_it_max=2")
    await slash(fake, bob, world, "holdem join", buy_in=500)
    await shove_and_answer(h, alice, bob)
    await h.wait_host(
        lambda: (m := h.table_message()) is not None and "Run twice" in m.button_labels,
        "the run-count buttons",
    )
    message = h.table_message()
    assert message is not None and {alice.id, bob.id} <= set(message.mentions)
    assert message.button_labels == ["Run once", "Run twice"]
    stranger = await fake.click(ada, message, label="Run twice")
    assert "Only the players all in" in await refused(fake, stranger)
    await (await fake.click(alice, message, label="Run twice")).wait_answered()
    again = await fake.click(alice, message, label="Run once")
    assert "already answered" in await refused(fake, again)
    await (await fake.click(bob, message, label="Run twice")).wait_answered()
    await h.wait_host(lambda: h.hands_finished() >= 1, "the hand to finish")
    result = await fake.wait_for_message(world.channel, lambda m: "Result" in m.text)
    assert "Board 1:" in result.text and "Board 2:" in result.text
    assert "on board 2" in result.text
    finished = h.of(HandFinished)[0]
    assert len(finished.snapshot.run_boards) == 2
    agreed = await fake.wait_for_message(world.channel, lambda m: "runs twice" in m.text)
    assert "Everyone agreed" in agreed.text


async def test_rabbit_hunt_and_show_seven_deuce_for_the_bounty(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob, ada = fake_discord, world.alice, world.bob, world.admin
    holder: list[HoldemWorld] = []
    h = await start_holdem(
        decks={1: seven_deuce(holder)}, overrides={"between_hands_seconds": 30.0}
    )
    holder.append(h)
    await slash(
        fake,
        alice,
        world,
        "holdem start",
        seats=2,
        bots=0,
        options="rabbit_hunt=on seven_deuce_bounty=25",
    )
    await slash(fake, bob, world, "holdem join", buy_in=500)
    # Alice raises all in, Bob folds: Alice wins without a showdown.
    while h.hands_finished() < 1:
        member = await h.next_turn([alice, bob], until=lambda: h.hands_finished() >= 1)
        if member is None:
            break
        offer, _ref = await h.wait_offer(member)
        if member is alice:
            await h.act(alice, button(offer, "All-in"))
        else:
            await h.act(bob, "Fold")
    await h.wait_host(
        lambda: (m := h.table_message()) is not None and "Rabbit hunt" in m.button_labels,
        "the after-hand buttons",
    )
    message = h.table_message()
    assert message is not None
    assert {"Rabbit hunt", "Show 1st card", "Show 2nd card", "Show both"} <= set(
        message.button_labels
    )
    stranger = await fake.click(ada, message, label="Rabbit hunt")
    assert "Only players dealt into that hand" in await refused(fake, stranger)
    await (await fake.click(bob, message, label="Rabbit hunt")).wait_answered()
    hunted = await fake.wait_for_message(world.channel, lambda m: "rabbit hunts" in m.text)
    assert "nothing changes" in hunted.text
    bob_before = h.table().seats[2].stack
    await (await fake.click(alice, message, label="Show both")).wait_answered()
    shown = await fake.wait_for_message(world.channel, lambda m: "**Alice** shows" in m.text)
    assert "hand #1" in shown.text
    bounty = await fake.wait_for_message(world.channel, lambda m: "collects the bounty" in m.text)
    assert "collects the bounty: 25 chips (Bob 25)" in bounty.text
    assert h.table().seats[2].stack == bob_before - 25
    twice = await fake.click(alice, message, label="Show 1st card")
    assert await refused(fake, twice)
