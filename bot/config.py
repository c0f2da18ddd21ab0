"""Felt's configuration: one TOML file, every key optional, every default defined here only.

The file (default ``./config.toml``; ``felt run --config PATH``) has the sections
``[discord]``, ``[database]``, ``[logging]``, ``[holdem]``, ``[blackjack]`` and ``[economy]``.
``config.example.toml`` at the repository root documents every key; a test keeps it equal to
the defaults below.

Loading refuses unknown keys and wrong types with one line naming the key and the expected type,
because a typo that is silently ignored (``turn_secods = 5``) is worse than a bot that will not
start. Every key is checked completely at load, against the limits the code that uses it enforces
(the ledger's 2^53-1 chips, the table hosts' blinds and timers, the rule presets, the database
schemes), so a config that loads also runs: ``tests/bot/test_config.py`` plays a table, a round
and a daily bonus with every key at its boundaries. The token may come from the
``DISCORD_TOKEN`` environment variable, which wins over the file, so that the file can be
committed or shared without a secret in it.
"""

from __future__ import annotations

import enum
import os
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from bot.config_checks import config_problems
from bot.config_values import ConfigError as ConfigError  # noqa: PLC0414 (re-exported)
from bot.config_values import coerce, meta, show, suggest
from bot.config_values import describe_type as describe_type  # noqa: PLC0414
from bot.holdem.settings import (
    MAX_BLIND,
    MAX_SEATS,
    MIN_SEATS,
)
from bot.tables.limits import (
    BLACKJACK_BOT_STRATEGIES,
    BLACKJACK_MAX_BOT_SPREAD,
    BLACKJACK_MAX_BOTS,
    BLACKJACK_MAX_SIDE_BET,
    BLACKJACK_SIDE_21_3_CHOICES,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
)
from engine.blackjack.rules import PRESETS
from storage.models import MAX_CHIPS
from storage.settings import EconomySettings
from storage.tournament_messages import TableHomeKind

MAX_SNOWFLAKE = 2**63 - 1
MAX_BUY_IN = MAX_CHIPS // MAX_SEATS
"""A whole table's buy-ins fit in one stack, and one wallet, within the ledger's limit."""
MAX_BET = MAX_CHIPS // 20
"""The largest Blackjack return (four split hands doubled and won, plus insurance: 17.5 bets)
fits within the ledger's limit."""
MAX_GRANT = MAX_CHIPS // 4
"""Starting chips and the daily bonus leave a new wallet room to claim and win."""

DEFAULT_CONFIG_PATH = Path("config.toml")
TOKEN_ENVIRONMENT_VARIABLE = "DISCORD_TOKEN"
DISCORD_API_BASE_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


class SyncMode(enum.StrEnum):
    """When `felt run` pushes the application commands to Discord."""

    AUTO = "auto"
    """Only when the command tree differs from the last successful sync (a hash is kept)."""
    ALWAYS = "always"
    """On every start; useful after commands were changed by hand in the developer portal."""
    NEVER = "never"
    """Never; another process or a deploy step syncs."""


class LogFormat(enum.StrEnum):
    """How log records are written."""

    TEXT = "text"
    """One human-readable line per record, context as ``key=value`` pairs."""
    JSON = "json"
    """One JSON object per line, for log collectors."""


