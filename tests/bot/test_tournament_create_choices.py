"""``/tournament create``'s choices are used, not just accepted: the preset chosen is the
structure played (its levels and starting stack, Sit & Go or multi-table), and the table size
and field are the ones given."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.discord.tournament.options import plan_tournament
from engine.tournament.structure import PRESET_NAMES, Format, preset
from storage.tournaments import TournamentKind

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(
    ("kind", "form"), [("sng", Format.SIT_AND_GO), ("mtt", Format.MULTI_TABLE)]
)
def test_the_preset_chosen_is_the_structure_played(name: str, kind: str, form: Format) -> None:
    plan = plan_tournament(
        name="Night", kind=kind, buy_in=100, preset_name=name, seats=None, max_entries=None,
        start="in 1h", bots=False, fee_percent=0, now=NOW,
    )  # fmt: skip
    wanted = preset(name, form)
    assert plan.structure.steps == wanted.steps
    assert plan.structure.starting_stack == wanted.starting_stack
    assert plan.structure.ante_kind is wanted.ante_kind
    assert not plan.structure.has_rebuys


@pytest.mark.parametrize(
    ("kind", "seats", "entries", "expected"),
    [
        ("sng", 6, None, (6, 6)),
        ("sng", 6, 4, (6, 4)),
        ("sng", None, None, (9, 9)),
        ("mtt", 7, 350, (7, 350)),
        ("mtt", None, None, (9, 100)),
    ],
)
def test_seats_per_table_and_max_entries_are_the_ones_given(
    kind: str, seats: int | None, entries: int | None, expected: tuple[int, int]
) -> None:
    plan = plan_tournament(
        name="Night", kind=kind, buy_in=100, preset_name="turbo", seats=seats,
        max_entries=entries, start="in 1h", bots=False, fee_percent=0, now=NOW,
    )  # fmt: skip
    assert (plan.seats_per_table, plan.max_entries) == expected
    assert plan.kind is TournamentKind(kind)
