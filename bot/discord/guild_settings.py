"""The per-guild settings the Discord front keeps in storage: their keys, their defaults (the config
file), reading them with the guild's overrides, and checking new values.

Economy settings use storage's own keys (``starting_chips``, ``daily_amount``,
``transfers_enabled``). The table defaults of each game are one JSON object per game holding only
what the guild's admins changed (``holdem``, ``blackjack``), so a change is one transaction and a
reset is forgetting one key; the config file's values fill in the rest. Game cogs read
:func:`holdem_defaults` and :func:`blackjack_defaults`, which already apply the guild's bots switch.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any, TypeVar

from bot.config import BlackjackConfig, ConfigError, FeltConfig, HoldemConfig, parse_config
from bot.discord.errors import Refusal
from engine.blackjack import PRESETS
from storage import MAX_CHIPS, Storage
from storage.settings import ECONOMY_KEYS as STORAGE_ECONOMY_KEYS
from storage.tournament_messages import TableHomeKind

_log = logging.getLogger("felt.discord.settings")

ADMIN_ROLE = "admin_role_id"
"""The role whose members are Felt admins besides those with Manage Server (int; 0: none)."""
GAME_CHANNELS = "game_channel_ids"
"""Channels where games may run (list of ints; empty: everywhere). Threads follow their parent."""
BOTS = "bots_enabled"
"""Whether bot players may sit at this guild's tables (bool; default ``[holdem] bots``)."""
HOLDEM = "holdem"
"""The guild's changes to the ``[holdem]`` table defaults (object)."""
BLACKJACK = "blackjack"
"""The guild's changes to the ``[blackjack]`` table defaults (object)."""
TOURNAMENT_MEMBERS_CREATE = "tournament_members_create"
"""Whether members who are not Felt admins may create tournaments (bool; default
``[tournament] members_create``)."""
TOURNAMENT_FEE_PERCENT = "tournament_fee_percent"
"""The house's fee on every tournament buy-in here, in percent of it (int 0-100; default
``[tournament] fee_percent``)."""
TOURNAMENT_TABLES = "tournament_tables"
"""Where new tournaments' tables play here: ``thread`` or ``channel`` (str; default
``[tournament] tables``)."""
TOURNAMENT_KEYS: tuple[str, ...] = (
    TOURNAMENT_MEMBERS_CREATE,
    TOURNAMENT_FEE_PERCENT,
    TOURNAMENT_TABLES,
)
STARTING_CHIPS = "starting_chips"
DAILY_AMOUNT = "daily_amount"
TRANSFERS = "transfers_enabled"
ECONOMY_KEYS: tuple[str, ...] = tuple(sorted(STORAGE_ECONOMY_KEYS))
"""Storage's economy keys (the three above and the daily streak's)."""

SECTION_NAMES = {HOLDEM: "Hold'em", BLACKJACK: "Blackjack"}
HOLDEM_TABLE_KEYS: tuple[str, ...] = tuple(
    item.name for item in dataclasses.fields(HoldemConfig) if item.name != "bots"
)
"""What ``/felt-admin config holdem`` may change (``bots`` is the guild-wide switch)."""
BLACKJACK_TABLE_KEYS: tuple[str, ...] = tuple(
    item.name for item in dataclasses.fields(BlackjackConfig)
)

Section = TypeVar("Section", HoldemConfig, BlackjackConfig)


class InvalidGuildSetting(Refusal):
    """A setting value an admin gave that cannot be used."""


def bounds(section: type[Any], key: str) -> tuple[float | None, float | None]:
    """The minimum and maximum of a config key, as ``bot/config.py`` declares them."""
    metadata = {item.name: item.metadata for item in dataclasses.fields(section)}[key]
    return metadata.get("minimum"), metadata.get("maximum")


# ----- reading -----------------------------------------------------------------------------------


async def admin_role_id(storage: Storage, guild_id: int) -> int | None:
    role_id = await storage.get_setting(guild_id, ADMIN_ROLE, 0)
    return role_id or None


async def game_channel_ids(storage: Storage, guild_id: int) -> tuple[int, ...]:
    stored: tuple[Any, ...] = await storage.get_setting(guild_id, GAME_CHANNELS, ())
    return tuple(item for item in stored if isinstance(item, int) and not isinstance(item, bool))


async def bots_allowed(storage: Storage, guild_id: int, config: FeltConfig) -> bool:
    return await storage.get_setting(guild_id, BOTS, config.holdem.bots)


async def tournament_settings(
    storage: Storage, guild_id: int, config: FeltConfig
) -> tuple[bool, int]:
    """Whether members may create tournaments here, and the house fee in percent (the
    ``[tournament]`` config section, with the guild's changes)."""
    defaults = config.tournament
    members = await storage.get_setting(
        guild_id, TOURNAMENT_MEMBERS_CREATE, defaults.members_create
    )
    fee = await storage.get_setting(guild_id, TOURNAMENT_FEE_PERCENT, defaults.fee_percent)
    return members, fee if 0 <= fee <= 100 else defaults.fee_percent


async def tournament_tables(storage: Storage, guild_id: int, config: FeltConfig) -> TableHomeKind:
    """Where new tournaments' tables play here (``[tournament] tables``, or the guild's)."""
    stored = await storage.get_setting(guild_id, TOURNAMENT_TABLES, config.tournament.tables)
    for kind in TableHomeKind:
        if stored == kind.value:
            return kind
    return TableHomeKind(config.tournament.tables)


