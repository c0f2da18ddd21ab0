"""Side bets: 21+3 and Perfect Pairs categories, payouts, and exact house edges checked against
published tables and against a brute force over every deal of physical cards."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine.blackjack import Action
from engine.blackjack.errors import BadRuleValueError, BetError
from engine.blackjack.sidebets import (
    PairKind,
    ThreeCardHand,
    TwentyOneThreePaytable,
    pair_kind,
    perfect_pairs_counts,
    perfect_pairs_house_edge,
    perfect_pairs_payout,
    three_card_hand,
    twenty_one_three_counts,
    twenty_one_three_house_edge,
    twenty_one_three_payout,
)
from engine.cards import DECK, parse_card, parse_cards
from tests.engine.blackjack.helpers import dealt

CLASSIC = TwentyOneThreePaytable.CLASSIC
FIVE_TIER = TwentyOneThreePaytable.FIVE_TIER


def _hand(text: str) -> ThreeCardHand:
    # Suited trips need two identical cards, which parse_cards refuses; parse them one by one.
    return three_card_hand([parse_card(token) for token in text.split()])


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("Ah 2c 3d", ThreeCardHand.STRAIGHT),
        ("Qh Kc Ad", ThreeCardHand.STRAIGHT),
        ("Kh Ac 2d", ThreeCardHand.NOTHING),
        ("Kh Ah 2h", ThreeCardHand.FLUSH),
        ("2s As 3s", ThreeCardHand.STRAIGHT_FLUSH),
        ("Qd Kd Ad", ThreeCardHand.STRAIGHT_FLUSH),
        ("9c Tc Jc", ThreeCardHand.STRAIGHT_FLUSH),
        ("7h 7c 7d", ThreeCardHand.TRIPS),
        ("7h 7h 7h", ThreeCardHand.SUITED_TRIPS),
        ("7h 7h 7c", ThreeCardHand.TRIPS),
        ("7h 7h 9h", ThreeCardHand.FLUSH),
        ("7h 7c 9h", ThreeCardHand.NOTHING),
        ("Th Jc Qd", ThreeCardHand.STRAIGHT),
        ("Th Kc Qd", ThreeCardHand.NOTHING),
        ("4h 5h 5h", ThreeCardHand.FLUSH),
    ],
)
def test_three_card_hand_categories(cards: str, category: ThreeCardHand) -> None:
    assert _hand(cards) is category


@pytest.mark.parametrize(
    ("cards", "classic", "five_tier"),
    [
        ("7h 7h 7h", 9, 100),
        ("2s 3s As", 9, 40),
        ("7h 7c 7d", 9, 30),
        ("Qh Kc Ad", 9, 10),
        ("Kh Ah 2h", 9, 5),
        ("Kh Ac 2d", 0, 0),
        ("Th Th 9c", 0, 0),
    ],
)
def test_twenty_one_three_payout_by_paytable(cards: str, classic: int, five_tier: int) -> None:
    *player, up = [parse_card(token) for token in cards.split()]
    assert twenty_one_three_payout(player, up, CLASSIC) == classic
    assert twenty_one_three_payout(player, up, FIVE_TIER) == five_tier
    assert twenty_one_three_payout(player, up, TwentyOneThreePaytable("five_tier")) == five_tier


@pytest.mark.parametrize(
    ("cards", "kind", "payout"),
    [
        ("Qs Qs", PairKind.PERFECT, 25),
        ("Qs Qc", PairKind.COLOURED, 12),
        ("Qh Qd", PairKind.COLOURED, 12),
        ("Qh Qs", PairKind.MIXED, 6),
        ("Qh Kh", PairKind.NONE, 0),
        ("Th Jh", PairKind.NONE, 0),
    ],
)
def test_perfect_pairs_kinds_and_payouts(cards: str, kind: PairKind, payout: int) -> None:
    pair = [parse_card(token) for token in cards.split()]
    assert pair_kind(pair) is kind
    assert perfect_pairs_payout(pair) == payout


def test_side_bets_refuse_the_wrong_number_of_cards() -> None:
    with pytest.raises(BadRuleValueError, match="exactly two cards"):
        perfect_pairs_payout(parse_cards("Qs Qc Qd"))
    with pytest.raises(BadRuleValueError, match="first two cards"):
        twenty_one_three_payout(parse_cards("Qs"), parse_card("Qd"), CLASSIC)
    with pytest.raises(BadRuleValueError, match="decks must be"):
        perfect_pairs_house_edge(9)
    with pytest.raises(BadRuleValueError, match="decks must be"):
        twenty_one_three_house_edge(0, CLASSIC)


def test_twenty_one_three_counts_match_the_published_six_deck_table() -> None:
    # The Wizard of Odds' 21+3 table for six decks counts unordered deals; ours are ordered (x6).
    unordered = {kind: ways // 6 for kind, ways in twenty_one_three_counts(6).items()}
    assert unordered == {
        ThreeCardHand.SUITED_TRIPS: 1_040,
        ThreeCardHand.STRAIGHT_FLUSH: 10_368,
        ThreeCardHand.TRIPS: 25_272,
        ThreeCardHand.STRAIGHT: 155_520,
        ThreeCardHand.FLUSH: 292_896,
        ThreeCardHand.NOTHING: 4_528_224,
    }
    assert sum(unordered.values()) == 312 * 311 * 310 // 6


@pytest.mark.parametrize(
    ("decks", "edge_pct"), [(1, 13.30), (2, 7.26), (4, 4.24), (6, 3.24), (8, 2.74)]
)
def test_twenty_one_three_classic_edge_matches_published_figures(
    decks: int, edge_pct: float
) -> None:
    assert round(100 * float(twenty_one_three_house_edge(decks, CLASSIC)), 2) == edge_pct


def test_twenty_one_three_five_tier_edge_from_the_published_counts() -> None:
    # 6 decks: (1040*100 + 10368*40 + 25272*30 + 155520*10 + 292896*5 - 4528224) / C(312, 3)
    won = 1_040 * 100 + 10_368 * 40 + 25_272 * 30 + 155_520 * 10 + 292_896 * 5
    expected = Fraction(4_528_224 - won, 312 * 311 * 310 // 6)
    assert twenty_one_three_house_edge(6, FIVE_TIER) == expected
    assert round(100 * float(expected), 2) == 4.62
    assert round(100 * float(twenty_one_three_house_edge(8, FIVE_TIER)), 2) == 3.70


@pytest.mark.parametrize(("decks", "edge_pct"), [(2, 22.33), (4, 10.14), (6, 6.11), (8, 4.10)])
def test_perfect_pairs_edge_matches_published_figures(decks: int, edge_pct: float) -> None:
    assert round(100 * float(perfect_pairs_house_edge(decks)), 2) == edge_pct


def test_perfect_pairs_six_deck_counts_by_hand() -> None:
    # Unordered: perfect 52 * C(6,2); coloured 13 * 2 colours * 6 * 6; mixed 13 * 4 * 6 * 6.
    unordered = {kind: ways // 2 for kind, ways in perfect_pairs_counts(6).items()}
    assert unordered[PairKind.PERFECT] == 52 * 15
    assert unordered[PairKind.COLOURED] == 13 * 2 * 36
    assert unordered[PairKind.MIXED] == 13 * 4 * 36
    assert sum(unordered.values()) == 312 * 311 // 2


def _brute_force_edges(decks: int) -> tuple[Fraction, Fraction, Fraction]:
    """Every unordered deal of physical cards from the shoe, paid by the payout functions."""
    shoe = [card for _ in range(decks) for card in DECK]
    classic = five_tier = 0
    deals = 0
    for first, second, up in itertools.combinations(shoe, 3):
        # 21+3 does not depend on which of the three is the dealer's card.
        deals += 1
        classic += twenty_one_three_payout((first, second), up, CLASSIC) or -1
        five_tier += twenty_one_three_payout((first, second), up, FIVE_TIER) or -1
    pairs = 0
    pair_deals = 0
    for first, second in itertools.combinations(shoe, 2):
        pair_deals += 1
        pairs += perfect_pairs_payout((first, second)) or -1
    return (
        Fraction(-classic, deals),
        Fraction(-five_tier, deals),
        Fraction(-pairs, pair_deals),
    )


@pytest.mark.parametrize("decks", [1, 2])
def test_exact_edges_equal_a_brute_force_over_physical_cards(decks: int) -> None:
    classic, five_tier, pairs = _brute_force_edges(decks)
    assert twenty_one_three_house_edge(decks, CLASSIC) == classic
    assert twenty_one_three_house_edge(decks, FIVE_TIER) == five_tier
    assert perfect_pairs_house_edge(decks) == pairs


@pytest.mark.slow
def test_exact_edges_equal_a_brute_force_with_suited_trips_possible() -> None:
    classic, five_tier, pairs = _brute_force_edges(3)
    assert twenty_one_three_house_edge(3, CLASSIC) == classic
    assert twenty_one_three_house_edge(3, FIVE_TIER) == five_tier
    assert perfect_pairs_house_edge(3) == pairs


def test_more_decks_lower_every_side_bet_edge() -> None:
    for paytable in TwentyOneThreePaytable:
        edges = [twenty_one_three_house_edge(decks, paytable) for decks in range(1, 9)]
        assert edges == sorted(edges, reverse=True)
    pair_edges = [perfect_pairs_house_edge(decks) for decks in range(1, 9)]
    assert pair_edges == sorted(pair_edges, reverse=True)


def test_round_opening_cards_survive_a_split() -> None:
    # Seat 0: 8s 8d against a 6 up; the split hands draw 3c and Kd.
    game, _, _ = dealt("8s 6h 8d Tc 3c Kd")
    assert game.opening_cards(0) == (parse_card("8s"), parse_card("8d"))
    assert game.dealer_up == parse_card("6h")
    game.act(0, Action.SPLIT)
    game.act(0, Action.STAND)
    assert [hand.cards for hand in game.view().seats[0].hands] == [
        tuple(parse_cards("8s 3c")),
        tuple(parse_cards("8d Kd")),
    ]
    assert game.opening_cards(0) == (parse_card("8s"), parse_card("8d"))


def test_round_opening_cards_of_a_seat_not_playing_are_refused() -> None:
    game, _, _ = dealt("8s 6h 8d Tc 3c Kd")
    with pytest.raises(BetError, match="not playing"):
        game.opening_cards(3)
