"""Structures: the presets, TOML reading and its refusals, and the stakes a level sets."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.tournament import (
    PRESET_NAMES,
    AnteKind,
    Break,
    Clock,
    Format,
    Level,
    StructureError,
    parse_structure,
    preset,
)

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "tournament.example.toml"
GOOD = """
name = "friday"
starting_stack = 5000
ante = "every_player"
late_registration_levels = 2
re_entries = 1
rebuy_levels = 2
rebuy_limit = 1
rebuy_chips = 5000
add_on_chips = 7500

[[levels]]
small_blind = 25
big_blind = 50
minutes = 15

[[levels]]
small_blind = 50
big_blind = 100
ante = 10
minutes = 15

[[levels]]
break_minutes = 10
add_on = true

[[levels]]
small_blind = 100
big_blind = 200
ante = 25
minutes = 15
"""


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("kind", list(Format))
def test_presets_build_and_read_back_from_their_mapping(name: str, kind: Format) -> None:
    structure = preset(name, kind)
    assert parse_structure(structure.to_mapping()) == structure
    assert structure.clock is Clock.MINUTES
    assert not structure.has_rebuys
    assert (structure.late_registration_levels > 0) == (kind is Format.MULTI_TABLE)


def test_presets_get_faster_from_deepstack_to_hyper() -> None:
    minutes = [
        preset(name).levels[0].duration for name in ("deepstack", "regular", "turbo", "hyper")
    ]
    assert minutes == sorted(minutes, reverse=True)
    stacks = [preset(name).starting_stack for name in ("deepstack", "regular", "turbo", "hyper")]
    assert stacks == sorted(stacks, reverse=True)


def test_with_rebuys_adds_a_rebuy_period_and_an_add_on_break() -> None:
    structure = preset("turbo").with_rebuys()
    assert structure.rebuy_levels == 6 and structure.rebuy_limit == 2
    breaks = [step for step in structure.steps if isinstance(step, Break)]
    assert [b.add_on for b in breaks] == [True]
    assert structure.level_number(structure.steps.index(breaks[0])) == 6


def test_toml_structure_reads_every_field() -> None:
    structure = parse_structure(GOOD)
    assert structure.ante_kind is AnteKind.EVERY_PLAYER
    assert structure.levels[1] == Level(50, 100, 10, minutes=15)
    assert structure.steps[2] == Break(10, add_on=True)
    assert (structure.rebuy_levels, structure.rebuy_limit, structure.add_on_chips) == (2, 1, 7500)
    assert parse_structure(structure.to_mapping()) == structure


def test_documented_example_structure_reads() -> None:
    structure = parse_structure(EXAMPLE.read_text(encoding="utf-8"))
    assert structure.levels


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("minutes = 15", "minutes = 0"), "minutes must be a whole number >= 1"),
        (("small_blind = 25", "small_blind = 75"), "exceeds the big blind"),
        (("starting_stack = 5000", "starting_stack = 50"), "more than the first big blind"),
        (('ante = "every_player"', 'ante = "sometimes"'), "ante must be one of"),
        (("rebuy_chips = 5000", "rebuy_chips = 0"), "rebuys need"),
        (("add_on = true", "add_on = false"), "exactly one break with add_on"),
        (("late_registration_levels = 2", "late_registration_levels = 9"), "past the last level"),
        (("re_entries = 1", "re_entrys = 1"), "unknown key 're_entrys'"),
        (("ante = 10\n", "antes = 10\n"), "unknown level key 'antes'"),
        (("minutes = 15\n\n[[levels]]\nbreak", "hands = 15\n\n[[levels]]\nbreak"), "not a mix"),
        (('name = "friday"', "name = "), "not valid TOML"),
    ],
)
def test_bad_structures_are_refused_in_one_line(change: tuple[str, str], message: str) -> None:
    text = GOOD.replace(*change, 1)
    assert text != GOOD
    with pytest.raises(StructureError, match=message) as caught:
        parse_structure(text)
    assert "\n" not in str(caught.value)


def test_blinds_that_fall_and_breaks_that_lead_are_refused() -> None:
    structure = parse_structure(GOOD)
    with pytest.raises(StructureError, match="lower than the level before"):
        replace(structure, steps=(Level(50, 100, minutes=5), Level(25, 50, minutes=5)))
    with pytest.raises(StructureError, match="must follow a level"):
        replace(structure, steps=(Break(5), Level(25, 50, minutes=5)), add_on_chips=0)
    with pytest.raises(StructureError, match="unknown preset"):
        preset("glacial")


def test_big_blind_ante_is_dead_money_paid_by_the_big_blind() -> None:
    level = Level(50, 100, 100, minutes=5)
    stakes = level.stakes((1000, 1000, 1000), AnteKind.BIG_BLIND)
    assert stakes.antes == (0, 100, 0) and not stakes.ante_trimming
    heads_up = level.stakes((1000, 1000), AnteKind.BIG_BLIND)
    assert heads_up.ante_of(0) == 100 and heads_up.ante_of(1) == 0  # player 0 is the big blind


def test_a_short_big_blind_pays_the_blind_before_the_ante() -> None:
    level = Level(50, 100, 100, minutes=5)
    assert level.stakes((1000, 150, 1000), AnteKind.BIG_BLIND).antes == (0, 50, 0)
    assert level.stakes((1000, 80, 1000), AnteKind.BIG_BLIND).antes == (0, 0, 0)


def test_every_player_ante_uses_standard_stakes() -> None:
    stakes = Level(50, 100, 10, minutes=5).stakes((500, 500, 500), AnteKind.EVERY_PLAYER)
    assert stakes.antes == (10, 10, 10) and stakes.ante_trimming
