"""PHH round trips of home-game hands: straddles, run counts, bomb pots, double boards, the 7-2
bounty, rabbit hunts and reveals read back to the same hand; bad option fields are refused."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.holdem import (
    ChooseRunCount,
    Fold,
    Hand,
    HandOptions,
    RabbitHunt,
    RaiseTo,
    Reveal,
    RunCountChosen,
    RunCountSettled,
    Stakes,
    phh,
)
from engine.holdem.phh import PhhError, ReplayError
from tests.engine.holdem.pokerkit_home import pokerkit_finishing_stacks
from tests.engine.holdem.test_home_game import go_all_in, ordered_deck


def _without_choices(hand: Hand) -> list[object]:
    # PHH keeps the run count the players settled on, not who chose what in which order.
    return [e for e in hand.events if not isinstance(e, RunCountChosen | RunCountSettled)]


def round_trip(hand: Hand) -> Hand:
    text = phh.dumps(phh.from_hand(hand))
    again = phh.replay(phh.loads(text))
    assert _without_choices(again) == _without_choices(hand)
    assert again.run_count == hand.run_count
    assert again.stacks == hand.stacks
    assert again.stacks_after_bounties == hand.stacks_after_bounties
    return again


def test_phh_straddle_hand_round_trips_and_pokerkit_agrees() -> None:
    deck = ordered_deck(["AcAd", "KcKd", "QcQd", "JcJd", "2s3s"], "Kh7s2c", "3d", "4h")
    hand = Hand(Stakes.straddled(5, 1, 2, straddles=2), [300] * 5, deck=deck)
    hand.act(4, RaiseTo(16))
    for player in (0, 1, 2, 3):
        hand.act(player, Fold())
    text = phh.dumps(phh.from_hand(hand))
    assert "blinds_or_straddles = [1, 2, 4, 8, 0]" in text and "min_bet = 8" in text
    round_trip(hand)
    assert pokerkit_finishing_stacks(text) == hand.stacks


def test_phh_run_twice_writes_the_runout_count_and_every_run_in_dealing_order() -> None:
    deck = ordered_deck(["AcAd", "KcKd"], "Kh7s2c", "3d", "4h", "Qh8s2d", "5c", "9h")
    hand = Hand(Stakes.standard(2, 1, 2), [100, 100], deck=deck, options=HandOptions(2))
    go_all_in(hand)
    hand.act(1, ChooseRunCount(2))
    hand.act(0, ChooseRunCount(2))
    history = phh.from_hand(hand)
    assert history.extra["_runout_count"] == 2
    boards = [line for line in history.actions if line.startswith("d db")]
    # All in preflop: run 1's flop, turn and river, then run 2's, each after a burn.
    assert boards == [
        "d db Kh7s2c", "d db 3d", "d db 4h", "d db Qh8s2d", "d db 5c", "d db 9h",
    ]  # fmt: skip
    round_trip(hand)
    assert pokerkit_finishing_stacks(phh.dumps(history)) == hand.stacks


def test_phh_run_declined_writes_a_runout_count_of_one() -> None:
    deck = ordered_deck(["AcAd", "KcKd"], "Kh7s2c", "3d", "4h")
    hand = Hand(Stakes.standard(2, 1, 2), [100, 100], deck=deck, options=HandOptions(2))
    go_all_in(hand)
    hand.act(1, ChooseRunCount(2))
    hand.act(0, ChooseRunCount(1))
    history = phh.from_hand(hand)
    assert history.extra["_runout_count"] == 1
    round_trip(hand)


def test_phh_bomb_pot_double_board_bounty_rabbit_and_reveals_round_trip() -> None:
    deck = ordered_deck(["7h2c", "KcKd", "QcQd"], "As9d4c2h3h8h", "5dTc", "6sJs")
    options = HandOptions(bomb_pot=True, boards=2, seven_deuce_bounty=3, rabbit_hunt=True)
    hand = Hand(Stakes.bomb_pot(3, 5, 2), [100] * 3, deck=deck, options=options)
    hand.act(0, RaiseTo(20))
    hand.act(1, Fold())
    hand.act(2, Fold())
    hand.act(2, RabbitHunt())
    hand.act(0, Reveal())
    hand.act(1, Reveal((0,)))
    history = phh.from_hand(hand, reveal=False)
    assert history.extra["_after_hand"] == [
        "p3 rh 5d6s", "p3 rh TcJs", "p1 sm 7h2c", "p2 sm Kc",
    ]  # fmt: skip
    assert history.extra["_bomb_pot"] is True and history.extra["_board_count"] == 2
    assert "d dh p2 Kc??" in history.actions and "d dh p3 ????" in history.actions
    again = round_trip(hand)
    assert again.stacks_after_bounties == (100 + 10 + 6, 95 - 3, 95 - 3)
    assert pokerkit_finishing_stacks(phh.dumps(history)) == hand.stacks


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("_runout_count", "0"),
        ("_runout_count", "9"),
        ("_runout_count", "true"),
        ("_board_count", "3"),
        ("_bomb_pot", "1"),
        ("_seven_deuce_bounty", "-1"),
        ("_after_hand", '"p1 sm 7h2c"'),
    ],
)
def test_phh_refuses_a_bad_home_game_field(field: str, value: str) -> None:
    text = (
        phh.dumps(phh.from_hand(Hand(Stakes.standard(2, 1, 2), [10, 10]))) + f"{field} = {value}\n"
    )
    with pytest.raises(PhhError, match=field):
        phh.loads(text)


def test_phh_refuses_a_runout_count_the_hand_never_used_and_a_bad_after_hand_line() -> None:
    hand = Hand(Stakes.standard(2, 1, 2), [10, 10])
    hand.act(1, Fold())
    text = phh.dumps(phh.from_hand(hand))
    with pytest.raises(ReplayError, match="_runout_count is 2"):
        phh.replay(phh.loads(text + "_runout_count = 2\n"))
    with pytest.raises(PhhError, match="_after_hand"):
        phh.replay(phh.loads(text + '_after_hand = ["p1 shows everything"]\n'))
    with pytest.raises(EngineError):  # no rabbit hunting at this table
        phh.replay(phh.loads(text + '_after_hand = ["p1 rh 2c3c4c"]\n'))
