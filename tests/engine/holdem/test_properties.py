"""Property tests: random legal play never creates or loses a chip, never stalls, and an illegal
action never changes anything."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.holdem import Call, Check, Fold, Hand, RaiseTo, Show, Stakes
from tests.engine.holdem.hand_state import hand_state

setups = st.fixed_dictionaries(
    {
        "stacks": st.lists(st.integers(1, 400), min_size=2, max_size=10),
        "big_blind": st.integers(1, 10),
        "ante": st.integers(0, 5),
        "trimming": st.booleans(),
        "seed": st.integers(0, 2**32),
        "choices": st.lists(st.integers(0, 10**6), max_size=120),
    }
)


def _snapshot(hand: Hand) -> dict[str, Any]:
    # Everything but the legal-actions memo (derived) and the generator (compared by state).
    state = copy.deepcopy(hand_state(hand, "_rng", "_legal"))
    state["_rng"] = hand._rng.getstate() if hand._rng is not None else None
    return state


def _options(hand: Hand) -> list[Any]:
    legal = hand.turn
    assert legal is not None
    options: list[Any] = []
    if legal.can_fold:
        options.append(Fold())
    if legal.can_check:
        options.append(Check())
    if legal.can_call:
        options.append(Call())
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        options.append((legal.min_raise_to, legal.max_raise_to))
    return options


def _illegal_actions(hand: Hand) -> list[tuple[int, Any]]:
    legal = hand.turn
    assert legal is not None
    other = (legal.player + 1) % hand.player_count
    actions: list[tuple[int, Any]] = [(other, Call()), (other, Check()), (legal.player, Show())]
    if not legal.can_check:
        actions.append((legal.player, Check()))
    if not legal.can_fold:
        actions.append((legal.player, Fold()))
    top = legal.max_raise_to if legal.max_raise_to is not None else hand.stacks[legal.player]
    actions.append((legal.player, RaiseTo(top + legal.bet_so_far + 1)))
    if legal.min_raise_to is not None and legal.min_raise_to > legal.bet_so_far + 1:
        actions.append((legal.player, RaiseTo(legal.min_raise_to - 1)))
    return actions


@settings(max_examples=300, deadline=None)
@given(setups)
def test_properties_random_play_conserves_chips_and_never_stalls(setup: dict[str, Any]) -> None:
    stacks = setup["stacks"]
    big_blind = setup["big_blind"]
    stakes = Stakes.standard(
        len(stacks), big_blind // 2, big_blind, setup["ante"], ante_trimming=setup["trimming"]
    )
    hand = Hand(stakes, stacks, rng=random.Random(setup["seed"]))
    total = sum(stacks)
    choices = iter(setup["choices"])
    steps = 0
    while not hand.is_complete:
        steps += 1
        assert steps < 500, "a hand that never ends"
        assert hand.turn is not None, "the hand is not over but nobody can act"
        assert sum(hand.stacks) + hand.pot_total == total
        choice = next(choices, 0)
        if choice % 7 == 0:
            illegal = _illegal_actions(hand)
            player, action = illegal[choice % len(illegal)]
            before = _snapshot(hand)
            try:
                hand.act(player, action)
            except EngineError:
                pass
            else:  # pragma: no cover - the test must notice an accepted illegal action
                raise AssertionError(f"accepted {action} from player {player}")
            assert _snapshot(hand) == before
        options = _options(hand)
        option = options[choice % len(options)]
        if isinstance(option, tuple):
            low, high = option
            option = RaiseTo(low + choice % (high - low + 1))
        hand.act(hand.turn.player, option)
    assert sum(hand.stacks) == total
    assert hand.pot_total == 0
    assert all(stack >= 0 for stack in hand.stacks)
