"""Raise sizes people use, re-raises from ranges, and the end of raise wars."""

from __future__ import annotations

import random

import pytest

from engine.bots.registry import parse_seats
from engine.bots.simulate import simulate_holdem
from engine.bots.smart import Difficulty, SmartStrategy, raise_sizes
from engine.bots.view import SeatView
from engine.holdem import Call, Check, Fold, Hand, RaiseTo
from tests.engine.bots.helpers import act_all, spots, stacked

# Six players: 0 small blind, 1 big blind, 2 UTG, 3 hijack, 4 cutoff, 5 button; blinds 1/2.
SIX = ["7c2d", "8c3d", "AsAh", "KsKh", "QsQh", "JsJh"]


def view_of(hand: Hand) -> SeatView:
    turn = hand.turn
    assert turn is not None
    return SeatView.from_hand(hand, turn.player)


def test_opens_are_two_and_a_half_to_three_big_blinds_plus_one_per_limper() -> None:
    hand = stacked(SIX)
    assert raise_sizes(view_of(hand)) == [5.0, 6.0]
    act_all(hand, Call())  # UTG limps
    assert raise_sizes(view_of(hand)) == [7.0, 8.0]


def test_three_bets_are_three_times_in_position_and_four_out_of_it() -> None:
    hand = stacked(SIX)
    act_all(hand, RaiseTo(6))  # UTG opens to 3 bb
    assert raise_sizes(view_of(hand)) == [18]  # the hijack, in position
    act_all(hand, Fold(), Call(), Fold())  # the cutoff calls: one open more
    assert raise_sizes(view_of(hand)) == [30]  # the small blind, out of position, one caller


def test_four_bets_are_two_to_two_and_a_half_times_and_past_them_only_all_in() -> None:
    hand = stacked(SIX)
    act_all(hand, RaiseTo(6), RaiseTo(18), Fold(), Fold(), Fold(), Fold())
    assert raise_sizes(view_of(hand)) == pytest.approx([39.6, 45.0])  # UTG facing the 3-bet
    act_all(hand, RaiseTo(42))
    assert raise_sizes(view_of(hand)) is None  # the hijack: shove, call or fold
    for seed in range(20):
        action = SmartStrategy(Difficulty.HARD).decide(view_of(hand), random.Random(seed))
        assert action in (Fold(), Call(), RaiseTo(200)), action


def test_postflop_bets_are_fractions_of_the_pot_and_all_in_at_a_small_spr() -> None:
    hand = stacked(["7c2d", "AsAh"], "AdKc3s4h9c")  # heads-up: 0 is the big blind
    act_all(hand, RaiseTo(6), Call())  # pot 12 on the flop
    assert raise_sizes(view_of(hand)) == pytest.approx([4.0, 6.0, 8.0, 12.0])
    act_all(hand, Check(), RaiseTo(8), Call())  # pot 28 on the turn: the overbet is offered
    assert raise_sizes(view_of(hand)) == pytest.approx([28 / 3, 14.0, 56 / 3, 28.0, 42.0])
    short = stacked(["7c2d", "AsAh"], "AdKc3s4h9c", stacks=[40, 40])
    act_all(short, RaiseTo(16), Call())  # 24 behind, a pot of 32
    assert raise_sizes(view_of(short)) is None


def test_smart_raises_are_never_bare_minimum_raises() -> None:
    strategy = SmartStrategy(Difficulty.NORMAL)
    seen = 0
    for _hand, view in spots(400, seed=3, chooser=strategy.decide):
        action = strategy.decide(view, random.Random(seen))
        legal = view.legal
        if isinstance(action, RaiseTo) and legal.min_raise_to != legal.max_raise_to:
            wanted = raise_sizes(view)
            cover = max(view.stacks[i] + view.bets[i] for i in view.opponents)
            if action.amount == legal.min_raise_to and wanted is not None:
                # Only when a sized amount rounds onto the minimum, or the minimum already
                # puts every opponent all-in.
                assert any(round(size) <= action.amount for size in wanted) or (
                    action.amount >= cover
                ), (view, wanted, cover)
            seen += 1
    assert seen > 40


def test_smart_self_play_has_no_raise_wars() -> None:
    result = simulate_holdem(parse_seats(",".join(["smart"] * 6)), 150, seed=1)
    # Open, 3-bet, 4-bet, all-in: never a fifth preflop raise, and rarely a fourth.
    assert len(result.preflop_raises) <= 5, result.preflop_raises
    assert result.preflop_raises_p99 <= 4
    assert all(seat.style.max_raises_in_a_hand <= 6 for seat in result.seats)
