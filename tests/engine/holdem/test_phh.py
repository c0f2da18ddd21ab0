"""PHH: reading, writing, replaying, and refusing what is not a valid hand history."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.holdem import Fold, Hand, Stakes, phh
from engine.holdem.phh import PhhError, ReplayError
from tests.engine.holdem.pokerkit_hands import play_ours, pokerkit_finishing_stacks, random_setup

REFERENCE = """\
variant = "NT"
antes = [1, 1, 1, 1]
blinds_or_straddles = [5, 10, 0, 0]
min_bet = 10
starting_stacks = [200, 500, 1000, 1500]
actions = [
  "d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 8h4s", "d dh p4 QcQd",
  "p3 cbr 100", "p4 cbr 400", "p1 cc",
  "p2 cbr 499",   # all-in for less than a full raise: does not reopen betting for p3/p4
  "p3 cc", "p4 cc",
  "d db 2c7c9h", "p3 cbr 500", "p4 cc",
  "p3 sm 8h4s", "p4 sm QcQd", "p1 sm AcAd", "p2 sm KcKd",
  "d db Jd", "d db 3s",
]
finishing_stacks = [800, 900, 0, 1500]
"""


def history(**changes: object) -> str:
    fields: dict[str, object] = {
        "variant": '"NT"',
        "antes": "[0, 0]",
        "blinds_or_straddles": "[1, 2]",
        "min_bet": "2",
        "starting_stacks": "[100, 100]",
        "actions": '["d dh p1 AsAd", "d dh p2 KsKd", "p2 f"]',
    }
    fields.update(changes)
    return "\n".join(f"{k} = {v}" for k, v in fields.items() if v is not None) + "\n"


def test_phh_reference_example_replays_to_its_finishing_stacks() -> None:
    hand_history = phh.loads(REFERENCE)
    hand = phh.replay(hand_history)
    assert tuple(hand.stacks) == hand_history.finishing_stacks == (800, 900, 0, 1500)


def test_phh_written_hand_reads_back_identically() -> None:
    played = phh.replay(phh.loads(REFERENCE))
    text = phh.dumps(phh.from_hand(played, hand=3, table="Felt #1"))
    again = phh.loads(text)
    assert again.extra["hand"] == 3
    assert again.extra["table"] == "Felt #1"
    assert again.actions == phh.loads(REFERENCE).actions
    assert tuple(phh.replay(again).stacks) == (800, 900, 0, 1500)
    assert pokerkit_finishing_stacks(text) == (800, 900, 0, 1500)


def test_phh_masking_hides_cards_that_were_never_shown() -> None:
    hand = Hand(Stakes.standard(3, 1, 2), [100, 100, 100], rng=random.Random(3))
    hand.act(2, Fold())
    hand.act(0, Fold())
    text = phh.dumps(phh.from_hand(hand, reveal=False))
    assert text.count("????") == 3
    for cards in hand.hole_cards:
        assert "".join(map(str, cards)) not in text
    assert "".join(map(str, hand.hole_cards[0])) in phh.dumps(phh.from_hand(hand))


def test_phh_heads_up_follows_pokerkit_blinds() -> None:
    # p1 is the big blind heads-up; the button (p2) posts the small blind and folds.
    hand = phh.replay(phh.loads(history()))
    assert hand.stacks == (101, 99)


def test_phh_skipped_checks_and_folds_are_filled_in_as_pokerkit_does() -> None:
    text = history(
        starting_stacks="[100, 100, 100]",
        antes="[0, 0, 0]",
        blinds_or_straddles="[1, 2, 0]",
        actions='["d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 QsQd", "p1 cc", "p2 cc",'
        ' "d db 2c7d9h", "p2 cbr 10", "p1 f"]',
    )
    # p3 (the button) never acts preflop: the replay folds it; p1 never acts on the flop: a check.
    hand = phh.replay(phh.loads(text))
    assert hand.stacks == (98, 102, 100)


def test_phh_multi_hand_file_keeps_table_names_in_order() -> None:
    one = phh.loads(REFERENCE)
    text = phh.dumps_all([one, phh.loads(history())])
    hands = phh.loads_all(text)
    assert [name for name, _ in hands] == ["1", "2"]
    assert tuple(phh.replay(hands[1][1]).stacks) == (101, 99)


def test_phh_our_random_hands_are_valid_for_pokerkit_and_for_us() -> None:
    rng = random.Random(77)
    for _ in range(30):
        hand = play_ours(random_setup(rng), rng)
        text = phh.dumps(phh.from_hand(hand))
        assert tuple(phh.replay(phh.loads(text)).stacks) == tuple(hand.stacks)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml at all [", "not valid TOML"),
        (history(variant='"FT"'), "not supported"),
        (history(min_bet=None), "missing required field"),
        (history(antes="[0, 0, 0]"), "antes lists 3 players"),
        (history(starting_stacks="[100]"), "at least two"),
        (history(starting_stacks="[100, 0]"), "positive"),
        (history(min_bet="0"), "min_bet"),
        (history(min_bet="2.5"), "min_bet"),
        (history(blinds_or_straddles="[1, -2]"), "whole numbers >= 0"),
        (history(actions='"p1 f"'), "list of strings"),
        (history(ante_trimming_status='"yes"'), "true or false"),
    ],
)
def test_phh_malformed_files_are_refused(text: str, message: str) -> None:
    with pytest.raises(PhhError, match=message):
        phh.loads(text)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 1"]', "action 3 'p2 cbr 1'.*raise to from 4"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 500"]', "action 3"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p3 f"]', "p3 does not exist"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p2 xx"]', "not a no-limit hold'em PHH action"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr ten"]', "whole-number"),
        ('["d dh p1 AsAd", "d dh p2 AsKd", "p2 f"]', "twice"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p2 f", "p1 f"]', "action 4 'p1 f'.*already over"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "p2 cc"]', "end before the hand is over"),
        ('["d dh p1 AsAd", "d dh p2 KsKd", "d db ??2c3c"]', "unknown board"),
        (
            '["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 100", "p1 cc", "d db 2c3c4c"]',
            "board cards do not come now",
        ),
    ],
)
def test_phh_illegal_or_malformed_actions_name_the_action(actions: str, message: str) -> None:
    with pytest.raises((PhhError, ReplayError), match=message):
        phh.replay(phh.loads(history(actions=actions)))


def test_phh_unknown_hole_cards_are_filled_and_muck_forfeits(tmp_path: Path) -> None:
    text = history(
        actions='["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db AhKhQh",'
        ' "p1 cc", "p2 cc", "d db Jh", "p1 cc", "p2 cc", "d db 2c", "p1 cc", "p2 cc",'
        ' "p1 sm 3c3d", "p2 sm"]'
    )
    hand = phh.replay(phh.loads(text))
    assert hand.stacks == (102, 98)  # p2 mucked, whatever it held


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"foo_bar": "1"}, "unknown field 'foo_bar'"),
        ({"small_bet": "2"}, "field 'small_bet' belongs to other variants"),
        ({"actions": None, "actoins": "[]"}, "'actoins' looks like a misspelling of 'actions'"),
        ({"x" * 200: "1"}, "unknown field '" + "x" * 39 + "…'"),
    ],
)
def test_phh_refuses_fields_outside_the_standard(changes: dict[str, str], message: str) -> None:
    with pytest.raises(PhhError, match=message):
        phh.loads(history(**changes))


def test_phh_keeps_user_defined_fields() -> None:
    assert phh.loads(history(_source='"club"')).extra == {"_source": "club"}
