"""Counting: the systems' tags, running and true counts from a shoe, the bet ramp, and the shoe's
penetration (the count depends on where the cut card is)."""

from __future__ import annotations

import random

import pytest

from engine.blackjack import CASINO, BasicStrategy, Round, Shoe
from engine.blackjack.counting import (
    BetRamp,
    Counter,
    CountingError,
    CountSystem,
    ShoeCount,
    count_system,
    running_count,
    true_count,
)
from engine.cards import DECK, parse_cards


@pytest.mark.parametrize(
    ("system", "tags"),
    [
        # 2 3 4 5 6 7 8 9 T J Q K A
        (CountSystem.HILO, (1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1)),
        (CountSystem.KO, (1, 1, 1, 1, 1, 1, 0, 0, -1, -1, -1, -1, -1)),
        (CountSystem.OMEGA_II, (1, 1, 2, 2, 2, 1, 0, -1, -2, -2, -2, -2, 0)),
    ],
)
def test_count_system_tags_by_rank_and_every_suit(
    system: CountSystem, tags: tuple[int, ...]
) -> None:
    for card in DECK:
        assert system.tag(card) == tags[card.rank - 2]


def test_count_systems_balance_except_ko() -> None:
    assert CountSystem.HILO.balanced
    assert CountSystem.OMEGA_II.balanced
    assert not CountSystem.KO.balanced
    assert sum(CountSystem.KO.tags) == 4
    # KO starts at 4 - 4 * decks, so a whole shoe counts up to +4.
    assert CountSystem.KO.initial_running_count(6) == -20
    assert CountSystem.KO.initial_running_count(1) == 0
    assert CountSystem.HILO.initial_running_count(6) == 0
    assert running_count(DECK * 6, CountSystem.KO, decks=6) == 4


def test_running_count_of_cards() -> None:
    cards = parse_cards("2c 5d 6h 7s 9c Kh As")
    assert running_count(cards, CountSystem.HILO) == 1
    assert running_count(cards, CountSystem.KO) == 2
    assert running_count(cards, CountSystem.OMEGA_II) == 1 + 2 + 2 + 1 - 1 - 2
    assert running_count(cards, CountSystem.KO, decks=2) == 2 - 4


def test_true_count_is_running_count_per_deck_left() -> None:
    assert true_count(6, 156) == 2.0
    assert true_count(-3, 26) == -6.0
    with pytest.raises(CountingError, match="at least one card"):
        true_count(3, 0)
    assert ShoeCount(CountSystem.HILO, 6, 156, 156).true_count == 2.0
    assert ShoeCount(CountSystem.HILO, 6, 156, 156).decks_left == 3.0
    with pytest.raises(CountingError, match="KO is unbalanced"):
        _ = ShoeCount(CountSystem.KO, 6, 156, 156).true_count


@pytest.mark.parametrize(
    ("text", "system"),
    [
        ("hilo", CountSystem.HILO),
        ("Hi-Lo", CountSystem.HILO),
        ("KO", CountSystem.KO),
        ("omega2", CountSystem.OMEGA_II),
        ("Omega II", CountSystem.OMEGA_II),
    ],
)
def test_count_system_names(text: str, system: CountSystem) -> None:
    assert count_system(text) is system


def test_count_system_unknown_name_is_refused() -> None:
    with pytest.raises(CountingError, match="choose from hilo, ko, omega2"):
        count_system("zen")


