"""Hand evaluation: category counts over every five-card hand, classic cases, descriptions."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from engine.cards import DECK, parse_cards
from engine.errors import MalformedInputError
from engine.evaluate import HandCategory, best_five, category_of_rank, evaluate, rank_of


def value(text: str):  # type: ignore[no-untyped-def]
    return evaluate(parse_cards(text))


def test_evaluate_all_five_card_hands_give_the_standard_counts() -> None:
    categories: Counter[HandCategory] = Counter()
    distinct: dict[HandCategory, set[int]] = {}
    for five in combinations(DECK, 5):
        rank = rank_of(five)
        category = category_of_rank(rank)
        categories[category] += 1
        distinct.setdefault(category, set()).add(rank)
    expected = {
        HandCategory.STRAIGHT_FLUSH: (40, 10),
        HandCategory.FOUR_OF_A_KIND: (624, 156),
        HandCategory.FULL_HOUSE: (3_744, 156),
        HandCategory.FLUSH: (5_108, 1_277),
        HandCategory.STRAIGHT: (10_200, 10),
        HandCategory.THREE_OF_A_KIND: (54_912, 858),
        HandCategory.TWO_PAIR: (123_552, 858),
        HandCategory.ONE_PAIR: (1_098_240, 2_860),
        HandCategory.HIGH_CARD: (1_302_540, 1_277),
    }
    for category, (hands, values) in expected.items():
        assert categories[category] == hands, category
        assert len(distinct[category]) == values, category
    assert sum(categories.values()) == 2_598_960
    assert sum(len(ranks) for ranks in distinct.values()) == 7_462


def test_evaluate_category_member_names_are_the_public_api() -> None:
    assert [c.name for c in HandCategory] == [
        "HIGH_CARD",
        "ONE_PAIR",
        "TWO_PAIR",
        "THREE_OF_A_KIND",
        "STRAIGHT",
        "FLUSH",
        "FULL_HOUSE",
        "FOUR_OF_A_KIND",
        "STRAIGHT_FLUSH",
    ]


def test_evaluate_ranks_the_wheel_as_the_lowest_straight_and_a_steel_wheel_over_quads() -> None:
    assert value("6♠ 5♦ 4♣ 3♦ 2♥") > value("A♣ A♥ A♦ K♣ Q♠")
    wheel = value("5♠ 4♦ 3♣ 2♦ A♥")
    assert wheel.category is HandCategory.STRAIGHT
    assert wheel < value("6♠ 5♦ 4♣ 3♦ 2♥")
    assert wheel > value("A♠ A♦ A♣ K♦ Q♥")
    assert value("6♥ 4♥ 3♥ 2♥ A♥") > value("A♠ K♣ Q♥ J♠ T♦")
    assert value("5♥ 4♥ 3♥ 2♥ A♥") > value("A♠ A♣ A♥ A♦ K♠")
    assert value("5♥ 4♥ 3♥ 2♥ A♥").category is HandCategory.STRAIGHT_FLUSH


def test_evaluate_kickers_and_tie_breaks() -> None:
    assert value("As Ad Kc 9h 4s") > value("Ah Ac Qd Jh Ts")  # pair kicker
    assert value("As Ad 9c 9h Ks") > value("Ah Ac 9d 9s Qh")  # two-pair kicker
    assert value("As Ad 9c 9h Ks") < value("Ah Ac Td Ts 2h")  # second pair
    assert value("Ks Kd Kc 2h 2s") > value("Qs Qd Qc Ah As")  # full house: trips first
    assert value("Ah Jh 9h 6h 3h") > value("As Js 9s 6s 2s")  # flush: last card decides
    assert value("Ah Kd Qc Js 9h") == value("As Kc Qd Jh 9s")  # suits never matter


def test_evaluate_seven_cards_whose_best_five_are_equal_tie() -> None:
    board = "Ah Kd Qc Js Ts"
    assert value(f"{board} 2c 3d") == value(f"{board} 4h 5h")
    assert value("9s 9d 5h 5c 2d Kh Ks") == value("9c 9h 5d 5s 3c Kd Kc")


def test_evaluate_six_cards_takes_the_best_five() -> None:
    assert value("As Ks Qs Js Ts 2d").category is HandCategory.STRAIGHT_FLUSH
    assert value("As Ks Qs Js 9d 2d") == value("As Ks Qs Js 9d")


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("Kh Kd Ks 7c 7d 2s 3s", "Full house, Kings over Sevens"),
        ("5s 4d 3c 2d Ah", "Straight, Five high"),
        ("As Ac 9d 9h Qs 2c 3d", "Two pair, Aces and Nines, Queen kicker"),
        ("Ah Kh Qh Jh Th 2c", "Royal flush"),
        ("9h 8h 7h 6h 5h", "Straight flush, Nine high"),
        ("6s 6d 6c 6h As", "Four of a kind, Sixes, Ace kicker"),
        ("Ah Th 7h 4h 2h", "Flush, Ace high"),
        ("7s 7d 7c Ah 2s", "Three of a kind, Sevens"),
        ("Jc Jd Ah 9s 4c", "Pair of Jacks, Ace kicker"),
        ("As Ks 7d 5c 2h", "High card, Ace"),
    ],
)
def test_evaluate_descriptions_read_as_people_say_them(cards: str, description: str) -> None:
    assert value(cards).description == description


def test_evaluate_best_five_puts_the_made_hand_first() -> None:
    best = best_five(parse_cards("2c Kh 7d Kd 7s Ks 3h"))
    assert [str(card) for card in best] == ["Ks", "Kh", "Kd", "7s", "7d"]
    wheel = best_five(parse_cards("Ah 2d 3c 4s 5h 9c Jd"))
    assert [card.rank.char for card in wheel] == ["5", "4", "3", "2", "A"]


@pytest.mark.parametrize("text", ["As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s"])
def test_evaluate_refuses_the_wrong_number_of_cards(text: str) -> None:
    with pytest.raises(MalformedInputError, match="5 to 7"):
        value(text)


def test_evaluate_every_value_has_a_description_matching_its_category() -> None:
    seen = set()
    for five in combinations(DECK[::3], 5):
        hand_value = evaluate(five)
        seen.add(hand_value.strength)
        assert hand_value.description.lower().startswith(
            {
                HandCategory.STRAIGHT_FLUSH: ("straight flush", "royal flush"),
                HandCategory.FOUR_OF_A_KIND: ("four of a kind",),
                HandCategory.FULL_HOUSE: ("full house",),
                HandCategory.FLUSH: ("flush",),
                HandCategory.STRAIGHT: ("straight",),
                HandCategory.THREE_OF_A_KIND: ("three of a kind",),
                HandCategory.TWO_PAIR: ("two pair",),
                HandCategory.ONE_PAIR: ("pair of",),
                HandCategory.HIGH_CARD: ("high card",),
            }[hand_value.category]
        )
    assert len(seen) > 1000


def test_evaluate_values_are_shared_not_allocated() -> None:
    assert evaluate(parse_cards("As Ks Qs Js Ts")) is evaluate(parse_cards("Ah Kh Qh Jh Th 2c"))


def test_evaluate_refuses_the_same_card_twice() -> None:
    ace = parse_cards("As")[0]
    with pytest.raises(MalformedInputError, match="twice"):
        evaluate([ace, ace, *parse_cards("Kd Qh Jc")])
