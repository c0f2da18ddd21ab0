"""Property tests with home-game options: random play with straddles, run counts, bomb pots,
double boards, the 7-2 bounty, reveals and rabbit hunts never creates or loses a chip (bounties
included), never stalls, and a refused action never changes anything."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.holdem import (
    ChooseRunCount,
    Fold,
    Hand,
    HandOptions,
    Phase,
    RabbitHunt,
    RaiseTo,
    Reveal,
    Show,
    Stakes,
)
from tests.engine.holdem.test_properties import _illegal_actions, _options, _snapshot

setups = st.fixed_dictionaries(
    {
        "stacks": st.lists(st.integers(1, 300), min_size=3, max_size=9),
        "big_blind": st.integers(1, 8),
        "straddles": st.integers(0, 2),
        "button": st.booleans(),
        "bomb": st.booleans(),
        "boards": st.integers(1, 2),
        "runs": st.integers(1, 4),
        "bounty": st.integers(0, 20),
        "seed": st.integers(0, 2**32),
        "choices": st.lists(st.integers(0, 10**6), max_size=120),
    }
)


def _stakes(setup: dict[str, Any]) -> Stakes:
    players, big_blind = len(setup["stacks"]), setup["big_blind"]
    if setup["bomb"]:
        return Stakes.bomb_pot(players, big_blind, big_blind)
    if setup["straddles"]:
        button = setup["button"]
        count = 1 if button else min(setup["straddles"], players - 2)
        return Stakes.straddled(players, big_blind // 2, big_blind, straddles=count, button=button)
    return Stakes.standard(players, big_blind // 2, big_blind)


def _refuse(hand: Hand, player: int, action: Any) -> None:
    before = _snapshot(hand)
    try:
        hand.act(player, action)
    except EngineError:
        pass
    else:  # pragma: no cover - the test must notice an accepted illegal action
        raise AssertionError(f"accepted {action} from player {player}")
    assert _snapshot(hand) == before


@settings(max_examples=200, deadline=None)
@given(setups)
def test_properties_home_options_conserve_chips_and_refusals_change_nothing(
    setup: dict[str, Any],
) -> None:
    boards = setup["boards"]
    options = HandOptions(
        max_run_count=1 if boards > 1 else setup["runs"],
        bomb_pot=setup["bomb"],
        boards=boards,
        seven_deuce_bounty=setup["bounty"],
        rabbit_hunt=True,
    )
    stacks = setup["stacks"]
    hand = Hand(_stakes(setup), stacks, rng=random.Random(setup["seed"]), options=options)
    total = sum(stacks)
    choices = iter(setup["choices"])
    steps = 0
    while not hand.is_complete:
        steps += 1
        assert steps < 500, "a hand that never ends"
        turn = hand.turn
        assert turn is not None, "the hand is not over but nobody can act"
        assert sum(hand.stacks) + hand.pot_total == total
        choice = next(choices, 0)
        if hand.phase is Phase.RUN_COUNT:
            if choice % 5 == 0:
                _refuse(
                    hand, turn.player, [Fold(), ChooseRunCount(turn.max_run_count + 1)][choice % 2]
                )
            hand.act(turn.player, ChooseRunCount(1 + choice % turn.max_run_count))
            continue
        if choice % 7 == 0:
            after_hand = [(turn.player, Reveal()), (turn.player, RabbitHunt())]
            illegal = [*_illegal_actions(hand), *after_hand]
            _refuse(hand, *illegal[choice % len(illegal)])
        option = _options(hand)[choice % len(_options(hand))]
        if isinstance(option, tuple):
            low, high = option
            option = RaiseTo(low + choice % (high - low + 1))
        hand.act(turn.player, option)
    assert sum(hand.stacks) == total and hand.pot_total == 0
    for player in range(hand.player_count):
        choice = next(choices, 0)
        after = hand.after_hand(player)
        if after.revealable and choice % 2:
            hand.act(player, Reveal(after.revealable))
        else:
            _refuse(hand, player, [Show(), Fold(), Reveal((0, 1, 0))][choice % 3])
        if after.can_rabbit_hunt and choice % 3 == 0:
            hand.act(player, RabbitHunt())
    assert sum(hand.stacks_after_bounties) == total
    assert all(stack >= 0 for stack in hand.stacks_after_bounties)
    assert hand.run_count <= options.max_run_count
