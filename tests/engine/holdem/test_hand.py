"""The Hold'em hand state machine, rule corner by rule corner, on stacked decks."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.cards import Card, parse_cards
from engine.errors import MalformedInputError
from engine.holdem import (
    Action,
    ActionKind,
    ActionNotAllowedError,
    BetReturned,
    BoardDealt,
    Call,
    CardsMucked,
    CardsShown,
    Check,
    Fold,
    Hand,
    HandCompleteError,
    HandEnded,
    HoleCardsDealt,
    InvalidSetupError,
    Muck,
    NotYourTurnError,
    PlayerActed,
    PotAwarded,
    RaiseAmountError,
    RaiseTo,
    Show,
    Stakes,
    Street,
    stacked_deck,
)
from tests.engine.holdem.hand_state import hand_state


def deal(holes: list[str], board: str = "") -> list[Card]:
    return stacked_deck([parse_cards(h) for h in holes], parse_cards(board))


def new_hand(
    stacks: list[int],
    holes: list[str] | None = None,
    board: str = "",
    sb: int = 1,
    bb: int = 2,
    ante: int = 0,
) -> Hand:
    holes = holes or [""] * len(stacks)
    return Hand(Stakes.standard(len(stacks), sb, bb, ante), stacks, deck=deal(holes, board))


def snapshot(hand: Hand) -> dict[str, Any]:
    # Everything but the memo of legal actions, which is derived from the rest.
    return copy.deepcopy(hand_state(hand, "_legal"))


def play(hand: Hand, *moves: tuple[int, Action]) -> None:
    for player, action in moves:
        hand.act(player, action)


# --------------------------------------------------------------------- blinds and order


def test_hand_heads_up_button_posts_small_blind_and_acts_first_preflop() -> None:
    hand = new_hand([100, 100])
    # Player 1 is the button: small blind heads-up; player 0 is the big blind.
    assert hand.bets == (2, 1)
    assert hand.turn is not None and hand.turn.player == 1
    play(hand, (1, Call()), (0, Check()))
    assert hand.street is Street.FLOP
    # The big blind acts first after the flop.
    assert hand.turn is not None and hand.turn.player == 0


def test_hand_three_handed_order_preflop_and_after() -> None:
    hand = new_hand([100, 100, 100])
    assert hand.bets == (1, 2, 0)
    # The button is first preflop three-handed.
    assert hand.turn is not None and hand.turn.player == 2
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    assert hand.street is Street.FLOP
    assert hand.turn is not None and hand.turn.player == 0


def test_hand_antes_and_blinds_that_put_players_all_in() -> None:
    hand = new_hand([1, 3, 100, 100], sb=2, bb=4, ante=1)
    # Player 0 is all-in on the ante; player 1 antes 1 and is all-in for a 2-chip big blind.
    assert hand.stacks == (0, 0, 99, 99)
    assert hand.bets == (0, 2, 0, 0)
    assert hand.is_all_in(0)
    assert hand.is_all_in(1)


def test_hand_big_blind_all_in_for_less_than_the_small_blind() -> None:
    hand = new_hand([100, 3, 100], sb=5, bb=10)
    assert hand.bets == (5, 3, 0)
    legal = hand.turn
    assert legal is not None
    assert legal.player == 2
    assert legal.call_amount == 5  # the biggest bet out is the small blind's
    assert legal.min_raise_to == 15  # that bet plus the minimum bet


# ---------------------------------------------------------------------------- raising


def test_hand_minimum_raise_is_the_last_full_raise_increment() -> None:
    hand = new_hand([1000] * 4, sb=5, bb=10)
    legal = hand.turn
    assert legal is not None
    assert (legal.min_raise_to, legal.max_raise_to) == (20, 1000)
    play(hand, (2, RaiseTo(35)))  # a raise of 25
    legal = hand.turn
    assert legal is not None
    assert legal.min_raise_to == 60
    play(hand, (3, RaiseTo(100)))  # a raise of 65
    legal = hand.turn
    assert legal is not None
    assert legal.min_raise_to == 165


def test_hand_postflop_minimum_bet_is_the_big_blind() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    legal = hand.turn
    assert legal is not None
    assert legal.is_bet
    assert legal.min_raise_to == 2
    assert legal.can_check
    assert not legal.can_fold


def test_hand_incomplete_all_in_raise_does_not_reopen_betting() -> None:
    # The verified example from the references: p2's all-in to 499 is not a full raise.
    hand = Hand(
        Stakes((1, 1, 1, 1), (5, 10, 0, 0), 10, ante_trimming=False),
        [200, 500, 1000, 1500],
        deck=deal(["AcAd", "KcKd", "8h4s", "QcQd"], "2c7c9hJd3s"),
    )
    play(hand, (2, RaiseTo(100)), (3, RaiseTo(400)), (0, Call()), (1, RaiseTo(499)))
    legal = hand.turn
    assert legal is not None
    assert legal.player == 2
    assert legal.can_raise  # p3 only called 100 before p4's full raise: p3 may re-raise
    play(hand, (2, Call()))
    legal = hand.turn
    assert legal is not None
    assert legal.player == 3
    assert not legal.can_raise
    assert legal.call_amount == 99
    before = snapshot(hand)
    with pytest.raises(ActionNotAllowedError):
        hand.act(3, RaiseTo(1000))
    assert snapshot(hand) == before
    play(hand, (3, Call()), (2, RaiseTo(500)), (3, Call()))
    assert hand.is_complete
    assert hand.stacks == (800, 900, 0, 1500)


def test_hand_short_all_ins_adding_up_to_a_full_raise_reopen_betting() -> None:
    # Player 2 opens to 100 (a raise of 90); players 3 and 4 go all-in for 45 more each.
    hand = new_hand([1000, 1000, 1000, 145, 190], sb=5, bb=10)
    play(hand, (2, RaiseTo(100)), (3, RaiseTo(145)), (4, RaiseTo(190)))
    # 45 + 45 = 90, a full raise over the opener's 100: player 2 may raise again.
    play(hand, (0, Call()), (1, Fold()))
    legal = hand.turn
    assert legal is not None
    assert legal.player == 2
    assert legal.can_raise
    assert legal.min_raise_to == 280


def test_hand_one_short_all_in_does_not_reopen_for_the_opener() -> None:
    hand = new_hand([1000, 1000, 1000, 145], sb=5, bb=10)
    play(hand, (2, RaiseTo(100)), (3, RaiseTo(145)), (0, Call()), (1, Fold()))
    legal = hand.turn
    assert legal is not None
    assert legal.player == 2
    assert not legal.can_raise
    assert legal.call_amount == 45


def test_hand_cannot_raise_when_everyone_else_is_all_in() -> None:
    hand = new_hand([1000, 50, 1000], sb=5, bb=10)
    play(hand, (2, Fold()), (0, RaiseTo(1000)))
    legal = hand.turn
    assert legal is not None
    assert legal.player == 1
    assert not legal.can_raise
    assert legal.call_amount == 40


def test_hand_raise_below_minimum_is_allowed_only_as_all_in() -> None:
    hand = new_hand([1000, 1000, 15], sb=5, bb=10)
    legal = hand.turn
    assert legal is not None
    assert legal.player == 2
    assert (legal.min_raise_to, legal.max_raise_to) == (15, 15)
    play(hand, (2, RaiseTo(15)))
    assert hand.is_all_in(2)


# ------------------------------------------------------------------------- pots


def test_hand_uncalled_bet_is_returned() -> None:
    hand = new_hand([100, 40, 100], holes=["AsAd", "KsKd", "2c7d"], board="3h4h9cTdJs")
    play(hand, (2, Fold()), (0, RaiseTo(100)), (1, Call()))
    returned = [e for e in hand.events if isinstance(e, BetReturned)]
    assert returned == [BetReturned(0, 60)]
    assert hand.is_complete
    assert hand.stacks == (140, 0, 100)


def test_hand_everyone_folds_and_the_last_player_wins_without_showing() -> None:
    hand = new_hand([100, 100, 100])
    events = hand.act(2, Fold()) + hand.act(0, Fold())
    assert hand.is_complete
    assert hand.stacks == (99, 101, 100)
    assert not any(isinstance(e, CardsShown) for e in events)
    awarded = [e for e in events if isinstance(e, PotAwarded)]
    assert awarded == [PotAwarded(0, 2, (1,), ((1, 2),), "")]
    assert isinstance(events[-1], HandEnded)
    assert events[-1].net == (-1, 1, 0)


def test_hand_side_pots_are_layered_and_awarded_separately() -> None:
    # Shortest stack has the best hand, the middle stack the second best.
    hand = new_hand(
        [50, 100, 300],
        holes=["AsAd", "KsKd", "QsQd"],
        board="2c7h9dTc3s",
    )
    play(hand, (2, RaiseTo(300)), (0, Call()), (1, Call()))
    assert hand.is_complete
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    # Queens can win nothing, so (as in PokerKit) that hand is killed before the pots are built.
    assert [(a.amount, a.eligible, a.shares) for a in awarded] == [
        (150, (0, 1), ((0, 150),)),
        (100, (1,), ((1, 100),)),
    ]
    assert hand.stacks == (150, 100, 200)  # player 2's uncalled 200 came back


def test_hand_split_pot_odd_chip_goes_to_first_winner_left_of_button() -> None:
    # The board plays for everyone (a royal flush); the small blind folds, 3 players split 7.
    hand = new_hand([100] * 4, holes=["2c3d", "4c5d", "6c7d", "8c9d"], board="AsKsQsJsTs")
    play(hand, (2, Call()), (3, Call()), (0, Fold()), (1, Check()))
    for _ in range(3):
        play(hand, (1, Check()), (2, Check()), (3, Check()))
    assert hand.is_complete
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert awarded[0].shares == ((1, 3), (2, 2), (3, 2))
    assert hand.stacks == (99, 101, 100, 100)
    assert awarded[0].description == "Royal flush"


def test_hand_heads_up_odd_chip_goes_to_the_big_blind() -> None:
    # Heads-up the first seat left of the button is the big blind (player 0).
    hand = Hand(
        Stakes((0, 0), (1, 2), 2),
        [3, 2],
        deck=deal(["2c3d", "4c5d"], "AsKsQsJsTs"),
    )
    play(hand, (1, Call()))
    assert hand.is_complete
    assert hand.stacks == (3, 2)  # the 4-chip pot splits 2/2, no odd chip
    hand = Hand(
        Stakes((1, 0), (1, 2), 2, ante_trimming=False),
        [5, 5],
        deck=deal(["2c3d", "4c5d"], "AsKsQsJsTs"),
    )
    play(hand, (1, Call()), (0, Check()), (0, Check()), (1, Check()), (0, Check()), (1, Check()))
    play(hand, (0, Check()), (1, Check()))
    assert hand.is_complete
    assert hand.stacks == (6, 4)  # pot of 5: the odd chip to player 0


def test_hand_chips_are_conserved_through_a_hand() -> None:
    hand = new_hand([100, 60, 200, 35], holes=["AsAd", "KsKd", "QsQd", "JsJd"], board="2c7h9dTc3s")
    total = 395
    moves: list[tuple[int, Action]] = [
        (2, RaiseTo(60)),
        (3, Call()),
        (0, RaiseTo(100)),
        (1, Call()),
        (2, Call()),
    ]
    for player, action in moves:
        hand.act(player, action)
        assert sum(hand.stacks) + hand.pot_total == total
    assert hand.is_complete
    assert sum(hand.stacks) == total


# --------------------------------------------------------------------------- showdown


def test_hand_runs_out_the_board_when_nobody_can_bet() -> None:
    hand = new_hand([100, 100], holes=["AsAd", "KsKd"], board="2c7h9dTc3s")
    events = hand.act(1, RaiseTo(100)) + hand.act(0, Call())
    boards = [e for e in events if isinstance(e, BoardDealt)]
    assert [len(b.cards) for b in boards] == [3, 1, 1]
    shown = [e for e in events if isinstance(e, CardsShown)]
    assert [e.player for e in shown] == [1, 0]  # the aggressor shows first
    assert events.index(shown[-1]) < events.index(boards[0])  # all-in hands are tabled first
    assert hand.stacks == (200, 0)


def test_hand_showdown_order_last_river_aggressor_first_then_left_of_button() -> None:
    holes = ["2c2d", "3c3d", "AhAd"]
    hand = new_hand([100, 100, 100], holes=holes, board="KsQs8h5c4d")
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    for _ in range(2):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    play(hand, (0, Check()), (1, RaiseTo(10)), (2, Call()), (0, Call()))
    order = [e.player for e in hand.events if isinstance(e, CardsShown | CardsMucked)]
    assert order == [1, 2, 0]
    # Nobody bets the river: the first seat left of the button shows first.
    hand = new_hand([100, 100, 100], holes=holes, board="KsQs8h5c4d")
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    order = [e.player for e in hand.events if isinstance(e, CardsShown | CardsMucked)]
    assert order == [0, 1, 2]


def test_hand_auto_showdown_mucks_hands_that_cannot_win() -> None:
    hand = new_hand([100, 100, 100], holes=["AhAd", "3c3d", "2c2d"], board="KsQs8h5c4d")
    play(hand, (2, Call()), (0, Call()), (1, Check()))
    for _ in range(3):
        play(hand, (0, Check()), (1, Check()), (2, Check()))
    shown = [e.player for e in hand.events if isinstance(e, CardsShown)]
    mucked = [e.player for e in hand.events if isinstance(e, CardsMucked)]
    assert shown == [0]
    assert mucked == [1, 2]
    assert hand.stacks == (104, 98, 98)
    # Won at showdown (the others mucked), not by folds: the winning hand is named.
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert awarded[0].description == "Pair of Aces, King kicker"


def test_hand_events_keep_hole_cards_private_to_their_owner() -> None:
    hand = new_hand([100, 100, 100], holes=["AhAd", "3c3d", "2c2d"])
    dealt = [e for e in hand.events if isinstance(e, HoleCardsDealt)]
    assert [(e.private_to, "".join(map(str, e.cards))) for e in dealt] == [
        (0, "AhAd"),
        (1, "3c3d"),
        (2, "2c2d"),
    ]


def test_hand_actions_report_kind_amount_and_all_in() -> None:
    hand = new_hand([100, 100, 30])
    events = hand.act(2, RaiseTo(30))
    assert events == [PlayerActed(2, ActionKind.RAISE, 30, 30, True)]
    assert hand.act(0, Call()) == [PlayerActed(0, ActionKind.CALL, 29, 30, False)]
    assert hand.action_count == 2


# ----------------------------------------------------------------------- refusals


def refusal_cases() -> list[tuple[str, int, Any, type[Exception]]]:
    return [
        ("not your turn", 0, Call(), NotYourTurnError),
        ("check facing a bet", 2, Check(), ActionNotAllowedError),
        ("raise below minimum", 2, RaiseTo(3), RaiseAmountError),
        ("raise above stack", 2, RaiseTo(101), RaiseAmountError),
        ("raise to a negative amount", 2, RaiseTo(-5), RaiseAmountError),
        ("raise amount not a number", 2, RaiseTo("10"), MalformedInputError),  # type: ignore[arg-type]
        ("raise amount a float", 2, RaiseTo(10.0), MalformedInputError),  # type: ignore[arg-type]
        ("raise amount a bool", 2, RaiseTo(True), MalformedInputError),
        ("show before showdown", 2, Show(), ActionNotAllowedError),
        ("muck before showdown", 2, Muck(), ActionNotAllowedError),
        ("not an action", 2, "fold", MalformedInputError),
    ]


@pytest.mark.parametrize(("case", "player", "action", "error"), refusal_cases())
def test_hand_illegal_action_is_refused_and_changes_nothing(
    case: str, player: int, action: Any, error: type[Exception]
) -> None:
    hand = new_hand([100, 100, 100])
    before = snapshot(hand)
    with pytest.raises(error):
        hand.act(player, action)
    assert snapshot(hand) == before, case


def test_hand_fold_and_call_refused_when_checking_is_possible() -> None:
    hand = new_hand([100, 100, 100])
    play(hand, (2, Call()), (0, Call()))
    before = snapshot(hand)
    with pytest.raises(ActionNotAllowedError, match="check"):
        hand.act(1, Fold())
    with pytest.raises(ActionNotAllowedError, match="nothing to call"):
        hand.act(1, Call())
    assert snapshot(hand) == before


def test_hand_refuses_everything_once_complete() -> None:
    hand = new_hand([100, 100])
    play(hand, (1, Fold()))
    before = snapshot(hand)
    for action in (Fold(), Check(), Call(), RaiseTo(10)):
        with pytest.raises(HandCompleteError):
            hand.act(0, action)
    assert snapshot(hand) == before


@pytest.mark.parametrize(
    ("stacks", "players_in_stakes", "message"),
    [
        ([100], 1, "2 to 22"),
        ([100, 0], 2, "> 0"),
        ([100, -5], 2, "> 0"),
        ([100, 2.5], 2, "whole number"),
        ([100, 100, 100], 2, "stakes are for 2"),
    ],
)
def test_hand_refuses_a_bad_setup(stacks: list[Any], players_in_stakes: int, message: str) -> None:
    blinds = ((1, 2) + (0,) * players_in_stakes)[:players_in_stakes]
    with pytest.raises(InvalidSetupError, match=message):
        Hand(Stakes((0,) * players_in_stakes, blinds, 2), stacks)


def test_hand_refuses_a_deck_with_duplicates_or_too_few_cards() -> None:
    cards = parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s")
    with pytest.raises(InvalidSetupError, match="twice"):
        Hand(Stakes.standard(2, 1, 2), [10, 10], deck=[*cards, cards[0]])
    with pytest.raises(InvalidSetupError, match="not enough"):
        Hand(Stakes.standard(2, 1, 2), [10, 10], deck=cards[:10])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((2, 3, 2), "small blind"),
        ((2, -1, 2), "small blind"),
        ((2, 0, 0), "big >= 1"),
        ((1, 1, 2), "two"),
    ],
)
def test_stakes_refuse_bad_blinds(args: tuple[int, int, int], message: str) -> None:
    players, small, big = args
    with pytest.raises(InvalidSetupError, match=message):
        Stakes.standard(players, small, big)
