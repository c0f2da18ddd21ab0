"""Changing a live table's home-game options: who may, what is stored, what the table is told."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.holdem.errors import TableSettingsError
from bot.holdem.home_options import changed_words
from bot.holdem.settings import HoldemSettings
from bot.tables.events import Notice

if TYPE_CHECKING:
    from bot.holdem.flow import HandLifecycle

NOT_HOST = "Only the player who opened this table or an admin can change its options."


async def apply_option_changes(
    table: HandLifecycle, user_id: int, changes: Mapping[str, Any], *, is_admin: bool
) -> HoldemSettings:
    """Check and store ``changes`` (lock held); they apply from the next hand dealt, since the
    hand in progress keeps the options it was dealt with."""
    if user_id != table.host_user_id and not is_admin:
        raise TableSettingsError(NOT_HOST)
    before = table.settings
    after = before.with_changes(**changes)
    words = changed_words(before, after)
    if not words:
        return before
    stored = {**after.to_json(), "host_user_id": table.host_user_id}
    await table.storage.change_table_settings(table.table_id, stored)
    table.settings = after
    table.seating.settings = after
    when = "from the next hand" if table.hand is not None else "from the first hand dealt"
    await table.publish(Notice(f"Table options changed {when}: {words}."))
    return after
