"""Home-game options on stacked decks: straddles, run it N times, bomb pots and double boards,
the 7-2 bounty, rabbit hunting and showing cards after the hand."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import DECK, Card, parse_cards
from engine.errors import EngineError, MalformedInputError
from engine.holdem import (
    ActionNotAllowedError,
    BoardDealt,
    BountyPaid,
    Call,
    Check,
    ChooseRunCount,
    Fold,
    Hand,
    HandCompleteError,
    HandEnded,
    HandOptions,
    HoleCardsRevealed,
    HomeGameOptions,
    InvalidSetupError,
    NotYourTurnError,
    Phase,
    PlayerActed,
    PotAwarded,
    RabbitHunt,
    RabbitHunted,
    RaiseAmountError,
    RaiseTo,
    Reveal,
    RunCountChosen,
    RunCountSettled,
    Stakes,
    StraddleKind,
    Street,
    stacked_deck,
)
from tests.engine.holdem.hand_state import hand_state


def ordered_deck(holes: Sequence[str], *streets: str) -> list[Card]:
    """Hole cards round the table, then each street's cards after a burn, then the rest."""
    hole_cards = [parse_cards(hole) for hole in holes]
    dealt = [parse_cards(street) for street in streets]
    used = {card for cards in (*hole_cards, *dealt) for card in cards}
    spare = iter([card for card in DECK if card not in used])
    deck = [hole_cards[p][r] for r in range(2) for p in range(len(holes))]
    for cards in dealt:
        deck.append(next(spare))  # burn
        deck.extend(cards)
    deck.extend(spare)
    return deck


def snapshot(hand: Hand) -> dict[str, Any]:
    return copy.deepcopy(hand_state(hand, "_rng", "_legal"))


def refused_unchanged(hand: Hand, player: int, action: Any, error: type[Exception]) -> None:
    before = snapshot(hand)
    with pytest.raises(error):
        hand.act(player, action)
    assert snapshot(hand) == before


def go_all_in(hand: Hand) -> None:
    while hand.phase is Phase.BETTING and (turn := hand.turn) is not None:
        if turn.max_raise_to is not None:
            hand.act(turn.player, RaiseTo(turn.max_raise_to))
        else:
            hand.act(turn.player, Call())


# --------------------------------------------------------------------------- straddles


def test_straddle_utg_posts_twice_the_big_blind_and_the_next_player_opens() -> None:
    stakes = Stakes.straddled(5, 1, 2)
    assert stakes.blinds_or_straddles == (1, 2, 4, 0, 0)
    assert stakes.min_bet == 4
    hand = Hand(stakes, [200] * 5, deck=stacked_deck([[]] * 5))
    turn = hand.turn
    assert turn is not None and turn.player == 3
    assert (turn.call_amount, turn.min_raise_to) == (4, 8)  # a raise is at least the straddle


def test_straddle_utg_acts_last_preflop_with_the_option_to_raise() -> None:
    hand = Hand(Stakes.straddled(4, 1, 2), [200] * 4, deck=stacked_deck([[]] * 4))
    for player in (3, 0, 1):
        hand.act(player, Call())
    turn = hand.turn
    assert turn is not None and turn.player == 2
    assert turn.can_check and turn.min_raise_to == 8


def test_straddle_re_straddles_double_each_time_and_move_the_opener() -> None:
    stakes = Stakes.straddled(6, 1, 2, straddles=3)
    assert stakes.blinds_or_straddles == (1, 2, 4, 8, 16, 0)
    hand = Hand(stakes, [500] * 6, deck=stacked_deck([[]] * 6))
    turn = hand.turn
    assert turn is not None and (turn.player, turn.call_amount, turn.min_raise_to) == (5, 16, 32)


def test_straddle_button_lets_the_small_blind_open_and_the_button_act_last() -> None:
    stakes = Stakes.straddled(4, 1, 2, button=True)
    assert stakes.blinds_or_straddles == (1, 2, 0, 4)
    hand = Hand(stakes, [200] * 4, deck=stacked_deck([[]] * 4))
    order = []
    while hand.street is Street.PREFLOP and (turn := hand.turn) is not None:
        order.append(turn.player)
        hand.act(turn.player, Check() if turn.can_check else Call())
    assert order == [0, 1, 2, 3]


