"""The Blackjack round on stacked shoes: every rule corner, payouts, turn order and refusals.

Stacked order: each seat's first card (seat 0 up), the dealer's up card, each seat's second card,
the dealer's hole card (none without peek), then cards as they are drawn.
"""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from engine.blackjack import (
    CASINO,
    CLASSIC,
    Action,
    ActionNotAllowedError,
    BetError,
    BlackjackHandStatus,
    BlackjackPays,
    CardDealt,
    DealerCardDealt,
    DealerPeeked,
    DoubleRule,
    EvenMoneyTaken,
    HandSettled,
    HandSplit,
    HandStood,
    HoleCardDealt,
    HoleCardRevealed,
    InsuranceOffered,
    InsuranceSettled,
    MalformedActionError,
    NotYourTurnError,
    Outcome,
    Phase,
    Round,
    RoundEnded,
    RoundStateError,
    Shoe,
    ShoeExhaustedError,
    StackedShoe,
    StakeAdded,
    Surrender,
    Ties,
    TurnStarted,
)
from engine.cards import parse_card
from tests.engine.blackjack.helpers import dealt, of_type, snapshot

H17 = dataclasses.replace(CASINO, h17=True)
NO_DAS = dataclasses.replace(CASINO, das=False)
LATE = dataclasses.replace(CASINO, surrender=Surrender.LATE)
EUROPEAN = dataclasses.replace(CASINO, peek=False)
SIX_FIVE = dataclasses.replace(CASINO, blackjack_pays=BlackjackPays.SIX_TO_FIVE)


def outcomes(game: Round) -> list[tuple[int, int, Outcome, int, int]]:
    return [(r.seat, r.hand, r.outcome, r.stake, r.payout) for r in game.results]


# ----------------------------------------------------------------------------- naturals, payouts


def test_round_natural_pays_three_to_two_at_once() -> None:
    game, events, _ = dealt("As 9h Kd 7c")
    assert game.is_complete
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, 10, 25)]
    assert game.seat_net(0) == 15
    assert of_type(events, HandSettled)[0].result.net == 15


def test_round_three_to_two_on_an_odd_bet_rounds_the_payout_down() -> None:
    game, _, _ = dealt("As 9h Kd 7c", bets={0: 5})
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, 5, 12)]  # 7.5 chips won, 7 paid


@pytest.mark.parametrize(
    ("bet", "payout"),
    [(10, 22), (5, 11), (7, 15), (1, 2), (25, 55)],
)
def test_round_six_to_five_pays_the_natural_rounded_down(bet: int, payout: int) -> None:
    game, _, _ = dealt("As 9h Kd 7c", rules=SIX_FIVE, bets={0: bet})
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, bet, payout)]


def test_round_classic_natural_wins_even_money() -> None:
    game, _, _ = dealt("As 9h Kd 7c", rules=CLASSIC)
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, 10, 20)]


def test_round_two_card_21_after_a_split_is_not_a_blackjack() -> None:
    # A,A vs 6: split; first ace draws 9 (20), second draws K (21, paid 1:1); dealer 6+T+4=20.
    game, _, _ = dealt("As 6c Ad Tc 9h Kd 4s")
    game.split(0)
    assert game.is_complete
    assert outcomes(game) == [
        (0, 0, Outcome.PUSH, 10, 10),
        (0, 1, Outcome.WIN, 10, 20),
    ]


# ----------------------------------------------------------------------------- peek and insurance


def test_round_peek_under_a_ten_ends_the_round_on_a_dealer_blackjack() -> None:
    game, events, _ = dealt("9c Th 8d As")
    assert game.is_complete
    assert of_type(events, DealerPeeked) == [DealerPeeked(True)]
    assert of_type(events, HoleCardRevealed) == [HoleCardRevealed(parse_card("As"))]
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]


def test_round_peek_under_a_ten_without_blackjack_lets_the_player_act() -> None:
    game, events, _ = dealt("9c Th 8d 7s")
    assert of_type(events, DealerPeeked) == [DealerPeeked(False)]
    assert game.phase is Phase.PLAYERS
    assert game.to_act == (0, 0)
    assert not of_type(events, InsuranceOffered)


