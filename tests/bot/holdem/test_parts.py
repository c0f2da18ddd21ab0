"""The Hold'em host's pure parts: SeatOrder, narrate and table_snapshot, without a table."""

from __future__ import annotations

from bot.holdem.events import ActionTaken, HandsTabled, StreetDealt, TableLifecycle
from bot.holdem.kinds import SeatStatus, Stage
from bot.holdem.narrate import narrate, posted, summarise
from bot.holdem.order import SeatOrder
from bot.holdem.settings import HoldemSettings
from bot.holdem.snapshot import SeatFacts, TableState, table_snapshot
from engine.cards import parse_cards
from engine.holdem import Call, Check, Fold, Hand, RaiseTo, Stakes, stacked_deck

NAMES = {2: "Ann", 5: "Bob", 7: "Cy"}


def test_seat_order_puts_the_button_last_and_translates_both_ways() -> None:
    order = SeatOrder.around([2, 5, 7], button=5)
    assert order.seats == (7, 2, 5) and order.button == 5
    assert [order.seat(p) for p in range(3)] == [7, 2, 5]
    assert order.player(2) == 1 and order.player(9) is None
    assert order.blinds() == (7, 2)
    heads_up = SeatOrder.around([2, 5], button=2)
    assert heads_up.blinds() == (2, 5)  # heads-up the button posts the small blind
    assert not SeatOrder() and SeatOrder().blinds() == (None, None)


def dealt(holes: str, board: str = "") -> tuple[Hand, SeatOrder]:
    order = SeatOrder.around([2, 5, 7], button=7)  # Ann small blind, Bob big blind, Cy button
    cards = [tuple(parse_cards(pair)) for pair in holes.split("|")]
    deck = stacked_deck(cards, parse_cards(board))
    return Hand(Stakes.standard(3, 5, 10), [500, 500, 500], deck=deck), order


def test_narrate_tells_actions_by_seat_and_keeps_the_running_pot() -> None:
    hand, order = dealt("AhAd|KhKd|QhQd")
    pot = posted(hand.events)
    assert pot == 15
    events = hand.act(2, RaiseTo(30))  # Cy, on the button, acts first
    told = narrate(
        events, hand, order, NAMES, hand_id=4, running_pot=pot, last_actions={}, automatic=True
    )
    (taken,) = told.events
    assert isinstance(taken, ActionTaken)
    assert (taken.seat_no, taken.text) == (7, "Cy raises to 30 (timed out)")
    assert told.last_actions == {7: "Raises to 30"} and told.running_pot == 45


def test_narrate_deals_streets_as_stages_and_tables_hands_before_a_run_out() -> None:
    hand, order = dealt("AhAd|KhKd|QhQd", "2c 7d 9s Js 3h")
    hand.act(2, Fold())
    hand.act(0, Call())
    events = hand.act(1, Check())
    told = narrate(events, hand, order, NAMES, hand_id=1, running_pot=20, last_actions={})
    (street,) = [e for e in told.events if isinstance(e, StreetDealt)]
    assert street.street is Stage.FLOP and street.pot == 20 and len(street.board) == 3
    assert told.last_actions == {}  # a new street clears the notes
    events = hand.act(0, RaiseTo(490))
    events += hand.act(1, Call())
    told = narrate(events, hand, order, NAMES, hand_id=1, running_pot=20, last_actions={})
    tabled = [e for e in told.events if isinstance(e, HandsTabled)]
    assert tabled and {s.seat_no for s in tabled[0].hands} == {2, 5}
    assert [e.street for e in told.events if isinstance(e, StreetDealt)] == [
        Stage.TURN,
        Stage.RIVER,
    ]
    summary = summarise(hand, order, NAMES)
    assert sum(summary.final_stacks.values()) == 1500
    assert summary.results[2].won and summary.final_stacks[7] == 500


def test_table_snapshot_tells_seats_by_number_and_hides_unshown_cards() -> None:
    hand, order = dealt("AhAd|KhKd|QhQd")
    settings = HoldemSettings(seats=9, bots=0)
    playing = [SeatFacts(n, NAMES[n], n, 500) for n in (2, 5, 7)]
    seats = (*playing, SeatFacts(8, "Dee", 8, 300, sitting_out=True))
    state = TableState(1, "T", TableLifecycle.OPEN, settings, 3, seats)
    snapshot = table_snapshot(state, hand, order, deadline=99.0)
    assert snapshot.street is Stage.PREFLOP and snapshot.to_act_seat == 7
    assert snapshot.legal is not None and snapshot.legal.seat_no == 7
    assert snapshot.deadline == 99.0 and snapshot.hand_id == 3
    by_seat = {s.seat_no: s for s in snapshot.seats}
    assert by_seat[2].is_small_blind and by_seat[5].is_big_blind and by_seat[7].is_button
    assert by_seat[8].status is SeatStatus.SITTING_OUT
    assert all(s.shown_cards == () for s in snapshot.seats)
    between = table_snapshot(
        TableState(1, "T", TableLifecycle.OPEN, settings, 3, seats, next_hand_at=50.0),
        None,
        SeatOrder(),
        None,
    )
    assert between.street is Stage.NEXT_HAND and between.hand_id is None