class LogLevel(enum.StrEnum):
    """The standard logging levels, by name."""

    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"
    CRITICAL = "CRITICAL"


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """How to reach Discord and present the bot there."""

    token: str = field(
        default="", metadata=meta("The bot token. DISCORD_TOKEN in the environment wins over this.")
    )
    api_base_url: str = field(
        default=DISCORD_API_BASE_URL,
        metadata=meta(
            "Base URL of the REST API: point it at a REST proxy (nirn-proxy) or a test server.",
            non_empty=True,
        ),
    )
    gateway_url: str = field(
        default=DISCORD_GATEWAY_URL,
        metadata=meta(
            "Websocket URL of the gateway: point it at a gateway proxy or a test server.",
            non_empty=True,
        ),
    )
    dev_guild_ids: tuple[int, ...] = field(
        default=(),
        metadata=meta(
            "Guilds that get the commands instantly (guild commands) instead of a global sync.",
            minimum=1,
            maximum=MAX_SNOWFLAKE,
        ),
    )
    shard_count: int = field(
        default=0,
        metadata=meta(
            "Total number of shards; 0 asks Discord for its recommendation.",
            minimum=0,
            maximum=65_535,
        ),
    )
    shard_ids: tuple[int, ...] = field(
        default=(),
        metadata=meta(
            "Shards run by this process (needs shard_count); empty runs them all.",
            minimum=0,
            maximum=65_534,
        ),
    )
    sync_commands: SyncMode = field(
        default=SyncMode.AUTO, metadata=meta("When to push application commands.")
    )
    shutdown_grace_seconds: float = field(
        default=30.0,
        metadata=meta(
            "On SIGINT/SIGTERM, how long games may take to finish or void before the bot closes.",
            minimum=0,
            maximum=600,
        ),
    )
    connect_timeout_seconds: float = field(
        default=30.0,
        metadata=meta(
            "How long `felt run` waits for Discord to answer at startup before giving up.",
            minimum=1,
            maximum=600,
        ),
    )


@dataclass(frozen=True, slots=True)
class DatabaseConfig:
    """Where chips are kept."""

    path: str = field(
        default="./felt.db", metadata=meta("The SQLite database file.", non_empty=True)
    )
    url: str = field(
        default="",
        metadata=meta(
            "A postgresql:// URL: keep the chips in PostgreSQL instead of the SQLite file (what "
            "several shard processes share)."
        ),
    )


@dataclass(frozen=True, slots=True)
class LoggingConfig:
    """What is logged, how, and where."""

    level: LogLevel = field(default=LogLevel.INFO, metadata=meta("Level of Felt's own loggers."))
    discord_level: LogLevel = field(
        default=LogLevel.WARNING, metadata=meta("Level of discord.py's loggers.")
    )
    format: LogFormat = field(
        default=LogFormat.TEXT, metadata=meta("text (one line per record) or json.")
    )
    file: str = field(
        default="", metadata=meta("Append logs to this file; empty logs to standard error.")
    )


@dataclass(frozen=True, slots=True)
class HoldemConfig:
    """Defaults of a new Hold'em table; a guild's admins may change them for their server."""

    small_blind: int = field(
        default=5, metadata=meta("Small blind, in chips.", minimum=1, maximum=MAX_BLIND)
    )
    big_blind: int = field(
        default=10, metadata=meta("Big blind, in chips.", minimum=1, maximum=MAX_BLIND)
    )
    min_buy_in: int = field(
        default=200, metadata=meta("Smallest buy-in, in chips.", minimum=1, maximum=MAX_BUY_IN)
    )
    max_buy_in: int = field(
        default=1000, metadata=meta("Largest buy-in, in chips.", minimum=1, maximum=MAX_BUY_IN)
    )
    seats: int = field(
        default=6, metadata=meta("Seats at a table.", minimum=MIN_SEATS, maximum=MAX_SEATS)
    )
    bots: bool = field(default=True, metadata=meta("Whether bot players fill the empty chairs."))
    bot_delay_seconds: float = field(
        default=1.5,
        metadata=meta("How long a bot player thinks before acting.", minimum=0, maximum=30),
    )
    turn_seconds: int = field(
        default=30,
        metadata=meta(
            "Time a player has to act before checking or folding.",
            minimum=MIN_TURN_SECONDS,
            maximum=MAX_TURN_SECONDS,
        ),
    )
    max_sit_out_hands: int = field(
        default=10,
        metadata=meta(
            "Hands a player may sit out before being cashed out.", minimum=1, maximum=1000
        ),
    )


