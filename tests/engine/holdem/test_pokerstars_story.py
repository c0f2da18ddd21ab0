"""The story the exporters write from: the same pots, returned bets and stacks as the engine, and
the fast PHH reader reads exactly what the standard reader reads."""

from __future__ import annotations

import random

from engine.holdem import BetReturned, PotAwarded, phh
from engine.holdem.story import StepKind, masked_history, read_history, tell
from tests.engine.holdem.export_hands import stored_hand


def test_story_pots_returns_and_stacks_are_the_engines_on_random_hands() -> None:
    rng = random.Random(41)
    for number in range(300):
        stored = stored_hand(rng, number + 1)
        story = tell(stored.history)
        events = stored.hand.events
        awarded = [
            (e.pot, e.amount, e.eligible, e.shares) for e in events if isinstance(e, PotAwarded)
        ]
        assert [(p.number, p.amount, p.eligible, p.shares) for p in story.pots] == awarded, (
            stored.text
        )
        returned = [(e.player, e.amount) for e in events if isinstance(e, BetReturned)]
        assert [(s.player, s.amount) for s in story.steps if s.kind is StepKind.RETURNED] == (
            returned
        )
        assert tuple(p.final_stack for p in story.players) == stored.hand.stacks
        assert story.board == stored.hand.board
        assert story.steps[-1].pot == sum(p.amount for p in story.pots)


def test_fast_reader_reads_what_phh_loads_reads_and_falls_back_for_other_layouts() -> None:
    rng = random.Random(42)
    for number in range(100):
        text = stored_hand(rng, number + 1).text
        assert read_history(text) == phh.loads(text)
    other = 'variant="NT"\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\n' + (
        'starting_stacks=[100,100]\nactions=["d dh p1 AcAd","d dh p2 KcKd","p2 f"]\n'
    )
    assert read_history(other) == phh.loads(other)
    multiline = other.replace('actions=["d dh p1 AcAd",', 'actions=[\n  "d dh p1 AcAd",\n')
    assert read_history(multiline) == phh.loads(multiline)


def test_masked_history_keeps_only_the_heros_and_the_shown_cards() -> None:
    rng = random.Random(43)
    for number in range(60):
        stored = stored_hand(rng, number + 1)
        hero = rng.randrange(stored.setup.players)
        masked = masked_history(stored.history, hero)
        for line in masked.actions:
            if line.startswith("d dh "):
                player = int(line.split()[2][1:]) - 1
                visible = player == hero or stored.hand.shown[player]
                assert line.endswith("????") != visible, line
        # What is left still replays to the same stacks (shown cards are all a replay needs).
        assert phh.replay(masked).stacks == stored.hand.stacks
