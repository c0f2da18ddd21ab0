"""``/holdem`` commands end to end: refusals of bad values, where games may run, joining,
cards, re-posting the table, hand histories, leaving, sitting out, rebuying and stopping."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.discord.guild_settings import BOTS, GAME_CHANNELS
from bot.holdem.events import HandFinished, HoleCards, PlayerLeft, PlayerSatOut
from engine.holdem import phh
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage, Permission
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld
from tests.e2e.support.privacy import every_card_token


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


async def play_until(h: HoldemWorld, members: list[FakeMember], hands: int) -> None:
    await h.play(members, until=lambda: h.hands_finished() >= hands)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"seats": 11}, "number of seats must be from 2 to 10"),
        ({"seats": 1}, "number of seats must be from 2 to 10"),
        ({"bots": -1}, "number of bots must be from 0 to 5"),
        ({"seats": 3, "bots": 3}, "number of bots must be from 0 to 2"),
        ({"small_blind": 0}, "small blind must be from 1"),
        ({"small_blind": 20, "big_blind": 10}, "big blind must be at least the small blind"),
        ({"turn_seconds": 3}, "turn time in seconds must be from 5 to 600"),
        ({"turn_seconds": 601}, "turn time in seconds must be from 5 to 600"),
        ({"buy_in": 50}, "buy-in at this table is 200 to 1,000"),
        ({"buy_in": 5000}, "buy-in at this table is 200 to 1,000"),
        ({"buy_in": -5}, "buy-in must be at least 1 chip"),
        ({"small_blind": 2**60}, "small blind must be from 1 to"),
    ],
)
async def test_holdem_start_refuses_bad_values_privately(
    fake_discord: FakeDiscord,
    world: World,
    start_holdem: Factory,
    options: dict[str, Any],
    reason: str,
) -> None:
    h = await start_holdem()
    sent = await fake_discord.slash(
        world.alice, world.channel, "holdem start", unchecked=True, **options
    )
    await sent.wait_answered()

    assert sent.reply.ephemeral and reason in sent.reply.content, sent.reply.content
    assert h.cog.tables is not None and h.cog.tables.get(world.channel.id) is None
    assert fake_discord.channel_messages(world.channel) == []
    account = await h.bot.storage.get_account(world.guild.id, world.alice.id)
    assert account is None or account.at_tables == 0


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        (Permission.SEND_MESSAGES, "**Send Messages** permission"),
        (Permission.ATTACH_FILES, "**Attach Files** permission"),
        (Permission.SEND_MESSAGES | Permission.ATTACH_FILES, "**Send Messages** and **Attach"),
    ],
)
async def test_holdem_start_refuses_a_channel_where_felt_cannot_post(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory, denied: int, named: str
) -> None:
    h = await start_holdem()
    fake_discord.deny_bot(world.channel, denied)
    reply = await slash(fake_discord, world.alice, world, "holdem start")
    assert reply.ephemeral and reply.content.startswith("Felt cannot show a table here")
    assert named in reply.content
    assert h.cog.tables is not None and h.cog.tables.get(world.channel.id) is None
    assert await h.bot.storage.get_account(world.guild.id, world.alice.id) is None


async def test_holdem_start_follows_the_guild_settings(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    h = await start_holdem()
    storage = h.bot.storage
    other = fake_discord.create_channel(world.guild, "casino")
    await storage.set_setting(world.guild.id, GAME_CHANNELS, [other.id])
    refused = await slash(fake_discord, world.alice, world, "holdem start")
    assert refused.ephemeral and f"<#{other.id}>" in refused.content

    await storage.set_setting(world.guild.id, GAME_CHANNELS, [world.channel.id])
    await storage.set_setting(world.guild.id, BOTS, False)
    no_bots = await slash(fake_discord, world.alice, world, "holdem start", bots=2)
    assert no_bots.ephemeral and "turned off" in no_bots.content

    await storage.ensure_account(world.guild.id, world.alice.id)
    await storage.admin_take(world.guild.id, world.alice.id, 900, actor_id=world.admin.id, key="t")
    poor = await slash(fake_discord, world.alice, world, "holdem start")
    assert poor.ephemeral and "You have 100 chips" in poor.content
    assert h.cog.tables is not None and h.cog.tables.get(world.channel.id) is None

    opened = await slash(fake_discord, world.alice, world, "holdem start", big_blind=2, buy_in=100)
    assert opened.ephemeral and "seat 1 with 100 chips" in opened.content
    announced = await fake_discord.wait_for_message(world.channel, lambda m: "opened" in m.text)
    assert "blinds 1/2, buy-in 40 to 200" in announced.text and "no bots" in announced.text
    table = h.table()
    assert table.settings.bots == 0 and table.settings.small_blind == 1
    again = await slash(fake_discord, world.bob, world, "holdem start")
    assert again.ephemeral and "already has a table" in again.content


async def test_holdem_join_cards_table_and_leave(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob, ada = fake_discord, world.alice, world.bob, world.admin
    h = await start_holdem()
    nothing = await slash(fake, bob, world, "holdem join")
    assert nothing.ephemeral and "no Hold'em table in this channel" in nothing.content

    await slash(fake, alice, world, "holdem start", seats=3, bots=1)
    twice = await slash(fake, alice, world, "holdem join")
    assert twice.ephemeral and "already have a seat" in twice.content
    low = await slash(fake, bob, world, "holdem join", buy_in=10)
    assert low.ephemeral and "200 to 1,000" in low.content
    joined = await slash(fake, bob, world, "holdem join", buy_in=300)
    assert joined.ephemeral and "seat 3 with 300 chips" in joined.content
    outsider = await slash(fake, ada, world, "holdem cards")
    assert outsider.ephemeral and "Only players seated" in outsider.content

    message, _ref = await h.wait_offer(alice)
    peek = await slash(fake, alice, world, "holdem cards")
    dealt = [e for e in h.of(HoleCards) if e.user_id == alice.id][-1]
    assert peek.ephemeral and peek.filenames == ["my-cards.png"]
    assert set(every_card_token(peek.content)) == set(dealt.cards)

    # /holdem table posts the table again at the bottom; the old message loses its buttons.
    await fake.slash(bob, world.channel, "holdem sitout")  # a post after the table message
    await fake.wait_for_message(world.channel, lambda m: "Bob is away" in m.text)
    reposted = await slash(fake, bob, world, "holdem table")
    assert reposted.ephemeral
    await fake.wait_until(lambda: h.table_message() is not message, what="a new table message")
    await fake.wait_until(lambda: message.buttons == [], what="the old message to lose its buttons")
    assert fake.last_message(world.channel) is h.table_message()
    assert h.offer(alice) is not None or h.to_act() != alice.id
    assert [e.reason for e in h.of(PlayerSatOut)] == ["by choice"]
    back = await slash(fake, bob, world, "holdem back")
    assert back.ephemeral and "back" in back.content

    # Leaving during a hand plays the leaver's turns at once (check, else fold); the chips go
    # back to the wallet when the hand ends, which that may have done already.
    leaving = await slash(fake, alice, world, "holdem leave")
    gone = any(e.user_id == alice.id for e in h.of(PlayerLeft))
    expected = "You left the table" if gone else "You leave at the end of this hand"
    assert leaving.ephemeral and expected in leaving.content
    await play_until(h, [bob], hands=1)
    await h.wait_host(lambda: bool(h.of(PlayerLeft)), "Alice to leave")
    left = [e for e in h.of(PlayerLeft) if e.user_id == alice.id]
    account = await h.bot.storage.get_account(world.guild.id, alice.id)
    assert account is not None and account.at_tables == 0
    assert account.balance == 1000 - 1000 + left[0].cashed_out


async def test_holdem_rebuy_sitout_and_stop_permissions(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob, ada = fake_discord, world.alice, world.bob, world.admin
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=3, bots=1, buy_in=500)
    not_seated = await slash(fake, bob, world, "holdem rebuy", amount=100)
    assert not_seated.ephemeral and "not seated" in not_seated.content
    too_much = await slash(fake, alice, world, "holdem rebuy", amount=600)
    # Checked against the stack still in play: the blinds already went in.
    seat = h.table().snapshot().seat(1)
    assert seat is not None and seat.stack < 500
    assert too_much.ephemeral and f"at most {1000 - seat.stack:,} chips" in too_much.content
    rebuy = await slash(fake, alice, world, "holdem rebuy", amount=100)
    assert rebuy.ephemeral and "100 chips are added to your stack after this hand" in rebuy.content
    await slash(fake, bob, world, "holdem join")

    by_bob = await slash(fake, bob, world, "holdem stop")
    assert by_bob.ephemeral and "Only the player who opened this table" in by_bob.content
    by_admin = await slash(fake, ada, world, "holdem stop")
    assert by_admin.ephemeral and "closes at the end of this hand" in by_admin.content
    late = await slash(fake, world.admin, world, "holdem join")
    assert late.ephemeral and "closing" in late.content
    await play_until(h, [alice, bob], hands=1)
    await fake.wait_for_message(world.channel, lambda m: "The table is closed" in m.text)
    storage = h.bot.storage
    assert (await storage.check()).ok
    for member in (alice, bob):
        account = await storage.get_account(world.guild.id, member.id)
        assert account is not None and account.at_tables == 0


async def test_holdem_history_masks_cards_nobody_showed(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    early = await slash(fake, alice, world, "holdem history")
    assert early.ephemeral and "No Hold'em table has played in this channel" in early.content
    await slash(fake, alice, world, "holdem start", seats=3, bots=1)
    await slash(fake, bob, world, "holdem join")
    none_yet = await slash(fake, alice, world, "holdem history")
    assert none_yet.ephemeral and "No hand has finished" in none_yet.content

    # Hand 1: Alice folds at once, so her cards are never shown.
    message, _ref = await h.wait_offer(alice)
    folded = await fake.click(alice, message, label="Fold")
    await folded.wait_answered()
    await play_until(h, [alice, bob], hands=1)
    finished = h.of(HandFinished)[0]
    shown = {card for hand in finished.shown for card in hand.cards}
    mine = set(next(e for e in h.of(HoleCards) if e.user_id == alice.id and e.hand_id == 1).cards)

    reply = await slash(fake, alice, world, "holdem history", hand=1)
    assert reply.ephemeral and reply.filenames == [f"holdem-table{h.table().table_id}-hand1.phh"]
    text = reply.attachments[0].data.decode()
    history = phh.loads(text)
    assert history.extra["hand"] == 1
    written = set(every_card_token(text.replace("????", "")))
    all_holes = {c for pair in h.hole_cards[(h.table().table_id, 1)] for c in pair}
    assert written & all_holes <= shown  # unshown hole cards are masked
    assert not mine & written
    assert "????" in text
    assert set(every_card_token(reply.content)) == mine  # the asker sees their own cards

    missing = await slash(fake, alice, world, "holdem history", hand=99)
    assert missing.ephemeral and "no hand #99" in missing.content
    latest = await slash(fake, bob, world, "holdem history")
    assert latest.ephemeral and latest.filenames  # defaults to the last finished hand


async def test_holdem_cards_tells_a_member_waiting_for_a_seat_so(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    h = await start_holdem()
    await slash(fake_discord, world.alice, world, "holdem start", seats=2, bots=1)
    await h.wait_offer(world.alice)  # a hand is running: the bot's chair frees after it
    joined = await slash(fake_discord, world.bob, world, "holdem join")
    assert "take a bot's chair" in joined.content
    waiting = await slash(fake_discord, world.bob, world, "holdem cards")
    assert waiting.ephemeral
    assert waiting.content == "You are waiting for a seat: your cards come with your first hand."
