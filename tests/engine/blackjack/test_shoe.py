"""The shoe: seeded determinism, fair dealing, the cut card, reshuffles and stacked shoes."""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest

from engine.blackjack import (
    CASINO,
    BadRuleValueError,
    Round,
    Shoe,
    ShoeExhaustedError,
    ShoeShuffled,
    StackedShoe,
)
from engine.cards import DECK, parse_card


def test_shoe_deals_every_card_of_every_deck_once_per_shuffle() -> None:
    shoe = Shoe(2, penetration=1.0, rng=random.Random(3))
    assert shoe.begin_round()
    cards = [shoe.draw() for _ in range(104)]
    assert Counter(cards) == Counter(list(range(52)) * 2)
    assert shoe.cards_left == 0


def test_shoe_same_seed_same_cards() -> None:
    first = Shoe(6, rng=random.Random(42))
    second = Shoe(6, rng=random.Random(42))
    first.begin_round()
    second.begin_round()
    assert [first.draw() for _ in range(200)] == [second.draw() for _ in range(200)]


def test_shoe_default_source_is_the_system_csprng() -> None:
    shoe = Shoe(1)
    assert isinstance(shoe._randrange.__self__, secrets.SystemRandom)  # type: ignore[attr-defined]


def test_shoe_first_card_is_uniform() -> None:
    # Every rank appears as the first card of a fresh shoe about 1/13 of the time.
    rng = random.Random(5)
    counts: Counter[int] = Counter()
    trials = 13_000
    for _ in range(trials):
        shoe = Shoe(1, rng=rng)
        shoe.begin_round()
        counts[shoe.draw() // 4] += 1
    for rank in range(13):
        assert abs(counts[rank] - trials / 13) < 5 * (trials / 13 * 12 / 13) ** 0.5


def test_shoe_reshuffles_when_the_cut_card_came_out() -> None:
    shoe = Shoe(1, penetration=0.5, rng=random.Random(1))
    assert shoe.needs_shuffle
    assert shoe.begin_round()
    for _ in range(25):
        shoe.draw()
    assert not shoe.needs_shuffle
    assert not shoe.begin_round()
    shoe.draw()  # the 26th card: the cut card is out
    assert shoe.needs_shuffle
    assert shoe.begin_round()
    assert shoe.cards_dealt == 0


def test_shoe_reshuffles_every_round_when_asked() -> None:
    shoe = Shoe(6, reshuffle_every_round=True, rng=random.Random(1))
    assert shoe.begin_round()
    shoe.draw()
    assert shoe.begin_round()
    assert shoe.cards_dealt == 0


def test_shoe_running_out_mid_round_reshuffles_the_discards_only() -> None:
    shoe = Shoe(1, penetration=1.0, rng=random.Random(9))
    shoe.begin_round()
    for _ in range(40):
        shoe.draw()
    assert not shoe.begin_round()  # a new round with 12 cards left
    in_play = [shoe.draw() for _ in range(12)]
    more = [shoe.draw() for _ in range(40)]  # from the 40 discards, never the cards in play
    assert Counter(in_play + more) == Counter(range(52))
    with pytest.raises(ShoeExhaustedError):
        shoe.draw()  # all 52 cards are on the table


def test_shoe_round_reports_the_shuffle() -> None:
    shoe = Shoe.for_rules(CASINO, random.Random(2))
    events = Round(CASINO, shoe, {0: 10}).events
    assert events[0] == ShoeShuffled(312)


@pytest.mark.parametrize(("decks", "penetration"), [(0, 0.75), (9, 0.75), (6, 0.0), (6, 1.2)])
def test_shoe_refuses_bad_sizes(decks: int, penetration: float) -> None:
    with pytest.raises(BadRuleValueError):
        Shoe(decks, penetration=penetration)


def test_stacked_shoe_deals_in_order_and_runs_out() -> None:
    shoe = StackedShoe.of("As, Kd 10h")
    assert not shoe.begin_round()
    assert shoe.remaining == [parse_card("As"), parse_card("Kd"), parse_card("Th")]
    assert [DECK[shoe.draw()] for _ in range(3)] == shoe_cards("As Kd Th")
    assert shoe.cards_left == 0
    with pytest.raises(ShoeExhaustedError, match="after 3 cards"):
        shoe.draw()


def test_stacked_shoe_allows_repeats() -> None:
    shoe = StackedShoe([parse_card("As")] * 5)
    assert [shoe.draw_card() for _ in range(5)] == [parse_card("As")] * 5


def shoe_cards(text: str) -> list[object]:
    return [parse_card(token) for token in text.split()]