def test_round_natural_against_a_dealer_natural_pushes() -> None:
    game, _, _ = dealt("As Th Kd Ac")
    assert outcomes(game) == [(0, 0, Outcome.PUSH, 10, 10)]


def test_round_insurance_is_offered_under_an_ace_and_pays_two_to_one() -> None:
    game, events, _ = dealt("9c Ah 8d Ks")
    assert of_type(events, InsuranceOffered) == [InsuranceOffered((0,))]
    assert game.phase is Phase.INSURANCE
    assert game.legal_actions(0) == {Action.INSURE, Action.NO_INSURANCE}
    assert game.extra_stake(0, Action.INSURE) == 5
    events = game.insure(0)
    assert of_type(events, StakeAdded) == [StakeAdded(0, 0, 5, Action.INSURE)]
    assert game.is_complete
    (insurance,) = of_type(events, InsuranceSettled)
    assert (insurance.result.stake, insurance.result.payout) == (5, 15)
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]
    assert game.seat_net(0) == 0  # insurance won 10, the hand lost 10


def test_round_insurance_is_lost_when_the_dealer_has_no_blackjack() -> None:
    game, _, _ = dealt("9c Ah 8d 7s Ks")
    events = game.insure(0)
    assert of_type(events, DealerPeeked) == [DealerPeeked(False)]
    (insurance,) = of_type(events, InsuranceSettled)
    assert insurance.result.payout == 0
    assert game.to_act == (0, 0)
    game.stand(0)  # 17 against A+7 = soft 18
    assert game.seat_net(0) == -15


def test_round_insurance_on_an_odd_bet_is_half_rounded_down() -> None:
    game, _, _ = dealt("9c Ah 8d Ks", bets={0: 7})
    assert game.extra_stake(0, Action.INSURE) == 3
    game.insure(0)
    assert game.insurance_results[0].payout == 9
    assert game.seat_net(0) == -7 + 6


def test_round_one_chip_bet_is_not_offered_insurance() -> None:
    game, events, _ = dealt("9c Ah 8d 7s", bets={0: 1})
    assert not of_type(events, InsuranceOffered)
    assert game.phase is Phase.PLAYERS


def test_round_even_money_is_paid_at_once_whatever_the_hole_card() -> None:
    for hole in ("Ks", "7s"):
        game, _, _ = dealt(f"As Ah Kd {hole}")
        assert game.legal_actions(0) == {Action.EVEN_MONEY, Action.NO_INSURANCE}
        events = game.take_even_money(0)
        assert of_type(events, EvenMoneyTaken) == [EvenMoneyTaken(0)]
        assert game.is_complete
        assert outcomes(game) == [(0, 0, Outcome.EVEN_MONEY, 10, 20)]


def test_round_declined_even_money_pushes_against_a_blackjack_or_pays_three_to_two() -> None:
    game, _, _ = dealt("As Ah Kd Ks")
    game.decline_insurance(0)
    assert outcomes(game) == [(0, 0, Outcome.PUSH, 10, 10)]
    game, _, _ = dealt("As Ah Kd 7s")
    game.decline_insurance(0)
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, 10, 25)]


def test_round_without_insurance_rule_peeks_at_once_under_an_ace() -> None:
    rules = dataclasses.replace(CASINO, insurance=False)
    game, events, _ = dealt("9c Ah 8d Ks", rules=rules)
    assert not of_type(events, InsuranceOffered)
    assert game.is_complete
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]


def test_round_seats_decide_insurance_in_any_order() -> None:
    game, _, _ = dealt("9c Th Ah 8d 6s 7s 2c", bets={0: 10, 2: 4})
    assert game.pending_insurance == (0, 2)
    assert game.to_act == (0, 0)
    game.insure(2)
    assert game.pending_insurance == (0,)  # type: ignore[comparison-overlap]  # mypy keeps the narrowing from before insure()
    with pytest.raises(NotYourTurnError):
        game.insure(2)
    game.decline_insurance(0)
    assert game.phase is Phase.PLAYERS
    assert game.to_act == (0, 0)
    assert game.insurance_results[0].seat == 2
    assert game.insurance_results[0].payout == 0