@dataclass(frozen=True, slots=True)
class BlackjackConfig:
    """Defaults of a new Blackjack table; a guild's admins may change them for their server."""

    preset: str = field(
        default="casino",
        metadata=meta("Rule preset of the Blackjack engine.", choices=tuple(PRESETS)),
    )
    min_bet: int = field(
        default=10, metadata=meta("Smallest bet, in chips.", minimum=1, maximum=MAX_BET)
    )
    max_bet: int = field(
        default=500, metadata=meta("Largest bet, in chips.", minimum=1, maximum=MAX_BET)
    )
    betting_seconds: int = field(
        default=12,
        metadata=meta("Betting window before the cards are dealt.", minimum=3, maximum=120),
    )
    turn_seconds: int = field(
        default=30,
        metadata=meta(
            "Time a player has to act before the hand stands.",
            minimum=MIN_TURN_SECONDS,
            maximum=MAX_TURN_SECONDS,
        ),
    )
    hints: bool = field(default=True, metadata=meta("Whether /blackjack hint is available."))
    bot_seats: int = field(
        default=0,
        metadata=meta(
            "House-funded bot players dealt in with the members (in seats they leave free); "
            "they play bot_strategy. Off while the server's bots are off.",
            minimum=0,
            maximum=BLACKJACK_MAX_BOTS,
        ),
    )
    bot_strategy: str = field(
        default="basic",
        metadata=meta(
            "How the house bots play: basic strategy, or hilo (Hi-Lo counting: index plays "
            "and a bet ramp by the true count, up to bot_spread minimum bets).",
            choices=BLACKJACK_BOT_STRATEGIES,
        ),
    )
    bot_spread: int = field(
        default=1,
        metadata=meta(
            "The counting bots' bet spread: 1 to this many minimum bets by the true count "
            "(1 is a flat bet; above 1 needs bot_strategy = hilo).",
            minimum=1,
            maximum=BLACKJACK_MAX_BOT_SPREAD,
        ),
    )
    side_21_3: str = field(
        default="off",
        metadata=meta(
            "The 21+3 side bet: off, or its pay table (classic 9:1, or five_tier 100/40/30/10/5).",
            choices=BLACKJACK_SIDE_21_3_CHOICES,
        ),
    )
    perfect_pairs: bool = field(
        default=False, metadata=meta("Whether the Perfect Pairs side bet (25/12/6) is offered.")
    )
    counting: bool = field(
        default=False,
        metadata=meta(
            "Whether /blackjack count (the card-counting drill, and the live count question "
            "at a table) is offered."
        ),
    )
    max_side_bet: int = field(
        default=100,
        metadata=meta(
            "Largest side bet, in chips (each side bet is 1 chip to this).",
            minimum=1,
            maximum=BLACKJACK_MAX_SIDE_BET,
        ),
    )


