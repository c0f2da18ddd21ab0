"""Blackjack statistics: counts add up and the ratios follow their definitions."""

from __future__ import annotations

from engine.blackjack.stats import NO_ROUNDS, RoundCounts


def test_round_counts_add_up_field_by_field() -> None:
    a = RoundCounts(rounds=1, hands=2, hands_won=1, staked=300, net=-100, splits=1, doubles=1)
    b = RoundCounts(rounds=3, hands=3, hands_won=2, blackjacks=1, staked=300, net=250, insurances=1)
    both = a + b
    assert both == RoundCounts(
        rounds=4,
        hands=5,
        hands_won=3,
        blackjacks=1,
        staked=600,
        net=150,
        doubles=1,
        splits=1,
        insurances=1,
    )
    assert both.return_per_round == 37.5
    assert both.return_pct == 25.0
    assert (both.hands_won_pct, both.doubles_pct, both.splits_pct) == (60.0, 20.0, 20.0)


def test_no_rounds_have_no_ratios() -> None:
    assert NO_ROUNDS.return_per_round is None and NO_ROUNDS.return_pct is None
    assert NO_ROUNDS.doubles_pct is None