# ----------------------------------------------------------------------------- splits


def test_round_split_aces_get_one_card_each() -> None:
    game, _, _ = dealt("As 6c Ad Tc 5h 3d 9s")
    assert Action.SPLIT in game.legal_actions(0)
    events = game.split(0)
    assert game.is_complete  # both aces stood on their one card; the dealer played
    hands = game.view().seats[0].hands
    assert [len(hand.cards) for hand in hands] == [2, 2]
    assert [hand.value.total for hand in hands] == [16, 14]
    assert of_type(events, StakeAdded) == [StakeAdded(0, 1, 10, Action.SPLIT)]
    # dealer 6+T+9 busts: both hands win
    assert outcomes(game) == [(0, 0, Outcome.WIN, 10, 20), (0, 1, Outcome.WIN, 10, 20)]


def test_round_split_aces_may_be_resplit_only_when_the_rules_allow() -> None:
    game, _, _ = dealt("As 6c Ad Tc Ah 9d 8s 2c")
    game.split(0)
    assert game.is_complete  # the ace drawn to the first ace just stands (soft 12)
    assert [hand.value.total for hand in game.view().seats[0].hands] == [12, 20]

    rules = dataclasses.replace(CASINO, resplit_aces=True)
    game, _, _ = dealt("As 6c Ad Tc Ah 9d 8s 7h 2c", rules=rules)
    game.split(0)
    assert game.legal_actions(0) == {Action.STAND, Action.SPLIT}
    game.split(0)
    assert game.is_complete
    assert [hand.value.total for hand in game.view().seats[0].hands] == [20, 19, 18]


def test_round_hit_split_aces_lets_split_aces_play_on() -> None:
    rules = dataclasses.replace(CASINO, hit_split_aces=True)
    game, _, _ = dealt("As 6c Ad Tc 2h 8s 9d 5c", rules=rules)
    game.split(0)
    assert Action.HIT in game.legal_actions(0)
    game.hit(0)  # A,2,8 = 21 stands by itself
    assert game.to_act == (0, 1)


def test_round_resplits_up_to_max_hands() -> None:
    game, _, _ = dealt("8s 6c 8d Tc 8h 8c 8s 3d 4h 5s 2c 2d")
    game.split(0)
    assert game.to_act == (0, 0)
    game.split(0)
    game.split(0)
    assert len(game.view().seats[0].hands) == 4
    assert Action.SPLIT not in game.legal_actions(0)  # 8,8 again but the seat has 4 hands
    with pytest.raises(ActionNotAllowedError, match="more than 4 hands"):
        game.split(0)


def test_round_max_hands_two_allows_one_split_only() -> None:
    rules = dataclasses.replace(CASINO, max_hands=2)
    game, _, _ = dealt("8s 6c 8d Tc 8h 3d", rules=rules)
    game.split(0)
    assert Action.SPLIT not in game.legal_actions(0)


def test_round_no_splitting_when_max_hands_is_one() -> None:
    game, _, _ = dealt("8s 6c 8d Tc", rules=CLASSIC)
    assert game.legal_actions(0) == {Action.HIT, Action.STAND}


def test_round_any_two_tens_are_a_pair() -> None:
    game, _, _ = dealt("Ks 6c Qd Tc")
    assert Action.SPLIT in game.legal_actions(0)


def test_round_split_hands_are_played_in_order_each_getting_its_second_card_when_it_comes_up() -> (
    None
):
    game, events, _ = dealt("8s 6c 8d Tc 3h 9d 2c")
    events = game.split(0)
    assert of_type(events, HandSplit) == [HandSplit(0, 0, 1)]
    assert [e.card for e in of_type(events, CardDealt)] == [parse_card("3h")]
    events = game.stand(0)
    assert [e.card for e in of_type(events, CardDealt)] == [parse_card("9d")]
    assert of_type(events, TurnStarted) == [TurnStarted(0, 1)]


