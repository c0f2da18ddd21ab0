"""Fixtures for the Hold'em table host: real storage in tmp_path, hand-driven time, a recorder."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.holdem.host import HoldemTable
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from engine.holdem import Action, Call, Check, Hand
from storage import Storage
from tests.bot.recorder import HoldemRecorder

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL = 11, 12, 13


class CallingStation:
    """A bot that checks when it can and calls otherwise."""

    def decide(self, hand: Hand, player: int) -> Action:
        legal = hand.turn
        assert legal is not None and legal.player == player
        return Check() if legal.can_check else Call()


def calling_station(name: str, strategy: str, rng: random.Random) -> CallingStation:
    return CallingStation()


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


TableFactory = Callable[..., Awaitable[HoldemTable]]
"""The ``make_table`` fixture: ``await make_table(seats=..., bots=...)`` opens a test table."""


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
        return await HoldemTable.create(
            storage=storage,
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_user_id=ALICE,
            name="Test table",
            settings=settings,
            key="open-1",
            scheduler=scheduler,
            presenter=recorder,
            bots=calling_station,
            rng=random.Random(changes.pop("seed", 7)),
        )

    return make
