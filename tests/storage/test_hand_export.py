"""Reading settled hands for export: only settled ones, filtered by guild, table, member and
time, in batches that neither skip nor repeat a hand."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage.errors import InvalidArgument
from storage.hand_export import HandQuery
from storage.store import Storage
from tests.bot.hand_seeding import seed_hands
from tests.storage.support import FakeClock

GUILD, OTHER_GUILD = 111_111_111_111_111_111, 222_222_222_222_222_222
ALICE, BOB = 1_001, 1_002


async def test_only_settled_hands_are_read_and_voided_ones_never(storage: Storage) -> None:
    seeded = await seed_hands(
        storage, guild_id=GUILD, channel_id=5, members=[ALICE], hands=12, seed=1, void_every=4
    )
    hands = await storage.settled_hands(HandQuery(guild_id=GUILD))
    assert [hand.hand_id for hand in hands] == list(seeded.settled)
    assert seeded.voided == (4, 8, 12)
    assert all(hand.phh.startswith('variant = "NT"') for hand in hands)
    assert {hand.table_name for hand in hands} == {"Main"}
    assert all(hand.seat_no is None for hand in hands)


async def test_hands_are_filtered_by_guild_table_member_and_time(
    storage: Storage, clock: FakeClock
) -> None:
    first = await seed_hands(
        storage, guild_id=GUILD, channel_id=5, members=[ALICE], hands=3, seed=1
    )
    clock.advance(hours=1)
    second = await seed_hands(
        storage, guild_id=GUILD, channel_id=6, members=[BOB, ALICE], hands=2, seed=2
    )
    await seed_hands(storage, guild_id=OTHER_GUILD, channel_id=7, members=[BOB], hands=2, seed=3)
    everything = await storage.settled_hands(HandQuery())
    assert len(everything) == 7
    guild = await storage.settled_hands(HandQuery(guild_id=GUILD))
    assert [(h.table_id, h.hand_id) for h in guild] == [
        *((first.table_id, n) for n in (1, 2, 3)),
        *((second.table_id, n) for n in (1, 2)),
    ]
    table = await storage.settled_hands(HandQuery(table_id=second.table_id))
    assert [h.hand_id for h in table] == [1, 2]
    alice = await storage.settled_hands(HandQuery(guild_id=GUILD, user_id=ALICE))
    assert [(h.table_id, h.seat_no) for h in alice] == [
        *((first.table_id, 1) for _ in range(3)),
        *((second.table_id, 2) for _ in range(2)),
    ]
    bob = await storage.settled_hands(HandQuery(user_id=BOB))
    assert {h.guild_id for h in bob} == {GUILD, OTHER_GUILD} and len(bob) == 4
    since = await storage.settled_hands(
        HandQuery(guild_id=GUILD, since=clock.now - timedelta(minutes=1))
    )
    assert [h.table_id for h in since] == [second.table_id] * 2


async def test_batches_read_on_after_the_last_hand_and_newest_gives_the_latest(
    storage: Storage,
) -> None:
    await seed_hands(storage, guild_id=GUILD, channel_id=5, members=[ALICE], hands=7, seed=4)
    seen: list[int] = []
    after = None
    while batch := await storage.settled_hands(HandQuery(), after=after, limit=3):
        assert len(batch) <= 3
        seen.extend(hand.hand_id for hand in batch)
        after = batch[-1].position
    assert seen == [1, 2, 3, 4, 5, 6, 7]
    latest = await storage.settled_hands(HandQuery(user_id=ALICE), limit=2, newest=True)
    assert [hand.hand_id for hand in latest] == [6, 7]


async def test_a_bad_id_in_the_query_is_refused(storage: Storage) -> None:
    for query in (HandQuery(guild_id=-1), HandQuery(table_id=True), HandQuery(user_id=2**64)):
        with pytest.raises(InvalidArgument):
            await storage.settled_hands(query)
