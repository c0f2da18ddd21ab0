"""Table statistics from public events: what is counted, per stable player key."""

from __future__ import annotations

import pytest

from engine.bots.preflop import preflop_table
from engine.bots.stats import NO_STATS, PlayerStats, TableStats, hand_stats
from engine.bots.usual import FULL, USUAL
from engine.cards import parse_cards
from engine.holdem import Call, Check, Fold, HoleCardsDealt, RaiseTo
from tests.engine.bots.helpers import act_all, stacked


def test_stats_count_preflop_and_postflop_actions() -> None:
    # Players: 0 small blind, 1 big blind, 2 first to act (button in 3-handed play).
    hand = stacked(["AsAh", "KdKc", "7c2d"], "Qs8h3c4d9s", stacks=[200, 200, 200])
    act_all(
        hand,
        RaiseTo(6),  # 2 opens
        RaiseTo(18),  # 0 re-raises
        Call(),  # 1 calls
        Call(),  # 2 calls
        Check(),  # flop: 0 checks
        RaiseTo(20),  # 1 bets 20 into 54 (a small bet: calling costs 20/74 of the pot)
        Fold(),  # 2 folds to it
        RaiseTo(120),  # 0 raises big
        Call(),  # 1 calls
        Check(),  # turn
        Check(),
        Check(),  # river
        Check(),
    )
    assert hand.is_complete
    sb, bb, opener = hand_stats(hand.events, 3)
    assert (opener.vpip, opener.pfr, opener.three_bets) == (1, 1, 0)
    assert (sb.vpip, sb.pfr, sb.three_bets) == (1, 1, 1)
    assert (bb.vpip, bb.pfr) == (1, 0)
    assert opener.faced_raises == 1 and opener.folded_to_raises == 0
    assert bb.faced_raises == 1 and bb.faced_big_raises == 1
    assert opener.faced_bets == 1 and opener.folded_to_bets == 1
    assert opener.faced_big_bets == 0  # 20 into 74 is under BIG_BET
    assert sb.aggressive == 1 and sb.checks == 3 and sb.faced_bets == 1
    assert bb.aggressive == 1 and bb.calls == 1 and bb.faced_big_bets == 1
    assert sb.showdowns == bb.showdowns == 1 and opener.showdowns == 0
    assert sb.showdowns_won == 1 and bb.showdowns_won == 0
    table = preflop_table()
    assert sb.shown == 1
    assert sb.shown_percentile_sum == pytest.approx(table.percentile(*parse_cards("AsAh")))
    assert all(stats.hands == 1 for stats in (sb, bb, opener))


def test_stats_never_read_private_hole_cards() -> None:
    hand = stacked(["AsAh", "KdKc"])
    act_all(hand, Fold())
    public = [e for e in hand.events if not isinstance(e, HoleCardsDealt)]
    assert hand_stats(hand.events, 2) == hand_stats(public, 2)
    # Nobody showed: no card (not even as a percentile) enters the stats.
    assert all(stats.shown == 0 for stats in hand_stats(hand.events, 2))


def test_table_stats_follow_players_as_the_button_moves() -> None:
    book = TableStats()
    hand = stacked(["AsAh", "KdKc"])
    act_all(hand, Fold())  # heads-up: player 1 (the button) folds its small blind
    book.record(hand.events, ["bob", "ann"])
    hand = stacked(["AsAh", "KdKc"])
    act_all(hand, RaiseTo(6), Fold())  # now bob has the button, raises, and ann folds
    book.record(hand.events, ["ann", "bob"])
    ann, bob = book.get("ann"), book.get("bob")
    assert ann.hands == bob.hands == 2
    assert bob.pfr == 1 and bob.vpip == 1
    assert ann.pfr == 0 and ann.faced_raises == 1 and ann.folded_to_raises == 1
    assert book.snapshot(["bob", "ann"]) == (bob, ann)
    assert book.get("carol") == NO_STATS
    book.forget("ann")
    assert book.get("ann") == NO_STATS


