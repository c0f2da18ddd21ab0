"""Trainer drills: counting drills give the right counts, strategy drills the chart's action and
the engine's expected values; both are reproducible from a seed."""

from __future__ import annotations

import random

import pytest

from engine.blackjack import CASINO, Action, BasicStrategy, Rules, Surrender
from engine.blackjack.analysis import hand_values
from engine.blackjack.counting import CountingError, CountSystem, running_count
from engine.blackjack.drills import StrategyDrill, counting_drill, strategy_drill
from engine.blackjack.hand import VALUE_OF_ID, hand_value
from engine.errors import ActionNotAllowedError

LATE = CASINO.with_overrides(["surrender=late"])


def test_counting_drill_is_reproducible_and_deals_a_real_shoe() -> None:
    first = counting_drill(random.Random(5), cards=30, decks=2)
    assert first == counting_drill(random.Random(5), cards=30, decks=2)
    assert first != counting_drill(random.Random(6), cards=30, decks=2)
    assert len(first.cards) == 30 and first.cards_left == 104 - 30
    whole_deck = counting_drill(random.Random(1), cards=52)
    assert sorted(whole_deck.cards) == sorted(set(whole_deck.cards))  # no card twice in one deck
    # A whole deck counts back to zero under balanced systems, and to +4 under KO.
    assert whole_deck.answers == {CountSystem.HILO: 0, CountSystem.KO: 4, CountSystem.OMEGA_II: 0}


def test_counting_drill_answers_under_each_system() -> None:
    drill = counting_drill(random.Random(9), cards=25, decks=6)
    for system in CountSystem:
        expected = running_count(drill.cards, system, decks=6)
        assert drill.running_count(system) == expected
        assert drill.answers[system] == expected
        assert drill.is_correct(system, expected)
        assert not drill.is_correct(system, expected + 1)
    assert drill.true_count(CountSystem.HILO) == pytest.approx(
        drill.running_count(CountSystem.HILO) * 52 / (312 - 25)
    )
    with pytest.raises(CountingError, match="KO is unbalanced"):
        drill.true_count(CountSystem.KO)


@pytest.mark.parametrize(("cards", "decks"), [(0, 1), (53, 1), (417, 8)])
def test_counting_drill_refuses_impossible_lengths(cards: int, decks: int) -> None:
    with pytest.raises(CountingError, match="deals 1 to"):
        counting_drill(random.Random(1), cards=cards, decks=decks)


def _chart_cell(basic: BasicStrategy, drill: StrategyDrill) -> tuple[Action, ...]:
    first, second = (VALUE_OF_ID[card.id] for card in drill.cards)
    up = VALUE_OF_ID[drill.dealer_up.id]
    total = hand_value(drill.cards)
    if first == second:
        return basic.chart.preferences("pair", first, up)
    return basic.chart.preferences("soft" if total.soft else "hard", total.total, up)


@pytest.mark.parametrize("rules", [CASINO, LATE, CASINO.with_overrides(["decks=2", "h17=on"])])
def test_strategy_drills_match_the_chart_and_the_analysis(rules: Rules) -> None:
    rng = random.Random(2024)
    basic = BasicStrategy(rules)
    for _ in range(15):  # hand_values works each hand out again: seconds for two decks
        drill = strategy_drill(rules, rng)
        first, second = drill.cards
        assert not hand_value(drill.cards).is_two_card_21
        values = hand_values(
            drill.rules,
            VALUE_OF_ID[first.id],
            VALUE_OF_ID[second.id],
            VALUE_OF_ID[drill.dealer_up.id],
        )
        for action, value in drill.values:
            assert value == pytest.approx(values.of(action), abs=1e-12)
        assert drill.correct in drill.legal
        assert Action.HIT in drill.legal and Action.STAND in drill.legal
        assert (Action.SURRENDER in drill.legal) is (drill.rules.surrender is Surrender.LATE)
        assert drill.is_correct(drill.correct)
        assert drill.cost_of(drill.correct) == 0.0
        preferences = _chart_cell(basic, drill)
        assert drill.correct is next(a for a in preferences if a in drill.legal)
        assert drill.explanation.startswith(f"{drill.row}: the chart says {drill.chart_code} (")


def test_strategy_drill_grading_and_costs() -> None:
    rng = random.Random(7)
    drills = [strategy_drill(CASINO, rng) for _ in range(200)]
    again = random.Random(7)
    assert [strategy_drill(CASINO, again) for _ in range(200)] == drills
    wrong = [
        (drill, action) for drill in drills for action in drill.legal if action is not drill.correct
    ]
    assert wrong
    # Wrong actions cost something in expectation (the chart is total-dependent, so a rare
    # composition can make one slightly better; never by much).
    assert sum(drill.cost_of(action) > 0 for drill, action in wrong) > 0.95 * len(wrong)
    assert all(drill.cost_of(action) > -0.02 for drill, action in wrong)
    with pytest.raises(ActionNotAllowedError):
        drills[0].value_of(Action.INSURE)


def test_strategy_drill_explains_hard_eleven_against_a_six() -> None:
    rng = random.Random(0)
    drill = next(
        d
        for d in (strategy_drill(CASINO, rng) for _ in range(5000))
        if not hand_value(d.cards).soft
        and hand_value(d.cards).total == 11
        and VALUE_OF_ID[d.dealer_up.id] == 6
    )
    assert drill.correct is Action.DOUBLE
    assert drill.chart_code == "Dh"
    assert drill.row == "hard 11 against a Six"
    assert "the chart says Dh (double if allowed, otherwise hit)" in drill.explanation
    assert drill.explanation.index("double +") < drill.explanation.index("hit +")
    assert drill.cost_of(Action.HIT) == pytest.approx(
        drill.value_of(Action.DOUBLE) - drill.value_of(Action.HIT)
    )
    assert 0.2 < drill.cost_of(Action.HIT) < 0.5
