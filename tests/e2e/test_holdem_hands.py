"""``/holdem hand`` (the replayer) and ``/holdem hands`` (hand histories as a file) end to end:
private answers, buttons that step through the streets for their owner only, refusals, and no
card a member may not see, checked by the privacy scanner."""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.holdem.events import HandFinished, HoleCards
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld
from tests.e2e.support.privacy import check_privacy, every_card_token
from tests.engine.holdem.export_hands import parse_pokerstars


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


async def one_hand_alice_folds(fake: FakeDiscord, world: World, h: HoldemWorld) -> None:
    """Hand 1 at a three-seat table (Alice, Bob, a bot): Alice folds at once."""
    await slash(fake, world.alice, world, "holdem start", seats=3, bots=1)
    await slash(fake, world.bob, world, "holdem join")
    message, _ref = await h.wait_offer(world.alice)
    folded = await fake.click(world.alice, message, label="Fold")
    await folded.wait_answered()
    await h.play([world.alice, world.bob], until=lambda: h.hands_finished() >= 1)


def showing(message: FakeMessage, text: str) -> bool:
    return text in message.content


def allowed_cards(h: HoldemWorld, member: FakeMember, hand: int) -> set[Any]:
    own = next(e for e in h.of(HoleCards) if e.user_id == member.id and e.hand_id == hand)
    return set(own.cards) | h.shown_cards(hand) | h.boards(hand)


async def test_holdem_hand_replays_street_by_street_for_its_player_only(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    nothing = await slash(fake, alice, world, "holdem hand")
    assert nothing.ephemeral and "not played a finished hand" in nothing.content
    await one_hand_alice_folds(fake, world, h)

    reply = await slash(fake, alice, world, "holdem hand")
    assert reply.ephemeral and reply.filenames == ["hand1-1.png"]
    assert reply.content.startswith("**Hand #1** · Pre-flop (1/")
    mine = set(next(e for e in h.of(HoleCards) if e.user_id == alice.id).cards)
    assert mine <= set(every_card_token(reply.content))  # her own cards, privately
    assert [b.label for b in reply.buttons] == ["◀ Previous", "Next ▶"]
    assert reply.buttons[0].disabled and not reply.buttons[1].disabled
    frames = int(reply.content.split("(1/", 1)[1].split(")", 1)[0])
    seen = set(every_card_token(reply.content))
    for number in range(2, frames + 1):
        clicked = await fake.click(alice, reply, label="Next ▶")
        await clicked.wait_answered()  # a deferred update: the edit follows
        await fake.wait_until(functools.partial(showing, reply, f"({number}/{frames})"))
        assert reply.content.startswith("**Hand #1** · "), reply.content
        assert reply.filenames == [f"hand1-{number}.png"]
        seen |= set(every_card_token(reply.content))
    assert reply.buttons[1].disabled and not reply.buttons[0].disabled
    back = await fake.click(alice, reply, label="◀ Previous")
    await back.wait_answered()
    await fake.wait_until(lambda: f"({frames - 1}/{frames})" in reply.content)
    assert seen <= allowed_cards(h, alice, 1)

    # Someone else's click (a modified client: the message is Alice's alone) is refused.
    stolen = await fake.click(bob, reply, label="Next ▶", unchecked=True)
    await stolen.wait_answered()
    assert stolen.reply.ephemeral and "someone else's" in stolen.reply.content
    assert f"({frames - 1}/{frames})" in reply.content  # unchanged

    # Bob joined while hand 1 was dealt, so he did not play it and may not replay it.
    bobs = await slash(fake, bob, world, "holdem hand", number=1)
    assert bobs.ephemeral and "You did not play hand #1" in bobs.content and not bobs.filenames

    report = check_privacy(fake, h)
    assert report.problems == []
    assert report.private_payloads > frames


async def test_holdem_hand_refuses_a_missing_hand_and_one_you_did_not_play(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    h = await start_holdem()
    await one_hand_alice_folds(fake, world, h)
    missing = await slash(fake, world.alice, world, "holdem hand", number=99)
    assert missing.ephemeral and "no hand #99" in missing.content and not missing.filenames
    carol = fake.create_member(world.guild, "Carol")
    other = await slash(fake, carol, world, "holdem hand", number=1)
    assert other.ephemeral and "You did not play hand #1" in other.content
    assert not other.filenames
    latest = await slash(fake, carol, world, "holdem hand")
    assert latest.ephemeral and "not played a finished hand" in latest.content


async def test_holdem_hands_sends_your_histories_as_a_private_file(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice = fake_discord, world.alice
    h = await start_holdem()
    none = await slash(fake, alice, world, "holdem hands")
    assert none.ephemeral and "not played a finished hand" in none.content
    await one_hand_alice_folds(fake, world, h)
    await h.play([alice, world.bob], until=lambda: h.hands_finished() >= 2)

    reply = await slash(fake, alice, world, "holdem hands")
    assert reply.ephemeral and reply.filenames == ["felt-hands.txt"]
    text = reply.attachments[0].data.decode()
    finished = len(h.of(HandFinished))
    parsed = parse_pokerstars(text, antes=False)
    assert len(parsed) == finished >= 2
    assert text.count("Dealt to Alice [") == finished
    for hand in range(1, finished + 1):
        block = text.split("PokerStars Hand #")[hand]
        assert set(every_card_token(block)) <= allowed_cards(h, alice, hand)

    one = await slash(fake, alice, world, "holdem hands", count=1, format="ohh")
    assert one.filenames == ["felt-hands.ohh"]
    body = json.loads(one.attachments[0].data.decode())["ohh"]
    assert body["game_number"].endswith(f"{finished:09d}")  # the latest hand

    phh = await slash(fake, alice, world, "holdem hands", format="phh")
    assert phh.filenames == ["felt-hands.phhs"] and "????" in phh.attachments[0].data.decode()
    assert check_privacy(fake, h).problems == []