def test_straddle_refuses_impossible_setups() -> None:
    with pytest.raises(InvalidSetupError):
        Stakes.straddled(2, 1, 2)
    with pytest.raises(InvalidSetupError):
        Stakes.straddled(4, 1, 2, straddles=3)
    with pytest.raises(InvalidSetupError):
        Stakes.straddled(6, 1, 2, straddles=2, button=True)


# --------------------------------------------------------------------------- run it N times


def _all_in_three_ways(max_run_count: int = 2) -> Hand:
    # p1 AcAd, p2 KcKd, p3 QcQd all in preflop; run 1 gives the kings a set, run 2 the queens.
    deck = ordered_deck(["AcAd", "KcKd", "QcQd"], "Kh7s2c", "3d", "4h", "Qh8s2d", "5c", "9h")
    hand = Hand(
        Stakes.standard(3, 1, 2), [100, 100, 101], deck=deck,
        options=HandOptions(max_run_count=max_run_count),
    )  # fmt: skip
    go_all_in(hand)
    return hand


def test_runs_everyone_all_in_is_asked_for_a_run_count_in_seat_order() -> None:
    hand = _all_in_three_ways()
    assert hand.phase is Phase.RUN_COUNT
    turn = hand.turn
    assert turn is not None and (turn.player, turn.max_run_count) == (0, 2)
    assert not turn.can_fold and not turn.can_call and not turn.can_raise
    assert hand.board == ()


def test_runs_all_agree_deals_the_rest_twice_and_splits_each_pot_between_runs() -> None:
    hand = _all_in_three_ways()
    events = []
    for player in (2, 0, 1):  # any order: Discord buttons answer in any order
        events += hand.act(player, ChooseRunCount(2))
    assert events[:3] == [RunCountChosen(2, 2), RunCountChosen(0, 2), RunCountChosen(1, 2)]
    assert RunCountSettled(2) in events
    assert hand.run_count == 2
    assert hand.boards == (
        tuple(parse_cards("Kh7s2c3d4h")),
        tuple(parse_cards("Qh8s2d5c9h")),
    )
    runs = [(e.board, e.street) for e in hand.events if isinstance(e, BoardDealt)]
    streets = [Street.FLOP, Street.TURN, Street.RIVER]
    assert runs == [(run, street) for run in (0, 1) for street in streets]
    awards = [
        (e.pot, e.board, e.amount, e.shares) for e in hand.events if isinstance(e, PotAwarded)
    ]
    # 300 in the main pot: 150 per run; the side pot of 1 chip is p3's own, uncalled.
    assert awards == [(0, 0, 150, ((1, 150),)), (0, 1, 150, ((2, 150),))]
    assert hand.stacks == (0, 150, 151)
    assert sum(hand.stacks) == 301


def test_runs_one_player_declining_runs_the_board_once() -> None:
    hand = _all_in_three_ways()
    hand.act(0, ChooseRunCount(2))
    hand.act(1, ChooseRunCount(1))
    events = hand.act(2, ChooseRunCount(2))
    assert RunCountSettled(1) in events
    assert hand.run_count == 1 and len(hand.boards) == 1
    assert hand.stacks == (0, 300, 1)


def test_runs_different_counts_run_once_as_pokerkit_does() -> None:
    hand = _all_in_three_ways(max_run_count=3)
    for player, count in ((0, 3), (1, 2), (2, 3)):
        hand.act(player, ChooseRunCount(count))
    assert hand.run_count == 1


def test_runs_odd_chip_rule_is_first_run_then_first_winner_left_of_the_button() -> None:
    # Three players all in for 11 each (33 chips): the runs get 17 and 16. On run 1 the board
    # plays: 17 splits 5 each and both odd chips go to p1, the first left of the button. On
    # run 2 p1 and p2 tie with a pair of deuces and split 16 evenly.
    deck = ordered_deck(["2c3d", "2d3c", "4h5h"], "AsKsQs", "Js", "Ts", "7c8c9d", "Jh", "2s")
    hand = Hand(
        Stakes.standard(3, 1, 2), [11, 11, 11], deck=deck, options=HandOptions(max_run_count=2)
    )
    go_all_in(hand)
    for player in range(3):
        hand.act(player, ChooseRunCount(2))
    awards = [(e.board, e.amount, e.shares) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(0, 17, ((0, 7), (1, 5), (2, 5))), (1, 16, ((0, 8), (1, 8)))]
    assert hand.stacks == (15, 13, 5)


