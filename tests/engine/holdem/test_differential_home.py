"""Differential tests for home-game options: straddles, run it N times and bomb pots (with double
boards) played by PokerKit replay to the same stacks in our engine, and ours in PokerKit."""

from __future__ import annotations

import random
import warnings

import pytest

from engine.holdem import phh
from tests.engine.holdem.pokerkit_home import (
    felt_text,
    play_ours_home,
    play_pokerkit_home,
    pokerkit_finishing_stacks,
    random_home_setup,
)

KINDS = {
    "straddles": {"straddles": True, "runs": False},
    "runs": {"straddles": False, "runs": True},
    "bombs": {"straddles": False, "runs": True, "bombs": True},
}


def _pokerkit_hands_replay_identically(kind: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit's cash-game warnings about odd folds
        for number in range(count):
            setup = random_home_setup(rng, **KINDS[kind])
            text, expected = play_pokerkit_home(setup, rng)
            hand = phh.replay(phh.loads(text))
            assert tuple(hand.stacks) == expected, f"{kind} hand {number} (seed {seed}):\n{text}"


def _our_hands_replay_identically_in_pokerkit(kind: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number in range(count):
            setup = random_home_setup(rng, **KINDS[kind])
            hand = play_ours_home(setup, rng)
            text = felt_text(hand)
            assert pokerkit_finishing_stacks(text) == tuple(hand.stacks), (
                f"{kind} {number}:\n{text}"
            )


@pytest.mark.parametrize("kind", list(KINDS))
def test_differential_home_pokerkit_hands_replay_to_the_same_stacks(kind: str) -> None:
    _pokerkit_hands_replay_identically(kind, 120, seed=2027)


@pytest.mark.parametrize("kind", list(KINDS))
def test_differential_home_our_hands_replay_to_the_same_stacks_in_pokerkit(kind: str) -> None:
    _our_hands_replay_identically_in_pokerkit(kind, 120, seed=1122)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_differential_home_many_pokerkit_hands_replay_to_the_same_stacks(kind: str) -> None:
    _pokerkit_hands_replay_identically(kind, 5_000, seed=17)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_differential_home_many_our_hands_replay_to_the_same_stacks_in_pokerkit(kind: str) -> None:
    _our_hands_replay_identically_in_pokerkit(kind, 5_000, seed=18)
