"""The ``hilo`` strategy: each kind of index play on both sides of its index, and basic
strategy everywhere else."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.blackjack import (
    CASINO,
    Action,
    BasicStrategy,
    Phase,
    Rules,
    Surrender,
    strategy_named,
)
from engine.blackjack.counting import CountSystem
from engine.blackjack.hilo import FAB_4, ILLUSTRIOUS_18, HiLoStrategy, index_plays
from engine.blackjack.sim import simulate
from engine.blackjack.views import Decision
from tests.engine.blackjack.helpers import dealt

LATE = dataclasses.replace(CASINO, surrender=Surrender.LATE)
H17 = dataclasses.replace(CASINO, h17=True)
RNG = random.Random(0)


def at_count(strategy: HiLoStrategy, decision: Decision, true_count: int) -> HiLoStrategy:
    """Set the strategy's counter so that the decision is made at exactly ``true_count``, with
    four decks left once the decision's own cards are counted."""
    tags = CountSystem.HILO.tags
    visible = tags[decision.dealer_up.id] + sum(tags[card.id] for card in decision.cards)
    strategy.counter.cards_left = 4 * 52 + 1 + len(decision.cards)
    strategy.counter.running = 4 * true_count - visible
    assert strategy.true_count(decision) == true_count
    return strategy


def hilo_choice(cards: str, true_count: int, rules: Rules = CASINO, hits: int = 0) -> Action:
    game, _, _ = dealt(cards, rules=rules)
    if game.decision().phase is Phase.INSURANCE:
        game.act(0, Action.NO_INSURANCE)
    for _ in range(hits):
        game.hit(0)
    decision = game.decision()
    strategy = at_count(HiLoStrategy(rules), decision, true_count)
    return strategy.choose(decision, RNG)


# Stacked order: seat 0's first card, the dealer's up card, seat 0's second card, the hole card.
@pytest.mark.parametrize(
    ("cards", "rules", "above", "below", "index"),
    [
        ("Ts Kd 6h 7c", CASINO, Action.STAND, Action.HIT, 0),  # 16 v T
        ("Ts Kd 5h 7c", CASINO, Action.STAND, Action.HIT, 4),  # 15 v T
        ("Ts 3d 2h 7c", CASINO, Action.STAND, Action.HIT, 2),  # 12 v 3
        ("Ts 4d 2h 7c", CASINO, Action.STAND, Action.HIT, 0),  # 12 v 4
        ("Ts 6d 2h 7c", CASINO, Action.STAND, Action.HIT, -1),  # 12 v 6
        ("Ts 2d 3h 7c", CASINO, Action.STAND, Action.HIT, -1),  # 13 v 2
        ("6s Kd 4h 7c", CASINO, Action.DOUBLE, Action.HIT, 4),  # 10 v T
        ("5s 2d 4h 7c", CASINO, Action.DOUBLE, Action.HIT, 1),  # 9 v 2
        ("6s Ad 5h 7c", CASINO, Action.DOUBLE, Action.HIT, 1),  # 11 v A, S17
        ("6s Ad 5h 7c", H17, Action.DOUBLE, Action.HIT, -1),  # 11 v A, H17
        ("Ts 6d Kh 7c", CASINO, Action.SPLIT, Action.STAND, 4),  # T,T v 6
        ("Ts 5d Kh 7c", CASINO, Action.SPLIT, Action.STAND, 5),  # T,T v 5
        ("Ts Kd 4h 7c", LATE, Action.SURRENDER, Action.HIT, 3),  # 14 v T
        ("Ts 9d 5h 7c", LATE, Action.SURRENDER, Action.HIT, 2),  # 15 v 9
    ],
)
def test_hilo_index_play_flips_at_its_index(
    cards: str, rules: Rules, above: Action, below: Action, index: int
) -> None:
    assert hilo_choice(cards, index, rules) is above
    assert hilo_choice(cards, index + 3, rules) is above
    assert hilo_choice(cards, index - 1, rules) is below
    assert hilo_choice(cards, index - 4, rules) is below


def test_hilo_plays_a_pair_it_does_not_split_by_its_hard_total() -> None:
    # 5,5 against a ten is a hard 10: double from +4, as 6,4 would.
    assert hilo_choice("5s Kd 5h 7c", 4) is Action.DOUBLE
    assert hilo_choice("5s Kd 5h 7c", 3) is Action.HIT
    # 8,8 against a ten is split by basic strategy whatever the hard-16 index says.
    assert hilo_choice("8s Kd 8h 7c", 6) is Action.SPLIT
    assert hilo_choice("8s Kd 8h 7c", -6) is Action.SPLIT


