"""Blackjack host snapshots become valid render views at every point of a round, never show the
hole card while it is face down, and say who may decide what."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.blackjack.events import BlackjackSnapshot, RoundFinished, TableChanged, TableEvent
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.blackjack.view import deciding, in_order, table_view, total_text
from bot.render import blackjack_table_text, render_blackjack_table
from bot.render.cards import card_label
from bot.render.models import BlackjackPhase, BlackjackResultLabel
from bot.tables.clock import ManualScheduler
from engine.blackjack import CASINO, Action, StackedShoe, Surrender
from engine.cards import parse_cards
from storage import Storage

GUILD, CHANNEL = 1000, 3000
ALICE, BOB = 21, 22


class Snapshots:
    """A presenter that keeps every snapshot the table published."""

    def __init__(self) -> None:
        self.events: list[TableEvent] = []

    async def publish(self, event: TableEvent) -> None:
        self.events.append(event)

    @property
    def snapshots(self) -> list[BlackjackSnapshot]:
        """Every snapshot of a round (the idle ones between rounds left out)."""
        return [
            event.snapshot
            for event in self.events
            if isinstance(event, TableChanged | RoundFinished) and event.snapshot.players
        ]


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "felt.db")
    try:
        yield opened
    finally:
        await opened.close()


def make_table(storage: Storage, cards: str, **rules: Any) -> tuple[BlackjackTable, Snapshots]:
    recorder = Snapshots()
    table = BlackjackTable(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="#blackjack",
        settings=BlackjackSettings(rules=dataclasses.replace(CASINO, **rules)),
        scheduler=ManualScheduler(),
        presenter=recorder,
        shoe=StackedShoe.of(cards),
    )
    return table, recorder


@pytest.mark.parametrize(
    ("cards", "natural", "text"),
    [
        ("As 6d", False, "soft 17"),
        ("As 6d Kc", False, "17"),
        ("Ts 9d 5c", False, "bust (24)"),
        ("As Kd", True, "blackjack"),
        ("As Kd", False, "21"),
        ("As Ad", False, "soft 12"),
        ("", False, ""),
    ],
)
def test_total_text_says_soft_hard_bust_and_blackjack(cards: str, natural: bool, text: str) -> None:
    assert total_text(tuple(parse_cards(cards)), natural=natural) == text


async def test_every_snapshot_of_a_round_maps_to_a_view_that_hides_the_hole_card(
    storage: Storage,
) -> None:
    # Alice 8-8 splits against a dealer 6 with a 10 in the hole; Bob stands on 9-Q.
    hole = "Ts"
    table, recorder = make_table(storage, f"8h 9c 6c 8d Qh {hole} 3c 9h 8s")
    await table.bet(ALICE, "Alice", 50)
    await table.bet(BOB, "Bob", 20)
    await table.deal_now(ALICE)
    for action, user in ((Action.SPLIT, ALICE), (Action.STAND, ALICE), (Action.STAND, ALICE)):
        await table.act(user, table.round_id or 0, table.snapshot().step, action)
    await table.act(BOB, table.round_id or 0, table.snapshot().step, Action.STAND)

    views = [table_view(snapshot) for snapshot in recorder.snapshots]
    assert all(view is not None for view in views)
    phases = [view.phase for view in views if view is not None]
    assert phases[0] is BlackjackPhase.BETTING and phases[-1] is BlackjackPhase.SETTLED
    assert BlackjackPhase.PLAYERS in phases
    betting = views[0]
    assert betting is not None
    assert [(seat.seat, seat.name, seat.bet, seat.hands) for seat in betting.seats] == [
        (1, "Alice", 50, ())
    ]
    for view in views:
        assert view is not None
        if view.dealer_hole_hidden:
            assert card_label(parse_cards(hole)[0]) not in blackjack_table_text(view)
            assert view.dealer_total == ""
    turns: list[tuple[str, int | None]] = []
    for view in views:
        seat = view.seat_to_act if view is not None else None
        if seat is not None and (not turns or turns[-1] != (seat.name, seat.hand_to_act)):
            turns.append((seat.name, seat.hand_to_act))
    assert turns == [("Alice", 0), ("Alice", 1), ("Bob", 0)]

    final = views[-1]
    assert final is not None and not final.dealer_hole_hidden
    assert final.dealer_total == "bust (24)"
    alice, bob = final.seats
    assert [(hand.total, hand.bet, hand.result, hand.net) for hand in alice.hands] == [
        ("11", 50, BlackjackResultLabel.WIN, 50),
        ("17", 50, BlackjackResultLabel.WIN, 50),
    ]
    assert [(hand.total, hand.result, hand.net) for hand in bob.hands] == [
        ("19", BlackjackResultLabel.WIN, 20)
    ]
    assert render_blackjack_table(final).startswith(b"\x89PNG")


async def test_insurance_offers_even_money_to_a_natural_and_insurance_to_the_others(
    storage: Storage,
) -> None:
    table, recorder = make_table(storage, "Th Ah Ac 9d Kh 7s")
    await table.bet(ALICE, "Alice", 100)
    await table.bet(BOB, "Bob", 100)
    await table.deal_now(ALICE)
    snapshot = table.snapshot()
    assert deciding(snapshot) == {
        ALICE: frozenset({Action.INSURE, Action.NO_INSURANCE}),
        BOB: frozenset({Action.EVEN_MONEY, Action.NO_INSURANCE}),
    }
    view = table_view(snapshot)
    assert view is not None and view.phase is BlackjackPhase.INSURANCE
    assert view.seat_to_act is None  # everyone still deciding decides at once
    assert [hand.total for seat in view.seats for hand in seat.hands] == ["19", "blackjack"]

    await table.act(BOB, table.round_id or 0, snapshot.step, Action.EVEN_MONEY)
    assert deciding(table.snapshot()) == {ALICE: frozenset({Action.INSURE, Action.NO_INSURANCE})}
    await table.act(ALICE, table.round_id or 0, table.snapshot().step, Action.INSURE)
    # No blackjack under the ace: insurance is lost, Alice plays on.
    snapshot = table.snapshot()
    assert deciding(snapshot) == {ALICE: snapshot.legal}
    view = table_view(snapshot)
    assert view is not None and view.seats[0].insurance == 50
    assert view.seats[1].hands[0].result is BlackjackResultLabel.EVEN_MONEY
    assert recorder.snapshots


async def test_nobody_decides_while_bets_are_open_or_between_rounds(storage: Storage) -> None:
    table, _recorder = make_table(storage, "Th Tc 6d 7s", surrender=Surrender.LATE)
    assert table_view(table.snapshot()) is None
    assert deciding(table.snapshot()) == {}
    await table.bet(ALICE, "Alice", 100)
    assert deciding(table.snapshot()) == {}
    await table.deal_now(ALICE)
    legal = deciding(table.snapshot())[ALICE]
    assert in_order(legal) == [Action.HIT, Action.STAND, Action.DOUBLE, Action.SURRENDER]
    await table.act(ALICE, table.round_id or 0, table.snapshot().step, Action.SURRENDER)
    assert deciding(table.snapshot()) == {}
    assert table_view(table.snapshot()) is None
