"""The statistics added for /stats, hand by hand: fold to 3-bet, c-bet, fold to c-bet,
aggression frequency, won without showdown, net, bb/100 and the biggest pot."""

from __future__ import annotations

import pytest

from engine.holdem import Call, Check, Fold, RaiseTo
from engine.holdem.stats import StyleCounts, bb_hundredths, hand_stats, total
from tests.engine.bots.helpers import act_all, stacked

# Four players: 0 small blind, 1 big blind, 2 under the gun, 3 button. Player 0 has aces.
# Preflop UTG acts first; after the flop the small blind does.
HOLES = ["AsAh", "KsKh", "QsQh", "2d3c"]
BOARD = "2c7d9hJsKd"


def test_the_opener_folding_to_a_three_bet_counts_once() -> None:
    hand = stacked(HOLES, BOARD)
    # UTG opens, the button folds, the small blind 3-bets, the big blind folds, UTG folds.
    act_all(hand, RaiseTo(6), Fold(), RaiseTo(24), Fold(), Fold())
    counts = hand_stats(hand)
    assert [c.fold_to_three_bet_chances for c in counts] == [0, 0, 1, 0]
    assert [c.folds_to_three_bet for c in counts] == [0, 0, 1, 0]
    assert counts[2].fold_to_three_bet_pct == 100.0


def test_an_opener_calling_the_three_bet_had_a_chance_and_did_not_fold() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, RaiseTo(6), Fold(), RaiseTo(24), Fold(), Call())
    utg = hand_stats(hand)[2]
    assert (utg.fold_to_three_bet_chances, utg.folds_to_three_bet) == (1, 0)


def test_an_opener_facing_a_four_bet_has_no_fold_to_three_bet_chance() -> None:
    hand = stacked(HOLES, BOARD)
    # UTG opens, the button 3-bets, the small blind 4-bets: UTG faces three raises.
    act_all(hand, RaiseTo(6), RaiseTo(18), RaiseTo(50), Fold(), Fold(), Fold())
    counts = hand_stats(hand)
    assert [c.fold_to_three_bet_chances for c in counts] == [0, 0, 0, 0]
    assert [c.three_bet_chances for c in counts] == [0, 0, 0, 1]  # only the button faced one


def test_an_opener_all_in_on_the_open_has_no_fold_to_three_bet_chance() -> None:
    hand = stacked(HOLES, BOARD, stacks=[200, 200, 10, 200])
    act_all(hand, RaiseTo(10), Fold(), RaiseTo(40), Fold())
    assert hand.is_complete
    counts = hand_stats(hand)
    assert [c.fold_to_three_bet_chances for c in counts] == [0, 0, 0, 0]
    assert counts[2].cbet_chances == 0


def test_a_cbet_and_the_fold_to_it_count_and_the_pot_is_won_without_showdown() -> None:
    hand = stacked(HOLES, BOARD)
    # UTG opens, the button and small blind fold, the big blind calls; the big blind checks
    # the flop, UTG bets and the big blind folds.
    act_all(hand, RaiseTo(6), Fold(), Fold(), Call(), Check(), RaiseTo(8), Fold())
    assert hand.is_complete
    counts = hand_stats(hand)
    big, utg = counts[1], counts[2]
    assert (utg.cbet_chances, utg.cbets, utg.cbet_pct) == (1, 1, 100.0)
    assert (big.fold_to_cbet_chances, big.folds_to_cbet, big.fold_to_cbet_pct) == (1, 1, 100.0)
    assert (big.postflop_folds, big.afq_pct) == (1, 0.0)
    assert utg.afq_pct == 100.0
    # The pot is the two raises and the small blind; the c-bet came back uncalled.
    assert (utg.hands_won, utg.won_without_showdown, utg.biggest_pot) == (1, 1, 13)
    assert (utg.net, utg.net_bb_hundredths) == (7, 350)
    assert (big.net, big.net_bb_hundredths, big.hands_won) == (-6, -300, 0)
    assert [c.showdowns for c in counts] == [0, 0, 0, 0]
    assert sum(c.net for c in counts) == 0


def test_the_preflop_raiser_checking_the_flop_is_a_chance_without_a_cbet() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, RaiseTo(6), Fold(), Fold(), Call(), Check(), Check())
    utg = hand_stats(hand)[2]
    assert (utg.cbet_chances, utg.cbets, utg.cbet_pct) == (1, 0, 0.0)


