"""Restarts in the middle of a hand: the hand is voided, every chip goes back where it was when
the hand started, the channel is told, and the table plays on after the restart.

Two ways to stop: a graceful shutdown (the shutdown hook suspends the tables) and a crash (the
process stops without a word; storage's recovery voids the hand at the next start).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.holdem.events import HandCancelled, HandFinished, HoldemTableClosed
from bot.holdem.kinds import Stage
from storage import HandStatus, Storage
from tests.e2e.fakediscord import FakeDiscord, FakeMember
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld, button, merged
from tests.e2e.support.privacy import check_privacy

DM_CLOSED = "I cannot send you direct messages"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def into_a_hand(h: HoldemWorld, members: list[FakeMember], hand: int) -> FakeMember:
    """Play passively until hand ``hand`` is on its flop, bet there, and return the member to
    act next."""
    while True:
        member = await h.next_turn(members, lambda: False)
        assert member is not None
        snapshot = h.table().snapshot()
        if snapshot.hand_id == hand and snapshot.street is Stage.FLOP:
            message, _ref = await h.wait_offer(member)
            await h.act(member, button(message, "Min"))
            after = await h.next_turn(members, lambda: False)
            assert after is not None
            return after
        await h.act(member)


async def seated(storage: Storage, guild_id: int, members: list[FakeMember]) -> int:
    """The members' chips, wallet and table together."""
    total = 0
    for member in members:
        account = await storage.get_account(guild_id, member.id)
        assert account is not None
        total += account.total
    return total


async def stop_and_settle(h: HoldemWorld, members: list[FakeMember]) -> None:
    stopped = await h.fake.slash(members[0], h.channel, "holdem stop")
    await stopped.wait_answered()
    await h.play(members, until=lambda: bool(h.of(HoldemTableClosed)))


def human_net(worlds: list[HoldemWorld], humans: set[int]) -> int:
    return sum(
        delta
        for h in worlds
        for event in h.of(HandFinished)
        for seat_no, _name, delta in event.net
        if (seat := event.snapshot.seat(seat_no)) is not None and seat.user_id in humans
    )


async def open_table(fake: FakeDiscord, world: World) -> None:
    opened = await fake.slash(world.alice, world.channel, "holdem start", seats=3, bots=1)
    await opened.wait_answered()
    joined = await fake.slash(world.bob, world.channel, "holdem join", buy_in=500)
    await joined.wait_answered()


