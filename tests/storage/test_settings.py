"""Per-guild settings: a typed key/value store with caller defaults, validated economy keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage.errors import InvalidSetting
from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import FakeClock, Sql, State

GUILD, OTHER_GUILD = 10, 20
ADMIN = 99


async def test_unset_settings_return_the_callers_default(storage: Storage) -> None:
    assert await storage.get_setting(GUILD, "admin_role_id", 0) == 0
    assert await storage.get_setting(GUILD, "allowed_channels", tuple[int, ...]()) == ()


async def test_settings_round_trip_per_guild(storage: Storage, sql: Sql) -> None:
    await storage.set_setting(GUILD, "admin_role_id", 123456789012345678, actor_id=ADMIN)
    await storage.set_setting(GUILD, "allowed_channels", [1, 2, 3])
    await storage.set_setting(GUILD, "table_defaults", {"small_blind": 5, "big_blind": 10})

    assert await storage.get_setting(GUILD, "admin_role_id", 0) == 123456789012345678
    assert await storage.get_setting(GUILD, "allowed_channels", tuple[int, ...]()) == (1, 2, 3)
    assert await storage.get_setting(GUILD, "allowed_channels", []) == [1, 2, 3]
    assert await storage.get_setting(GUILD, "table_defaults", {}) == {
        "small_blind": 5,
        "big_blind": 10,
    }
    assert await storage.get_setting(OTHER_GUILD, "admin_role_id", 0) == 0
    assert sql("SELECT updated_by FROM guild_settings WHERE key = 'admin_role_id'") == [(ADMIN,)]


async def test_a_stored_value_of_another_type_falls_back_to_the_default(storage: Storage) -> None:
    await storage.set_setting(GUILD, "welcome", "hello")

    assert await storage.get_setting(GUILD, "welcome", 5) == 5
    assert await storage.get_setting(GUILD, "welcome", False) is False
    assert await storage.get_setting(GUILD, "welcome", "hi") == "hello"


async def test_get_settings_merges_defaults(storage: Storage) -> None:
    await storage.set_setting(GUILD, "b", 2)
    await storage.set_setting(GUILD, "c", "not a bool")

    merged = await storage.get_settings(GUILD, {"a": 1, "b": 0, "c": True})

    assert merged == {"a": 1, "b": 2, "c": True}
    assert await storage.stored_settings(GUILD) == {"b": 2, "c": "not a bool"}


async def test_a_setting_keeps_its_last_value_and_once_cleared_reads_the_default(
    storage: Storage,
) -> None:
    await storage.set_setting(GUILD, "x", 1)
    await storage.set_setting(GUILD, "x", 2)
    assert await storage.get_setting(GUILD, "x", 0) == 2

    assert await storage.clear_setting(GUILD, "x") is True
    assert await storage.clear_setting(GUILD, "x") is False
    assert await storage.get_setting(GUILD, "x", 0) == 0


async def test_economy_overrides_sit_on_top_of_the_configured_defaults(
    database: str | Path, clock: FakeClock
) -> None:
    defaults = EconomySettings(starting_chips=500, daily_amount=100)
    async with await Storage.open(database, clock=clock, economy=defaults) as storage:
        await storage.set_setting(GUILD, "daily_amount", 300)
        await storage.set_setting(GUILD, "transfers_enabled", False)

        economy = await storage.economy(GUILD)

    assert economy == EconomySettings(
        starting_chips=500, daily_amount=300, daily_streak_bonus=50, transfers_enabled=False
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("starting_chips", -1),
        ("starting_chips", "1000"),
        ("starting_chips", 2**53),
        ("starting_chips", True),
        ("daily_amount", 2.5),
        ("transfers_enabled", 1),
        ("transfers_enabled", "yes"),
        ("Bad Key", 1),
        ("", 1),
        ("9lives", 1),
        ("x" * 65, 1),
        ("blob", "x" * 20_000),
        ("weird", {1, 2}),
        ("nan", float("nan")),
    ],
)
async def test_invalid_settings_are_refused(
    storage: Storage, state: State, key: Any, value: Any
) -> None:
    before = state()
    with pytest.raises(InvalidSetting):
        await storage.set_setting(GUILD, key, value)
    assert state() == before