def test_a_donk_bet_takes_the_cbet_chance_away() -> None:
    hand = stacked(HOLES, BOARD)
    # The big blind bets the flop into the preflop raiser, who calls.
    act_all(hand, RaiseTo(6), Fold(), Fold(), Call(), RaiseTo(6), Call())
    counts = hand_stats(hand)
    assert [c.cbet_chances for c in counts] == [0, 0, 0, 0]
    assert [c.fold_to_cbet_chances for c in counts] == [0, 0, 0, 0]


def test_a_preflop_raiser_all_in_before_the_flop_has_no_cbet_chance() -> None:
    hand = stacked(HOLES, BOARD, stacks=[200, 200, 20, 200])
    # UTG shoves, the big blind calls with chips behind: nobody bets the flop.
    act_all(hand, RaiseTo(20), Fold(), Fold(), Call())
    assert hand.is_complete
    counts = hand_stats(hand)
    assert [c.cbet_chances for c in counts] == [0, 0, 0, 0]
    assert [c.showdowns for c in counts] == [0, 1, 1, 0]
    assert counts[1].won_without_showdown == 0 and counts[1].showdowns_won == 1


def test_a_limped_pot_has_no_cbet() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, Call(), Fold(), Call(), Check(), Check(), RaiseTo(4), Fold(), Fold())
    counts = hand_stats(hand)
    assert [c.cbet_chances for c in counts] == [0, 0, 0, 0]
    assert [c.fold_to_cbet_chances for c in counts] == [0, 0, 0, 0]


def test_a_raise_over_the_cbet_ends_the_chances_to_fold_to_it() -> None:
    hand = stacked(HOLES, BOARD)
    # UTG opens, the button calls, the small blind folds, the big blind calls. Flop: the big
    # blind checks, UTG c-bets, the button raises, the big blind and UTG fold.
    act_all(hand, RaiseTo(6), Call(), Fold(), Call())
    act_all(hand, Check(), RaiseTo(10), RaiseTo(30), Fold(), Fold())
    counts = hand_stats(hand)
    button, big, utg = counts[3], counts[1], counts[2]
    assert (utg.cbet_chances, utg.cbets) == (1, 1)
    assert (button.fold_to_cbet_chances, button.folds_to_cbet) == (1, 0)
    assert big.fold_to_cbet_chances == 0  # faced the c-bet and a raise
    assert (button.won_without_showdown, button.hands_won) == (1, 1)


def test_a_walk_is_won_without_showdown_and_is_not_vpip() -> None:
    hand = stacked(HOLES, BOARD)
    act_all(hand, Fold(), Fold(), Fold())
    big = hand_stats(hand)[1]
    assert (big.vpip, big.hands_won, big.won_without_showdown, big.net) == (0, 1, 1, 1)
    assert big.won_without_showdown_pct == 100.0 and big.bb_per_100 == 50.0


def test_a_split_pot_is_won_at_showdown_by_both() -> None:
    hand = stacked(["AsKd", "AhKc", "2d3c", "4h5s"], "2c7d9hJsQd")
    act_all(hand, Fold(), Fold(), Call(), Check(), *(Check(),) * 6)
    counts = hand_stats(hand)
    assert [c.showdowns_won for c in counts] == [1, 1, 0, 0]
    assert [c.net for c in counts] == [0, 0, 0, 0]
    assert counts[0].biggest_pot == 4


def test_totals_keep_the_biggest_pot_and_add_net_and_bb_hundredths() -> None:
    a = StyleCounts(hands=1, net=50, net_bb_hundredths=2500, biggest_pot=90)
    b = StyleCounts(hands=3, net=-10, net_bb_hundredths=-500, biggest_pot=40)
    both = total([a, b])
    assert (both.net, both.net_bb_hundredths, both.biggest_pot) == (40, 2000, 90)
    assert both.bb_per_100 == 500.0
    assert StyleCounts().bb_per_100 is None and StyleCounts().afq_pct is None


@pytest.mark.parametrize(
    ("net", "big_blind", "expected"),
    [(0, 2, 0), (3, 2, 150), (1, 200, 1), (1, 201, 0), (-1, 200, -1), (-3, 600, -1)],
)
def test_bb_hundredths_rounds_half_away_from_zero(net: int, big_blind: int, expected: int) -> None:
    assert bb_hundredths(net, big_blind) == expected


def test_bb_hundredths_refuses_a_big_blind_below_one() -> None:
    with pytest.raises(ValueError, match="big blind"):
        bb_hundredths(5, 0)