async def test_holdem_graceful_restart_voids_the_hand_and_the_table_comes_back(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, members = fake_discord, [world.alice, world.bob]
    first = await start_holdem()
    await open_table(fake, world)
    await into_a_hand(first, members, hand=2)
    storage: Storage = first.bot.storage
    table_id = first.table().table_id
    started = await storage.get_hand(table_id, 2)
    assert started is not None and started.status is HandStatus.IN_PROGRESS
    start_stacks = {seat.seat_no: seat.start_stack for seat in started.seats}
    in_pot = first.table().snapshot().total_pot
    assert in_pot > 0
    before = await seated(storage, world.guild.id, members)

    await first.bot.shutdown()

    voided = await storage.get_hand(table_id, 2)
    assert voided is not None and voided.status is HandStatus.VOIDED
    assert (await storage.check()).ok
    assert await seated(storage, world.guild.id, members) == before
    texts = [m.text for m in fake.channel_messages(world.channel)]
    assert any("Hand #2 was cancelled" in text for text in texts)
    assert any("will be back" in text for text in texts)
    frozen = first.table_message()
    assert frozen is not None and frozen.buttons == [] and "cancelled" in frozen.content

    second = await start_holdem()
    await fake.wait_for_message(world.channel, lambda m: "Felt restarted" in m.text)
    table = second.table()
    assert table.table_id == table_id
    await second.wait_host(lambda: second.table().hand_id == 3, "the next hand")
    restarted = await storage.get_hand(table_id, 3)
    assert restarted is not None
    assert {seat.seat_no: seat.start_stack for seat in restarted.seats} == start_stacks

    turn = await second.next_turn(members, lambda: False)
    assert turn is not None
    await second.act(turn)
    await stop_and_settle(second, members)
    assert (await storage.check()).ok
    wallets = [await storage.get_account(world.guild.id, m.id) for m in members]
    assert all(a is not None and a.at_tables == 0 for a in wallets)
    net = human_net([first, second], {m.id for m in members})
    assert sum(a.balance for a in wallets if a is not None) == 2 * 1000 + net
    assert check_privacy(fake, merged([first, second])).problems == []
    assert fake.stats.rate_limited == 0 and fake.unacknowledged() == []


async def test_holdem_crash_mid_hand_recovery_voids_it_and_takes_the_old_buttons_off(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, members = fake_discord, [world.alice, world.bob]
    first = await start_holdem()
    await open_table(fake, world)
    to_act = await into_a_hand(first, members, hand=2)
    old_message, old_ref = await first.wait_offer(to_act)
    storage: Storage = first.bot.storage
    table_id = first.table().table_id
    started = await storage.get_hand(table_id, 2)
    assert started is not None
    start_stacks = {seat.seat_no: seat.start_stack for seat in started.seats}
    before = await seated(storage, world.guild.id, members)

    # A crash: no shutdown hook, nothing voided; the next start recovers.
    await first.cog.halt()
    await first.bot.close()
    assert (await storage.get_hand(table_id, 2)).status is HandStatus.IN_PROGRESS  # type: ignore[union-attr]

    shown = (old_message.content, [dict(embed) for embed in old_message.embeds])
    assert old_message.buttons != []
    second = await start_holdem()
    await fake.wait_for_message(world.channel, lambda m: "Hand #2 was cancelled" in m.text)
    await fake.wait_until(lambda: old_message.buttons == [], what="the old buttons to go")
    assert (old_message.content, old_message.embeds) == shown
    assert [e.hand_id for e in second.of(HandCancelled)] == [2]
    assert (await storage.check()).ok
    assert await seated(storage, world.guild.id, members) == before
    await second.wait_host(lambda: second.table().hand_id == 3, "the next hand")
    restarted = await storage.get_hand(table_id, 3)
    assert restarted is not None
    assert {seat.seat_no: seat.start_stack for seat in restarted.seats} == start_stacks

    # The table message from before the crash loses its buttons; what it shows stays.
    assert old_ref.hand_id == 2
    assert old_message.buttons == [] and "Hand #2" in old_message.text

    await stop_and_settle(second, members)
    assert (await storage.check()).ok
    wallets = [await storage.get_account(world.guild.id, m.id) for m in members]
    net = human_net([first, second], {m.id for m in members})
    assert sum(a.balance for a in wallets if a is not None) == 2 * 1000 + net
    assert check_privacy(fake, merged([first, second])).problems == []
    assert fake.stats.rate_limited == 0 and fake.unacknowledged() == []


def dm_notices(fake: FakeDiscord, world: World) -> int:
    return sum(1 for m in fake.channel_messages(world.channel) if DM_CLOSED in m.content)


async def test_holdem_restart_tells_a_member_with_closed_dms_once_per_table(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, members = fake_discord, [world.alice, world.bob]
    fake.set_dms_open(world.bob, False)
    first = await start_holdem()
    await open_table(fake, world)
    await first.play(members, until=lambda: first.hands_finished() >= 2)  # Bob plays hand 2
    await fake.wait_until(lambda: dm_notices(fake, world) == 1, what="the DM notice")

    await first.bot.shutdown()
    second = await start_holdem()
    await second.wait_host(lambda: second.table().hand_id is not None, "a hand after the restart")
    dealt = second.table().hand_id
    await second.play(
        members, until=lambda: any(e.hand_id == dealt for e in second.of(HandFinished))
    )
    await second.cog.presenters[world.channel.id].drain()

    assert dm_notices(fake, world) == 1
    refused = [r for r in fake.requests if r.code == 50007]
    assert len(refused) >= 2  # the DM was tried, and refused, after the restart too
