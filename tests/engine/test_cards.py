"""Cards: parsing, formatting and a uniform shuffle."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import permutations

import pytest

from engine.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    shuffled,
    shuffled_deck,
)
from engine.errors import CardParseError


def test_cards_parse_standard_notation() -> None:
    card = parse_card("As")
    assert (card.rank, card.suit) == (Rank.ACE, Suit.SPADES)
    assert parse_card("td") == Card.of(Rank.TEN, Suit.DIAMONDS)
    assert parse_card("7h").rank == Rank.SEVEN


def test_cards_parse_ten_as_two_digits_and_suit_symbols() -> None:
    assert parse_card("10h") == parse_card("Th")
    assert parse_cards("A♠ K♦ 10♣ 2♥") == parse_cards("As Kd Tc 2h")


def test_cards_parse_lists_written_together_or_apart() -> None:
    expected = [parse_card("As"), parse_card("Kd")]
    assert parse_cards("AsKd") == expected
    assert parse_cards("As Kd") == expected
    assert parse_cards(" As, Kd ") == expected
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["", "A", "Ax", "1s", "11h", "Zs"])
def test_cards_parse_refuses_malformed_card(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


@pytest.mark.parametrize("text", ["A", "AsK", "As Zz", "1s"])
def test_cards_parse_refuses_malformed_lists(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_cards(text)


def test_cards_parse_refuses_duplicates() -> None:
    with pytest.raises(CardParseError, match="twice"):
        parse_cards("AsKdAs")


def test_cards_format_with_and_without_symbols() -> None:
    cards = parse_cards("AsTd")
    assert format_cards(cards) == "As Td"
    assert format_cards(cards, symbols=True) == "A♠ T♦"
    assert str(cards[0]) == "As"
    assert [str(card) for card in DECK[:4]] == ["2c", "2d", "2h", "2s"]


def test_cards_are_interned_and_ordered_by_rank_then_suit() -> None:
    assert Card.of(Rank.ACE, Suit.SPADES) is DECK[51]
    assert parse_card("2s") < parse_card("3c") < parse_card("3d")
    assert len(set(DECK)) == 52


def test_cards_are_never_falsy_not_even_the_two_of_clubs() -> None:
    two_of_clubs = parse_card("2c")
    assert two_of_clubs.id == 0
    assert bool(two_of_clubs)
    assert (two_of_clubs or None) is two_of_clubs


def test_cards_card_id_out_of_range_is_refused() -> None:
    with pytest.raises(CardParseError):
        Card(52)


def test_shuffle_is_a_permutation_and_reproducible_with_a_seed() -> None:
    first = shuffled_deck(random.Random(5))
    assert sorted(first) == list(DECK)
    assert shuffled_deck(random.Random(5)) == first
    assert shuffled_deck(random.Random(6)) != first


def test_shuffle_default_source_is_not_reproducible() -> None:
    assert shuffled_deck() != shuffled_deck()


def test_shuffle_is_uniform_over_card_positions() -> None:
    # Chi-square of which card lands in each of the first 4 positions, over 52 cells each.
    rng = random.Random(12345)
    deals = 26_000
    counts = [Counter[int]() for _ in range(4)]
    for _ in range(deals):
        deck = shuffled_deck(rng)
        for position in range(4):
            counts[position][deck[position].id] += 1
    expected = deals / 52
    for position_counts in counts:
        chi_square = sum((position_counts[i] - expected) ** 2 / expected for i in range(52))
        # 51 degrees of freedom: the 99.9th percentile is about 87.0.
        assert chi_square < 87.0


def _permutation_chi_square(shuffle: Callable[[list[int]], list[int]], samples: int) -> float:
    counts = Counter(tuple(shuffle([0, 1, 2])) for _ in range(samples))
    expected = samples / 6
    return sum((counts[p] - expected) ** 2 / expected for p in permutations(range(3)))


def test_shuffle_gives_every_permutation_equally_and_the_test_catches_a_biased_one() -> None:
    rng = random.Random(99)

    def ours(cards: list[int]) -> list[int]:
        order = shuffled(DECK[:3], rng)
        return [card.id for card in order]

    def naive(cards: list[int]) -> list[int]:
        # The classic mistake: swap each position with any position.
        for i in range(len(cards)):
            j = rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    # 5 degrees of freedom: the 99.9th percentile is about 20.5.
    assert _permutation_chi_square(ours, 30_000) < 20.5
    assert _permutation_chi_square(naive, 30_000) > 20.5
