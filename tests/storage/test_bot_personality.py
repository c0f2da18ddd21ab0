"""Migration 0005: a bot seat keeps its personality text, on both backends; limits are refused."""

from __future__ import annotations

import pytest

from storage.errors import InvalidArgument
from storage.store import Storage

GUILD = 10
ALICE = 1


async def test_a_bot_seat_keeps_its_personality_and_a_member_has_none(storage: Storage) -> None:
    table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key="a")
    await storage.seat_bot(table, 1, "Ada", 300, key="b", personality="Ada/+0.012/-0.030")
    await storage.seat_bot(table, 2, "Hopper", 300, key="c")
    info = await storage.get_table(table)
    assert info is not None
    assert [seat.bot_personality for seat in info.seats] == [None, "Ada/+0.012/-0.030", None]
    # A replay of the same seating answers the same; the personality is part of what it was.
    again = await storage.seat_bot(table, 1, "Ada", 300, key="b", personality="Ada/+0.012/-0.030")
    assert again.stack == 300


async def test_an_overlong_personality_is_refused_and_seats_nobody(storage: Storage) -> None:
    table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
    with pytest.raises(InvalidArgument):
        await storage.seat_bot(table, 1, "Ada", 300, key="b", personality="x" * 65)
    info = await storage.get_table(table)
    assert info is not None and info.seats == ()
