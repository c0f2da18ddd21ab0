"""Rule sets: presets, validation, ``name=value`` overrides and the rounding rule."""

from __future__ import annotations

import dataclasses

import pytest

from engine.blackjack import (
    CASINO,
    CLASSIC,
    PRESETS,
    RULE_NAMES,
    BadRuleValueError,
    BlackjackPays,
    DoubleRule,
    Rules,
    RulesError,
    Surrender,
    Ties,
    UnknownRuleError,
    preset,
)
from engine.blackjack.sidebets import TwentyOneThreePaytable
from engine.errors import MalformedInputError


def test_rules_option_names_are_exactly_the_issues() -> None:
    assert RULE_NAMES == (
        "decks",
        "h17",
        "blackjack_pays",
        "double",
        "das",
        "max_hands",
        "resplit_aces",
        "hit_split_aces",
        "peek",
        "surrender",
        "insurance",
        "penetration",
        "reshuffle_every_round",
        "ties",
        "side_21_3",
        "perfect_pairs",
    )


def test_rules_casino_preset() -> None:
    assert (
        Rules(
            decks=6,
            h17=False,
            blackjack_pays=BlackjackPays.THREE_TO_TWO,
            double=DoubleRule.ANY,
            das=True,
            max_hands=4,
            resplit_aces=False,
            hit_split_aces=False,
            peek=True,
            surrender=Surrender.NONE,
            insurance=True,
            penetration=0.75,
            reshuffle_every_round=False,
            ties=Ties.PUSH,
        )
        == CASINO
    )
    assert preset("casino") is CASINO
    assert preset(" Casino ") is CASINO


def test_rules_classic_preset_is_the_original_exercise() -> None:
    assert CLASSIC.decks == 1
    assert CLASSIC.reshuffle_every_round
    assert CLASSIC.double is DoubleRule.NONE
    assert CLASSIC.max_hands == 1
    assert CLASSIC.surrender is Surrender.NONE
    assert not CLASSIC.insurance
    assert CLASSIC.blackjack_pays is BlackjackPays.EVEN
    assert CLASSIC.ties is Ties.LOSE
    assert set(PRESETS) == {"casino", "classic"}


def test_rules_unknown_preset_is_refused() -> None:
    with pytest.raises(UnknownRuleError, match="casino, classic"):
        preset("vegas")


def test_rules_overrides_parse_text_values() -> None:
    rules = CASINO.with_overrides(
        [
            "decks=1",
            "h17=true",
            "blackjack_pays=6:5",
            "double=10-11",
            "das=no",
            "max_hands=2",
            "resplit_aces=yes",
            "hit_split_aces=on",
            "peek=false",
            "surrender=late",
            "insurance=0",
            "penetration=80%",
            "reshuffle_every_round=1",
            "ties=lose",
        ]
    )
    assert rules == Rules(
        decks=1,
        h17=True,
        blackjack_pays=BlackjackPays.SIX_TO_FIVE,
        double=DoubleRule.TEN_TO_ELEVEN,
        das=False,
        max_hands=2,
        resplit_aces=True,
        hit_split_aces=True,
        peek=False,
        surrender=Surrender.LATE,
        insurance=False,
        penetration=0.8,
        reshuffle_every_round=True,
        ties=Ties.LOSE,
    )


@pytest.mark.parametrize(
    ("text", "penetration"), [("0.5", 0.5), ("50%", 0.5), ("75%", 0.75), ("1", 1.0)]
)
def test_rules_penetration_accepts_fractions_and_percentages(text: str, penetration: float) -> None:
    assert CASINO.with_overrides([f"penetration={text}"]).penetration == penetration


@pytest.mark.parametrize("text", ["1.5", "75", "0", "-0.5", "150%", "nan"])
def test_rules_penetration_refuses_a_bare_number_outside_0_to_1(text: str) -> None:
    with pytest.raises(BadRuleValueError, match="penetration cannot be"):
        CASINO.with_overrides([f"penetration={text}"])


def test_rules_overrides_accept_a_mapping_of_values() -> None:
    rules = CASINO.with_overrides({"decks": 2, "h17": True, "blackjack_pays": "3/2"})
    assert (rules.decks, rules.h17, rules.blackjack_pays) == (2, True, BlackjackPays.THREE_TO_TWO)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("decks=9", "decks must be a whole number from 1 to 8"),
        ("decks=0", "from 1 to 8"),
        ("decks=six", "whole number"),
        ("max_hands=5", "max_hands must be a whole number from 1 to 4"),
        ("h17=maybe", "h17 must be true or false"),
        ("blackjack_pays=2:1", "choose from 3:2, 6:5, 1:1"),
        ("double=8-11", "choose from any, 9-11, 10-11, none"),
        ("surrender=early", "choose from none, late"),
        ("ties=win", "choose from push, lose"),
        ("penetration=0", "penetration"),
        ("penetration=150%", "penetration"),
        ("penetration=most", "penetration"),
        ("decks", "expected name=value"),
        ("=3", "expected name=value"),
        ("side_21_3=on", "side_21_3 cannot be 'on' \\(choose from off, classic, five_tier\\)"),
        ("side_21_3=9:1", "choose from off, classic, five_tier"),
        ("perfect_pairs=25", "perfect_pairs must be true or false"),
    ],
)
def test_rules_bad_values_are_refused_with_a_readable_message(override: str, message: str) -> None:
    with pytest.raises(BadRuleValueError, match=message):
        CASINO.with_overrides([override])


