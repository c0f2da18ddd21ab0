"""The home-game table options: the option table's parsing, each refusal, persistence, and
changing them at a live table (host or admin, from the next hand)."""

from __future__ import annotations

import pytest

from bot.holdem.errors import TableSettingsError
from bot.holdem.home_options import (
    OPTIONS,
    option_lines,
    option_summary,
    parse_changes,
)
from bot.holdem.settings import HoldemSettings
from bot.tables.events import Notice
from engine.holdem import StraddleKind
from storage import Storage
from tests.bot.holdem.support import ALICE, BOB, TableFactory
from tests.bot.recorder import HoldemRecorder


def test_parse_changes_reads_every_kind_of_option() -> None:
    changes = parse_changes(
        "straddle=utg, max_straddles=2; run_it_max=2 bomb_pot_every=10 bomb_pot_ante=20 "
        "double_board=yes seven_deuce_bounty=1,000 rabbit_hunt=on"
    )
    assert changes == {
        "straddle": "utg",
        "max_straddles": 2,
        "run_it_max": 2,
        "bomb_pot_every": 10,
        "bomb_pot_ante": 20,
        "double_board": True,
        "seven_deuce_bounty": 1000,
        "rabbit_hunt": True,
    }
    assert parse_changes("seven-deuce-bounty=off") == {"seven_deuce_bounty": 0}


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("", "Name an option"),
        ("straddle", "is not `name=value`"),
        ("straddle=utg junk", "`junk` is not `name=value`"),
        ("wobble=3", "`wobble` is not a table option"),
        ("straddle=sometimes", "`straddle` is one of `off`, `utg` or `button`"),
        ("rabbit_hunt=maybe", "`rabbit_hunt` is on or off"),
        ("run_it_max=9", "`run_it_max` is a whole number from 1 to 4"),
        ("run_it_max=-1", "`run_it_max` is a whole number from 1 to 4"),
        ("bomb_pot_ante=lots", "`bomb_pot_ante` is a whole number from 0"),
        ("straddle=utg straddle=off", "`straddle` is given twice"),
    ],
)
def test_parse_changes_refuses_with_one_line(text: str, refusal: str) -> None:
    with pytest.raises(TableSettingsError, match=refusal):
        parse_changes(text)


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"straddle": "button", "max_straddles": 2}, "The button straddles once"),
        ({"straddle": "utg", "seats": 2, "bots": 1}, "Straddles need a table of at least 3 seats"),
        ({"straddle": "utg", "max_straddles": 5}, "At most 4 straddles fit at 6 seats"),
        ({"bomb_pot_every": 5}, "Bomb pots need a `bomb_pot_ante`"),
        ({"bomb_pot_every": 5, "bomb_pot_ante": 5000}, "cannot be more than the maximum buy-in"),
        ({"double_board": True}, "A double board is for bomb pots"),
        ({"straddle": "sideways"}, "`straddle` is one of"),
        ({"rabbit_hunt": 1}, "`rabbit_hunt` is on or off"),
    ],
)
def test_settings_refuse_inconsistent_options(changes: dict[str, object], refusal: str) -> None:
    with pytest.raises(TableSettingsError, match=refusal):
        HoldemSettings().with_changes(**changes)


def test_settings_make_the_engine_options_and_round_trip_json() -> None:
    settings = HoldemSettings().with_changes(
        **parse_changes("straddle=button bomb_pot_every=3 bomb_pot_ante=10 double_board=on")
    )
    home = settings.home_game
    assert home.straddle is StraddleKind.BUTTON
    assert home.is_bomb_pot(3) and home.hand_options(3).boards == 2
    assert HoldemSettings.from_json(settings.to_json()) == settings


def test_option_summary_names_only_what_differs_from_a_plain_table() -> None:
    assert option_summary(HoldemSettings()) == ""
    settings = HoldemSettings().with_changes(straddle="utg", seven_deuce_bounty=25)
    assert option_summary(settings) == "Straddle utg · 7-2 bounty 25 chips"
    assert len(option_lines(settings)) == len(OPTIONS)


async def test_host_changes_options_from_the_next_hand_and_stores_them(
    make_table: TableFactory, storage: Storage, recorder: HoldemRecorder
) -> None:
    table = await make_table()
    await table.join(ALICE, "Alice", 500, key="join-a")
    dealt = table.hand
    assert dealt is not None and dealt.options.seven_deuce_bounty == 0
    await table.change_options(ALICE, {"seven_deuce_bounty": 20, "rabbit_hunt": True})
    assert table.hand is dealt and dealt.options.seven_deuce_bounty == 0  # this hand unchanged
    assert table.settings.seven_deuce_bounty == 20
    notices = [n.text for n in recorder.of(Notice)]
    assert "Table options changed from the next hand: 7-2 bounty 20 chips, rabbit hunt on." in (
        notices
    )
    info = await storage.get_table(table.table_id)
    assert info is not None and info.settings["seven_deuce_bounty"] == 20
    assert info.settings["host_user_id"] == ALICE
    assert "7-2 bounty 20 chips" in table.snapshot().options


async def test_host_refuses_option_changes_from_other_players(make_table: TableFactory) -> None:
    table = await make_table()
    await table.join(ALICE, "Alice", 500, key="join-a")
    with pytest.raises(TableSettingsError, match="Only the player who opened this table"):
        await table.change_options(BOB, {"rabbit_hunt": True})
    await table.change_options(BOB, {"rabbit_hunt": True}, is_admin=True)
    assert table.settings.rabbit_hunt


async def test_host_refuses_an_inconsistent_change_and_keeps_the_settings(
    make_table: TableFactory, storage: Storage
) -> None:
    table = await make_table()
    await table.join(ALICE, "Alice", 500, key="join-a")
    before = table.settings
    with pytest.raises(TableSettingsError, match="Bomb pots need"):
        await table.change_options(ALICE, {"bomb_pot_every": 4})
    assert table.settings == before
    info = await storage.get_table(table.table_id)
    assert info is not None and info.settings["bomb_pot_every"] == 0
