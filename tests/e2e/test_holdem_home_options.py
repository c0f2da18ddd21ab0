"""Home-game table options end to end: ``/holdem start options:`` and ``/holdem options``
(who may change them, each refusal, what the table message shows)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory


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


async def test_holdem_start_takes_home_options_and_shows_them(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    h = await start_holdem()
    bad = await slash(
        fake_discord, world.alice, world, "holdem start", options="straddle=button max_straddles=2"
    )
    assert bad.ephemeral and "The button straddles once" in bad.content
    assert h.cog.tables is not None and h.cog.tables.get(world.channel.id) is None

    opened = await slash(
        fake_discord,
        world.alice,
        world,
        "holdem start",
        options="straddle=utg seven_deuce_bounty=20 rabbit_hunt=on",
    )
    assert opened.ephemeral and "seat 1" in opened.content
    announced = await fake_discord.wait_for_message(world.channel, lambda m: "opened" in m.text)
    assert "Straddle utg · 7-2 bounty 20 chips · Rabbit hunt on" in announced.text
    settings = h.table().settings
    assert (settings.straddle, settings.seven_deuce_bounty, settings.rabbit_hunt) == (
        "utg",
        20,
        True,
    )
    await h.wait_host(
        lambda: (m := h.table_message()) is not None and "Straddle utg" in m.text,
        "the table message to show the options",
    )


async def test_holdem_options_views_changes_and_refuses(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    h = await start_holdem()
    fake, alice, bob, ada = fake_discord, world.alice, world.bob, world.admin
    await slash(fake, alice, world, "holdem start", seats=4, bots=2)
    await slash(fake, bob, world, "holdem join")

    view = await slash(fake, bob, world, "holdem options")
    assert view.ephemeral and "`straddle` = off" in view.content
    assert "Only the player who opened this table or an admin" in view.content
    refused = await slash(fake, bob, world, "holdem options", change="rabbit_hunt=on")
    assert refused.ephemeral and "Only the player who opened this table" in refused.content
    assert not h.table().settings.rabbit_hunt

    for text, reason in [
        ("wobble=2", "`wobble` is not a table option"),
        ("run_it_max=7", "`run_it_max` is a whole number from 1 to 4"),
        ("max_straddles=3", "At most 2 straddles fit at 4 seats"),
        ("double_board=on", "A double board is for bomb pots"),
    ]:
        reply = await slash(fake, alice, world, "holdem options", change=text)
        assert reply.ephemeral and reason in reply.content, reply.content
    assert h.table().settings.run_it_max == 1

    changed = await slash(
        fake, alice, world, "holdem options", change="bomb_pot_every=5 bomb_pot_ante=10"
    )
    assert changed.ephemeral and "`bomb_pot_every` = 5 hands" in changed.content
    notice = await fake.wait_for_message(world.channel, lambda m: "Table options changed" in m.text)
    assert "bomb pot every 5 hands, bomb-pot ante 10 chips" in notice.text
    by_admin = await slash(fake, ada, world, "holdem options", change="run_it_max=2")
    assert by_admin.ephemeral and "`run_it_max` = 2" in by_admin.content
    info = await h.bot.storage.get_table(h.table().table_id)
    assert info is not None and info.settings["run_it_max"] == 2


async def test_straddle_then_bomb_pot_at_a_discord_table(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    h = await start_holdem()
    fake, alice, bob = fake_discord, world.alice, world.bob
    await slash(
        fake,
        alice,
        world,
        "holdem start",
        seats=3,
        bots=1,
        options="straddle=utg bomb_pot_every=3 bomb_pot_ante=10",
    )
    await slash(fake, bob, world, "holdem join")
    # Hand 1 was dealt to Alice and the bot before Bob sat: heads-up, so no straddle.
    await h.play([alice, bob], until=lambda: h.table().hand_id >= 2)
    second = h.table().hand
    assert second is not None and second.stakes.blinds_or_straddles == (5, 10, 20)
    await h.play([alice, bob], until=lambda: h.table().hand_id >= 3)
    bomb = h.table().hand
    assert bomb is not None and bomb.options.bomb_pot and len(bomb.board) >= 3
    assert bomb.stakes.antes == (10, 10, 10)
    snapshot = h.table().snapshot()
    assert not any(s.is_small_blind or s.is_big_blind for s in snapshot.seats)
