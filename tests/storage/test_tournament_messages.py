"""A tournament's Discord front in storage (migration 0009), on SQLite and PostgreSQL: where its
tables live, its tournament message and each table's thread or channel survive reopening the
database, and every refusal changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from storage.errors import InvalidArgument
from storage.settings import EconomySettings
from storage.shards import Shards
from storage.store import Storage
from storage.tournament_messages import MessageRef, TableHomeKind, TableHomeRow, TournamentFront
from storage.tournaments import UnknownTournament
from tests.storage.support import FakeClock, State
from tests.storage.test_tournaments import CHANNEL, sit_and_go

MISSING = 9_999


async def test_a_new_tournament_has_threads_and_no_tournament_message(storage: Storage) -> None:
    tournament = await sit_and_go(storage)

    assert await storage.tournament_front(tournament) == TournamentFront(
        tournament, TableHomeKind.THREAD, None
    )
    assert await storage.tournament_table_homes(tournament) == []


async def test_the_front_survives_reopening_the_database(
    database: str | Path, clock: FakeClock
) -> None:
    async with await Storage.open(database, clock=clock, economy=EconomySettings()) as first:
        tournament = await sit_and_go(first)
        await first.set_tournament_tables(tournament, TableHomeKind.CHANNEL)
        await first.set_tournament_clock_message(tournament, CHANNEL, 7_001)
        await first.remember_tournament_table_home(tournament, 1, 8_001, TableHomeKind.CHANNEL)
        await first.remember_tournament_table_home(tournament, 2, 8_002, TableHomeKind.CHANNEL)
        assert await first.mark_tournament_table_home_removed(tournament, 2)

    async with await Storage.open(database, clock=clock, economy=EconomySettings()) as second:
        assert await second.tournament_front(tournament) == TournamentFront(
            tournament, TableHomeKind.CHANNEL, MessageRef(CHANNEL, 7_001)
        )
        assert await second.tournament_table_homes(tournament) == [
            TableHomeRow(tournament, 1, 8_001, TableHomeKind.CHANNEL, removed=False),
            TableHomeRow(tournament, 2, 8_002, TableHomeKind.CHANNEL, removed=True),
        ]


async def test_a_tournament_message_posted_again_replaces_the_old_one(storage: Storage) -> None:
    tournament = await sit_and_go(storage)
    await storage.set_tournament_clock_message(tournament, CHANNEL, 7_001)
    await storage.set_tournament_tables(tournament, TableHomeKind.CHANNEL)
    await storage.set_tournament_clock_message(tournament, CHANNEL, 7_002)

    front = await storage.tournament_front(tournament)
    assert front.clock == MessageRef(CHANNEL, 7_002)
    assert front.tables is TableHomeKind.CHANNEL  # one setting does not reset the other


async def test_a_table_home_is_removed_once(storage: Storage) -> None:
    tournament = await sit_and_go(storage)
    await storage.remember_tournament_table_home(tournament, 1, 8_001, TableHomeKind.CHANNEL)

    assert await storage.mark_tournament_table_home_removed(tournament, 1)
    assert not await storage.mark_tournament_table_home_removed(tournament, 1)
    assert not await storage.mark_tournament_table_home_removed(tournament, 5)


async def test_only_an_ended_tournaments_undeleted_table_channels_are_left_over(
    storage: Storage,
) -> None:
    tournament = await sit_and_go(storage)
    await storage.remember_tournament_table_home(tournament, 1, 8_001, TableHomeKind.CHANNEL)
    await storage.remember_tournament_table_home(tournament, 2, 8_002, TableHomeKind.CHANNEL)
    await storage.remember_tournament_table_home(tournament, 3, 8_003, TableHomeKind.THREAD)
    await storage.mark_tournament_table_home_removed(tournament, 2)
    assert await storage.leftover_tournament_channels() == []  # still registering

    await storage.cancel_tournament(tournament, reason="test", key="cancel-1")

    left = [TableHomeRow(tournament, 1, 8_001, TableHomeKind.CHANNEL, removed=False)]
    assert await storage.leftover_tournament_channels() == left
    elsewhere = Shards.of([1], 2)  # guild 42 is on shard 0 of 2
    assert await storage.leftover_tournament_channels(shards=elsewhere) == []
    await storage.mark_tournament_table_home_removed(tournament, 1)
    assert await storage.leftover_tournament_channels() == []


REFUSED: dict[str, Callable[[Storage, int], Awaitable[object]]] = {
    "tables of an unknown tournament": lambda s, _: s.set_tournament_tables(
        MISSING, TableHomeKind.CHANNEL
    ),
    "message of an unknown tournament": lambda s, _: s.set_tournament_clock_message(
        MISSING, CHANNEL, 7_001
    ),
    "home of an unknown tournament": lambda s, _: s.remember_tournament_table_home(
        MISSING, 1, 8_001, TableHomeKind.THREAD
    ),
    "removal in an unknown tournament": lambda s, _: s.mark_tournament_table_home_removed(
        MISSING, 1
    ),
    "tables in a forum": lambda s, t: s.set_tournament_tables(t, "forum"),  # type: ignore[arg-type]
    "a negative message id": lambda s, t: s.set_tournament_clock_message(t, CHANNEL, -1),
}


@pytest.mark.parametrize("refused", sorted(REFUSED))
async def test_a_refused_front_write_changes_nothing(
    storage: Storage, state: State, refused: str
) -> None:
    tournament = await sit_and_go(storage)
    before = state()

    with pytest.raises((UnknownTournament, InvalidArgument)):
        await REFUSED[refused](storage, tournament)

    assert state() == before


async def test_reading_the_front_of_an_unknown_tournament_is_refused(storage: Storage) -> None:
    with pytest.raises(UnknownTournament):
        await storage.tournament_front(MISSING)
    with pytest.raises(UnknownTournament):
        await storage.tournament_table_homes(MISSING)
