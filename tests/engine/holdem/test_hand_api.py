"""The Hold'em hand as a library: read-only state, one ``turn``, one legality source, copies."""

from __future__ import annotations

import copy
import random

import pytest

from engine.cards import parse_cards
from engine.holdem import (
    Action,
    ActionNotAllowedError,
    BoardDealt,
    Call,
    Check,
    Fold,
    Hand,
    HandCompleteError,
    HandEnded,
    LegalActions,
    Muck,
    NotYourTurnError,
    PotAwarded,
    RaiseTo,
    Show,
    ShowdownMode,
    Stakes,
    Street,
    stacked_deck,
)
from engine.holdem.options import HandOptions
from tests.engine.holdem.hand_state import hand_state


def random_hand(seed: int, players: int = 4) -> Hand:
    return Hand(Stakes.standard(players, 1, 2), [200] * players, rng=random.Random(seed))


def candidate_actions(turn: LegalActions) -> list[Action]:
    amounts = {0, 1, 2, 3, 7, 50, 199, 200, 201, 10**6}
    for bound in (turn.min_raise_to, turn.max_raise_to):
        if bound is not None:
            amounts |= {bound - 1, bound, bound + 1}
    return [Fold(), Check(), Call(), Show(), Muck(), *(RaiseTo(a) for a in sorted(amounts))]


def test_hand_state_refuses_assignment_and_mutation() -> None:
    hand = random_hand(1)
    with pytest.raises(AttributeError):
        hand.stacks = (10**9,) * 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        hand.stacks[0] = 10**9  # type: ignore[index]
    with pytest.raises(TypeError):
        hand.bets[0] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        hand.live[0] = False  # type: ignore[index]
    with pytest.raises(AttributeError):
        hand.events.append(HandEnded((), ()))  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        hand.street = Street.RIVER  # type: ignore[misc]
    assert hand.stacks == (199, 198, 200, 200)
    assert hand.bets == (1, 2, 0, 0)


def test_hand_turn_is_the_player_to_act_with_their_choices() -> None:
    hand = random_hand(2, players=3)
    turn = hand.turn
    assert turn is not None
    assert turn.player == 2  # the button opens preflop three-handed
    assert (turn.can_fold, turn.can_check, turn.call_amount) == (True, False, 2)
    assert (turn.min_raise_to, turn.max_raise_to) == (4, 200)
    hand.act(2, Fold())
    hand.act(0, Fold())
    assert hand.is_complete
    assert hand.turn is None


@pytest.mark.parametrize("seed", range(12))
def test_hand_act_accepts_exactly_what_turn_allows(seed: int) -> None:
    rng = random.Random(seed)
    hand = random_hand(seed)
    while (turn := hand.turn) is not None:
        for action in candidate_actions(turn):
            refusal = turn.refusal(action)
            if refusal is None:
                hand.copy().act(turn.player, action)  # accepted
            else:
                with pytest.raises(type(refusal)) as refused:
                    hand.copy().act(turn.player, action)
                assert str(refused.value) == str(refusal)
            assert turn.allows(action) is (refusal is None)
        other = (turn.player + 1) % hand.player_count
        with pytest.raises(NotYourTurnError):
            hand.copy().act(other, Call())
        allowed = [a for a in candidate_actions(turn) if turn.allows(a)]
        hand.act(turn.player, rng.choice(allowed))
    with pytest.raises(HandCompleteError):
        hand.act(0, Fold())


def test_hand_copy_diverges_independently() -> None:
    hand = random_hand(3)
    before = (hand.stacks, hand.bets, hand.events, hand.phh_actions)
    twin = hand.copy()
    turn = twin.turn
    assert turn is not None
    twin.act(turn.player, Fold())
    assert (hand.stacks, hand.bets, hand.events, hand.phh_actions) == before
    assert hand.turn == turn
    assert twin.turn != turn
    hand.act(turn.player, Call())
    assert twin.events[-1] != hand.events[-1]


