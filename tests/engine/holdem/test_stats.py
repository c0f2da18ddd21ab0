"""The style statistics' definitions, hand by hand: VPIP, PFR, 3-bet, AF, WTSD, W$SD, raises."""

from __future__ import annotations

from engine.holdem import Call, Check, Fold, RaiseTo
from engine.holdem.phh import from_hand
from engine.holdem.stats import (
    NO_COUNTS,
    StyleCounts,
    counts_from_phh,
    hand_counts,
    hand_stats,
    hand_tally,
    total,
)
from tests.engine.bots.helpers import act_all, stacked

# Four players: 0 small blind, 1 big blind, 2 under the gun, 3 button. Player 0 has aces.
HOLES = ["AsAh", "KsKh", "QsQh", "2d3c"]
BOARD = "2c7d9hJsKd"
CHECKS = (Check(),) * 4


def test_limps_count_for_vpip_and_the_big_blinds_free_check_does_not() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, Call(), Call(), Call(), Check(), *CHECKS, *CHECKS, *CHECKS)
    counts = hand_counts(hand.events, 4)
    assert [c.vpip for c in counts] == [1, 0, 1, 1]  # the completing small blind counts
    assert [c.pfr for c in counts] == [0, 0, 0, 0]
    assert [c.three_bet_chances for c in counts] == [0, 0, 0, 0]  # nobody faced a raise
    assert hand_tally(hand.events, 4).preflop_raises == 0  # the big blind's post is no raise


def test_only_decisions_facing_the_open_alone_are_three_bet_chances() -> None:
    hand = stacked(HOLES, BOARD)
    # UTG opens, the button folds, the small blind 3-bets, the big blind folds, UTG folds.
    act_all(hand, RaiseTo(6), Fold(), RaiseTo(24), Fold(), Fold())
    counts = hand_counts(hand.events, 4)
    assert [c.pfr for c in counts] == [1, 0, 1, 0]
    # The big blind and the opener acted facing two raises: no chance to 3-bet.
    assert [c.three_bet_chances for c in counts] == [1, 0, 0, 1]
    assert [c.three_bets for c in counts] == [1, 0, 0, 0]
    assert [c.vpip for c in counts] == [1, 0, 1, 0]
    assert hand_tally(hand.events, 4).preflop_raises == 2
    assert [c.max_raises_in_a_hand for c in counts] == [1, 0, 1, 0]


def test_a_limp_raise_is_a_three_bet_and_a_preflop_raise() -> None:
    hand = stacked(HOLES, BOARD)
    # UTG limps, the button raises, the blinds fold, UTG re-raises, the button folds.
    act_all(hand, Call(), RaiseTo(8), Fold(), Fold(), RaiseTo(30), Fold())
    utg = hand_counts(hand.events, 4)[2]
    assert (utg.vpip, utg.pfr, utg.three_bet_chances, utg.three_bets) == (1, 1, 1, 1)


def test_af_wtsd_and_wsd_from_a_hand_played_to_showdown() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, RaiseTo(6), Fold(), Fold(), Call())  # UTG opens, the small blind folds
    # Flop: big blind bets, UTG raises, big blind calls; then checks to the river showdown.
    act_all(hand, RaiseTo(6), RaiseTo(20), Call(), Check(), Check(), Check(), Check())
    assert hand.is_complete
    counts = hand_counts(hand.events, 4)
    big, utg = counts[1], counts[2]
    assert (big.postflop_aggressive, big.postflop_calls, big.af) == (1, 1, 1.0)
    assert (utg.postflop_aggressive, utg.postflop_calls, utg.af) == (1, 0, None)
    assert [c.saw_flop for c in counts] == [0, 1, 1, 0]
    assert [c.showdowns for c in counts] == [0, 1, 1, 0]
    assert [c.showdowns_won for c in counts] == [0, 1, 0, 0]  # kings beat queens
    assert big.wtsd_pct == 100.0 and big.wsd_pct == 100.0 and utg.wsd_pct == 0.0
    assert utg.max_raises_in_a_hand == 2


def test_a_hand_won_without_a_call_is_no_showdown() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, RaiseTo(6), Fold(), Fold(), Call(), RaiseTo(8), Fold())
    counts = hand_counts(hand.events, 4)
    assert [c.saw_flop for c in counts] == [0, 1, 1, 0]
    assert [c.showdowns for c in counts] == [0, 0, 0, 0]
    assert counts[1].wtsd_pct == 0.0 and counts[1].wsd_pct is None


def test_counts_add_up_and_keep_the_most_raises_in_one_hand() -> None:
    a = StyleCounts(hands=1, vpip=1, three_bet_chances=1, max_raises_in_a_hand=3)
    b = StyleCounts(hands=3, vpip=1, pfr=2, max_raises_in_a_hand=1)
    both = total([a, b])
    assert both == StyleCounts(hands=4, vpip=2, pfr=2, three_bet_chances=1, max_raises_in_a_hand=3)
    assert both.vpip_pct == 50.0 and both.pfr_pct == 50.0 and both.three_bet_pct == 0.0
    assert NO_COUNTS.vpip_pct is None and NO_COUNTS.af is None


def test_counts_from_phh_equal_the_counts_of_the_hand() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, RaiseTo(6), Fold(), RaiseTo(24), Fold(), Call())
    act_all(hand, RaiseTo(30), Call(), *CHECKS[:2], *CHECKS[:2])
    assert hand.is_complete
    assert counts_from_phh(from_hand(hand)) == hand_stats(hand)
    counts = hand_stats(hand)
    assert [c.net_bb_hundredths for c in counts] == [50 * c.net for c in counts]  # blinds 1/2
