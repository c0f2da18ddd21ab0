"""Every strategy returns legal actions, deterministically; each plays to its description."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.bots.registry import STRATEGY_NAMES, make_strategy
from engine.bots.smart import Difficulty, SmartStrategy
from engine.bots.strategy import (
    AggressiveStrategy,
    PassiveStrategy,
    RandomStrategy,
    Strategy,
    pot_raise_to,
    raise_to,
)
from engine.bots.view import SeatView
from engine.holdem import Call, Check, Fold, RaiseTo
from tests.engine.bots.helpers import act_all, decide, spots, stacked

ALL = [
    RandomStrategy(),
    PassiveStrategy(),
    AggressiveStrategy(),
    SmartStrategy(Difficulty.EASY),
    SmartStrategy(Difficulty.NORMAL),
    SmartStrategy(Difficulty.HARD),
]


@pytest.mark.parametrize("strategy", ALL, ids=repr)
def test_strategy_returns_only_legal_actions_in_random_spots(strategy: Strategy) -> None:
    # Spots from 2 to 10 players, short and deep stacks, antes, incomplete all-in raises; each
    # hand is played on by the strategy itself, so its own lines are covered too.
    rng = random.Random(7)
    count = 0
    for _hand, view in spots(250, seed=hash(strategy.name) % 1000, chooser=strategy.decide):
        action = strategy.decide(view, rng)
        assert view.legal.allows(action), (action, view.legal)
        count += 1
    assert count == 250


@pytest.mark.parametrize("strategy", ALL, ids=repr)
def test_strategy_is_deterministic_for_a_seed(strategy: Strategy) -> None:
    views = [view for _hand, view in spots(80, seed=3)]
    first = [strategy.decide(view, random.Random(i)) for i, view in enumerate(views)]
    again = [strategy.decide(view, random.Random(i)) for i, view in enumerate(views)]
    fresh = make_strategy(strategy.name, getattr(strategy, "difficulty", None))
    other = [fresh.decide(view, random.Random(i)) for i, view in enumerate(views)]
    assert first == again == other


def test_random_strategy_uses_every_kind_and_sizes_in_range() -> None:
    kinds: Counter[str] = Counter()
    sizes = set()
    for _hand, view in spots(400, seed=9):
        action = RandomStrategy().decide(view, random.Random(len(kinds) + sum(kinds.values())))
        kinds[type(action).__name__] += 1
        if isinstance(action, RaiseTo):
            sizes.add(action.amount)
    assert set(kinds) == {"Fold", "Check", "Call", "RaiseTo"}
    assert len(sizes) > 30


def test_passive_never_bets_or_raises() -> None:
    for _hand, view in spots(300, seed=4):
        action = PassiveStrategy().decide(view, random.Random(1))
        assert not isinstance(action, RaiseTo)
        if view.legal.can_check:
            assert action == Check()


def test_passive_calls_when_the_price_is_right_and_folds_otherwise() -> None:
    # Heads-up, the button (player 1) acts first preflop. A min-raise to 4 costs AA 2 into 6.
    hand = stacked(["AsAh", "7c2d"], stacks=[200, 200])
    act_all(hand, RaiseTo(4))
    assert decide(PassiveStrategy(), hand) == Call()
    # 72o facing an all-in of 200 into 4 must win 49% of the time: it does not.
    hand = stacked(["7c2d", "AsAh"], stacks=[200, 200])
    act_all(hand, RaiseTo(200))
    assert decide(PassiveStrategy(), hand) == Fold()


def test_aggressive_raises_whenever_it_can() -> None:
    for _hand, view in spots(300, seed=6):
        action = AggressiveStrategy().decide(view, random.Random(2))
        if view.legal.can_raise:
            assert isinstance(action, RaiseTo)
        elif view.legal.can_check:
            assert action == Check()


def test_aggressive_rarely_folds() -> None:
    # Half the stacks in these spots are under ten big blinds, where calls cost half a stack.
    folds = facing = 0
    for _hand, view in spots(600, seed=8):
        if view.legal.can_fold:
            facing += 1
            folds += isinstance(AggressiveStrategy().decide(view, random.Random(3)), Fold)
    assert facing > 100
    assert folds / facing < 0.15


def test_raise_helpers_clamp_into_the_legal_range() -> None:
    hand = stacked(["AsAh", "KdKc", "QsQd"], stacks=[200, 200, 30])
    view = SeatView.from_hand(hand, 2)
    assert raise_to(view.legal, 1) == RaiseTo(view.legal.min_raise_to or 0)
    assert raise_to(view.legal, 10_000) == RaiseTo(30)
    assert pot_raise_to(view, 1.0) == 2 + (3 + 2)  # call 2, then raise the pot of 5


def test_registry_builds_every_named_strategy() -> None:
    for name in STRATEGY_NAMES:
        strategy = make_strategy(name)
        assert strategy.name == name
    hard = make_strategy("smart:hard")
    assert isinstance(hard, SmartStrategy) and hard.difficulty is Difficulty.HARD
    assert isinstance(make_strategy("smart", Difficulty.EASY), SmartStrategy)
    assert make_strategy("passive", Difficulty.HARD).name == "passive"