def test_rules_unknown_names_are_refused_and_listed() -> None:
    with pytest.raises(UnknownRuleError, match="rules are: decks, h17"):
        CASINO.with_overrides(["deck=1"])


def test_rules_errors_are_malformed_input() -> None:
    assert issubclass(RulesError, MalformedInputError)
    assert issubclass(UnknownRuleError, RulesError)
    assert issubclass(BadRuleValueError, RulesError)


@pytest.mark.parametrize(
    "changes",
    [
        {"decks": 0},
        {"decks": True},
        {"decks": 2.0},
        {"max_hands": 0},
        {"h17": "yes"},
        {"double": "any"},
        {"penetration": 0.0},
        {"penetration": 1.5},
        {"penetration": True},
        {"side_21_3": "classic"},
        {"perfect_pairs": "on"},
    ],
)
def test_rules_constructor_refuses_bad_values(changes: dict[str, object]) -> None:
    with pytest.raises(BadRuleValueError):
        Rules(**changes)  # type: ignore[arg-type]


def test_rules_are_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        CASINO.decks = 2  # type: ignore[misc]
    assert hash(CASINO) == hash(Rules())
    assert CASINO.with_overrides(["decks=6"]) == CASINO


@pytest.mark.parametrize(
    ("pays", "bet", "payout"),
    [
        (BlackjackPays.THREE_TO_TWO, 10, 25),
        (BlackjackPays.THREE_TO_TWO, 5, 12),
        (BlackjackPays.THREE_TO_TWO, 1, 2),
        (BlackjackPays.SIX_TO_FIVE, 10, 22),
        (BlackjackPays.SIX_TO_FIVE, 3, 6),
        (BlackjackPays.EVEN, 7, 14),
    ],
)
def test_rules_blackjack_payout_rounds_fractions_down(
    pays: BlackjackPays, bet: int, payout: int
) -> None:
    assert Rules(blackjack_pays=pays).blackjack_payout(bet) == payout


@pytest.mark.parametrize(
    ("pays", "unit"),
    [(BlackjackPays.THREE_TO_TWO, 2), (BlackjackPays.SIX_TO_FIVE, 10), (BlackjackPays.EVEN, 2)],
)
def test_rules_bet_unit_is_paid_exactly(pays: BlackjackPays, unit: int) -> None:
    rules = Rules(blackjack_pays=pays)
    assert rules.bet_unit == unit
    numerator, denominator = pays.ratio
    for multiple in range(1, 20):
        bet = unit * multiple
        assert (rules.blackjack_payout(bet) - bet) * denominator == bet * numerator
        assert Rules.surrender_refund(bet) * 2 == bet
        assert Rules.insurance_stake(bet) * 2 == bet


def test_rules_describe_reads_well() -> None:
    assert CASINO.describe() == (
        "6 decks, S17, blackjack pays 3:2, double any, DAS, split to 4 hands, dealer peeks, "
        "insurance, 75% penetration"
    )
    assert CLASSIC.describe() == (
        "1 deck, S17, blackjack pays 1:1, no doubling, no splitting, dealer peeks, "
        "no insurance, shuffled every round, ties lose"
    )


def test_rules_side_bets_are_off_by_default_in_every_preset() -> None:
    for rules in PRESETS.values():
        assert rules.side_21_3 is None
        assert rules.perfect_pairs is False


@pytest.mark.parametrize(
    ("overrides", "side_21_3", "perfect_pairs"),
    [
        (["side_21_3=classic"], TwentyOneThreePaytable.CLASSIC, False),
        (["side_21_3=five_tier", "perfect_pairs=on"], TwentyOneThreePaytable.FIVE_TIER, True),
        (["Side-21-3=Five-Tier", "Perfect-Pairs=ON"], TwentyOneThreePaytable.FIVE_TIER, True),
        (["side_21_3=classic", "side_21_3=off", "perfect_pairs=off"], None, False),
    ],
)
def test_rules_side_bet_overrides(
    overrides: list[str], side_21_3: TwentyOneThreePaytable | None, perfect_pairs: bool
) -> None:
    rules = CASINO.with_overrides(overrides)
    assert (rules.side_21_3, rules.perfect_pairs) == (side_21_3, perfect_pairs)


def test_rules_option_names_are_case_and_dash_insensitive() -> None:
    assert CASINO.with_overrides(["Decks=1", "HIT-SPLIT-ACES=yes"]) == Rules(
        decks=1, hit_split_aces=True
    )


def test_rules_options_are_text_a_rule_override_takes_back() -> None:
    rules = CASINO.with_overrides(["side_21_3=five_tier", "perfect_pairs=on", "h17=true"])
    options = rules.options()
    assert list(options) == list(RULE_NAMES)
    assert options["side_21_3"] == "five_tier"
    assert options["perfect_pairs"] is True
    assert options["blackjack_pays"] == "3:2"
    assert CASINO.options()["side_21_3"] == "off"
    assert CASINO.with_overrides([f"{name}={value}" for name, value in options.items()]) == rules


def test_rules_describe_names_the_side_bets() -> None:
    text = CASINO.with_overrides(["side_21_3=five_tier", "perfect_pairs=on"]).describe()
    assert text.endswith("21+3 (five-tier), Perfect Pairs")
    assert "21+3" not in CASINO.describe()
