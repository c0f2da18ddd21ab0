"""The rules between a loaded config's keys, and what the database and table hosts would refuse."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from bot.holdem.errors import TableSettingsError
from bot.holdem.settings import HoldemSettings
from storage.errors import StorageError
from storage.store import POSTGRES_SCHEMES, database_target

if TYPE_CHECKING:
    from bot.config import DatabaseConfig, FeltConfig, HoldemConfig


def config_problems(config: FeltConfig) -> list[str]:
    """What breaks the rules between keys, first problem first; each names the keys involved."""
    holdem, blackjack, discord = config.holdem, config.blackjack, config.discord
    problems = []
    if holdem.small_blind > holdem.big_blind:
        problems.append("[holdem] small_blind must not be larger than big_blind")
    if holdem.min_buy_in > holdem.max_buy_in:
        problems.append("[holdem] min_buy_in must not be larger than max_buy_in")
    if holdem.min_buy_in < holdem.big_blind:
        problems.append("[holdem] min_buy_in must be at least big_blind")
    if blackjack.min_bet > blackjack.max_bet:
        problems.append("[blackjack] min_bet must not be larger than max_bet")
    if blackjack.bot_spread > 1 and blackjack.bot_strategy != "hilo":
        problems.append("[blackjack] bot_spread above 1 needs bot_strategy = hilo")
    if discord.shard_ids and discord.shard_count == 0:
        problems.append("[discord] shard_ids needs shard_count")
    if any(shard >= discord.shard_count for shard in discord.shard_ids) and discord.shard_count:
        problems.append("[discord] shard_ids must all be smaller than shard_count")
    problems += _database_problems(config.database)
    problems += _table_problems(config.holdem)
    if not discord.api_base_url.startswith(("http://", "https://")):
        problems.append("[discord] api_base_url must start with http:// or https://")
    if not discord.gateway_url.startswith(("ws://", "wss://")):
        problems.append("[discord] gateway_url must start with ws:// or wss://")
    return problems


def _database_problems(database: DatabaseConfig) -> list[str]:
    """What opening the database would refuse, found now."""
    if database.url:
        if not database.url.startswith(POSTGRES_SCHEMES):
            return ["[database] url must start with postgresql://"]
        if importlib.util.find_spec("psycopg") is None:
            return [
                "[database] url needs PostgreSQL's driver psycopg, which is not installed: "
                "pip install 'felt[postgres]'"
            ]
        return []
    try:
        database_target(database.path)
    except StorageError as error:
        return [f"[database] path: {error}"]
    return []


def _table_problems(holdem: HoldemConfig) -> list[str]:
    """A Hold'em table built from these defaults passes the host's own checks."""
    try:
        HoldemSettings(
            small_blind=holdem.small_blind,
            big_blind=holdem.big_blind,
            min_buy_in=holdem.min_buy_in,
            max_buy_in=holdem.max_buy_in,
            seats=holdem.seats,
            bots=holdem.seats - 1 if holdem.bots else 0,
            bot_delay_seconds=holdem.bot_delay_seconds,
            turn_seconds=holdem.turn_seconds,
            max_sit_out_hands=holdem.max_sit_out_hands,
        ).validated()
    except TableSettingsError as error:
        return [f"[holdem] cannot make a table: {error}"]
    return []
