"""The render views: impossible tables are refused, and there is nowhere to put a hidden card."""

from __future__ import annotations

import dataclasses

import pytest

from bot.render.models import (
    BlackjackHandView,
    BlackjackPhase,
    BlackjackSeatView,
    BlackjackTableView,
    HoldemSeatView,
    HoldemTableView,
    SeatStatus,
    Stage,
    ViewError,
)
from engine.cards import Card, Rank, Suit, parse_cards


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def seats(count: int) -> tuple[HoldemSeatView, ...]:
    return tuple(HoldemSeatView(number, f"P{number}", stack=100) for number in range(1, count + 1))


def table(**changes: object) -> HoldemTableView:
    fields: dict[str, object] = {
        "table_name": "t",
        "hand_number": 1,
        "street": Stage.FLOP,
        "seats": seats(3),
        "board": cards("As Kd 7c"),
    }
    fields.update(changes)
    return HoldemTableView(**fields)  # type: ignore[arg-type]


def test_holdem_seat_view_has_only_shown_cards() -> None:
    card_fields = [
        field.name
        for field in dataclasses.fields(HoldemSeatView)
        if "Card" in str(field.type) or "card" in field.name
    ]
    assert card_fields == ["shown_cards"]
    with pytest.raises(TypeError):
        HoldemSeatView(1, "A", hole_cards=cards("As Ks"))  # type: ignore[call-arg]


def test_holdem_seat_view_cannot_gain_a_hidden_attribute() -> None:
    seat = HoldemSeatView(1, "A", stack=10)
    with pytest.raises((AttributeError, TypeError)):
        object.__setattr__(seat, "hole_cards", cards("As Ks"))


def test_blackjack_dealer_has_no_hole_card_field() -> None:
    names = {field.name for field in dataclasses.fields(BlackjackTableView)}
    assert "dealer_cards" in names
    assert "dealer_hole_hidden" in names
    assert not {name for name in names if "hole" in name} - {"dealer_hole_hidden"}


@pytest.mark.parametrize("count", [1, 11])
def test_holdem_table_refuses_seat_counts_outside_2_to_10(count: int) -> None:
    with pytest.raises(ViewError, match="2 to 10"):
        table(seats=seats(count))


def test_holdem_table_accepts_2_to_10_seats() -> None:
    for count in range(2, 11):
        assert len(table(seats=seats(count)).seats) == count


def test_holdem_table_refuses_repeated_seat_numbers() -> None:
    with pytest.raises(ViewError, match="repeat"):
        table(seats=(HoldemSeatView(1, "A"), HoldemSeatView(1, "B")))


@pytest.mark.parametrize("board", ["As", "As Kd", "As Kd 7c 2h 3h 4h"])
def test_holdem_table_refuses_impossible_boards(board: str) -> None:
    with pytest.raises(ViewError, match="board"):
        table(board=cards(board))


def test_holdem_table_refuses_a_card_on_the_board_and_in_a_hand() -> None:
    shown = HoldemSeatView(1, "A", shown_cards=cards("As Qd"))
    with pytest.raises(ViewError, match="twice"):
        table(street=Stage.SHOWDOWN, seats=(shown, HoldemSeatView(2, "B")))


def test_holdem_table_refuses_two_seats_to_act() -> None:
    both = (HoldemSeatView(1, "A", is_to_act=True), HoldemSeatView(2, "B", is_to_act=True))
    with pytest.raises(ViewError, match="to act"):
        table(seats=both)


def test_holdem_table_refuses_shown_cards_when_no_hand_runs() -> None:
    shown = HoldemSeatView(1, "A", shown_cards=cards("2s 3s"))
    with pytest.raises(ViewError, match="no hand"):
        table(street=Stage.WAITING, board=(), seats=(shown, HoldemSeatView(2, "B")))


@pytest.mark.parametrize(
    "changes",
    [
        {"shown_cards": cards("As")},
        {"bet": 5},
        {"is_to_act": True},
        {"is_bot": True},
    ],
)
def test_empty_seat_holds_nothing(changes: dict[str, object]) -> None:
    with pytest.raises(ViewError):
        HoldemSeatView(3, "", status=SeatStatus.EMPTY, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("status", [SeatStatus.FOLDED, SeatStatus.ALL_IN, SeatStatus.SITTING_OUT])
def test_only_an_active_seat_can_act(status: SeatStatus) -> None:
    with pytest.raises(ViewError, match="active"):
        HoldemSeatView(1, "A", status=status, is_to_act=True)


@pytest.mark.parametrize("field", ["stack", "bet", "amount_won"])
def test_holdem_seat_refuses_negative_or_non_integer_chips(field: str) -> None:
    with pytest.raises(ViewError, match=field):
        HoldemSeatView(1, "A", **{field: -1})  # type: ignore[arg-type]
    with pytest.raises(ViewError, match=field):
        HoldemSeatView(1, "A", **{field: 1.5})  # type: ignore[arg-type]


def test_holdem_seat_refuses_three_shown_cards() -> None:
    with pytest.raises(ViewError, match="at most 2"):
        HoldemSeatView(1, "A", shown_cards=cards("As Ks Qs"))


def test_holdem_table_refuses_negative_pots() -> None:
    with pytest.raises(ViewError, match="pot"):
        table(pots=(100, -5))


def test_holdem_table_reports_seat_to_act_and_total_pot() -> None:
    acting = HoldemSeatView(2, "B", is_to_act=True)
    view = table(seats=(HoldemSeatView(1, "A"), acting), pots=(300, 120, 0))
    assert view.seat_to_act is acting
    assert view.total_pot == 420


def test_blackjack_hands_may_repeat_cards_from_a_shoe() -> None:
    seven = Card.of(Rank.SEVEN, Suit.SPADES)
    hand = BlackjackHandView((seven, seven, seven), total="21")
    assert len(hand.cards) == 3


@pytest.mark.parametrize("count", [0, 8])
def test_blackjack_table_refuses_seat_counts_outside_1_to_7(count: int) -> None:
    players = tuple(BlackjackSeatView(index, f"P{index}") for index in range(count))
    with pytest.raises(ViewError, match="1 to 7"):
        BlackjackTableView("t", 1, BlackjackPhase.BETTING, players)


def test_blackjack_seat_refuses_five_hands() -> None:
    hands = tuple(BlackjackHandView(cards("8s")) for _ in range(5))
    with pytest.raises(ViewError, match="0 to 4 hands"):
        BlackjackSeatView(0, "A", hands=hands)


def test_blackjack_seat_refuses_a_hand_to_act_that_is_not_there() -> None:
    with pytest.raises(ViewError, match="not a hand"):
        BlackjackSeatView(0, "A", hands=(BlackjackHandView(cards("8s 8d")),), hand_to_act=1)


def test_blackjack_table_refuses_two_seats_to_act() -> None:
    hand = (BlackjackHandView(cards("8s 8d")),)
    players = (
        BlackjackSeatView(0, "A", hands=hand, hand_to_act=0),
        BlackjackSeatView(1, "B", hands=hand, hand_to_act=0),
    )
    with pytest.raises(ViewError, match="to act"):
        BlackjackTableView("t", 1, BlackjackPhase.PLAYERS, players)
