"""Basic strategy charts against published charts, and the calculated house edge.

Published sources: the Wizard of Odds 4-8 deck charts (S17 and H17, DAS, with and without late
surrender, and its "no DAS" pair rules), the widely reprinted single-deck no-DAS chart, and the
well-known one- and two-deck differences. Codes: H hit, S stand, D double else hit, Ds double else
stand, P split, Rh/Rs/Rp surrender else hit/stand/split.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.blackjack import (
    CASINO,
    BlackjackPays,
    DoubleRule,
    Rules,
    Surrender,
    basic_chart,
    hand_values,
    house_edge,
)
from engine.blackjack.analysis import dealer_outcomes, full_shoe

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)

FOUR_TO_EIGHT_DECKS_S17_DAS = """
hard 5   H  H  H  H  H  H  H  H  H  H
hard 6   H  H  H  H  H  H  H  H  H  H
hard 7   H  H  H  H  H  H  H  H  H  H
hard 8   H  H  H  H  H  H  H  H  H  H
hard 9   H  D  D  D  D  H  H  H  H  H
hard 10  D  D  D  D  D  D  D  D  H  H
hard 11  D  D  D  D  D  D  D  D  D  H
hard 12  H  H  S  S  S  H  H  H  H  H
hard 13  S  S  S  S  S  H  H  H  H  H
hard 14  S  S  S  S  S  H  H  H  H  H
hard 15  S  S  S  S  S  H  H  H  H  H
hard 16  S  S  S  S  S  H  H  H  H  H
hard 17  S  S  S  S  S  S  S  S  S  S
hard 18  S  S  S  S  S  S  S  S  S  S
hard 19  S  S  S  S  S  S  S  S  S  S
hard 20  S  S  S  S  S  S  S  S  S  S
soft 13  H  H  H  D  D  H  H  H  H  H
soft 14  H  H  H  D  D  H  H  H  H  H
soft 15  H  H  D  D  D  H  H  H  H  H
soft 16  H  H  D  D  D  H  H  H  H  H
soft 17  H  D  D  D  D  H  H  H  H  H
soft 18  S  Ds Ds Ds Ds S  S  H  H  H
soft 19  S  S  S  S  S  S  S  S  S  S
soft 20  S  S  S  S  S  S  S  S  S  S
pair 1   P  P  P  P  P  P  P  P  P  P
pair 2   P  P  P  P  P  P  H  H  H  H
pair 3   P  P  P  P  P  P  H  H  H  H
pair 4   H  H  H  P  P  H  H  H  H  H
pair 5   D  D  D  D  D  D  D  D  H  H
pair 6   P  P  P  P  P  H  H  H  H  H
pair 7   P  P  P  P  P  P  H  H  H  H
pair 8   P  P  P  P  P  P  P  P  P  P
pair 9   P  P  P  P  P  S  P  P  S  S
pair 10  S  S  S  S  S  S  S  S  S  S
"""

# The single-deck chart without double after split, dealer hits soft 17, as widely reprinted.
ONE_DECK_H17_NO_DAS = """
hard 5   H  H  H  H  H  H  H  H  H  H
hard 8   H  H  H  D  D  H  H  H  H  H
hard 9   D  D  D  D  D  H  H  H  H  H
hard 10  D  D  D  D  D  D  D  D  H  H
hard 11  D  D  D  D  D  D  D  D  D  D
hard 12  H  H  S  S  S  H  H  H  H  H
hard 13  S  S  S  S  S  H  H  H  H  H
hard 16  S  S  S  S  S  H  H  H  H  H
hard 17  S  S  S  S  S  S  S  S  S  S
soft 13  H  H  D  D  D  H  H  H  H  H
soft 14  H  H  D  D  D  H  H  H  H  H
soft 15  H  H  D  D  D  H  H  H  H  H
soft 16  H  H  D  D  D  H  H  H  H  H
soft 17  D  D  D  D  D  H  H  H  H  H
soft 18  S  Ds Ds Ds Ds S  S  H  H  H
soft 19  S  S  S  S  Ds S  S  S  S  S
soft 20  S  S  S  S  S  S  S  S  S  S
pair 1   P  P  P  P  P  P  P  P  P  P
pair 2   H  P  P  P  P  P  H  H  H  H
pair 3   H  H  P  P  P  P  H  H  H  H
pair 4   H  H  H  D  D  H  H  H  H  H
pair 5   D  D  D  D  D  D  D  D  H  H
pair 6   P  P  P  P  P  H  H  H  H  H
pair 7   P  P  P  P  P  P  H  H  S  H
pair 8   P  P  P  P  P  P  P  P  P  P
pair 9   P  P  P  P  P  S  P  P  S  S
pair 10  S  S  S  S  S  S  S  S  S  S
"""


def parse_chart(text: str) -> dict[tuple[str, int, int], str]:
    cells: dict[tuple[str, int, int], str] = {}
    for line in text.strip().splitlines():
        kind, row, *codes = line.split()
        assert len(codes) == 10, line
        for up, code in zip(UPS, codes, strict=True):
            cells[kind, int(row), up] = code
    return cells


def chart_of(rules: Rules) -> dict[tuple[str, int, int], str]:
    chart = basic_chart(rules)
    cells: dict[tuple[str, int, int], str] = {}
    for kind, rows in (("hard", range(5, 21)), ("soft", range(13, 21)), ("pair", range(1, 11))):
        for row in rows:
            for up in UPS:
                code = chart.code(kind, row, up)
                cells[kind, row, up] = "D" if code == "Dh" else code
    return cells


def differences(
    computed: dict[tuple[str, int, int], str], published: dict[tuple[str, int, int], str]
) -> list[tuple[tuple[str, int, int], str, str]]:
    return [
        (cell, code, computed[cell]) for cell, code in published.items() if computed[cell] != code
    ]


SIX_DECKS = CASINO


@pytest.mark.parametrize("decks", [4, 6])
def test_basic_chart_matches_the_four_to_eight_deck_s17_das_chart(decks: int) -> None:
    computed = chart_of(dataclasses.replace(CASINO, decks=decks))
    assert differences(computed, parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)) == []


def test_basic_chart_eight_decks_differs_only_in_one_razor_thin_cell() -> None:
    computed = chart_of(dataclasses.replace(CASINO, decks=8))
    assert differences(computed, parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)) in (
        [],
        [(("soft", 13, 5), "D", "H")],
    )
    values = hand_values(dataclasses.replace(CASINO, decks=8), 1, 2, 5)
    assert values.double is not None
    assert abs(values.double - values.hit) < 0.002  # either play is right to 0.2% of a bet


def test_basic_chart_h17_changes_exactly_the_published_cells() -> None:
    published = parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)
    published["hard", 11, 1] = "D"
    published["soft", 18, 2] = "Ds"
    published["soft", 19, 6] = "Ds"
    computed = chart_of(dataclasses.replace(CASINO, h17=True))
    assert differences(computed, published) == []


def test_basic_chart_without_das_splits_less() -> None:
    published = parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)
    for up in (2, 3):
        published["pair", 2, up] = "H"
        published["pair", 3, up] = "H"
    published["pair", 4, 5] = "H"
    published["pair", 4, 6] = "H"
    published["pair", 6, 2] = "H"
    computed = chart_of(dataclasses.replace(CASINO, das=False))
    assert differences(computed, published) == []


def test_basic_chart_late_surrender_s17_matches_the_published_chart() -> None:
    published = parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)
    published["hard", 15, 10] = "Rh"
    for up in (9, 10, 1):
        published["hard", 16, up] = "Rh"
    computed = chart_of(dataclasses.replace(CASINO, surrender=Surrender.LATE))
    assert differences(computed, published) == []


def test_basic_chart_late_surrender_h17_matches_the_published_chart() -> None:
    published = parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)
    published["hard", 11, 1] = "D"
    published["soft", 18, 2] = "Ds"
    published["soft", 19, 6] = "Ds"
    published["hard", 15, 10] = "Rh"
    published["hard", 15, 1] = "Rh"
    for up in (9, 10, 1):
        published["hard", 16, up] = "Rh"
    published["hard", 17, 1] = "Rs"
    published["pair", 8, 1] = "Rp"
    computed = chart_of(dataclasses.replace(CASINO, h17=True, surrender=Surrender.LATE))
    assert differences(computed, published) == []


def test_basic_chart_no_hole_card_does_not_risk_more_against_a_ten_or_ace() -> None:
    published = parse_chart(FOUR_TO_EIGHT_DECKS_S17_DAS)
    published["hard", 11, 10] = "H"  # no double against a 10 or an ace
    published["pair", 1, 1] = "H"  # no splitting against an ace
    published["pair", 8, 10] = "H"  # no splitting 8s against a ten or an ace
    published["pair", 8, 1] = "H"
    computed = chart_of(dataclasses.replace(CASINO, peek=False))
    assert differences(computed, published) == []


def test_basic_chart_one_deck_h17_no_das_matches_the_single_deck_chart() -> None:
    rules = dataclasses.replace(CASINO, decks=1, h17=True, das=False)
    assert differences(chart_of(rules), parse_chart(ONE_DECK_H17_NO_DAS)) == []


def test_basic_chart_one_deck_s17_das_differences() -> None:
    computed = chart_of(dataclasses.replace(CASINO, decks=1))
    expected = {
        ("hard", 8, 5): "D",
        ("hard", 8, 6): "D",
        ("hard", 9, 2): "D",
        ("hard", 11, 1): "D",
        ("soft", 17, 2): "D",
        ("soft", 18, 1): "S",  # hits in H17 and in shoes
        ("soft", 19, 6): "Ds",
        ("pair", 2, 2): "P",
        ("pair", 4, 4): "P",
        ("pair", 6, 7): "P",
        ("pair", 7, 8): "P",
        ("pair", 7, 10): "S",
    }
    assert {cell: computed[cell] for cell in expected} == expected


def test_basic_chart_two_deck_h17_differences() -> None:
    computed = chart_of(dataclasses.replace(CASINO, decks=2, h17=True))
    expected = {
        ("hard", 9, 2): "D",
        ("hard", 11, 1): "D",
        ("soft", 14, 4): "D",
        ("soft", 18, 2): "Ds",
        ("soft", 19, 6): "Ds",
        ("pair", 6, 7): "P",
        ("pair", 7, 8): "P",
        ("hard", 8, 6): "H",
        ("soft", 13, 4): "H",
    }
    assert {cell: computed[cell] for cell in expected} == expected


def test_basic_chart_follows_double_restrictions() -> None:
    computed = chart_of(dataclasses.replace(CASINO, double=DoubleRule.TEN_TO_ELEVEN))
    assert computed["hard", 9, 4] == "H"
    assert computed["hard", 10, 4] == "D"
    assert computed["soft", 18, 4] == "S"
    assert computed["soft", 17, 4] == "H"
    computed = chart_of(dataclasses.replace(CASINO, double=DoubleRule.NONE))
    assert not any(code.startswith("D") for code in computed.values())


def test_basic_chart_render_shows_every_row() -> None:
    text = basic_chart(CASINO).render()
    assert text.splitlines()[0] == CASINO.describe()
    assert len(text.splitlines()) == 2 + 16 + 8 + 10


@pytest.mark.parametrize(
    ("pays", "takes"),
    [
        (BlackjackPays.THREE_TO_TWO, False),
        (BlackjackPays.SIX_TO_FIVE, True),
        (BlackjackPays.EVEN, True),
    ],
)
def test_basic_chart_even_money_only_when_it_beats_keeping_the_natural(
    pays: BlackjackPays, takes: bool
) -> None:
    assert basic_chart(dataclasses.replace(CASINO, blackjack_pays=pays)).take_even_money is takes


# ----------------------------------------------------------------------------- values and edge


def test_dealer_outcomes_are_chances() -> None:
    for up in range(1, 11):
        shoe = full_shoe(6)
        shoe[up] -= 1
        outcomes = dealer_outcomes(shoe, up, h17=False, no_blackjack=False)
        assert sum(outcomes) == pytest.approx(1.0)
        assert (outcomes[6] > 0) is (up in (1, 10))
        conditioned = dealer_outcomes(shoe, up, h17=False, no_blackjack=True)
        assert conditioned[6] == 0.0
        assert sum(conditioned) == pytest.approx(1.0)


def test_dealer_outcomes_under_a_six_bust_about_42_percent() -> None:
    shoe = full_shoe(8)
    shoe[6] -= 1
    outcomes = dealer_outcomes(shoe, 6, h17=False, no_blackjack=False)
    assert outcomes[5] == pytest.approx(0.423, abs=0.004)


def test_hand_values_obvious_plays() -> None:
    eleven = hand_values(CASINO, 6, 5, 6)
    assert eleven.double is not None
    assert eleven.double > eleven.hit > eleven.stand
    twenty = hand_values(CASINO, 10, 10, 6)
    assert twenty.split is not None
    assert twenty.stand > twenty.split
    assert twenty.stand > twenty.hit


@pytest.mark.parametrize(
    ("changes", "published"),
    [
        ({"decks": 1, "reshuffle_every_round": True}, -0.184),
        ({"decks": 2, "h17": True, "reshuffle_every_round": True}, 0.380),
    ],
)
def test_house_edge_is_close_to_the_published_exact_figures(
    changes: dict[str, object], published: float
) -> None:
    # Basic strategy is a hair worse for the player than the composition-dependent play behind
    # the published figures.
    edge = house_edge(dataclasses.replace(CASINO, **changes))  # type: ignore[arg-type]
    assert published - 0.005 <= edge <= published + 0.04


def test_house_edge_six_to_five_costs_about_1_4_percent() -> None:
    # The published cost keeps every natural; basic strategy takes even money at 6:5 when it
    # may, which saves a little of it.
    plain = dataclasses.replace(CASINO, insurance=False)
    six_five = dataclasses.replace(plain, blackjack_pays=BlackjackPays.SIX_TO_FIVE)
    assert house_edge(six_five) - house_edge(plain) == pytest.approx(1.36, abs=0.02)
    with_even_money = dataclasses.replace(CASINO, blackjack_pays=BlackjackPays.SIX_TO_FIVE)
    assert house_edge(with_even_money) < house_edge(six_five)


def test_house_edge_rules_move_it_the_right_way() -> None:
    base = house_edge(CASINO)
    assert house_edge(dataclasses.replace(CASINO, h17=True)) > base
    assert house_edge(dataclasses.replace(CASINO, das=False)) > base
    assert house_edge(dataclasses.replace(CASINO, surrender=Surrender.LATE)) < base
    assert house_edge(dataclasses.replace(CASINO, peek=False)) > base
    assert house_edge(dataclasses.replace(CASINO, decks=4)) < base
