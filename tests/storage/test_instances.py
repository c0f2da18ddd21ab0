"""Instance leases: one living owner per shard, refusals naming the holder, takeover waiting for
expiry, a same-host restart taking over a gone process at once, heartbeats, and recovery that
never touches a living instance's hands or rounds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from storage.instances import Claim, LeaseHeld, LeaseLost
from storage.models import HandStatus, RoundStatus
from storage.settings import EconomySettings
from storage.shards import shard_of
from storage.store import Storage
from tests.storage.support import FakeClock

GUILD = 10 << 22  # on shard 0 of 2
OTHER_GUILD = (11 << 22) | 5  # on shard 1 of 2
ALICE, BOB = 1, 2
SHARD_0 = Claim.discord((0,), 2)
SHARD_1 = Claim.discord((1,), 2)


def never_gone(host: str, pid: int) -> bool:
    return False


@pytest.fixture
async def second(database: str | Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """Another process's storage on the same database."""
    opened = await Storage.open(database, clock=clock, economy=EconomySettings())
    try:
        yield opened
    finally:
        await opened.close()


async def take(storage: Storage, claim: Claim, pid: int, **options: object) -> None:
    await storage.acquire_lease(
        claim,
        host="web1",
        pid=pid,
        process_gone=options.pop("process_gone", never_gone),  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )


async def playing(storage: Storage, guild_id: int, key: str) -> tuple[int, int]:
    """A table with a hand in progress and an open round in ``guild_id``."""
    table = (await storage.open_table(guild_id, 100, settings={}, key=f"{key}t")).table_id
    await storage.buy_in(table, 0, ALICE, 400, key=f"{key}a")
    await storage.buy_in(table, 1, BOB, 300, key=f"{key}b")
    await storage.start_hand(table, 1, {0: 400, 1: 300}, key=f"{key}h")
    dealt = await storage.open_round(guild_id, 200, {ALICE: 100}, key=f"{key}r")
    return table, dealt.round_id


def test_the_guilds_sit_on_the_shards_the_tests_assume() -> None:
    assert (shard_of(GUILD, 2), shard_of(OTHER_GUILD, 2)) == (0, 1)


def test_claims_overlap_only_on_shared_shards_or_mismatched_layouts() -> None:
    assert SHARD_0.overlaps(Claim.discord((0, 1), 2))
    assert not SHARD_0.overlaps(SHARD_1)
    assert Claim.discord().overlaps(SHARD_1)
    assert Claim.discord((0,), 4).overlaps(SHARD_1)
    assert not Claim.terminal().overlaps(Claim.discord())
    assert not Claim.terminal().overlaps(Claim.terminal())


async def test_a_second_instance_for_the_same_shard_is_refused_naming_the_first(
    storage: Storage, second: Storage
) -> None:
    await take(storage, SHARD_0, pid=111)

    with pytest.raises(LeaseHeld) as refusal:
        await take(second, Claim.discord((0, 1), 2), pid=222)

    assert str(refusal.value).startswith(
        "another Felt holds these shards: instance 1 (shard 0 of 2) on host web1, pid 111, "
        "since 2025-03-01 12:00:00Z (last heartbeat 2025-03-01 12:00:00Z); stop it first, "
        "or start with --takeover"
    )
    assert second.instance is None
    await take(second, SHARD_1, pid=222)
    assert second.instance is not None


async def test_terminal_instances_live_side_by_side(storage: Storage, second: Storage) -> None:
    await take(storage, Claim.terminal(), pid=1)
    await take(second, Claim.terminal(), pid=2)

    assert [report.alive for report in await storage.list_instances()] == [True, True]


async def test_takeover_waits_for_the_holders_lease_to_expire(
    storage: Storage, second: Storage, clock: FakeClock
) -> None:
    await take(storage, SHARD_0, pid=111, lease=30)
    waited: list[float] = []
    told: list[str] = []

    async def wait(seconds: float) -> None:
        waited.append(seconds)
        clock.advance(seconds=seconds)

    await take(
        second,
        SHARD_0,
        pid=222,
        takeover=True,
        wait=wait,
        on_wait=lambda held: told.append(held.holder.host),
    )

    assert second.instance is not None and second.instance.pid == 222
    assert told == ["web1"]
    assert sum(waited) == 30


async def test_a_released_lease_is_taken_at_once(storage: Storage, second: Storage) -> None:
    await take(storage, SHARD_0, pid=111)
    await storage.release_lease()

    await take(second, SHARD_0, pid=222)

    reports = await second.list_instances()
    assert [(r.instance.pid, r.alive, r.instance.release_reason) for r in reports] == [
        (111, False, "stopped"),
        (222, True, None),
    ]


async def test_a_gone_process_on_the_same_host_is_taken_over_at_once(
    storage: Storage, second: Storage
) -> None:
    await take(storage, SHARD_0, pid=111)

    await take(second, SHARD_0, pid=222, process_gone=lambda host, pid: pid == 111)

    with pytest.raises(LeaseLost):
        await storage.renew_lease()


