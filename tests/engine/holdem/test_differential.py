"""Differential tests: our engine and PokerKit must agree on every random hand, chip for chip."""

from __future__ import annotations

import random

import pytest

from engine.holdem import phh
from tests.engine.holdem.pokerkit_hands import (
    play_ours,
    play_pokerkit,
    pokerkit_finishing_stacks,
    random_setup,
)


def _pokerkit_hands_replay_identically(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for number in range(count):
        setup = random_setup(rng)
        text, expected = play_pokerkit(setup, rng)
        hand = phh.replay(phh.loads(text))
        assert tuple(hand.stacks) == expected, f"hand {number} (seed {seed}):\n{text}"


def _our_hands_replay_identically_in_pokerkit(count: int, seed: int) -> None:
    rng = random.Random(seed)
    for number in range(count):
        setup = random_setup(rng)
        hand = play_ours(setup, rng)
        text = phh.dumps(phh.from_hand(hand))
        assert pokerkit_finishing_stacks(text) == tuple(hand.stacks), f"hand {number}:\n{text}"


def test_differential_pokerkit_hands_replay_to_the_same_stacks() -> None:
    _pokerkit_hands_replay_identically(400, seed=2026)


def test_differential_our_hands_replay_to_the_same_stacks_in_pokerkit() -> None:
    _our_hands_replay_identically_in_pokerkit(400, seed=1121)


@pytest.mark.slow
def test_differential_many_pokerkit_hands_replay_to_the_same_stacks() -> None:
    _pokerkit_hands_replay_identically(10_000, seed=7)


@pytest.mark.slow
def test_differential_many_our_hands_replay_to_the_same_stacks_in_pokerkit() -> None:
    _our_hands_replay_identically_in_pokerkit(10_000, seed=8)