@pytest.mark.parametrize(("rules", "allowed"), [(CASINO, True), (NO_DAS, False)])
def test_round_double_after_split_follows_das(rules: object, allowed: bool) -> None:
    game, _, shoe = dealt("8s 6c 8d Tc 3h 9d 2c", rules=rules)  # type: ignore[arg-type]
    game.split(0)  # first hand 8,3 = 11
    assert (Action.DOUBLE in game.legal_actions(0)) is allowed
    if not allowed:
        before = snapshot(game, shoe)
        with pytest.raises(ActionNotAllowedError, match="after a split"):
            game.double(0)
        assert snapshot(game, shoe) == before


# ----------------------------------------------------------------------------- doubles


def test_round_double_takes_one_card_and_doubles_the_stake() -> None:
    game, _, _ = dealt("6s 9c 5d 7c 9h Ts")
    assert game.extra_stake(0, Action.DOUBLE) == 10
    events = game.double(0)
    assert of_type(events, StakeAdded) == [StakeAdded(0, 0, 10, Action.DOUBLE)]
    assert [e.card for e in of_type(events, CardDealt)] == [parse_card("9h")]
    assert game.is_complete  # 20 on a doubled bet; the dealer's 16 draws a ten and busts
    assert outcomes(game) == [(0, 0, Outcome.WIN, 20, 40)]


@pytest.mark.parametrize(
    ("double", "hand", "allowed"),
    [
        (DoubleRule.ANY, "As 7d", True),
        (DoubleRule.ANY, "2s 3d", True),
        (DoubleRule.NINE_TO_ELEVEN, "5s 4d", True),
        (DoubleRule.NINE_TO_ELEVEN, "6s 2d", False),
        (DoubleRule.NINE_TO_ELEVEN, "As 8d", False),  # soft 19 is not a hard 9
        (DoubleRule.TEN_TO_ELEVEN, "5s 4d", False),
        (DoubleRule.TEN_TO_ELEVEN, "6s 4d", True),
        (DoubleRule.TEN_TO_ELEVEN, "6s 5d", True),
        (DoubleRule.NONE, "6s 5d", False),
    ],
)
def test_round_offers_double_only_on_the_hands_the_rule_allows(
    double: DoubleRule, hand: str, allowed: bool
) -> None:
    first, second = hand.split()
    rules = dataclasses.replace(CASINO, double=double)
    game, _, _ = dealt(f"{first} 9c {second} 7c 2h 2d 2s", rules=rules)
    assert (Action.DOUBLE in game.legal_actions(0)) is allowed


def test_round_double_on_three_cards_is_refused_without_changing_anything() -> None:
    game, _, shoe = dealt("2s 9c 3d 7c 4h 5s")
    game.hit(0)
    before = snapshot(game, shoe)
    with pytest.raises(ActionNotAllowedError, match="first two cards"):
        game.double(0)
    assert snapshot(game, shoe) == before


# ----------------------------------------------------------------------------- surrender


def test_round_late_surrender_returns_half_the_bet() -> None:
    game, _, _ = dealt("Ts 9c 6d 7c", rules=LATE)
    assert Action.SURRENDER in game.legal_actions(0)
    events = game.surrender(0)
    assert game.is_complete
    assert outcomes(game) == [(0, 0, Outcome.SURRENDER, 10, 5)]
    assert not of_type(events, DealerCardDealt)  # nothing left for the dealer to play for


def test_round_surrender_of_an_odd_bet_returns_half_rounded_down() -> None:
    game, _, _ = dealt("Ts 9c 6d 7c", rules=LATE, bets={0: 5})
    game.surrender(0)
    assert outcomes(game) == [(0, 0, Outcome.SURRENDER, 5, 2)]


def test_round_surrender_is_refused_where_not_allowed() -> None:
    game, _, shoe = dealt("Ts 9c 6d 7c 2d 3h")
    before = snapshot(game, shoe)
    with pytest.raises(ActionNotAllowedError, match="not allowed at this table"):
        game.surrender(0)
    assert snapshot(game, shoe) == before
    game, _, shoe = dealt("Ts 9c 2d 7c 3h 4s", rules=LATE)
    game.hit(0)
    with pytest.raises(ActionNotAllowedError, match="first two cards"):
        game.surrender(0)
    game, _, _ = dealt("8s 9c 8d 7c 3h 9d", rules=LATE)
    game.split(0)
    assert Action.SURRENDER not in game.legal_actions(0)