def _play_rounds(shoe: Shoe, rounds: int, counter: Counter) -> list[tuple[int, int, int]]:
    """Play basic strategy for ``rounds`` rounds; after each, the counter observes the shoe.
    Returns (shuffles, counter's running count, count recomputed from the dealt cards)."""
    basic = BasicStrategy(CASINO)
    rng = random.Random(0)
    seen = []
    for _ in range(rounds):
        game = Round(CASINO, shoe, {0: 2, 3: 2}, record_events=False)
        while (decision := game.turn) is not None:
            game.act(decision.seat, basic.choose(decision, rng))
        counter.observe(shoe)
        dealt = [DECK[card] for card in shoe.dealt_ids()]
        recount = running_count(dealt, counter.system, decks=shoe.size // 52)
        seen.append((shoe.shuffles, counter.running, recount))
        assert counter.cards_seen == shoe.cards_dealt
        assert counter.cards_left == shoe.cards_left
    return seen


@pytest.mark.parametrize("system", list(CountSystem))
def test_counter_follows_a_shoe_through_reshuffles(system: CountSystem) -> None:
    shoe = Shoe(2, penetration=0.6, rng=random.Random(11))
    seen = _play_rounds(shoe, 60, Counter(system, 2))
    assert all(running == recount for _, running, recount in seen)
    assert seen[-1][0] >= 3  # the shoe was reshuffled along the way


def test_counter_starts_over_when_a_round_runs_the_shoe_dry() -> None:
    # At full penetration rounds run past the last card: the discards are shuffled back in and
    # the count starts over from the cards still on the table.
    shoe = Shoe(1, penetration=1.0, rng=random.Random(4))
    seen = _play_rounds(shoe, 40, Counter(CountSystem.HILO, 1))
    assert all(running == recount for _, running, recount in seen)


def test_counter_one_card_at_a_time() -> None:
    counter = Counter(CountSystem.HILO, 6)
    for card in parse_cards("2c 3d 4h Ks"):
        counter.see(card)
    assert (counter.running, counter.cards_seen, counter.cards_left) == (2, 4, 308)
    assert counter.true_count == pytest.approx(2 * 52 / 308)
    counter.shuffle()
    assert (counter.running, counter.cards_seen, counter.cards_left) == (0, 0, 312)
    with pytest.raises(Exception, match="decks must be"):
        Counter(CountSystem.HILO, 9)


@pytest.mark.parametrize(
    ("true_count", "units"),
    [(-5.0, 1), (0.0, 1), (1.99, 1), (2.0, 2), (2.99, 2), (3.0, 4), (4.5, 6), (5.0, 8), (7, 12)],
)
def test_bet_ramp_units_by_true_count(true_count: float, units: int) -> None:
    assert BetRamp.parse("1-12").units(true_count) == units


def test_bet_ramp_caps_and_floors() -> None:
    ramp = BetRamp.parse(" 2-8 ")
    assert (ramp.low, ramp.high) == (2, 8)
    assert ramp.units(-10) == 2
    assert ramp.units(30) == 8
    assert BetRamp.parse("1").is_flat
    assert BetRamp.parse("1").describe() == "flat"
    assert ramp.describe() == "2-8 units"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8-1", "cannot fall from 8 to 1"),
        ("0-8", "from 1 to 1000"),
        ("1-5000", "from 1 to 1000"),
        ("one-eight", "not a bet spread"),
        ("1-", "not a bet spread"),
        ("", "not a bet spread"),
    ],
)
def test_bet_ramp_refuses_bad_spreads(text: str, message: str) -> None:
    with pytest.raises(CountingError, match=message):
        BetRamp.parse(text)


@pytest.mark.parametrize(("decks", "penetration"), [(1, 0.5), (6, 0.75), (2, 0.9), (8, 0.6)])
def test_shoe_reshuffles_after_the_penetration_fraction_is_dealt(
    decks: int, penetration: float
) -> None:
    """``penetration`` is the fraction of the shoe dealt: the shoe is reshuffled at the first
    round after that many cards, so each shoe deals at least that fraction and less than one
    more round beyond it."""
    rules = CASINO.with_overrides([f"decks={decks}", f"penetration={penetration}"])
    shoe = Shoe.for_rules(rules, random.Random(decks))
    assert shoe.cut_card == round(52 * decks * penetration)
    basic = BasicStrategy(rules)
    rng = random.Random(1)
    dealt_at_shuffle: list[int] = []
    for _ in range(3000):
        before = shoe.cards_dealt
        if shoe.needs_shuffle and before:
            dealt_at_shuffle.append(before)
        game = Round(rules, shoe, {0: 2}, record_events=False)
        while (decision := game.turn) is not None:
            game.act(decision.seat, basic.choose(decision, rng))
    assert len(dealt_at_shuffle) > 5
    for dealt in dealt_at_shuffle:
        assert shoe.cut_card <= dealt < shoe.cut_card + 20
    mean_fraction = sum(dealt_at_shuffle) / len(dealt_at_shuffle) / shoe.size
    assert penetration - 1 / shoe.size <= mean_fraction < penetration + 6 / shoe.size
