"""Fixtures for the Hold'em table host: real storage in tmp_path, hand-driven time, a recorder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.holdem.host import HoldemTable
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from storage import Storage
from tests.bot.holdem.support import (
    TableFactory,
    open_table,
)
from tests.bot.recorder import HoldemRecorder


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "felt.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def scheduler() -> ManualScheduler:
    return ManualScheduler()


@pytest.fixture
def recorder() -> HoldemRecorder:
    return HoldemRecorder()


@pytest.fixture
def make_table(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> TableFactory:
    async def make(**changes: Any) -> HoldemTable:
        settings = HoldemSettings(
            small_blind=5,
            big_blind=10,
            min_buy_in=100,
            max_buy_in=1000,
            seats=changes.pop("seats", 4),
            bots=changes.pop("bots", 2),
            bot_delay_seconds=1.0,
            turn_seconds=30,
            between_hands_seconds=2.0,
            max_sit_out_hands=changes.pop("max_sit_out_hands", 3),
        )
        seed = changes.pop("seed", 7)
        return await open_table(storage, scheduler, recorder, settings, seed=seed)

    return make