def tournament_changes(
    *, members_create: object = None, fee_percent: object = None, tables: object = None
) -> dict[str, Any]:
    """The tournament keys to store for the given new values, checked (None: unchanged)."""
    changes: dict[str, Any] = {}
    if members_create is not None:
        if not isinstance(members_create, bool):
            raise InvalidGuildSetting("Members creating tournaments must be on (true) or off.")
        changes[TOURNAMENT_MEMBERS_CREATE] = members_create
    if fee_percent is not None:
        if isinstance(fee_percent, bool) or not isinstance(fee_percent, int):
            raise InvalidGuildSetting("The tournament fee must be a whole percent from 0 to 100.")
        if not 0 <= fee_percent <= 100:
            raise InvalidGuildSetting("The tournament fee must be a whole percent from 0 to 100.")
        changes[TOURNAMENT_FEE_PERCENT] = fee_percent
    if tables is not None:
        if tables not in {kind.value for kind in TableHomeKind}:
            raise InvalidGuildSetting("Tournament tables play in a thread or a channel.")
        changes[TOURNAMENT_TABLES] = tables
    return changes


async def section_with_changes(
    storage: Storage, guild_id: int, name: str, defaults: Section
) -> Section:
    """A game's table defaults with the guild's changes (``name``: HOLDEM or BLACKJACK), before
    the bots switch is applied."""
    stored: dict[str, Any] = await storage.get_setting(guild_id, name, {})
    return _overlay(name, defaults, stored, guild_id)


async def holdem_defaults(storage: Storage, guild_id: int, config: FeltConfig) -> HoldemConfig:
    """A new Hold'em table's settings in this guild: config, the guild's changes, bots switch."""
    section = await section_with_changes(storage, guild_id, HOLDEM, config.holdem)
    bots = await bots_allowed(storage, guild_id, config)
    return dataclasses.replace(section, bots=bots)


async def blackjack_defaults(
    storage: Storage, guild_id: int, config: FeltConfig
) -> BlackjackConfig:
    """A new Blackjack table's settings in this guild (no bot seats when bots are off)."""
    section = await section_with_changes(storage, guild_id, BLACKJACK, config.blackjack)
    if not await bots_allowed(storage, guild_id, config):
        section = dataclasses.replace(section, bot_seats=0)
    return section


def _overlay(name: str, defaults: Section, stored: Mapping[str, Any], guild_id: int) -> Section:
    known = {item.name for item in dataclasses.fields(defaults)}
    changes = {key: value for key, value in stored.items() if key in known}
    try:
        return checked_section(name, defaults, changes)
    except InvalidGuildSetting as problem:
        # The config file changed under a guild's settings (say a bigger big blind than the
        # guild's minimum buy-in): the config's defaults are safe, the mix is not.
        _log.warning(
            "ignoring a guild's table settings that no longer fit the config",
            extra={"guild_id": guild_id, "section": name, "problem": str(problem)},
        )
        return defaults


# ----- checking ------------------------------------------------------------------------------


def checked_section(name: str, current: Section, changes: Mapping[str, Any]) -> Section:
    """``current`` with ``changes`` applied, checked with the config file's own rules.

    Raises :class:`InvalidGuildSetting` naming the first problem.
    """
    values = {item.name: getattr(current, item.name) for item in dataclasses.fields(current)}
    values.update(changes)
    for key, value in values.items():
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_CHIPS:
            raise InvalidGuildSetting(
                f"{SECTION_NAMES[name]} {key} cannot be more than {MAX_CHIPS:,}."
            )
    if name == BLACKJACK and str(values.get("preset", "")).strip().lower() not in PRESETS:
        raise InvalidGuildSetting(f"Blackjack preset must be one of {', '.join(sorted(PRESETS))}.")
    try:
        parsed = parse_config({name: values}, source="settings")
    except ConfigError as error:
        raise InvalidGuildSetting(_for_people(str(error))) from None
    section: Section = getattr(parsed, name)
    return section


def _for_people(message: str) -> str:
    text = message.removeprefix("settings: ")
    for section, shown in SECTION_NAMES.items():
        text = text.replace(f"[{section}] ", f"{shown} ")
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def changed_from(defaults: Section, section: Section) -> dict[str, Any]:
    """The keys where ``section`` differs from the config's ``defaults`` (what gets stored)."""
    return {
        item.name: getattr(section, item.name)
        for item in dataclasses.fields(section)
        if getattr(section, item.name) != getattr(defaults, item.name)
    }


def economy_changes(
    *,
    starting_chips: object = None,
    daily_amount: object = None,
    transfers: object = None,
) -> dict[str, Any]:
    """The economy keys to store for the given new values, checked (None: unchanged)."""
    changes: dict[str, Any] = {}
    for key, value in ((STARTING_CHIPS, starting_chips), (DAILY_AMOUNT, daily_amount)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
            raise InvalidGuildSetting(
                f"{key.replace('_', ' ').capitalize()} must be a whole number of chips "
                f"from 0 to {MAX_CHIPS:,}."
            )
        changes[key] = value
    if transfers is not None:
        if not isinstance(transfers, bool):
            raise InvalidGuildSetting("Transfers must be on (true) or off (false).")
        changes[TRANSFERS] = transfers
    return changes
