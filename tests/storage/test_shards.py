"""Sharded deployments: a process owns the guilds on its Discord shards, and its storage recovers
and lists only their tables, while another process with the other shards plays its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.errors import InvalidArgument
from storage.models import RoundStatus
from storage.shards import Shards, shard_of
from storage.store import Storage
from tests.storage.support import FakeClock

SHARD_COUNT = 4
ALICE, BOB = 1, 2


def guild_on(shard: int, n: int = 0) -> int:
    """A guild id (snowflake) that Discord puts on ``shard`` of ``SHARD_COUNT``."""
    return ((n * SHARD_COUNT + shard) << 22) | 0x2A


def test_a_guilds_shard_is_discords_formula() -> None:
    assert shard_of(41771983423143937, 1) == 0
    assert shard_of(guild_on(3, 5), SHARD_COUNT) == 3
    assert shard_of(175928847299117063, 16) == (175928847299117063 >> 22) % 16

    shards = Shards.of([0, 1], SHARD_COUNT)
    assert shards.owns(guild_on(1)) and not shards.owns(guild_on(2))


@pytest.mark.parametrize(("ids", "count"), [((), 4), ((4,), 4), ((-1,), 4), ((0,), 0)])
def test_impossible_shards_are_refused(ids: tuple[int, ...], count: int) -> None:
    with pytest.raises(InvalidArgument):
        Shards.of(ids, count)


async def interrupted(storage: Storage, guild: int) -> tuple[int, int]:
    """A table with a hand in progress and an open blackjack round, in ``guild``."""
    table = (await storage.open_table(guild, 1, settings={}, key=f"t{guild}")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key=f"a{guild}")
    await storage.buy_in(table, 1, BOB, 300, key=f"b{guild}")
    await storage.start_hand(table, 1, {0: 300, 1: 300}, key=f"h{guild}")
    dealt = await storage.open_round(guild, 2, {ALICE: 50}, key=f"r{guild}")
    return table, dealt.round_id


async def test_each_process_recovers_and_restores_only_its_own_guilds(
    database: str | Path, clock: FakeClock
) -> None:
    first = Shards.of([0, 1], SHARD_COUNT)
    second = Shards.of([2, 3], SHARD_COUNT)
    mine, theirs = guild_on(1), guild_on(2, 7)
    async with (
        await Storage.open(database, clock=clock, shards=first) as one,
        await Storage.open(database, clock=clock, shards=second) as two,
    ):
        my_table, my_round = await interrupted(one, mine)
        their_table, their_round = await interrupted(two, theirs)

        report = await one.recover()

        assert [(h.guild_id, h.table_id) for h in report.voided_hands] == [(mine, my_table)]
        assert [(r.guild_id, r.round_id) for r in report.refunded_rounds] == [(mine, my_round)]
        assert [t.table_id for t in await one.list_tables()] == [my_table]
        assert [t.table_id for t in await two.list_tables()] == [their_table]
        # the other process's hand and round are untouched, still in play
        theirs_now = await two.get_table(their_table)
        assert theirs_now is not None and theirs_now.hand_in_progress == 1
        round_ = await two.get_round(their_round)
        assert round_ is not None and round_.status is RoundStatus.OPEN
        # asking for a guild by id is not filtered; asking for all is
        assert [t.table_id for t in await one.list_tables(theirs)] == [their_table]
        assert len(await one.list_tables(shards=Shards.of(range(4), SHARD_COUNT))) == 2
        assert (await one.recover()).is_empty

        report = await two.recover()

        assert [h.table_id for h in report.voided_hands] == [their_table]
        assert [r.round_id for r in report.refunded_rounds] == [their_round]
        check = await two.check()
        assert check.ok, check.problems
        assert (check.hands_in_progress, check.rounds_open) == (0, 0)


async def test_a_storage_without_shards_recovers_every_guild(
    database: str | Path, clock: FakeClock
) -> None:
    async with await Storage.open(database, clock=clock) as storage:
        await interrupted(storage, guild_on(0))
        await interrupted(storage, guild_on(3))

        report = await storage.recover()

    assert len(report.voided_hands) == len(report.refunded_rounds) == 2


async def test_the_bot_opens_the_configured_database_for_its_shards(
    database: str | Path, clock: FakeClock
) -> None:
    from bot.config import DatabaseConfig, DiscordConfig, FeltConfig
    from bot.discord.database import open_for_bot

    async with await Storage.open(database, clock=clock) as storage:
        my_table, _round = await interrupted(storage, guild_on(1))
        await interrupted(storage, guild_on(2))
    if isinstance(database, str):
        where = DatabaseConfig(path="/nonexistent/felt.db", url=database)
    else:
        where = DatabaseConfig(path=str(database))
    config = FeltConfig(discord=DiscordConfig(shard_count=4, shard_ids=(0, 1)), database=where)

    storage, report = await open_for_bot(config, clock=clock)
    try:
        assert storage.shards == Shards.of([0, 1], SHARD_COUNT)
        assert [hand.table_id for hand in report.voided_hands] == [my_table]
        assert [table.table_id for table in await storage.list_tables()] == [my_table]
    finally:
        await storage.close()