def test_hand_copy_holds_equal_state_in_slots_and_instance_dictionary_alike() -> None:
    hand = Hand(
        Stakes.standard(3, 1, 2),
        [100, 50, 80],
        rng=random.Random(7),
        showdown=ShowdownMode.MANUAL,
        options=HandOptions(max_run_count=2, rabbit_hunt=True),
    )
    hand.act(hand.turn.player, RaiseTo(20))  # type: ignore[union-attr]
    twin = hand.copy()
    state = hand_state(hand, "_rng")
    assert "_stacks" in state and "_options" in state  # a slot and the dictionary
    assert hand_state(twin, "_rng") == state
    assert twin._stacks is not hand._stacks and twin._live is not hand._live
    twin.act(twin.turn.player, Fold())  # type: ignore[union-attr]
    assert hand_state(hand, "_rng") == state


def test_hand_copy_with_a_seeded_rng_deals_the_same_cards_as_the_original() -> None:
    hand = random_hand(4, players=2)
    twin = hand.copy()
    for game in (hand, twin):
        while (turn := game.turn) is not None:
            game.act(turn.player, Check() if turn.can_check else Call())
    assert hand.board == twin.board
    assert len(hand.board) == 5


def test_hand_deepcopy_works_with_the_default_secure_rng() -> None:
    hand = Hand(Stakes.standard(2, 1, 2), [100, 100])
    twin = copy.deepcopy(hand)
    assert twin.hole_cards == hand.hole_cards
    turn = twin.turn
    assert turn is not None
    twin.act(turn.player, Fold())
    assert twin.is_complete
    assert not hand.is_complete
    assert copy.copy(hand).stacks == hand.stacks


def test_board_dealt_events_carry_the_street_enum() -> None:
    hand = random_hand(5, players=2)
    while (turn := hand.turn) is not None:
        hand.act(turn.player, Check() if turn.can_check else Call())
    streets = [event.street for event in hand.events if isinstance(event, BoardDealt)]
    assert streets == [Street.FLOP, Street.TURN, Street.RIVER]
    assert all(isinstance(street, Street) for street in streets)


@pytest.mark.parametrize(
    ("stakes", "stacks"),
    [
        pytest.param(Stakes.standard(2, 5, 10), (3, 1000), id="heads-up-short-big-blind"),
        pytest.param(Stakes.standard(2, 5, 10), (1000, 5), id="heads-up-short-small-blind"),
        pytest.param(Stakes.standard(3, 1, 2, 10), (5, 8, 100), id="all-in-on-antes"),
        pytest.param(Stakes.standard(3, 5, 10, 2), (6, 12, 2), id="all-in-on-blinds-and-antes"),
        pytest.param(Stakes.standard(4, 5, 10, 5), (5, 5, 5, 5), id="everyone-all-in-on-antes"),
    ],
)
def test_hand_complete_at_construction_is_settled_with_nobody_to_act(
    stakes: Stakes, stacks: tuple[int, ...]
) -> None:
    hand = Hand(stakes, stacks, rng=random.Random(6))
    assert hand.is_complete
    assert hand.turn is None
    assert len(hand.board) == 5
    assert any(isinstance(event, PotAwarded) for event in hand.events)
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert sum(hand.stacks) == sum(stacks)
    assert ended.stacks == hand.stacks
    with pytest.raises(HandCompleteError):
        hand.act(0, Check())


def test_manual_showdown_turn_offers_only_show_and_muck() -> None:
    deck = stacked_deck([parse_cards("AsAd"), parse_cards("KsKd")], parse_cards("2c7c9h Jd 3s"))
    hand = Hand(Stakes.standard(2, 1, 2), [100, 100], deck=deck, showdown=ShowdownMode.MANUAL)
    while (turn := hand.turn) is not None and not turn.at_showdown:
        hand.act(turn.player, Check() if turn.can_check else Call())
    turn = hand.turn
    assert turn is not None
    assert turn.at_showdown
    assert turn.allows(Show())
    assert turn.allows(Muck())
    assert not turn.allows(Check())
    with pytest.raises(ActionNotAllowedError, match="only show or muck"):
        hand.act(turn.player, Check())
    hand.act(turn.player, Show())
    last = hand.turn
    assert last is not None
    assert last.player != turn.player
    assert last.can_muck  # still sharing the pot with the shown hand, so free to concede it
    hand.act(last.player, Muck())
    assert hand.is_complete
    assert hand.turn is None