def test_runs_refusals_leave_the_hand_unchanged() -> None:
    hand = _all_in_three_ways()
    refused_unchanged(hand, 0, Fold(), ActionNotAllowedError)
    refused_unchanged(hand, 0, ChooseRunCount(3), ActionNotAllowedError)
    refused_unchanged(hand, 0, ChooseRunCount(0), ActionNotAllowedError)
    refused_unchanged(hand, 0, ChooseRunCount("2"), MalformedInputError)  # type: ignore[arg-type]
    refused_unchanged(hand, 0, Reveal(), ActionNotAllowedError)
    hand.act(0, ChooseRunCount(2))
    refused_unchanged(hand, 0, ChooseRunCount(2), NotYourTurnError)


def test_runs_are_not_offered_when_the_option_is_off_or_at_the_river() -> None:
    hand = _all_in_three_ways(max_run_count=1)
    assert hand.is_complete and hand.run_count == 1
    deck = ordered_deck(["AcAd", "KcKd"], "Kh7s2c", "3d", "4h")
    hand = Hand(Stakes.standard(2, 1, 2), [100, 100], deck=deck, options=HandOptions(2))
    while hand.street is not Street.RIVER:
        turn = hand.turn
        assert turn is not None
        hand.act(turn.player, Check() if turn.can_check else Call())
    go_all_in(hand)
    assert hand.is_complete and hand.run_count == 1


def test_runs_asked_at_construction_when_the_blinds_put_everyone_all_in() -> None:
    hand = Hand(
        Stakes.standard(2, 1, 2), [1, 2], deck=stacked_deck([[]] * 2),
        options=HandOptions(max_run_count=2),
    )  # fmt: skip
    assert hand.phase is Phase.RUN_COUNT and not hand.is_complete


# --------------------------------------------------------------------------- bomb pots


def test_bomb_pot_everyone_antes_and_the_hand_starts_on_the_flop() -> None:
    hand = Hand(
        Stakes.bomb_pot(4, 10, 2), [100] * 4, deck=stacked_deck([[]] * 4),
        options=HandOptions(bomb_pot=True),
    )  # fmt: skip
    assert hand.street is Street.FLOP and len(hand.board) == 3
    assert hand.pot_total == 40 and hand.stacks == (90, 90, 90, 90)
    assert not any(isinstance(e, PlayerActed) for e in hand.events)
    turn = hand.turn
    assert turn is not None and turn.player == 0 and turn.can_check and turn.min_raise_to == 2
    assert [a for a in hand.phh_actions if not a.startswith("d ")] == [
        "p1 cc", "p2 cc", "p3 cc", "p4 cc"
    ]  # fmt: skip


def test_bomb_pot_double_board_splits_each_pot_between_the_boards() -> None:
    # Board 0 makes p1's aces a set, board 1 gives p2 a flush. 3 players x 7 = 21: 11 and 10.
    # Each street: one burn, then board 0's cards, then board 1's.
    deck = ordered_deck(["AcAd", "KhQh", "7s2c"], "As9d4c2h3h8h", "5dTc", "6sJs")
    hand = Hand(
        Stakes.bomb_pot(3, 7, 2), [7, 7, 7], deck=deck, options=HandOptions(boards=2, bomb_pot=True)
    )
    assert hand.is_complete
    assert hand.boards[0][:3] == tuple(parse_cards("As9d4c"))
    assert hand.boards[1][:3] == tuple(parse_cards("2h3h8h"))
    awards = [(e.board, e.amount, e.shares) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(0, 11, ((0, 11),)), (1, 10, ((1, 10),))]
    assert hand.stacks == (11, 10, 0)


def test_bomb_pot_and_double_board_refusals() -> None:
    with pytest.raises(InvalidSetupError):
        Stakes.bomb_pot(4, 0, 2)
    with pytest.raises(InvalidSetupError):
        HandOptions(boards=2, max_run_count=2)
    with pytest.raises(InvalidSetupError):
        HandOptions(boards=3)
    with pytest.raises(InvalidSetupError):
        Hand(Stakes.standard(20, 1, 2), [10] * 20, options=HandOptions(boards=2))


# --------------------------------------------------------------------------- the 7-2 game


