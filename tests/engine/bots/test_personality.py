"""Personalities: drawn per seat within the level's ranges, stable, stored as text; think time."""

from __future__ import annotations

import pytest

from engine.bots.personality import (
    NAMES,
    RANGES,
    DecisionFacts,
    Personality,
    PersonalityError,
    think_time,
)
from engine.bots.runner import make_hand_bot
from engine.bots.smart import SmartStrategy
from engine.holdem import ActionKind, Street


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_personalities_are_stable_and_stay_in_the_levels_ranges(level: str) -> None:
    drawn = [Personality.draw(level, f"seat {i}") for i in range(60)]
    assert drawn == [Personality.draw(level, f"seat {i}") for i in range(60)]
    traits = RANGES[level]
    for p in drawn:
        assert traits.looseness.low <= p.looseness <= traits.looseness.high
        assert traits.aggression.low <= p.aggression <= traits.aggression.high
        assert p.name in NAMES
    # A table of five is not five copies.
    assert len({(p.looseness, p.aggression) for p in drawn[:5]}) == 5
    assert len({p.name for p in drawn}) > 10


def test_personality_text_round_trips_and_bad_text_is_refused() -> None:
    p = Personality.draw("hard", "Ada")
    assert Personality.parse(p.text) == p
    assert Personality.parse("Zoe/+0.010/-0.030") == Personality("Zoe", 0.01, -0.03)
    for bad in ("", "Zoe", "Zoe/1/2", "Zoe/+0.010/-0.030/x", "12/+0.010/-0.030"):
        with pytest.raises(PersonalityError, match="not a bot personality"):
            Personality.parse(bad)
    with pytest.raises(PersonalityError, match="no personalities"):
        Personality.draw("legendary", 1)


def test_a_table_bot_draws_a_named_personality_or_plays_the_one_it_is_given() -> None:
    import random

    first = make_hand_bot("Ada", "smart:hard", random.Random(1))
    other = make_hand_bot("Ada", "smart:hard", random.Random(2))
    assert first.personality.name == other.personality.name == "Ada"
    assert first.personality != other.personality  # drawn as the bot sits, not from its name
    stored = Personality.parse(first.personality.text)
    restored = make_hand_bot("Ada", "smart:hard", random.Random(3), stored)
    strategy = restored.player.strategy
    assert isinstance(strategy, SmartStrategy)
    assert restored.personality == strategy.personality == first.personality
    simple = make_hand_bot("Bea", "random", random.Random(1))
    assert simple.personality == Personality("Bea")


def facts(kind: ActionKind, street: Street = Street.PREFLOP, **more: int | bool) -> DecisionFacts:
    values: dict[str, int | bool] = {"cost": 0, "pot": 30, "stack": 200, "facing_bet": False}
    values.update(more)
    return DecisionFacts(street, kind, int(values["cost"]), int(values["pot"]),
                         int(values["stack"]), bool(values["facing_bet"]),
                         bool(values.get("all_in", False)))  # fmt: skip


def test_think_time_is_quick_for_trash_folds_and_long_for_big_decisions() -> None:
    delay = 4.0
    fold = think_time(facts(ActionKind.FOLD, facing_bet=True), delay)
    check = think_time(facts(ActionKind.CHECK, Street.FLOP), delay)
    small_bet = think_time(facts(ActionKind.BET, Street.FLOP, cost=10), delay)
    big_call = think_time(facts(ActionKind.CALL, Street.RIVER, cost=150, facing_bet=True), delay)
    shove = think_time(facts(ActionKind.RAISE, cost=200, all_in=True), delay, jitter=0.99)
    assert fold < check < small_bet < big_call <= shove <= delay
    assert fold <= 0.15 * delay
    assert think_time(facts(ActionKind.CALL, cost=150), 0.0) == 0.0
    times = {think_time(facts(ActionKind.CALL, cost=20), delay, j / 10) for j in range(10)}
    assert len(times) > 5 and max(times) <= delay


def test_decision_facts_read_the_action_from_the_view() -> None:
    from engine.bots.view import SeatView
    from engine.holdem import Call, Fold, RaiseTo
    from tests.engine.bots.helpers import act_all, stacked

    hand = stacked(["AsAh", "7c2d"], stacks=[200, 120])
    act_all(hand, RaiseTo(120))  # the button (the small blind, first to act) moves all in
    view = SeatView.from_hand(hand, 0)
    fold = DecisionFacts.of(view, Fold())
    call = DecisionFacts.of(view, Call())
    assert (fold.kind, fold.cost, fold.all_in, fold.facing_bet) == (ActionKind.FOLD, 0, False, True)
    assert (call.kind, call.cost, call.all_in) == (ActionKind.CALL, 118, True)
    assert think_time(fold, 4.0) < think_time(call, 4.0) == 4.0
    opener = SeatView.from_hand(stacked(["AsAh", "7c2d"]), 1)
    raised = DecisionFacts.of(opener, RaiseTo(6))
    assert (raised.kind, raised.cost, raised.all_in) == (ActionKind.RAISE, 5, False)
