"""`felt run`'s lease at startup: taken before recovery, refused in one line naming a living
holder of the same shards (nothing recovered), taken over once the holder is gone, and a living
holder's games left alone by a process on other shards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.config import DatabaseConfig, DiscordConfig, FeltConfig
from bot.discord.database import open_for_bot
from bot.discord.errors import StartupError
from storage import HandStatus, Storage
from storage.instances import Claim

GUILD = 10 << 22  # shard 0 of 2
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def config_for(path: Path, shard_ids: tuple[int, ...] = (), shard_count: int = 0) -> FeltConfig:
    return FeltConfig(
        discord=DiscordConfig(shard_ids=shard_ids, shard_count=shard_count),
        database=DatabaseConfig(path=str(path)),
    )


async def holder_playing(path: Path, claim: Claim) -> tuple[Storage, int]:
    """Another process (host "elsewhere") holding ``claim``, with a hand in progress."""
    storage = await Storage.open(path, clock=lambda: START)
    await storage.acquire_lease(claim, host="elsewhere", pid=4242)
    table = (await storage.open_table(GUILD, 100, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, 1, 400, key="a")
    await storage.buy_in(table, 1, 2, 300, key="b")
    await storage.start_hand(table, 1, {0: 400, 1: 300}, key="h")
    return storage, table


async def test_a_living_holder_of_the_same_shards_refuses_startup_in_one_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "felt.db"
    holder, table = await holder_playing(path, Claim.discord((0,), 2))
    try:
        with pytest.raises(StartupError) as refusal:
            await open_for_bot(config_for(path, (0, 1), 2), clock=lambda: START)

        line = str(refusal.value)
        assert "\n" not in line
        assert line.startswith(
            "another Felt holds these shards: instance 1 (shard 0 of 2) on host elsewhere, "
            "pid 4242, since 2025-03-01 12:00:00Z"
        )
        hand = await holder.get_hand(table, 1)
        assert hand is not None and hand.status is HandStatus.IN_PROGRESS
        assert [r.alive for r in await holder.list_instances()] == [True]
    finally:
        await holder.close()


async def test_another_shards_process_starts_and_leaves_the_holders_hand_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "felt.db"
    holder, table = await holder_playing(path, Claim.discord((0,), 2))
    try:
        # Shard 1 of 2 without --shard-ids filtering in storage: only the lease protects it.
        config = config_for(path, (1,), 2)
        storage, report = await open_for_bot(config, clock=lambda: START)
        await storage.close()

        assert report.is_empty
        hand = await holder.get_hand(table, 1)
        assert hand is not None and hand.status is HandStatus.IN_PROGRESS
    finally:
        await holder.close()


async def test_an_expired_holder_is_taken_over_and_its_hand_voided(tmp_path: Path) -> None:
    path = tmp_path / "felt.db"
    holder, table = await holder_playing(path, Claim.discord())
    await holder.close()  # it died without releasing its lease
    later = START + timedelta(seconds=31)

    storage, report = await open_for_bot(config_for(path), clock=lambda: later)
    try:
        assert [(h.table_id, h.hand_id) for h in report.voided_hands] == [(table, 1)]
        reports = await storage.list_instances()
        assert [(r.instance.host, r.alive, r.open_tables) for r in reports] == [
            ("elsewhere", False, 0),
            (reports[1].instance.host, True, 1),
        ]
    finally:
        await storage.close()


def test_takeover_is_a_flag_of_felt_run() -> None:
    assert build_parser().parse_args(["run", "--takeover"]).takeover is True
    assert build_parser().parse_args(["run"]).takeover is False