def test_round_surrender_comes_after_insurance_and_the_peek() -> None:
    game, _, _ = dealt("Ts Ac 6d 7c", rules=LATE)
    assert game.phase is Phase.INSURANCE
    assert Action.SURRENDER not in game.legal_actions(0)
    game.decline_insurance(0)
    assert Action.SURRENDER in game.legal_actions(0)
    game, _, _ = dealt("Ts Ac 6d Kc", rules=LATE)
    game.decline_insurance(0)
    assert game.is_complete  # a dealer blackjack: too late to surrender
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]


# ----------------------------------------------------------------------------- the dealer


@pytest.mark.parametrize(("rules", "dealer_total"), [(CASINO, 17), (H17, 21)])
def test_round_dealer_soft_17(rules: object, dealer_total: int) -> None:
    # Player 18; dealer A+6 = soft 17 stands (S17) or hits the 4 to 21 (H17).
    game, _, _ = dealt("Ts 6c 8d Ac 4h", rules=rules)  # type: ignore[arg-type]
    game.stand(0)
    assert game.view().dealer.value.total == dealer_total
    expected = Outcome.WIN if dealer_total == 17 else Outcome.LOSS
    assert outcomes(game)[0][2] is expected


def test_round_dealer_stands_on_hard_17_and_soft_18_even_h17() -> None:
    game, _, _ = dealt("Ts 7c 9d Tc", rules=H17)
    game.stand(0)
    assert game.view().dealer.value.total == 17
    game, _, _ = dealt("Ts 7c 9d Ac", rules=H17)
    game.stand(0)
    assert game.view().dealer.value.total == 18


def test_round_dealer_draws_nothing_when_every_hand_busted() -> None:
    game, _, _ = dealt("Ts 6c 6d Tc Kh")
    events = game.hit(0)
    assert game.is_complete
    assert outcomes(game) == [(0, 0, Outcome.BUST, 10, 0)]
    assert not of_type(events, DealerCardDealt)
    assert of_type(events, HoleCardRevealed) == [HoleCardRevealed(parse_card("Tc"))]


def test_round_busted_player_loses_even_when_the_dealer_busts_later() -> None:
    game, _, _ = dealt("Ts 9s 6d 6c 6h Tc Kh Kc", bets={0: 10, 1: 10})
    game.hit(0)  # seat 0 busts
    game.stand(1)  # seat 1 stands on 15; dealer 16 draws K and busts
    assert outcomes(game) == [
        (0, 0, Outcome.BUST, 10, 0),
        (1, 0, Outcome.WIN, 10, 20),
    ]


# ------------------------------------------------------------------------- European no-hole-card


def test_round_european_dealer_takes_the_second_card_after_the_players() -> None:
    game, events, _ = dealt("Ts 9c 7d 9h", rules=EUROPEAN)
    assert not of_type(events, HoleCardDealt)
    assert len(game.view().dealer.cards) == 1
    events = game.stand(0)
    assert [e.card for e in of_type(events, DealerCardDealt)] == [parse_card("9h")]
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]


def test_round_european_blackjack_takes_doubles_and_splits() -> None:
    game, _, _ = dealt("6s Tc 5d 9h Ah", rules=EUROPEAN)
    game.double(0)  # 6+5+9 = 20 on a doubled bet; the dealer turns up an ace
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 20, 0)]
    assert game.seat_net(0) == -20

    game, _, _ = dealt("8s Tc 8d 3h 2c As", rules=EUROPEAN)
    game.split(0)
    game.stand(0)
    game.stand(0)
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0), (0, 1, Outcome.LOSS, 10, 0)]
    assert game.seat_net(0) == -20