def test_player_stats_add_up() -> None:
    total = PlayerStats(hands=2, vpip=1, shown_percentile_sum=0.5) + PlayerStats(
        hands=1, vpip=1, shown_percentile_sum=0.25
    )
    assert total == PlayerStats(hands=3, vpip=2, shown_percentile_sum=0.75)
    assert PlayerStats(aggressive=2, calls=1, checks=3).postflop_actions == 6


def test_stats_record_how_much_wider_a_regular_plays_at_the_hands_table_size() -> None:
    heads_up = stacked(["AsAh", "KdKc"], "Qs8h3c4d9s")
    act_all(heads_up, Call(), *[Check()] * 7)  # limped and checked down: both show
    assert heads_up.is_complete
    wider_vpip = USUAL[2].vpip - FULL.vpip
    wider_shown = USUAL[2].shown - FULL.shown
    for stats in hand_stats(heads_up.events, 2):
        assert stats.wider_vpip_sum == pytest.approx(wider_vpip) and wider_vpip > 0.4
    shown = [s for s in hand_stats(heads_up.events, 2) if s.shown]
    assert shown and all(s.wider_shown_sum == pytest.approx(wider_shown) for s in shown)
    six = stacked(["AsAh", "KdKc", "7c2d", "8s3h", "9h9c", "Js4s"], "Qs8h3c4d9s")
    act_all(six, Fold(), Fold(), Fold(), Fold(), Call(), Check(), *[Check()] * 6)
    assert six.is_complete
    assert all(s.wider_vpip_sum == s.wider_shown_sum == 0.0 for s in hand_stats(six.events, 6))


def test_stats_count_cbets_and_a_cbettor_folding_to_a_raise() -> None:
    # Players: 0 small blind, 1 big blind, 2 the button (3-handed).
    hand = stacked(["AsAh", "KdKc", "7c2d"], "Qs8h3c4d9s", stacks=[200, 200, 200])
    act_all(
        hand,
        RaiseTo(6),  # 2 opens
        Fold(),  # 0 folds
        Call(),  # 1 calls
        Check(),  # flop: 1 checks to the raiser
        RaiseTo(4),  # 2 c-bets
        RaiseTo(14),  # 1 raises the c-bet
        Fold(),  # 2 folds to the raise
    )
    assert hand.is_complete
    sb, bb, raiser = hand_stats(hand.events, 3)
    assert (raiser.cbet_chances, raiser.cbets) == (1, 1)
    assert (raiser.cbets_raised, raiser.cbets_folded_to_raise) == (1, 1)
    assert (bb.faced_cbets, bb.folded_to_cbets) == (1, 0)
    assert bb.cbet_chances == bb.cbets_raised == sb.faced_cbets == 0


def test_stats_count_a_checked_cbet_chance_and_a_cbet_called_not_raised() -> None:
    hand = stacked(["AsAh", "KdKc"], "Qs8h3c4d9s")
    # Heads-up: player 1 (the button) opens, player 0 (big blind) calls; the raiser checks
    # his chance on the flop, then bets the turn.
    act_all(hand, RaiseTo(6), Call(), Check(), Check(), Check(), RaiseTo(6), Call())
    act_all(hand, Check(), Check())
    assert hand.is_complete
    big_blind, button = hand_stats(hand.events, 2)
    assert (button.cbet_chances, button.cbets, button.cbets_raised) == (1, 0, 0)
    assert big_blind.faced_cbets == 0
    hand = stacked(["AsAh", "KdKc"], "Qs8h3c4d9s")
    act_all(hand, RaiseTo(6), Call(), Check(), RaiseTo(4), Call(), *[Check()] * 4)
    big_blind, button = hand_stats(hand.events, 2)
    assert (button.cbets, button.cbets_raised) == (1, 0)
    assert (big_blind.faced_cbets, big_blind.folded_to_cbets) == (1, 0)