def test_hilo_surrenders_first_then_plays_the_stand_index() -> None:
    # 15 v T with late surrender: surrender from 0 up; below it, stand from +4 or hit.
    assert hilo_choice("Ts Kd 5h 7c", 0, LATE) is Action.SURRENDER
    assert hilo_choice("Ts Kd 5h 7c", 6, LATE) is Action.SURRENDER
    assert hilo_choice("Ts Kd 5h 7c", -1, LATE) is Action.HIT
    # 16 v T has no surrender index: it surrenders as basic strategy does, at any count.
    assert hilo_choice("Ts Kd 6h 7c", -3, LATE) is Action.SURRENDER
    assert hilo_choice("Ts Kd 6h 7c", 3, LATE) is Action.SURRENDER


def test_hilo_index_plays_need_the_action_to_be_legal() -> None:
    # 10 v T made of three cards cannot double: a high count hits, as basic strategy does.
    assert hilo_choice("4s Kd 2h 7c 4d", 8, hits=1) is Action.HIT
    # 16 v T made of three cards: the stand index still applies.
    assert hilo_choice("4s Kd 2h 7c Td", 1, hits=1) is Action.STAND
    assert hilo_choice("4s Kd 2h 7c Td", -1, hits=1) is Action.HIT


def test_hilo_insures_from_plus_three() -> None:
    game, _, _ = dealt("Ts Ad 7h 7c")
    decision = game.decision()
    strategy = HiLoStrategy(CASINO)
    assert at_count(strategy, decision, 3).choose(decision, RNG) is Action.INSURE
    assert at_count(strategy, decision, 2).choose(decision, RNG) is Action.NO_INSURANCE
    natural, _, _ = dealt("Ks Ad Ah 7c")
    decision = natural.decision()
    assert at_count(strategy, decision, 4).choose(decision, RNG) is Action.EVEN_MONEY
    assert at_count(strategy, decision, 1).choose(decision, RNG) is Action.NO_INSURANCE


def test_index_plays_by_rules() -> None:
    assert len(ILLUSTRIOUS_18) == 18
    assert len(FAB_4) == 4
    assert index_plays(CASINO) == ILLUSTRIOUS_18
    assert index_plays(LATE) == ILLUSTRIOUS_18 + FAB_4
    h17 = {(play.kind, play.row, play.up, play.action): play.index for play in index_plays(H17)}
    assert h17[("hard", 11, 1, Action.DOUBLE)] == -1
    assert h17[("hard", 10, 1, Action.DOUBLE)] == 3
    assert h17[("hard", 16, 10, Action.STAND)] == 0
    assert ILLUSTRIOUS_18[1].describe() == "16 v T: stand at a true count of +0 or more"
    assert ILLUSTRIOUS_18[3].describe() == "T,T v 5: split at a true count of +5 or more"


class _Comparing:
    """Plays hilo, and records every decision where hilo and basic strategy differ."""

    name = "comparing"

    def __init__(self, rules: Rules) -> None:
        self.hilo = HiLoStrategy(rules)
        self.counter = self.hilo.counter
        self.basic = BasicStrategy(rules)
        self.differences: list[tuple[Decision, Action, Action]] = []
        self.decisions = 0

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        ours = self.hilo.choose(decision, rng)
        basic = self.basic.choose(decision, rng)
        self.decisions += 1
        if ours is not basic:
            self.differences.append((decision, ours, basic))
        return ours


def test_hilo_differs_from_basic_strategy_only_on_index_cells() -> None:
    comparing = _Comparing(LATE)
    simulate(LATE, comparing, 4000, random.Random(5))
    cells = {(play.row, play.up) for play in index_plays(LATE) if play.kind != "insurance"}
    assert comparing.differences  # the count moved enough to deviate
    for decision, _, _ in comparing.differences:
        if decision.phase is Phase.INSURANCE:
            continue
        key = (decision.pair_value or 0, decision.dealer_up_value)
        assert (decision.total, decision.dealer_up_value) in cells or key in cells


def test_hilo_is_registered_and_keeps_its_counter() -> None:
    strategy = strategy_named("hilo", CASINO)
    assert isinstance(strategy, HiLoStrategy)
    assert strategy.counter.system is CountSystem.HILO
    assert strategy.counter.decks == CASINO.decks