def test_round_european_natural_waits_for_the_dealers_second_card() -> None:
    game, _, _ = dealt("As Tc Kd Ah", rules=EUROPEAN)
    assert game.is_complete
    assert outcomes(game) == [(0, 0, Outcome.PUSH, 10, 10)]
    game, _, _ = dealt("As Tc Kd 9h", rules=EUROPEAN)
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, 10, 25)]
    game, events, _ = dealt("As 9c Kd", rules=EUROPEAN)  # the dealer cannot have blackjack
    assert outcomes(game) == [(0, 0, Outcome.BLACKJACK, 10, 25)]
    assert not of_type(events, DealerCardDealt)[1:]  # no second dealer card was needed


def test_round_european_surrender_loses_everything_to_a_blackjack() -> None:
    rules = dataclasses.replace(EUROPEAN, surrender=Surrender.LATE)
    game, _, _ = dealt("Ts Tc 6d Ah", rules=rules)
    game.surrender(0)
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]
    game, _, _ = dealt("Ts Tc 6d 7h", rules=rules)
    game.surrender(0)
    assert outcomes(game) == [(0, 0, Outcome.SURRENDER, 10, 5)]


def test_round_european_insurance_is_settled_when_the_dealer_draws() -> None:
    game, _, _ = dealt("Ts Ac 7d Kh", rules=EUROPEAN)
    game.insure(0)
    assert game.insurance_results == ()
    game.stand(0)
    assert game.insurance_results[0].payout == 15  # type: ignore[misc]  # mypy keeps the () narrowing from before stand()
    assert game.seat_net(0) == 0


# ----------------------------------------------------------------------------- pushes and ties


def test_round_equal_totals_push() -> None:
    game, _, _ = dealt("Ts 9c 8d 9h")
    game.stand(0)
    assert outcomes(game) == [(0, 0, Outcome.PUSH, 10, 10)]
    assert game.seat_net(0) == 0


def test_round_classic_equal_totals_lose_but_naturals_tie() -> None:
    game, _, _ = dealt("Ts 9c 8d 9h", rules=CLASSIC)
    game.stand(0)
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]
    game, _, _ = dealt("As Tc Kd Ah", rules=CLASSIC)
    assert outcomes(game) == [(0, 0, Outcome.PUSH, 10, 10)]


def test_round_classic_dealer_natural_beats_everything_but_a_natural() -> None:
    game, _, _ = dealt("Ts Ac 9d Kh", rules=CLASSIC)
    assert game.is_complete  # no insurance in classic
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]


def test_round_ties_lose_also_applies_to_twenty_one() -> None:
    rules = dataclasses.replace(CASINO, ties=Ties.LOSE)
    game, _, _ = dealt("Ts 9c 5d 2h 6s Tc", rules=rules)
    game.hit(0)  # 21 stands by itself; dealer 9+2+T = 21
    assert outcomes(game) == [(0, 0, Outcome.LOSS, 10, 0)]


# ----------------------------------------------------------------------------- turns and views


def test_round_reaching_21_stands_by_itself() -> None:
    game, _, _ = dealt("5s 9c 6d 8h Th 3c")
    events = game.hit(0)
    assert of_type(events, HandStood) == [HandStood(0, 0, 21)]
    assert game.is_complete
    assert outcomes(game) == [(0, 0, Outcome.WIN, 10, 20)]


def test_round_seats_act_in_order_and_refuse_out_of_turn() -> None:
    game, _, shoe = dealt("Ts 9s 6c 8d 7d 9h Tc", bets={0: 10, 3: 20})
    assert game.seats == (0, 3)
    assert game.to_act == (0, 0)
    assert game.legal_actions(3) == frozenset()
    before = snapshot(game, shoe)
    with pytest.raises(NotYourTurnError, match="seat 0 is to act"):
        game.stand(3)
    assert snapshot(game, shoe) == before
    events = game.stand(0)
    assert of_type(events, TurnStarted) == [TurnStarted(3, 0)]
    game.stand(3)
    assert game.is_complete


