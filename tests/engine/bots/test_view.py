"""The seat view: fair by construction (no hidden card can be reached), and its derived facts."""

from __future__ import annotations

import dataclasses
import enum
import pickle
from typing import Any

import pytest

from engine.bots.errors import NotSeatsTurnError
from engine.bots.stats import NO_STATS, PlayerStats
from engine.bots.view import PublicAction, SeatView
from engine.cards import Card
from engine.holdem import ActionKind, Call, Check, Fold, Hand, RaiseTo, Street
from tests.engine.bots.helpers import act_all, spots, stacked


def reachable(value: Any, seen: set[int] | None = None) -> list[Any]:
    """Every object reachable from ``value`` through dataclass fields, slots, attributes and
    containers (what a strategy could touch without the ``gc`` module)."""
    seen = seen if seen is not None else set()
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    if isinstance(value, str | bytes | int | float | bool | enum.Enum) or value is None:
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            found += reachable(key, seen) + reachable(item, seen)
        return found
    if isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found += reachable(item, seen)
        return found
    names: list[str] = []
    if dataclasses.is_dataclass(value):
        names += [f.name for f in dataclasses.fields(value)]
    for klass in type(value).__mro__:
        names += list(getattr(klass, "__slots__", ()))
    names += list(getattr(value, "__dict__", {}))
    for name in names:
        if hasattr(value, name):
            found += reachable(getattr(value, name), seen)
    return found


EXPECTED_FIELDS = {
    "seat",
    "players",
    "hole",
    "board",
    "street",
    "stakes",
    "starting_stacks",
    "stacks",
    "bets",
    "contributed",
    "live",
    "pot_total",
    "pots",
    "legal",
    "history",
    "stats",
}


def test_view_fields_are_the_reviewed_ones() -> None:
    # A new field must be reviewed for leaks: this list is the review.
    assert {f.name for f in dataclasses.fields(SeatView)} == EXPECTED_FIELDS
    assert not hasattr(SeatView, "__dict__") or "__dict__" not in SeatView.__slots__


def test_view_holds_no_card_but_its_own_and_the_board() -> None:
    checked = 0
    for hand, view in spots(600, seed=11):
        allowed = set(view.hole) | set(view.board)
        others = {card for p, hole in enumerate(hand.hole_cards) if p != view.seat for card in hole}
        assert not allowed & others
        for item in reachable(view):
            assert not isinstance(item, Hand), "the view refers to the hand"
            if isinstance(item, Card):
                assert item in allowed, f"{item} leaked into seat {view.seat}'s view"
            if isinstance(item, list | tuple) and len(item) >= 40:
                raise AssertionError("something deck-sized is in the view")
        assert view.hole == hand.hole_cards[view.seat]
        assert view.board == tuple(hand.board)
        checked += 1
    assert checked == 600


def test_view_is_immutable_and_detached_from_the_hand() -> None:
    hand = stacked(["AsAh", "KdKc", "2c3d"])
    view = SeatView.from_hand(hand, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 0  # type: ignore[misc]
    before = dataclasses.astuple(view)
    act_all(hand, Call(), Call(), Check())
    assert dataclasses.astuple(view) == before
    assert pickle.loads(pickle.dumps(view)) == view


def test_view_history_is_this_hands_public_actions() -> None:
    hand = stacked(["AsAh", "KdKc", "QsQd"], "2c7d9h")
    act_all(hand, RaiseTo(6), Call(), Call(), Check(), RaiseTo(10))
    view = SeatView.from_hand(hand, hand.turn.player if hand.turn else 0)
    assert [(a.street, a.player, a.kind) for a in view.history] == [
        (Street.PREFLOP, 2, ActionKind.RAISE),
        (Street.PREFLOP, 0, ActionKind.CALL),
        (Street.PREFLOP, 1, ActionKind.CALL),
        (Street.FLOP, 0, ActionKind.CHECK),
        (Street.FLOP, 1, ActionKind.BET),
    ]
    assert view.history[-1] == PublicAction(Street.FLOP, 1, ActionKind.BET, 10, 10, False)
    assert view.aggressor() == 1
    assert view.preflop_raiser() == 2
    assert [a.player for a in view.street_actions()] == [0, 1]


def test_view_derives_seat_button_blinds_bets_and_stacks_from_the_hand() -> None:
    # Four players: 0 small blind, 1 big blind, 2 first to act, 3 the button.
    hand = stacked(["AsAh", "KdKc", "QsQd", "JsJd"], stacks=[100, 200, 300, 50])
    act_all(hand, RaiseTo(6))
    view = SeatView.from_hand(hand, 3)
    assert view.seat == 3 and view.button == 3 and view.big_blind == 2
    assert view.to_call == 6 and view.current_bet == 6
    assert view.opponents == (0, 1, 2)
    assert view.stack == 50
    assert view.effective_stack == 50
    assert view.acts_last
    assert view.yet_to_act() == (0, 1)  # the blinds have posted, not acted
    assert view.average_stack == 162.5
    assert view.pot_total == 9
    assert view.stack_to_pot == pytest.approx(50 / 9)
    assert view.stats == (NO_STATS,) * 4
    act_all(hand, Fold(), Fold())
    view = SeatView.from_hand(hand, 1)
    assert view.opponents == (2,)
    assert not view.acts_last  # player 2 acts after player 1 from the flop on


def test_view_of_a_player_who_is_not_to_act_is_refused() -> None:
    hand = stacked(["AsAh", "KdKc", "QsQd"])
    with pytest.raises(NotSeatsTurnError):
        SeatView.from_hand(hand, 0)
    with pytest.raises(NotSeatsTurnError, match="stats"):
        SeatView.from_hand(hand, 2, stats=[PlayerStats()])


def test_view_carries_the_stats_it_is_given() -> None:
    hand = stacked(["AsAh", "KdKc"])
    stats = (PlayerStats(hands=3, vpip=2), PlayerStats(hands=3))
    view = SeatView.from_hand(hand, hand.turn.player if hand.turn else 0, stats=stats)
    assert view.stats == stats


def test_view_of_random_spots_agrees_with_the_hand() -> None:
    for hand, view in spots(300, seed=5, stats=False):
        assert view.legal == hand.turn
        assert view.stacks == tuple(hand.stacks)
        assert view.pot_total == hand.pot_total
        assert sum(view.contributed) + sum(view.bets) <= view.pot_total
        assert view.effective_stack <= view.stack