async def test_a_heartbeat_keeps_the_lease_alive_past_its_first_expiry(
    storage: Storage, second: Storage, clock: FakeClock
) -> None:
    await take(storage, SHARD_0, pid=111, lease=30)
    clock.advance(seconds=25)
    await storage.renew_lease(lease=30)
    clock.advance(seconds=25)

    with pytest.raises(LeaseHeld):
        await take(second, SHARD_0, pid=222)
    clock.advance(seconds=6)
    await take(second, SHARD_0, pid=222)


async def test_keep_lease_renews_on_each_beat_and_releases_at_the_end(
    storage: Storage, clock: FakeClock
) -> None:
    await take(storage, SHARD_0, pid=111)
    beats = 0
    third_renewal_done = asyncio.Event()

    async def wait(seconds: float) -> None:
        nonlocal beats
        if beats == 3:
            third_renewal_done.set()
            await asyncio.Event().wait()
        beats += 1
        clock.advance(seconds=seconds)

    async with storage.keep_lease(every=5, wait=wait):
        await asyncio.wait_for(third_renewal_done.wait(), 10)
        assert storage.instance is not None
        assert storage.instance.heartbeat_at - storage.instance.started_at == timedelta(seconds=15)

    assert storage.instance is None
    (report,) = await storage.list_instances()
    assert (report.alive, report.instance.release_reason) == (False, "stopped")


async def test_recovery_never_touches_a_living_instances_games(
    storage: Storage, second: Storage, clock: FakeClock
) -> None:
    await take(storage, SHARD_0, pid=111)
    table, round_id = await playing(storage, GUILD, "live")
    clock.advance(seconds=29)

    # The second storage has no shards of its own, so it looks at every guild.
    await take(second, SHARD_1, pid=222)
    report = await second.recover()

    assert report.is_empty
    hand = await storage.get_hand(table, 1)
    dealt = await storage.get_round(round_id)
    assert hand is not None and hand.status is HandStatus.IN_PROGRESS
    assert dealt is not None and dealt.status is RoundStatus.OPEN


async def test_recovery_puts_back_an_expired_instances_games_and_adopts_its_tables(
    storage: Storage, second: Storage, clock: FakeClock
) -> None:
    await take(storage, SHARD_0, pid=111, lease=30)
    table, round_id = await playing(storage, GUILD, "dead")
    clock.advance(seconds=31)

    await take(second, SHARD_0, pid=222)
    report = await second.recover()

    assert [(h.table_id, h.hand_id) for h in report.voided_hands] == [(table, 1)]
    assert [r.round_id for r in report.refunded_rounds] == [round_id]
    reports = {r.instance.pid: r for r in await second.list_instances()}
    assert (reports[111].alive, reports[111].open_tables) == (False, 0)
    assert (reports[222].alive, reports[222].open_tables) == (True, 1)
    with pytest.raises(LeaseLost):
        await storage.renew_lease()
    assert (await second.check()).ok


async def test_only_a_dead_instances_tables_are_abandoned(
    storage: Storage, second: Storage, clock: FakeClock
) -> None:
    await take(storage, Claim.terminal(), pid=111)
    live_table, _ = await playing(storage, GUILD, "live")
    await take(second, Claim.terminal(), pid=222)
    assert await second.abandoned_tables(GUILD) == []
    assert await second.abandoned_rounds(GUILD) == []

    await storage.release_lease()

    assert await second.abandoned_tables(GUILD) == [live_table]
    assert len(await second.abandoned_rounds(GUILD)) == 1


async def test_a_storage_without_a_lease_cannot_renew_or_keep_one(storage: Storage) -> None:
    with pytest.raises(Exception, match="holds no lease"):
        await storage.renew_lease()
    await storage.release_lease()  # nothing to release: nothing happens
    assert await storage.list_instances() == []


async def test_keep_lease_reports_a_lease_taken_over_while_paused_and_stops_renewing(
    storage: Storage, second: Storage, clock: FakeClock
) -> None:
    """A process paused past its lease finds out at its next beat: ``on_lost`` is called once
    with its instance id (felt run stops itself there), and it renews no more."""
    await take(storage, SHARD_0, pid=111, lease=30)
    assert storage.instance is not None
    mine = storage.instance.instance_id
    await playing(storage, GUILD, "paused")
    clock.advance(seconds=31)
    await take(second, SHARD_0, pid=222)
    await second.recover()

    lost: list[LeaseLost] = []
    told = asyncio.Event()
    beats = 0

    def on_lost(error: LeaseLost) -> None:
        lost.append(error)
        told.set()

    async def wait(seconds: float) -> None:
        nonlocal beats
        beats += 1
        if beats > 1:  # the beat after the loss must never come
            await asyncio.Event().wait()

    async with storage.keep_lease(every=5, wait=wait, on_lost=on_lost):
        await asyncio.wait_for(told.wait(), 10)
    assert [error.instance_id for error in lost] == [mine]
    assert beats == 1
