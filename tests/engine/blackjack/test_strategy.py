"""Strategies: basic-strategy decisions and hints, dealer, simple and random play."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.blackjack import (
    CASINO,
    STRATEGIES,
    Action,
    BasicStrategy,
    BlackjackPays,
    DealerStrategy,
    Phase,
    RandomBlackjackStrategy,
    Round,
    Shoe,
    SimpleStrategy,
    Surrender,
    UnknownStrategyError,
    strategy_named,
)
from engine.errors import MalformedInputError
from tests.engine.blackjack.helpers import dealt

RNG = random.Random(0)
LATE = dataclasses.replace(CASINO, surrender=Surrender.LATE)


def basic_choice(cards: str, rules: object = CASINO, hits: int = 0) -> Action:
    game, _, _ = dealt(cards, rules=rules)  # type: ignore[arg-type]
    for _ in range(hits):
        game.hit(0)
    return BasicStrategy(game.rules).choose(game.decision(), RNG)


@pytest.mark.parametrize(
    ("cards", "hits", "expected"),
    [
        ("6s 6c 5d Tc", 0, Action.DOUBLE),  # hard 11 against a 6
        ("2s 6c 4d Tc 5h", 1, Action.HIT),  # a three-card 11 cannot double: hit
        ("As 4c 7d Tc", 0, Action.DOUBLE),  # soft 18 against a 4
        ("As 4c 2d Tc 5h", 1, Action.STAND),  # a three-card soft 18 against a 4: stand
        ("Ts 7c 2d Tc", 0, Action.HIT),  # 12 against a 7
        ("Ts 4c 2d Tc", 0, Action.STAND),  # 12 against a 4
        ("8s Tc 8d 7c", 0, Action.SPLIT),  # 8,8 against a ten
        ("Ts Tc Kd 7c", 0, Action.STAND),  # never split tens
        ("5s 6c 5d Tc", 0, Action.DOUBLE),  # 5,5 is a 10
        ("As 9c 7d Tc", 0, Action.HIT),  # soft 18 against a 9
    ],
)
def test_basic_strategy_plays_the_chart(cards: str, hits: int, expected: Action) -> None:
    assert basic_choice(cards, hits=hits) is expected


def test_basic_strategy_surrenders_only_when_allowed() -> None:
    assert basic_choice("Ts Tc 6d 7c", rules=LATE) is Action.SURRENDER
    assert basic_choice("Ts Tc 6d 7c") is Action.HIT
    assert basic_choice("Ts Tc 2d 7c 4h", rules=LATE, hits=1) is Action.HIT  # three cards


def test_basic_strategy_plays_a_pair_it_cannot_split_as_its_total() -> None:
    rules = dataclasses.replace(CASINO, max_hands=2)
    game, _, _ = dealt("8s Tc 8d 7c 8h", rules=rules)
    game.split(0)
    decision = game.decision()
    assert Action.SPLIT not in decision.legal
    assert BasicStrategy(rules).choose(decision, RNG) is Action.HIT  # 16 against a ten


def test_basic_strategy_resplits_aces_when_it_may() -> None:
    rules = dataclasses.replace(CASINO, resplit_aces=True)
    game, _, _ = dealt("As 6c Ad Tc Ah", rules=rules)
    game.split(0)
    assert BasicStrategy(rules).choose(game.decision(), RNG) is Action.SPLIT


def test_basic_strategy_declines_insurance_and_even_money_at_three_to_two() -> None:
    game, _, _ = dealt("9s Ac 8d 7c")
    assert game.phase is Phase.INSURANCE
    assert BasicStrategy(CASINO).choose(game.decision(), RNG) is Action.NO_INSURANCE
    game, _, _ = dealt("As Ac Kd 7c")
    assert BasicStrategy(CASINO).choose(game.decision(), RNG) is Action.NO_INSURANCE


def test_basic_strategy_takes_even_money_at_six_to_five() -> None:
    rules = dataclasses.replace(CASINO, blackjack_pays=BlackjackPays.SIX_TO_FIVE)
    game, _, _ = dealt("As Ac Kd 7c", rules=rules)
    assert BasicStrategy(rules).choose(game.decision(), RNG) is Action.EVEN_MONEY


def test_basic_strategy_advice_names_the_row_and_code() -> None:
    game, _, _ = dealt("6s 6c 5d Tc")
    advice = BasicStrategy(CASINO).advice(game.decision())
    assert advice.action is Action.DOUBLE
    assert advice.text == "Double down (hard 11 against a Six; chart: Dh)"
    game, _, _ = dealt("8s Ac 8d 7c")
    game.decline_insurance(0)
    advice = BasicStrategy(CASINO).advice(game.decision())
    assert advice.text == "Split (a pair of 8s against an Ace; chart: P)"
    game, _, _ = dealt("As 8c 7d Tc")
    advice = BasicStrategy(CASINO).advice(game.decision())
    assert advice.row == "soft 18 against an Eight"


@pytest.mark.parametrize(
    ("cards", "hits", "expected"),
    [
        ("Ts 9c 6d Tc", 0, Action.HIT),  # 16
        ("Ts 9c 7d Tc", 0, Action.STAND),  # 17
        ("As 9c 5d Tc", 0, Action.HIT),  # soft 16
        ("As 9c 6d Tc", 0, Action.STAND),  # soft 17: the dealer stands on it here too
        ("6s 9c 5d Tc", 0, Action.HIT),  # 11 is hit, never doubled
    ],
)
def test_dealer_strategy_hits_below_17(cards: str, hits: int, expected: Action) -> None:
    game, _, _ = dealt(cards)
    assert DealerStrategy().choose(game.decision(), RNG) is expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("Ts Kc 7d 7c", Action.HIT),  # 17 against a face card: hit below 18
        ("Ts Tc 8d 7c", Action.STAND),  # 18 against a ten
        ("Ts 9c 7d 7c", Action.STAND),  # 17 against a 9: hit below 17 only
        ("Ts 9c 6d 7c", Action.HIT),
    ],
)
def test_simple_strategy_hits_below_18_against_an_ace_or_ten(cards: str, expected: Action) -> None:
    game, _, _ = dealt(cards)
    assert SimpleStrategy().choose(game.decision(), RNG) is expected


def test_simple_strategy_against_an_ace_declines_insurance_and_hits_17() -> None:
    game, _, _ = dealt("Ts Ac 7d 8c")
    assert SimpleStrategy().choose(game.decision(), RNG) is Action.NO_INSURANCE
    game.decline_insurance(0)
    assert SimpleStrategy().choose(game.decision(), RNG) is Action.HIT


def test_random_strategy_picks_every_legal_action_and_only_those() -> None:
    game, _, _ = dealt("8s 6c 8d Tc")
    decision = game.decision()
    rng = random.Random(4)
    seen = {RandomBlackjackStrategy().choose(decision, rng) for _ in range(300)}
    assert seen == decision.legal


def test_random_strategy_is_reproducible_with_a_seed() -> None:
    game, _, _ = dealt("8s 6c 8d Tc")
    decision = game.decision()
    first = [RandomBlackjackStrategy().choose(decision, random.Random(9)) for _ in range(5)]
    second = [RandomBlackjackStrategy().choose(decision, random.Random(9)) for _ in range(5)]
    assert first == second


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategies_only_choose_legal_actions(name: str) -> None:
    rules = dataclasses.replace(CASINO, surrender=Surrender.LATE, resplit_aces=True)
    strategy = strategy_named(name, rules)
    assert strategy.name == name
    rng = random.Random(11)
    shoe = Shoe.for_rules(rules, random.Random(12))
    for _ in range(300):
        game = Round(rules, shoe, {0: 10, 3: 5})
        while not game.is_complete:
            decision = game.decision()
            action = strategy.choose(decision, rng)
            assert action in decision.legal
            game.act(decision.seat, action)


def test_strategy_named_refuses_unknown_names() -> None:
    with pytest.raises(UnknownStrategyError, match="basic, dealer, simple, random"):
        strategy_named("counting", CASINO)
    assert issubclass(UnknownStrategyError, MalformedInputError)
    assert isinstance(strategy_named(" Basic ", CASINO), BasicStrategy)