def test_round_view_hides_the_hole_card_until_the_dealer_plays() -> None:
    game, events, _ = dealt("Ts 9c 8d Qh")
    dealer = game.view().dealer
    assert dealer.hole_hidden
    assert dealer.cards == (parse_card("9c"),)
    assert of_type(events, HoleCardDealt) == [HoleCardDealt()]
    assert all(parse_card("Qh") not in vars_of(event) for event in events)
    decision = game.decision()
    assert decision.dealer_up == parse_card("9c")
    game.stand(0)
    dealer = game.view().dealer
    assert not dealer.hole_hidden
    assert dealer.cards == (parse_card("9c"), parse_card("Qh"))


def vars_of(event: object) -> list[object]:
    return [getattr(event, name) for name in getattr(event, "__slots__", ())]


def test_round_view_shows_status_totals_and_results() -> None:
    game, _, _ = dealt("As 9c 6d 7h 2s")
    hand = game.view().seats[0].hands[0]
    assert hand.status is BlackjackHandStatus.ACTING
    assert hand.value.label == "7/17"
    assert game.view().seats[0].net is None
    game.stand(0)
    seat = game.view().seats[0]
    assert seat.hands[0].status is BlackjackHandStatus.STOOD
    assert seat.hands[0].result is not None
    assert seat.net == -10


def test_round_decision_describes_the_hand_to_act() -> None:
    game, _, _ = dealt("8s 6c 8d Tc")
    decision = game.decision()
    assert (decision.seat, decision.hand, decision.total, decision.soft) == (0, 0, 16, False)
    assert decision.pair_value == 8
    assert decision.legal == game.legal_actions(0)
    assert decision.phase is Phase.PLAYERS


# ----------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "bets",
    [{}, {0: 0}, {0: -5}, {0: True}, {0: 2.5}, {7: 10}, {-1: 10}, {"0": 10}],
)
def test_round_refuses_bad_bets(bets: dict[object, object]) -> None:
    shoe = StackedShoe.of("Ts 9c 8d Qh")
    with pytest.raises(BetError):
        Round(CASINO, shoe, bets)  # type: ignore[arg-type]
    assert shoe.cards_dealt == 0


def test_round_complete_at_construction_refuses_actions() -> None:
    # A natural against a 9: paid at once, nobody has anything to decide.
    shoe = StackedShoe.of("As 9h Kd 7c")
    game = Round(CASINO, shoe, {0: 10})
    assert game.is_complete
    assert game.turn is None
    assert game.to_act is None
    assert isinstance(game.events[-1], RoundEnded)
    assert game.seat_net(0) == 15  # 3:2
    before = snapshot(game, shoe)
    with pytest.raises(RoundStateError, match="over"):
        game.stand(0)
    assert snapshot(game, shoe) == before


@pytest.mark.parametrize("action", ["hit", None, 3, Action])
def test_round_refuses_malformed_actions_without_changing_anything(action: object) -> None:
    game, _, shoe = dealt("Ts 9c 6d 7h 2s")
    before = snapshot(game, shoe)
    with pytest.raises(MalformedActionError):
        game.act(0, action)  # type: ignore[arg-type]
    assert snapshot(game, shoe) == before


@pytest.mark.parametrize("seat", ["0", 0.0, None, True])
def test_round_refuses_malformed_seats_without_changing_anything(seat: object) -> None:
    game, _, shoe = dealt("Ts 9c 6d 7h 2s")
    before = snapshot(game, shoe)
    with pytest.raises(MalformedActionError):
        game.act(seat, Action.HIT)  # type: ignore[arg-type]
    assert snapshot(game, shoe) == before


def test_round_refuses_a_seat_that_is_not_playing() -> None:
    game, _, shoe = dealt("Ts 9c 6d 7h 2s")
    before = snapshot(game, shoe)
    with pytest.raises(BetError, match="not playing"):
        game.stand(4)
    assert snapshot(game, shoe) == before


def test_round_refuses_play_during_insurance_and_insurance_during_play() -> None:
    game, _, shoe = dealt("Ts Ac 6d 7c 2h")
    before = snapshot(game, shoe)
    with pytest.raises(ActionNotAllowedError, match="insurance first"):
        game.hit(0)
    with pytest.raises(ActionNotAllowedError, match="only offered on a blackjack"):
        game.take_even_money(0)
    assert snapshot(game, shoe) == before
    game.decline_insurance(0)
    before = snapshot(game, shoe)
    with pytest.raises(ActionNotAllowedError, match="not on offer"):
        game.insure(0)
    assert snapshot(game, shoe) == before