def _seven_deuce_showdown(bounty: int, stacks: Sequence[int]) -> Hand:
    # p1 7h2c makes two pair on 7-2-K-K-4 against p2's AcQd and p3's 9s8s.
    deck = ordered_deck(["7h2c", "AcQd", "9s8s"], "7d2dKs", "Kh", "4c")
    hand = Hand(
        Stakes.standard(3, 1, 2), stacks, deck=deck,
        options=HandOptions(seven_deuce_bounty=bounty),
    )  # fmt: skip
    while not hand.is_complete:
        turn = hand.turn
        assert turn is not None
        hand.act(turn.player, Check() if turn.can_check else Call())
    return hand


def test_seven_deuce_winner_at_showdown_collects_from_everyone_dealt_in() -> None:
    hand = _seven_deuce_showdown(10, [100, 100, 100])
    bounties = [e for e in hand.events if isinstance(e, BountyPaid)]
    assert bounties == [BountyPaid(1, 0, 10), BountyPaid(2, 0, 10)]
    assert hand.stacks == (104, 98, 98)  # the pots alone, as PokerKit has them
    assert hand.stacks_after_bounties == (124, 88, 88)
    assert isinstance(hand.events[-3], HandEnded)


def test_seven_deuce_bounty_is_capped_at_what_the_payer_has_left() -> None:
    hand = _seven_deuce_showdown(10, [100, 7, 100])
    assert hand.stacks_after_bounties == (100 + 4 + 5 + 10, 0, 88)
    assert sum(hand.stacks_after_bounties) == 207


def test_seven_deuce_won_without_showdown_pays_once_both_cards_are_revealed() -> None:
    deck = ordered_deck(["7h2c", "AcQd", "9s8s"], "7d2dKs")
    hand = Hand(
        Stakes.standard(3, 1, 2), [100] * 3, deck=deck, options=HandOptions(seven_deuce_bounty=5)
    )
    hand.act(2, Fold())
    hand.act(0, RaiseTo(6))
    hand.act(1, Fold())
    assert hand.is_complete and not any(isinstance(e, BountyPaid) for e in hand.events)
    assert hand.act(0, Reveal((0,))) == [HoleCardsRevealed(0, (parse_cards("7h")[0],))]
    events = hand.act(0, Reveal((1,)))
    assert events[1:] == [BountyPaid(1, 0, 5), BountyPaid(2, 0, 5)]
    assert hand.stacks_after_bounties == (112, 93, 95)


def test_seven_deuce_suited_or_losing_pays_nothing() -> None:
    deck = ordered_deck(["7h2h", "AcQd"], "7d2dKs", "Kh", "4c")
    hand = Hand(
        Stakes.standard(2, 1, 2), [100] * 2, deck=deck, options=HandOptions(seven_deuce_bounty=5)
    )
    while not hand.is_complete:
        turn = hand.turn
        assert turn is not None
        hand.act(turn.player, Check() if turn.can_check else Call())
    assert not any(isinstance(e, BountyPaid) for e in hand.events)
    hand = _seven_deuce_showdown(0, [100, 100, 100])
    assert not any(isinstance(e, BountyPaid) for e in hand.events)


# --------------------------------------------------------------------------- after the hand


def _folded_preflop(**options: Any) -> Hand:
    deck = ordered_deck(["AcAd", "KcKd", "QcQd"], "Kh7s2c", "3d", "4h")
    hand = Hand(Stakes.standard(3, 1, 2), [100] * 3, deck=deck, options=HandOptions(**options))
    hand.act(2, Fold())
    hand.act(0, Fold())
    return hand


def test_rabbit_hunt_shows_the_cards_the_deck_would_have_dealt_and_changes_nothing() -> None:
    hand = _folded_preflop(rabbit_hunt=True)
    stacks = hand.stacks
    assert hand.after_hand(2).can_rabbit_hunt
    events = hand.act(2, RabbitHunt())
    assert events == [RabbitHunted(2, tuple(parse_cards("Kh7s2c3d4h")))]
    assert hand.stacks == stacks and hand.board == ()
    assert hand.after_hand_lines == ("p3 rh Kh7s2c3d4h",)
    refused_unchanged(hand, 0, RabbitHunt(), ActionNotAllowedError)


