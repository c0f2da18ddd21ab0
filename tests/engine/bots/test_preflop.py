"""The shipped preflop table: classes, known equities, ordering, and that the script rebuilds it."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine.bots.build_preflop_table import dump, vs_random_row
from engine.bots.preflop import (
    COMBOS,
    RANGE_FRACTIONS,
    TABLE_FILE,
    PreflopTableError,
    all_classes,
    class_combos,
    class_name,
    preflop_table,
    table_from_json,
)
from engine.cards import parse_cards


def document() -> dict[str, object]:
    text = resources.files("engine.bots").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    loaded = json.loads(text)
    assert isinstance(loaded, dict)
    return loaded


def test_preflop_classes_cover_all_1326_combos_once() -> None:
    classes = all_classes()
    assert len(classes) == 169
    combos = [frozenset(combo) for name in classes for combo in class_combos(name)]
    assert len(combos) == len(set(combos)) == COMBOS
    assert len(class_combos("AA")) == 6
    assert len(class_combos("AKs")) == 4
    assert len(class_combos("AKo")) == 12


@pytest.mark.parametrize(
    ("cards", "name"),
    [("AsAh", "AA"), ("KdAd", "AKs"), ("Ah Kd", "AKo"), ("2c7d", "72o"), ("Tc9c", "T9s")],
)
def test_preflop_class_name_is_the_same_in_either_card_order(cards: str, name: str) -> None:
    first, second = parse_cards(cards)
    assert class_name(first, second) == name
    assert class_name(second, first) == name


def test_preflop_table_holds_known_equities() -> None:
    table = preflop_table()
    aces = parse_cards("AsAh")
    seven_deuce = parse_cards("7c2d")
    kings_red, kings_black = parse_cards("KdKc"), parse_cards("KhKs")
    # Published figures: AA 85.2% heads-up and about 31% against nine hands; 72o about 34.6%.
    assert table.equity_vs_random(aces[0], aces[1], 1) == pytest.approx(0.852, abs=0.004)
    assert table.equity_vs_random(aces[0], aces[1], 9) == pytest.approx(0.31, abs=0.01)
    assert table.equity_vs_random(seven_deuce[0], seven_deuce[1], 1) == pytest.approx(
        0.346, abs=0.004
    )
    # Suits do not matter against random hands: any combo of a class reads its row.
    assert table.equity_vs_random(kings_red[0], kings_red[1], 3) == table.equity_vs_random(
        kings_black[0], kings_black[1], 3
    )


def test_preflop_equity_falls_with_more_opponents_and_tighter_ranges() -> None:
    table = preflop_table()
    for name in ("AA", "AKs", "T9s", "72o", "22"):
        first, second = class_combos(name)[0]
        row = [table.equity_vs_random(first, second, k) for k in range(1, 10)]
        assert row == sorted(row, reverse=True), name
        assert table.equity_vs_random(first, second, 12) < row[-1]
    first, second = parse_cards("AhKd")
    assert table.equity_vs_range(first, second, 0.05) < table.equity_vs_range(first, second, 1.0)
    # Interpolation stays between the neighbouring columns.
    middle = table.equity_vs_range(first, second, 0.125)
    low, high = (
        table.equity_vs_range(first, second, 0.1),
        table.equity_vs_range(first, second, 0.15),
    )
    assert min(low, high) <= middle <= max(low, high)


def test_preflop_order_puts_aces_first_and_junk_last() -> None:
    table = preflop_table()
    order = [table.classes[i] for i in table.order]
    assert order[:3] == ["AA", "KK", "QQ"]
    assert "72o" in order[-10:] and "32o" in order[-10:]
    ranked = table.ordered_combos()
    assert len(ranked) == COMBOS and len(set(ranked)) == COMBOS
    assert table.top_combos(0.05) == ranked[: round(0.05 * COMBOS)]
    aces = table.percentile(*parse_cards("AsAh"))
    junk = table.percentile(*parse_cards("3c2d"))
    assert 0.0 < aces < 0.01 and 0.98 < junk < 1.0


def test_preflop_table_rows_are_what_the_script_builds() -> None:
    loaded = document()
    samples, seed = loaded["samples"], loaded["seed"]
    assert isinstance(samples, int) and isinstance(seed, int)
    classes = all_classes()
    rows = loaded["vs_random"]
    assert isinstance(rows, list)
    index = classes.index("JTs")
    assert vs_random_row("JTs", samples, seed) == rows[index]


def test_preflop_table_dump_round_trips() -> None:
    loaded = document()
    assert json.loads(dump(loaded)) == loaded
    assert table_from_json(json.loads(dump(loaded))) == preflop_table()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"classes": ["AA"]}, "169 classes"),
        ({"vs_random": "nope"}, "not a list"),
        ({"range_fractions": [0.5]}, "range fractions"),
        ({"seed": None}, "samples and seed"),
    ],
)
def test_preflop_table_refuses_a_malformed_file(change: dict[str, object], message: str) -> None:
    broken = document() | change
    with pytest.raises(PreflopTableError, match=message):
        table_from_json(broken)


def test_preflop_table_refuses_equities_outside_0_to_1() -> None:
    broken = document()
    rows = broken["vs_range"]
    assert isinstance(rows, list)
    broken["vs_range"] = [[1.5] * len(RANGE_FRACTIONS), *rows[1:]]
    with pytest.raises(PreflopTableError, match="outside"):
        table_from_json(broken)