def test_round_can_matches_legal_actions() -> None:
    game, _, _ = dealt("8s 6c 8d Tc")
    for action in Action:
        assert game.can(0, action) is (action in game.legal_actions(0))
        assert not game.can(1, action)
    assert not game.can(0, "hit")  # type: ignore[arg-type]


def test_round_extra_stake_refuses_like_act() -> None:
    game, _, shoe = dealt("Ts 9c 6d 7h 2s")
    before = snapshot(game, shoe)
    with pytest.raises(ActionNotAllowedError):
        game.extra_stake(0, Action.SPLIT)
    assert snapshot(game, shoe) == before
    assert game.extra_stake(0, Action.HIT) == 0


def test_round_stacked_shoe_running_out_is_reported() -> None:
    game, _, _ = dealt("Ts 9c 6d 7h")
    with pytest.raises(ShoeExhaustedError):
        game.hit(0)


def test_round_deal_events_follow_the_table_order() -> None:
    _, events, _ = dealt("2s 3s 4s 5s 6s 7s 8s", bets={0: 10, 4: 10})
    names = [(type(e).__name__, getattr(e, "seat", None)) for e in events[:6]]
    assert names == [
        ("CardDealt", 0),
        ("CardDealt", 4),
        ("DealerCardDealt", None),
        ("CardDealt", 0),
        ("CardDealt", 4),
        ("HoleCardDealt", None),
    ]


def test_round_legal_actions_without_a_seat_are_those_of_the_seat_to_act() -> None:
    game, _, _ = dealt("Ts 9s 6c 8d 7d 9h Tc", bets={0: 10, 3: 20})
    assert (
        game.legal_actions() == game.legal_actions(0) == {Action.HIT, Action.STAND, Action.DOUBLE}
    )
    game.stand(0)
    assert game.legal_actions() == game.legal_actions(3)
    game.stand(3)
    assert game.legal_actions() == frozenset()


def test_round_complete_at_construction_on_a_dealer_blackjack_peek() -> None:
    # 19 against a ten up and an ace in the hole: the peek ends the round as it is dealt.
    game, events, _ = dealt("Ts Kh 9d As")
    assert game.is_complete
    assert game.turn is None
    assert of_type(events, DealerPeeked) == [DealerPeeked(True)]
    assert game.seat_net(0) == -10


def test_round_turn_is_the_decision_of_the_seat_to_act() -> None:
    game, _, _ = dealt("Ts 9c 6d 7h 2s", bets={0: 10})
    turn = game.turn
    assert turn is not None
    assert (turn.seat, turn.hand) == game.to_act
    assert turn.legal == game.legal_actions(turn.seat)
    assert turn == game.decision()


def test_round_copy_diverges_independently_with_its_own_shoe() -> None:
    game, _, shoe = dealt("Ts 9c 6d 7h 2s 5c", bets={0: 10})
    before = snapshot(game, shoe)
    twin = game.copy()
    twin.hit(0)
    twin.stand(0)
    assert twin.is_complete
    assert snapshot(game, shoe) == before
    assert shoe.cards_dealt == 4
    game.stand(0)
    assert game.is_complete
    assert game.view() != twin.view()  # 16 stood against 18, 18 stood against 21
    assert shoe.cards_dealt == 5


def test_round_deepcopy_of_a_seeded_shoe_deals_the_same_cards() -> None:
    shoe = Shoe.for_rules(CASINO, random.Random(3))
    game = Round(CASINO, shoe, {0: 10, 3: 10})
    twin = copy.deepcopy(game)
    for each in (game, twin):
        while (turn := each.turn) is not None:
            each.act(
                turn.seat, Action.STAND if Action.STAND in turn.legal else sorted(turn.legal)[0]
            )
    assert game.view() == twin.view()
    assert game.events == twin.events
