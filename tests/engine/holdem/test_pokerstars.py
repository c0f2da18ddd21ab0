"""PokerStars export: PokerKit's own parser reads every hand back to Felt's finishing stacks,
and the text has the lines trackers look for, with nobody's hidden cards."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards
from engine.holdem import Call, Fold, Hand, RaiseTo, Stakes, phh, stacked_deck
from engine.holdem.pokerstars import (
    HAND_ID_FACTOR,
    ExportError,
    dumps,
    dumps_all,
    hand_id_of,
    player_names,
)
from engine.holdem.story import StepKind, read_history, tell
from tests.engine.holdem.export_hands import (
    LABEL,
    parse_pokerstars,
    pokerkit_stacks,
    stored_hand,
)


def _differential(count: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = refused = 0
    for number in range(count):
        stored = stored_hand(rng, number + 1)
        story = tell(read_history(stored.text))
        hero = rng.choice([None, *range(stored.setup.players)])
        text = dumps(story, LABEL, hero=hero)
        names = player_names(story)
        blinds_posted = any(
            step.kind in (StepKind.SMALL_BLIND, StepKind.BIG_BLIND) for step in story.steps
        )
        if not blinds_posted:
            # Both blinds all in on the antes: PokerKit takes the minimum bet from the posted
            # blinds, finds none and refuses the hand (PokerStars never deals such a hand).
            with pytest.raises(ValueError):
                parse_pokerstars(text, antes=bool(stored.setup.ante))
            refused += 1
            continue
        (parsed,) = parse_pokerstars(text, antes=bool(stored.setup.ante))
        expected = dict(zip(names, stored.hand.stacks, strict=True))
        got = pokerkit_stacks(parsed, stored.setup.ante_trimming)
        assert got == expected, f"hand {number} (seed {seed}):\n{text}\n{stored.text}"
        checked += 1
    assert refused < count // 20  # the refused kind stays rare, and everything else is checked
    assert checked + refused == count


def test_pokerstars_export_reads_back_in_pokerkit_to_felts_stacks() -> None:
    _differential(200, seed=17)


@pytest.mark.slow
def test_pokerstars_export_reads_back_in_pokerkit_to_felts_stacks_on_thousands() -> None:
    _differential(4_000, seed=18)


def test_several_hands_in_one_file_parse_as_separate_hands() -> None:
    rng = random.Random(5)
    hands = []
    for number in range(12):
        stored = stored_hand(rng, number + 1)
        story = tell(stored.history)
        if any(step.kind is StepKind.BIG_BLIND for step in story.steps):
            hands.append((story, LABEL, None))
    text = dumps_all(hands)
    parsed = parse_pokerstars(text, antes=True)
    assert len(parsed) == len(hands) > 5


def _heads_up_side_pot_hand() -> tuple[Hand, str]:
    """Three players: the small blind shoves short, the big blind calls, the button raises more
    than the big blind has: a main pot, a side pot and an uncalled bet."""
    deck = stacked_deck(
        [parse_cards("AhAd"), parse_cards("KhKd"), parse_cards("QhQd")],
        parse_cards("2c7s9dJc3h"),
    )
    hand = Hand(Stakes.standard(3, 1, 2, 1), [50, 120, 300], deck=deck)
    hand.act(2, RaiseTo(10))
    hand.act(0, RaiseTo(49))
    hand.act(1, Call())
    hand.act(2, RaiseTo(200))
    hand.act(1, Call())
    assert hand.is_complete
    text = phh.dumps(
        phh.from_hand(
            hand,
            hand=3,
            table="Main",
            players=["Sam", "Kim", "Lee"],
            seats=[5, 1, 3],
            seat_count=6,
        )
    )
    return hand, text


def test_pokerstars_hand_has_the_lines_trackers_read() -> None:
    _, text = _heads_up_side_pot_hand()
    story = tell(read_history(text))
    out = dumps(story, LABEL, hero=1)
    lines = out.splitlines()
    assert lines[0] == (
        "PokerStars Hand #7000000042:  Hold'em No Limit (1/2) - 2025/01/31 20:05:09 UTC"
    )
    assert lines[1] == "Table 'Main 7' 6-max Seat #3 is the button"
    assert lines[2:5] == [
        "Seat 1: Kim (120 in chips)",
        "Seat 3: Lee (300 in chips)",
        "Seat 5: Sam (50 in chips)",
    ]
    for expected in (
        "Sam: posts the ante 1",
        "Sam: posts small blind 1",
        "Kim: posts big blind 2",
        "*** HOLE CARDS ***",
        "Dealt to Kim [Kh Kd]",
        "Lee: raises 8 to 10",
        "Sam: raises 39 to 49 and is all-in",
        "Kim: calls 47",
        "Lee: raises 151 to 200",
        "Kim: calls 70 and is all-in",
        "Uncalled bet (81) returned to Lee",
        "*** FLOP *** [2c 7s 9d]",
        "*** TURN *** [2c 7s 9d] [Jc]",
        "*** RIVER *** [2c 7s 9d Jc] [3h]",
        "*** SHOW DOWN ***",
        "Kim collected 140 from side pot-1",
        "Sam collected 150 from main pot",
        "*** SUMMARY ***",
        "Total pot 290 Main pot 150. Side pot-1 140. | Rake 0",
        "Board [2c 7s 9d Jc 3h]",
        "Seat 1: Kim (big blind) showed [Kh Kd] and won (140) with Pair of Kings, Jack kicker",
    ):
        assert expected in lines, expected
    assert lines.index("Kim collected 140 from side pot-1") < lines.index(
        "Sam collected 150 from main pot"
    )
    assert any(
        line.startswith("Seat 5: Sam (small blind) showed [Ah Ad] and won (150)") for line in lines
    )
    assert any(line.startswith("Seat 3: Lee (button) showed [Qh Qd] and lost") for line in lines)


def test_dealt_to_shows_only_the_heros_cards_and_the_host_export_none() -> None:
    deck = stacked_deck([parse_cards("AhAd"), parse_cards("7c2d"), parse_cards("9s8s")])
    hand = Hand(Stakes.standard(3, 1, 2), [100, 100, 100], deck=deck)
    hand.act(2, RaiseTo(6))
    hand.act(0, RaiseTo(20))

    hand.act(1, Fold())
    hand.act(2, Fold())
    text = phh.dumps(phh.from_hand(hand, players=["A", "B", "C"], seats=[1, 2, 3]))
    story = tell(read_history(text))
    host = dumps(story, LABEL)
    assert "Dealt to" not in host
    for card in ("Ah", "Ad", "7c", "2d", "9s", "8s"):
        assert card not in host  # nobody showed: no hole card anywhere
    own = dumps(story, LABEL, hero=1)
    assert "Dealt to B [7c 2d]" in own
    for card in ("Ah", "Ad", "9s", "8s"):
        assert card not in own
    assert "Uncalled bet (14) returned to A" in own
    assert "A collected 14 from pot" in own
    assert "Seat 1: A (small blind) collected (14)" in own


def test_names_that_read_as_actions_or_punctuation_are_made_safe_and_unique() -> None:
    rng = random.Random(3)
    stored = stored_hand(rng)
    story = tell(stored.history)
    names = player_names(story)
    assert len(set(names)) == len(names)
    for name in names:
        assert name and not set(name) & set(":[]()#'")
        assert name.split()[0].lower() not in {"folds", "calls", "checks", "bets", "raises"}


def test_hand_ids_are_table_and_number_and_refuse_what_cannot_fit() -> None:
    assert hand_id_of(7, 42) == 7 * HAND_ID_FACTOR + 42
    assert hand_id_of(0, 1) == 1
    for table, number in ((7, 0), (7, HAND_ID_FACTOR), (-1, 5)):
        with pytest.raises(ExportError):
            hand_id_of(table, number)


def test_practice_hands_say_so_in_the_table_name() -> None:
    from dataclasses import replace

    _, text = _heads_up_side_pot_hand()
    out = dumps(tell(read_history(text)), replace(LABEL, practice=True))
    assert "Table 'Main 7 (practice)' 6-max" in out
