"""A bot seat keeps its name and personality across a restart of the bot process: the table that
comes back seats the same bots, playing as they did (stored with the seat, migration 0005).

Stopped by a graceful shutdown, as tests/e2e/test_holdem_restart.py stops the bot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.holdem.bots import TABLE_BOTS
from bot.holdem.events import HandFinished
from bot.holdem.host import HoldemTable
from engine.bots import HandBot, Personality, SmartStrategy
from engine.bots.personality import RANGES
from storage import Storage
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld

BOTS = 3


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


def bot_seats(table: HoldemTable) -> dict[int, tuple[str, Personality, Personality]]:
    """Each bot seat's name, the personality stored with the seat and the one its smart
    strategy plays."""
    found = {}
    for seat_no, seat in table.seats.items():
        if seat.is_bot:
            assert isinstance(seat.bot, HandBot) and seat.bot_name is not None
            strategy = seat.bot.player.strategy
            assert isinstance(strategy, SmartStrategy) and seat.personality is not None
            found[seat_no] = (seat.bot_name, seat.personality, strategy.personality)
    return found


async def stored_personalities(storage: Storage, table_id: int) -> dict[int, str | None]:
    info = await storage.get_table(table_id)
    assert info is not None
    return {seat.seat_no: seat.bot_personality for seat in info.seats if seat.is_bot}


async def open_bot_table(h: HoldemWorld, world: World) -> None:
    opened = await h.fake.slash(world.alice, world.channel, "holdem start", seats=5, bots=BOTS)
    await opened.wait_answered()
    joined = await h.fake.slash(world.bob, world.channel, "holdem join", buy_in=500)
    await joined.wait_answered()


async def test_holdem_bot_seats_keep_their_names_and_personalities_after_a_restart(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, members = fake_discord, [world.alice, world.bob]
    first = await start_holdem(bots=TABLE_BOTS)
    await open_bot_table(first, world)
    await first.play(members, until=lambda: bool(first.of(HandFinished)))
    table_id = first.table().table_id
    before = bot_seats(first.table())
    assert len(before) == BOTS
    traits = RANGES["normal"]  # the table's default bot level, "smart"
    for name, personality, played in before.values():
        assert personality == played and personality.name == name
        assert traits.looseness.low <= personality.looseness <= traits.looseness.high
        assert traits.aggression.low <= personality.aggression <= traits.aggression.high
    # Three bots of one level are not three copies.
    assert len({(p.looseness, p.aggression) for _, p, _ in before.values()}) == BOTS
    storage: Storage = first.bot.storage
    stored = await stored_personalities(storage, table_id)
    assert stored == {seat_no: p.text for seat_no, (_, p, _) in before.items()}

    await first.bot.shutdown()
    # Another generator after the restart: a bot that drew its personality anew would differ.
    second = await start_holdem(bots=TABLE_BOTS, seed=99)
    await fake.wait_for_message(world.channel, lambda m: "Felt restarted" in m.text)
    await second.wait_host(lambda: second.table().hand_id is not None, "a hand after the restart")

    assert second.table().table_id == table_id
    assert bot_seats(second.table()) == before
    assert await stored_personalities(storage, table_id) == stored
    names = {seat_no: seat.name for seat_no, seat in second.table().seats.items() if seat.is_bot}
    assert names == {seat_no: f"🤖 {name}" for seat_no, (name, _, _) in before.items()}
    await second.play(members, until=lambda: bool(second.of(HandFinished)))
    assert (await storage.check()).ok
