"""Per-guild settings: a small typed key/value store, and the economy settings storage itself uses.

Values are JSON (bool, int, float, str, lists and objects). A reader passes the default, and a
stored value is only returned when it has the default's JSON type, so a setting written by an
older or newer version of Felt in another shape falls back to the default instead of crashing a
command. The economy keys (``starting_chips``, ``daily_amount``, ...) are validated on write.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from storage.backend import Transaction
from storage.errors import InvalidSetting
from storage.models import MAX_CHIPS

T = TypeVar("T")

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]

SETTING_KEY = re.compile(r"^[a-z][a-z0-9_.]{0,63}$")
MAX_SETTING_BYTES = 16_384


@dataclass(frozen=True, slots=True)
class EconomySettings:
    """The settings that decide how chips are minted and moved in a guild.

    The defaults here are used only when the caller passes none; the bot passes its config's.
    Each field is also a guild setting key of the same name that admins can override.
    """

    starting_chips: int = 1_000
    """Granted once, when a member first uses Felt in the guild (0: none)."""
    daily_amount: int = 250
    """The daily bonus on the first day of a streak (0: daily bonus off)."""
    daily_streak_bonus: int = 50
    """Added per consecutive day claimed after the first."""
    daily_streak_max: int = 7
    """The streak day at which the bonus stops growing."""
    transfers_enabled: bool = True
    """Whether members may send each other chips."""


ECONOMY_KEYS: frozenset[str] = frozenset(f.name for f in dataclasses.fields(EconomySettings))
_ECONOMY_QUERY = (
    "SELECT key, value FROM guild_settings WHERE guild_id = ? AND key IN ("
    + ", ".join("?" for _ in ECONOMY_KEYS)
    + ")"
)


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number" if isinstance(value, float) else "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def _matches(stored: object, default: object) -> bool:
    stored_kind, default_kind = _json_kind(stored), _json_kind(default)
    if stored_kind == default_kind:
        return True
    return default_kind == "number" and stored_kind == "int"


def coerce(stored: object, default: T) -> T:
    """``stored`` if it has the JSON type of ``default`` (lists become tuples for a tuple
    default), else ``default``."""
    if not _matches(stored, default):
        return default
    if isinstance(default, tuple) and isinstance(stored, list):
        return tuple(stored)  # type: ignore[return-value]
    return stored  # type: ignore[return-value]


def require_setting_key(key: object) -> str:
    if not isinstance(key, str) or SETTING_KEY.match(key) is None:
        raise InvalidSetting(
            "A setting name is 1-64 characters: lowercase letters, digits, '_' and '.', "
            "starting with a letter."
        )
    return key


def encode_setting(key: str, value: object) -> str:
    """The stored JSON text of a setting value, validating economy keys' types and ranges."""
    if isinstance(value, tuple):
        value = list(value)
    if key in ECONOMY_KEYS:
        expected = _economy_kinds()[key]
        if expected is bool:
            if not isinstance(value, bool):
                raise InvalidSetting(f"{key} must be true or false.")
        elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
            raise InvalidSetting(f"{key} must be a whole number from 0 to {MAX_CHIPS:,}.")
    try:
        text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidSetting(f"{key} must be plain JSON data ({error}).") from error
    if len(text.encode()) > MAX_SETTING_BYTES:
        raise InvalidSetting(f"{key} is too large (at most {MAX_SETTING_BYTES:,} bytes).")
    return text


def _economy_kinds() -> dict[str, Any]:
    return {
        f.name: type(getattr(EconomySettings(), f.name))
        for f in dataclasses.fields(EconomySettings)
    }


def read_settings(tx: Transaction, guild_id: int) -> dict[str, Any]:
    """Every stored setting of a guild, decoded."""
    rows = tx.all("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return {str(key): json.loads(value) for key, value in rows}


def read_economy(tx: Transaction, guild_id: int, defaults: EconomySettings) -> EconomySettings:
    """The guild's economy: stored overrides on top of ``defaults``."""
    rows = tx.all(_ECONOMY_QUERY, (guild_id, *sorted(ECONOMY_KEYS)))
    if not rows:
        return defaults
    overrides = {
        str(key): coerce(json.loads(value), getattr(defaults, str(key))) for key, value in rows
    }
    return dataclasses.replace(defaults, **overrides)


def merge(stored: Mapping[str, Any], defaults: Mapping[str, T]) -> dict[str, T]:
    """``defaults`` with each key replaced by its stored value when that has the right type."""
    return {
        key: coerce(stored[key], default) if key in stored else default
        for key, default in defaults.items()
    }