def test_rabbit_hunt_refused_when_off_unfinished_or_after_the_river() -> None:
    hand = _folded_preflop()
    refused_unchanged(hand, 0, RabbitHunt(), ActionNotAllowedError)
    deck = ordered_deck(["AcAd", "KcKd"], "Kh7s2c")
    live = Hand(
        Stakes.standard(2, 1, 2), [100] * 2, deck=deck, options=HandOptions(rabbit_hunt=True)
    )
    refused_unchanged(live, 1, RabbitHunt(), ActionNotAllowedError)
    with pytest.raises(ActionNotAllowedError):
        live.after_hand(0)
    hand = _seven_deuce_showdown(0, [100, 100, 100])
    assert not hand.after_hand(0).can_rabbit_hunt


def test_reveal_one_or_both_cards_after_folding_or_winning_uncontested() -> None:
    hand = _folded_preflop()
    assert hand.after_hand(2).revealable == (0, 1)
    assert hand.act(2, Reveal((1,))) == [HoleCardsRevealed(2, tuple(parse_cards("Qd")))]
    assert hand.after_hand(2).revealable == (0,)
    refused_unchanged(hand, 2, Reveal((1,)), ActionNotAllowedError)
    hand.act(1, Reveal())
    assert hand.revealed == ((), (0, 1), (1,))
    refused_unchanged(hand, 1, Reveal(), ActionNotAllowedError)
    refused_unchanged(hand, 0, Reveal((2,)), MalformedInputError)
    refused_unchanged(hand, 0, Reveal((0, 0)), MalformedInputError)
    refused_unchanged(hand, 5, Reveal(), NotYourTurnError)
    refused_unchanged(hand, 0, Fold(), HandCompleteError)


def test_reveal_refused_for_a_hand_shown_at_showdown_or_before_the_end() -> None:
    hand = _seven_deuce_showdown(0, [100, 100, 100])
    assert hand.after_hand(0).revealable == ()
    refused_unchanged(hand, 0, Reveal(), ActionNotAllowedError)
    live = Hand(Stakes.standard(2, 1, 2), [100] * 2, deck=stacked_deck([[]] * 2))
    refused_unchanged(live, 1, Reveal(), ActionNotAllowedError)  # player 1 is to act


# --------------------------------------------------------------------------- table options


def test_home_game_options_make_every_nth_hand_a_bomb_pot() -> None:
    table = HomeGameOptions(
        straddle=StraddleKind.UNDER_THE_GUN, max_straddles=2, run_it_max=2,
        bomb_pot_every=3, bomb_pot_ante=5, bomb_pot_double_board=True, seven_deuce_bounty=4,
        rabbit_hunt=True,
    )  # fmt: skip
    assert table.hand_options(1) == HandOptions(2, False, 1, 4, True)
    assert table.hand_options(3) == HandOptions(1, True, 2, 4, True)
    assert table.stakes(3, 4, 1, 2) == Stakes.bomb_pot(4, 5, 2)
    assert table.stakes(1, 4, 1, 2, straddles=2) == Stakes.straddled(4, 1, 2, straddles=2)
    assert table.stakes(1, 4, 1, 2) == Stakes.standard(4, 1, 2)


def test_home_game_options_refusals() -> None:
    with pytest.raises(InvalidSetupError):
        HomeGameOptions(straddle=StraddleKind.BUTTON, max_straddles=2)
    with pytest.raises(InvalidSetupError):
        HomeGameOptions(bomb_pot_every=5)
    with pytest.raises(InvalidSetupError):
        HomeGameOptions(run_it_max=9)
    with pytest.raises(InvalidSetupError):
        HomeGameOptions().stakes(1, 4, 1, 2, straddles=1)
    with pytest.raises(InvalidSetupError):
        HomeGameOptions(straddle=StraddleKind.UNDER_THE_GUN).stakes(1, 5, 1, 2, straddles=2)
    with pytest.raises(InvalidSetupError):
        Hand(Stakes.standard(2, 1, 2), [10, 10], options="twice")  # type: ignore[arg-type]
    with pytest.raises(EngineError):
        HandOptions(max_run_count=True)
    hand = Hand(Stakes.straddled(3, 1, 2), [100] * 3, deck=stacked_deck([[]] * 3))
    refused_unchanged(hand, 0, RaiseTo(5), RaiseAmountError)
