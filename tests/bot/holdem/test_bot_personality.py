"""Bot seats keep their personality and name in storage: a restarted table plays the same bots."""

from __future__ import annotations

import random
from pathlib import Path

from bot.holdem.bots import TABLE_BOTS
from bot.holdem.host import HoldemTable
from bot.holdem.manager import HoldemTables
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from engine.bots import HandBot, Personality, SmartStrategy
from engine.bots.personality import RANGES
from storage import Storage
from tests.bot.holdem.support import ALICE, GUILD
from tests.bot.recorder import HoldemRecorder

CHANNEL = 31


def bots_of(table: HoldemTable) -> dict[int, tuple[str | None, Personality | None, Personality]]:
    """Each bot seat's stored name, the seat's personality and the one its strategy plays."""
    found = {}
    for seat_no, seat in table.seats.items():
        if seat.is_bot:
            assert isinstance(seat.bot, HandBot)
            strategy = seat.bot.player.strategy
            assert isinstance(strategy, SmartStrategy)
            found[seat_no] = (seat.bot_name, seat.personality, strategy.personality)
    return found


async def open_smart_table(storage: Storage) -> HoldemTable:
    table = await HoldemTable.create(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_user_id=ALICE,
        name="Personalities",
        settings=HoldemSettings(seats=6, bots=5, min_buy_in=100, bot_strategy="smart:hard"),
        key="open-personalities",
        scheduler=ManualScheduler(),
        presenter=HoldemRecorder(),
        bots=TABLE_BOTS,
        rng=random.Random(11),
    )
    await table.join(ALICE, "Alice", 500)
    return table


async def test_bots_draw_varied_personalities_in_their_level_and_storage_keeps_them(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(tmp_path / "felt.db")
    try:
        table = await open_smart_table(storage)
        bots = bots_of(table)
        assert len(bots) == 5
        traits = RANGES["hard"]
        for name, personality, played in bots.values():
            assert personality is not None and personality == played
            assert personality.name == name
            assert traits.looseness.low <= personality.looseness <= traits.looseness.high
            assert traits.aggression.low <= personality.aggression <= traits.aggression.high
        # Five bots of one level are not five copies.
        assert len({(p.looseness, p.aggression) for _, p, _ in bots.values() if p}) == 5
        info = await storage.get_table(table.table_id)
        assert info is not None
        stored = {seat.seat_no: seat.bot_personality for seat in info.seats if seat.is_bot}
        assert stored == {n: p.text for n, (_, p, _) in bots.items() if p is not None}
        member = next(seat for seat in info.seats if not seat.is_bot)
        assert member.bot_personality is None
    finally:
        await storage.close()


async def test_a_restarted_table_has_bots_with_the_same_personalities_and_names(
    tmp_path: Path,
) -> None:
    path = tmp_path / "felt.db"
    storage = await Storage.open(path)
    try:
        table = await open_smart_table(storage)
        before = bots_of(table)
        await table.suspend("Felt is restarting")
    finally:
        await storage.close()
    # A new process: storage reopened from the file, a new host with another generator.
    reopened = await Storage.open(path)
    try:
        await reopened.recover()
        tables = HoldemTables(
            storage=reopened,
            scheduler=ManualScheduler(),
            presenters=lambda guild, channel: HoldemRecorder(),
            bots=TABLE_BOTS,
            rng=lambda: random.Random(99),
        )
        [again] = await tables.restore()
        assert bots_of(again) == before
        assert {n: s.name for n, s in again.seats.items()} == {
            n: s.name for n, s in table.seats.items()
        }
        await tables.suspend_all()
    finally:
        await reopened.close()


async def test_a_bot_seated_without_a_stored_personality_draws_one_at_restore(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(tmp_path / "felt.db")
    try:
        settings = HoldemSettings(bot_strategy="smart").to_json()
        opened = await storage.open_table(
            GUILD, CHANNEL, settings=settings, name="Old table", key="old-table"
        )
        await storage.seat_bot(opened.table_id, 2, "Hopper", 400, key="old-bot")
        info = await storage.get_table(opened.table_id)
        assert info is not None and info.seats[0].bot_personality is None
        table = await HoldemTable.restore(
            info,
            storage=storage,
            scheduler=ManualScheduler(),
            presenter=HoldemRecorder(),
            bots=TABLE_BOTS,
            rng=random.Random(5),
        )
        seat = table.seats[2]
        assert seat.personality is not None and seat.personality.name == "Hopper"
    finally:
        await storage.close()
