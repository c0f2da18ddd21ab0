"""The Discord front's table messages and DM notices survive a restart (both backends)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.errors import InvalidArgument, UnknownTable
from storage.models import Game, TableMessage
from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import FakeClock, State

GUILD, CHANNEL, OTHER_CHANNEL = 111_111, 555_555, 666_666
ALICE, BOB = 1_001, 1_002


def tracked(message_id: int, *, buttons: bool, game: Game = Game.HOLDEM) -> TableMessage:
    return TableMessage(message_id, GUILD, CHANNEL, game, buttons)


async def test_table_messages_are_tracked_per_channel_and_game(storage: Storage) -> None:
    await storage.remember_table_message(GUILD, CHANNEL, Game.HOLDEM, 12, has_buttons=True)
    await storage.remember_table_message(GUILD, CHANNEL, Game.HOLDEM, 11, has_buttons=False)
    await storage.remember_table_message(GUILD, CHANNEL, Game.BLACKJACK, 13, has_buttons=True)
    await storage.remember_table_message(GUILD, OTHER_CHANNEL, Game.HOLDEM, 14, has_buttons=True)

    assert await storage.table_messages(CHANNEL, Game.HOLDEM) == [
        tracked(11, buttons=False),
        tracked(12, buttons=True),
    ]
    assert await storage.table_messages(CHANNEL, Game.BLACKJACK) == [
        tracked(13, buttons=True, game=Game.BLACKJACK)
    ]


async def test_table_message_remembered_again_updates_whether_it_has_buttons(
    storage: Storage,
) -> None:
    await storage.remember_table_message(GUILD, CHANNEL, Game.HOLDEM, 12, has_buttons=True)
    await storage.remember_table_message(GUILD, CHANNEL, Game.HOLDEM, 12, has_buttons=False)

    assert await storage.table_messages(CHANNEL, Game.HOLDEM) == [tracked(12, buttons=False)]


async def test_forgotten_table_messages_are_no_longer_tracked(storage: Storage) -> None:
    for message_id in (11, 12, 13):
        await storage.remember_table_message(
            GUILD, CHANNEL, Game.HOLDEM, message_id, has_buttons=True
        )

    assert await storage.forget_table_messages(GUILD, 11, 13, 99) == 2
    assert await storage.table_messages(CHANNEL, Game.HOLDEM) == [tracked(12, buttons=True)]


async def test_table_messages_survive_reopening_the_database(
    database: str | Path, clock: FakeClock
) -> None:
    async with await Storage.open(database, clock=clock, economy=EconomySettings()) as first:
        await first.remember_table_message(GUILD, CHANNEL, Game.HOLDEM, 12, has_buttons=True)
    async with await Storage.open(database, clock=clock, economy=EconomySettings()) as second:
        assert await second.table_messages(CHANNEL, Game.HOLDEM) == [tracked(12, buttons=True)]


async def test_remembering_a_table_message_refuses_a_bad_id_and_changes_nothing(
    storage: Storage, state: State
) -> None:
    before = state()
    with pytest.raises(InvalidArgument):
        await storage.remember_table_message(GUILD, CHANNEL, Game.HOLDEM, -1, has_buttons=True)
    assert state() == before


async def test_dm_refusal_is_noted_once_per_member_per_table(storage: Storage) -> None:
    first = await storage.open_table(GUILD, CHANNEL, settings={}, key="open-1")
    second = await storage.open_table(GUILD, OTHER_CHANNEL, settings={}, key="open-2")

    assert await storage.note_dm_refused(first.table_id, ALICE) is True
    assert await storage.note_dm_refused(first.table_id, ALICE) is False
    assert await storage.note_dm_refused(first.table_id, BOB) is True
    assert await storage.note_dm_refused(second.table_id, ALICE) is True


async def test_dm_refusal_at_an_unknown_table_is_refused_and_changes_nothing(
    storage: Storage, state: State
) -> None:
    before = state()
    with pytest.raises(UnknownTable):
        await storage.note_dm_refused(404, ALICE)
    assert state() == before
