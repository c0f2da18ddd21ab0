"""Pushing the application commands to Discord, only when they changed.

Global commands are synced once per change (Discord limits command writes, and global changes
take a while to reach every client); with ``dev_guild_ids`` the commands go to those guilds
instead, where they appear instantly. What was last pushed is remembered as a SHA-256 of the
exact payload per application and scope, in a small JSON file next to the database
(``felt.db.command-sync.json``): it lives with the installation's data without needing the
storage layer, survives restarts, and deleting it (or ``sync_commands = "always"``) forces a
sync. The hash is written only after Discord accepted the payload.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.config import DiscordConfig, SyncMode

_log = logging.getLogger("felt.discord.sync")

SYNC_STATE_SUFFIX = ".command-sync.json"


@dataclass(frozen=True, slots=True)
class SyncOutcome:
    """What happened to one scope (``None`` is global, else a guild id)."""

    guild_id: int | None
    synced: bool
    command_count: int
    error: str | None = None


def sync_state_path(database_path: str) -> Path | None:
    """Where the hashes are kept, next to the database; None for an in-memory database."""
    if database_path in ("", ":memory:") or database_path.startswith("file::memory:"):
        return None
    path = Path(database_path)
    return path.with_name(path.name + SYNC_STATE_SUFFIX)


def command_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The JSON the tree would send for one scope, in a stable order."""
    commands: list[Any] = []
    for kind in (
        discord.AppCommandType.chat_input,
        discord.AppCommandType.user,
        discord.AppCommandType.message,
    ):
        commands.extend(tree.get_commands(guild=guild, type=kind))
    payload = [command.to_dict(tree) for command in commands]
    return sorted(payload, key=lambda item: (item.get("type", 1), item["name"]))


def payload_hash(payload: list[dict[str, Any]]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def load_hashes(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        _log.warning("ignoring unreadable command sync state %s: %s", path, error)
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def save_hashes(path: Path | None, hashes: dict[str, str]) -> None:
    """Write atomically (a crash never leaves half a file); a failure only costs a re-sync."""
    if path is None:
        return
    temporary: str | None = None
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, prefix=path.name, suffix=".tmp", delete=False
        ) as handle:
            temporary = handle.name
            json.dump(hashes, handle, indent=2, sort_keys=True)
        os.replace(temporary, path)
    except OSError as error:
        _log.warning("could not save the command sync state to %s: %s", path, error)
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    application_id: int,
    config: DiscordConfig,
    state_path: Path | None,
) -> list[SyncOutcome]:
    """Sync each scope whose payload changed (or all, or none, by ``config.sync_commands``).

    A scope that Discord refuses is logged and reported, and the bot runs on with the commands
    it had: a guild that has not invited the bot with ``applications.commands`` should not stop
    the bot for every other guild.
    """
    if config.sync_commands is SyncMode.NEVER:
        _log.info("command sync disabled by config")
        return []
    scopes: list[discord.Object | None]
    if config.dev_guild_ids:
        scopes = [discord.Object(guild_id) for guild_id in config.dev_guild_ids]
        for guild in scopes:
            tree.copy_global_to(guild=guild)  # type: ignore[arg-type]
    else:
        scopes = [None]
    hashes = load_hashes(state_path)
    outcomes = []
    for guild in scopes:
        key = f"{application_id}/{'global' if guild is None else f'guild/{guild.id}'}"
        payload = command_payload(tree, guild)
        digest = payload_hash(payload)
        guild_id = None if guild is None else guild.id
        if config.sync_commands is SyncMode.AUTO and hashes.get(key) == digest:
            _log.info(
                "commands unchanged, not syncing",
                extra={"scope": key, "commands": len(payload)},
            )
            outcomes.append(SyncOutcome(guild_id, synced=False, command_count=len(payload)))
            continue
        try:
            await tree.sync(guild=guild)
        except discord.HTTPException as error:
            hint = ""
            if error.status == 403:
                hint = " (is the bot in that guild, invited with the applications.commands scope?)"
            _log.error(
                "Discord refused the commands for %s: %s%s",
                key,
                error,
                hint,
                extra={"scope": key, "status": error.status, "code": error.code},
            )
            outcomes.append(
                SyncOutcome(guild_id, synced=False, command_count=len(payload), error=str(error))
            )
            continue
        hashes[key] = digest
        save_hashes(state_path, hashes)
        _log.info("commands synced", extra={"scope": key, "commands": len(payload)})
        outcomes.append(SyncOutcome(guild_id, synced=True, command_count=len(payload)))
    return outcomes
