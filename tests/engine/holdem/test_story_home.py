"""The story of home-game hands (straddles, run it N times, bomb pots, double boards): the same
boards, pots per board and stacks as the engine, on random hands."""

from __future__ import annotations

import random

from engine.holdem import PotAwarded, phh
from engine.holdem.story import StepKind, tell
from tests.engine.holdem.pokerkit_home import play_ours_home, random_home_setup


def test_story_of_home_hands_has_the_engines_boards_pots_and_stacks() -> None:
    rng = random.Random(2020)
    several = 0
    for number in range(400):
        setup = random_home_setup(rng, straddles=number % 2 == 0, runs=True, bombs=True)
        hand = play_ours_home(setup, rng)
        history = phh.from_hand(hand, hand=number + 1)
        story = tell(history)
        assert tuple(p.final_stack for p in story.players) == hand.stacks, phh.dumps(history)
        awarded = [
            (e.pot, e.amount, e.shares, e.board) for e in hand.events if isinstance(e, PotAwarded)
        ]
        if len(hand.boards) > 1 and story.board_pots:
            several += 1
            assert story.boards == hand.boards
            parts = [(p.number, p.amount, p.shares, p.board) for p in story.board_pots]
            assert parts == awarded
        else:
            assert [(p.number, p.amount, p.shares, 0) for p in story.pots] == awarded
        assert sum(p.amount for p in story.pots) == sum(e[1] for e in awarded)
        assert story.bomb_pot == setup.options.bomb_pot
        if setup.options.bomb_pot:
            assert not [s for s in story.steps if s.street == 0 and s.kind is StepKind.CALL]
    assert several > 20  # the runs and double boards were exercised
