"""``/tournament create``'s options read and checked: every start-time form, and one line for
every refusal."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.discord.tournament.formatting import describe_structure
from bot.discord.tournament.options import InvalidTournamentOption, plan_tournament, read_start
from storage.tournaments import TournamentKind

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, None),
        ("", None),
        (" FULL ", None),
        ("in 45m", NOW + timedelta(minutes=45)),
        ("in 2h", NOW + timedelta(hours=2)),
        ("in 1h30m", NOW + timedelta(hours=1, minutes=30)),
        ("in 1 hour 5 minutes", NOW + timedelta(hours=1, minutes=5)),
        (f"<t:{int(NOW.timestamp()) + 3600}>", NOW + timedelta(hours=1)),
        (f"<t:{int(NOW.timestamp()) + 3600}:R>", NOW + timedelta(hours=1)),
        ("2026-01-02 20:00", datetime(2026, 1, 2, 20, tzinfo=UTC)),
        ("2026-01-02T20:00 UTC", datetime(2026, 1, 2, 20, tzinfo=UTC)),
    ],
)
def test_read_start_reads_every_documented_form(text: str | None, expected: object) -> None:
    assert read_start(text, NOW) == expected


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("tomorrow", "The start must be `full`, a Discord timestamp"),
        ("in", "The start must be `full`"),
        ("in 0m", "at least a minute from now"),
        ("2025-12-31 20:00", "at least a minute from now"),
        ("2026-02-30 20:00", "The start must be `full`"),
        ("2026-01-02 25:00", "The start must be `full`"),
        ("in 999h", "within 30 days"),
        ("<t:99999999999999>", "The start must be `full`"),
        ("x" * 500, "(500 characters)"),
    ],
)
def test_read_start_refuses_in_one_line(text: str, refusal: str) -> None:
    with pytest.raises(InvalidTournamentOption) as refused:
        read_start(text, NOW)
    assert refusal in str(refused.value) and "\n" not in str(refused.value)


def plan(**changes: Any) -> Any:
    options: dict[str, Any] = {
        "name": "Night",
        "kind": "sng",
        "buy_in": 100,
        "preset_name": "turbo",
        "seats": None,
        "max_entries": None,
        "start": None,
        "bots": False,
        "fee_percent": 0,
        "now": NOW,
    }
    options.update(changes)
    return plan_tournament(**options)


def test_a_plan_fills_defaults_and_charges_the_fee_on_top() -> None:
    chosen = plan(fee_percent=10, name="  Friday   night ")
    assert (chosen.name, chosen.kind, chosen.fee) == ("Friday night", TournamentKind.SIT_AND_GO, 10)
    assert (chosen.seats_per_table, chosen.max_entries, chosen.starts_at) == (9, 9, None)
    mtt = plan(kind="mtt", start="in 1h", preset_name="regular")
    assert mtt.max_entries == 100


def test_a_multi_table_preset_keeps_its_late_registration_and_re_entry_and_the_lobby_says_so() -> (
    None
):
    mtt = plan(kind="mtt", start="in 1h", preset_name="regular")
    assert (mtt.structure.late_registration_levels, mtt.structure.re_entries) == (6, 1)
    said = describe_structure(mtt.structure)
    assert "late registration to the end of level 6" in said
    assert "1 re-entry" in said
    sit_and_go = plan()
    assert (sit_and_go.structure.late_registration_levels, sit_and_go.structure.re_entries) == (
        0,
        0,
    )
    assert "late registration" not in describe_structure(sit_and_go.structure)


def test_rebuys_add_the_rebuy_levels_and_the_add_on_break_and_the_lobby_says_so() -> None:
    plain, rebuys = plan(), plan(rebuys=True)
    assert not plain.structure.has_rebuys and plain.structure.add_on_chips == 0
    assert rebuys.structure == plain.structure.with_rebuys()
    assert (rebuys.structure.rebuy_levels, rebuys.structure.rebuy_limit) == (6, 2)
    said = describe_structure(rebuys.structure)
    assert "rebuys (2 each, 1,500 chips) to level 6" in said
    assert "add-on of 2,250 chips at the break" in said
    assert "rebuys" not in describe_structure(plain.structure)


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"name": "   "}, "The name must be 1 to 100 characters."),
        ({"kind": "cash"}, "The type must be `sng` or `mtt`."),
        ({"preset_name": "slow"}, "The preset must be one of"),
        ({"seats": 11}, "Tables seat 2 to 10 players."),
        ({"max_entries": 10}, "A Sit & Go is one table: 2 to 9 entries"),
        ({"kind": "mtt", "start": "in 1h", "max_entries": 5_000}, "A tournament takes 2 to 1,000"),
        ({"kind": "mtt"}, "A multi-table tournament needs a start time"),
        ({"kind": "mtt", "start": "in 1h", "bots": True}, "Bots can only fill a Sit & Go."),
        ({"bots": True}, "Bots fill the empty seats at the start time"),
    ],
)
def test_plan_refusals_are_one_line(changes: dict[str, Any], refusal: str) -> None:
    with pytest.raises(InvalidTournamentOption) as refused:
        plan(**changes)
    assert str(refused.value).startswith(refusal) and "\n" not in str(refused.value)
