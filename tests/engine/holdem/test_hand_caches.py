"""The values the hand loop shares between hands stay bounded, and sharing them changes nothing."""

from __future__ import annotations

import random
from itertools import pairwise

from engine.holdem import Call, Check, Fold, Hand, RaiseTo, Stakes
from engine.holdem import hand as hand_module


def _play(hand: Hand, rng: random.Random) -> None:
    while not hand.is_complete:
        legal = hand.turn
        assert legal is not None
        roll = rng.random()
        if roll < 0.2 and legal.can_fold:
            hand.act(legal.player, Fold())
        elif roll < 0.5 and legal.min_raise_to is not None and legal.max_raise_to is not None:
            hand.act(legal.player, RaiseTo(rng.randint(legal.min_raise_to, legal.max_raise_to)))
        else:
            hand.act(legal.player, Check() if legal.can_check else Call())


def test_shared_choices_and_action_events_never_outgrow_their_caches() -> None:
    rng = random.Random(3)
    stakes = Stakes.standard(6, 1, 2)
    sizes = []
    for _ in range(1_500):  # deep, varied stacks: far more distinct spots than either cache holds
        _play(Hand(stakes, [rng.randint(50, 5_000) for _ in range(6)], rng=rng), rng)
        sizes.append((len(hand_module._CHOICES), len(hand_module._ACTED)))
    choices, events = zip(*sizes, strict=True)
    assert 0 < max(choices) <= hand_module._CHOICES_KEPT
    assert 0 < max(events) <= hand_module._ACTED_KEPT
    # Both filled up and started over.
    assert any(later < earlier for earlier, later in pairwise(choices))
    assert any(later < earlier for earlier, later in pairwise(events))


def test_a_hand_played_after_the_caches_filled_matches_the_same_hand_played_first() -> None:
    def history(seed: int) -> tuple[object, ...]:
        hand = Hand(Stakes.standard(6, 1, 2), [200] * 6, rng=random.Random(seed))
        _play(hand, random.Random(seed))
        return (hand.events, hand.phh_actions, hand.stacks)

    first = [history(seed) for seed in range(30)]
    rng = random.Random(9)
    for _ in range(600):
        _play(Hand(Stakes.standard(6, 1, 2), [rng.randint(50, 5_000)] * 6, rng=rng), rng)
    assert [history(seed) for seed in range(30)] == first