@dataclass(frozen=True, slots=True)
class EconomyConfig:
    """Defaults of a guild's economy; a guild's admins may change them for their server."""

    starting_chips: int = field(
        default=1000,
        metadata=meta(
            "Chips a member gets when their account opens.", minimum=0, maximum=MAX_GRANT
        ),
    )
    daily_amount: int = field(
        default=200,
        metadata=meta("Chips /daily gives once per UTC day.", minimum=0, maximum=MAX_GRANT),
    )
    transfers: bool = field(
        default=True, metadata=meta("Whether members may /give chips to each other.")
    )

    def settings(self) -> EconomySettings:
        """This section as storage's economy defaults, which each guild's settings override (the
        same for the Discord bot and the terminal)."""
        return EconomySettings(
            starting_chips=self.starting_chips,
            daily_amount=self.daily_amount,
            transfers_enabled=self.transfers,
        )


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Defaults of a guild's tournaments; a guild's admins may change them for their server."""

    members_create: bool = field(
        default=False,
        metadata=meta("Whether members who are not Felt admins may /tournament create."),
    )
    fee_percent: int = field(
        default=0,
        metadata=meta(
            "The house's fee on every tournament buy-in, in percent of it, paid on top.",
            minimum=0,
            maximum=100,
        ),
    )
    tables: str = field(
        default=TableHomeKind.THREAD.value,
        metadata=meta(
            "Where a tournament's tables play: thread (a thread of the tournament's channel "
            "each) or channel (a text channel each, in the tournament channel's category, "
            "deleted a minute after its table closes; Felt needs Manage Channels). "
            "/tournament create tables: chooses for one tournament.",
            choices=tuple(kind.value for kind in TableHomeKind),
        ),
    )


@dataclass(frozen=True, slots=True)
class FeltConfig:
    """The whole configuration. Every section has a default, so ``FeltConfig()`` is valid."""

    discord: DiscordConfig = field(default_factory=DiscordConfig)
    database: DatabaseConfig = field(default_factory=DatabaseConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    holdem: HoldemConfig = field(default_factory=HoldemConfig)
    blackjack: BlackjackConfig = field(default_factory=BlackjackConfig)
    economy: EconomyConfig = field(default_factory=EconomyConfig)
    tournament: TournamentConfig = field(default_factory=TournamentConfig)

    @property
    def token(self) -> str:
        """The bot token (already merged with DISCORD_TOKEN), or "" when none was given."""
        return self.discord.token


SECTIONS: dict[str, type[Any]] = {
    item.name: typing.get_type_hints(FeltConfig)[item.name] for item in fields(FeltConfig)
}


def load_config(
    path: Path | str | None = None, *, environ: Mapping[str, str] | None = None
) -> FeltConfig:
    """Read and check the configuration.

    ``path=None`` reads ``./config.toml`` if it exists and otherwise uses the defaults (the bot
    runs with only a token); an explicit path that does not exist is an error. The token from
    ``environ`` (default ``os.environ``) wins over the file's.
    """
    environment = os.environ if environ is None else environ
    if path is None:
        source = DEFAULT_CONFIG_PATH
        table = _read_toml(source) if source.is_file() else {}
    else:
        source = Path(path)
        if not source.is_file():
            raise ConfigError(f"config file not found: {source}")
        table = _read_toml(source)
    config = parse_config(table, source=str(source))
    token = environment.get(TOKEN_ENVIRONMENT_VARIABLE, "").strip()
    if token:
        config = replace(config, discord=replace(config.discord, token=token))
    return config


def parse_config(table: Mapping[str, Any], *, source: str = "config") -> FeltConfig:
    """Build a config from an already parsed TOML table, refusing unknown keys and bad values."""
    sections: dict[str, Any] = {}
    for name, value in table.items():
        section_type = SECTIONS.get(name)
        if section_type is None:
            raise ConfigError(f"{source}: unknown section [{name}]{suggest(name, SECTIONS)}")
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{name}] must be a table of keys, got {show(value)}")
        sections[name] = _parse_section(section_type, name, value, source)
    config = FeltConfig(**sections)
    problems = config_problems(config)
    if problems:
        raise ConfigError(f"{source}: {problems[0]}")
    return config


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error.strerror or error}") from None


def _parse_section(
    section_type: type[Any], section: str, values: Mapping[str, Any], source: str
) -> Any:
    hints = typing.get_type_hints(section_type)
    known = {item.name: item for item in fields(section_type)}
    arguments: dict[str, Any] = {}
    for key, value in values.items():
        item = known.get(key)
        if item is None:
            raise ConfigError(f"{source}: unknown key [{section}] {key}{suggest(key, known)}")
        arguments[key] = coerce(hints[key], value, item.metadata, f"{source}: [{section}] {key}")
    return section_type(**arguments)


def iter_settings() -> list[tuple[str, str, Any, str, str]]:
    """Every key as (section, key, default, expected type in words, doc), in file order.

    Used by the tests that keep ``config.example.toml`` complete, and handy for documentation.
    """
    rows = []
    for section_field in fields(FeltConfig):
        section_type = SECTIONS[section_field.name]
        hints = typing.get_type_hints(section_type)
        for item in fields(section_type):
            default = item.default
            expected = describe_type(hints[item.name], item.metadata)
            rows.append((section_field.name, item.name, default, expected, item.metadata["doc"]))
    return rows
