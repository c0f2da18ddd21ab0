"""Home-game host tests' table: chosen options, and decks stacked by seat."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.holdem.host import HoldemTable
from bot.holdem.order import SeatOrder
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from engine.cards import Card
from storage import Storage
from tests.bot.holdem.support import ALICE, CHANNEL, GUILD, calling_station
from tests.bot.recorder import HoldemRecorder
from tests.e2e.support.decks import StackedDecks, deck

SeatCards = Mapping[int, str]
"""Hole cards by seat number, like ``{1: "7s2d", 2: "AhAc"}``."""


def by_seat(table_ref: list[HoldemTable], holes: SeatCards, board: str) -> Callable[[], list[Card]]:
    """A deck spec dealing ``holes`` to seats (whatever the button) and ``board``."""

    def cards() -> list[Card]:
        table = table_ref[0]
        players = table.seating.players()
        assert table._button is not None
        order = SeatOrder.around(players, table._button)
        return deck([holes[seat] for seat in order], board)

    return cards


async def home_table(
    storage: Storage,
    scheduler: ManualScheduler,
    recorder: HoldemRecorder,
    *,
    decks: Mapping[int, tuple[SeatCards, str]] | None = None,
    seed: int = 7,
    **options: Any,
) -> HoldemTable:
    """A table hosted by Alice with ``options`` (settings fields); ``decks`` maps a hand
    number to ``(holes by seat, board)``."""
    base = HoldemSettings(
        small_blind=5,
        big_blind=10,
        min_buy_in=100,
        max_buy_in=1000,
        seats=options.pop("seats", 4),
        bots=options.pop("bots", 0),
        bot_delay_seconds=0.0,
        turn_seconds=30,
        between_hands_seconds=2.0,
    )
    settings = base.with_changes(**options)
    ref: list[HoldemTable] = []
    specs = {n: by_seat(ref, holes, board) for n, (holes, board) in (decks or {}).items()}
    table = await HoldemTable.create(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_user_id=ALICE,
        name="Home",
        settings=settings,
        key="open-home",
        scheduler=scheduler,
        presenter=recorder,
        bots=calling_station,
        rng=StackedDecks(seed, specs),
    )
    ref.append(table)
    return table
