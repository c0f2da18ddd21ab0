"""Command sync bookkeeping: where the hashes live and what changes them."""

from __future__ import annotations

from pathlib import Path

import discord
from discord import app_commands

from bot.discord.sync import (
    command_payload,
    load_hashes,
    payload_hash,
    save_hashes,
    sync_state_path,
)


def make_tree(*names: str) -> app_commands.CommandTree[discord.Client]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    for name in names:

        async def callback(interaction: discord.Interaction[discord.Client]) -> None:
            return None

        tree.add_command(app_commands.Command(name=name, description=name, callback=callback))
    return tree


def test_sync_state_lives_next_to_the_database(tmp_path: Path) -> None:
    assert sync_state_path(str(tmp_path / "felt.db")) == tmp_path / "felt.db.command-sync.json"
    assert sync_state_path(":memory:") is None


def test_sync_hash_ignores_registration_order_but_not_content() -> None:
    first = payload_hash(command_payload(make_tree("ping", "about"), None))
    same = payload_hash(command_payload(make_tree("about", "ping"), None))
    other = payload_hash(command_payload(make_tree("about", "ping", "daily"), None))

    assert first == same
    assert first != other


def test_sync_hashes_round_trip_and_survive_a_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "felt.db.command-sync.json"
    save_hashes(path, {"1/global": "abc"})

    assert load_hashes(path) == {"1/global": "abc"}
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left

    path.write_text("{not json", encoding="utf-8")
    assert load_hashes(path) == {}
    assert load_hashes(tmp_path / "absent.json") == {}


def test_sync_state_unwritable_folder_only_costs_a_resync(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "felt.db.command-sync.json"

    save_hashes(path, {"1/global": "abc"})

    assert load_hashes(path) == {}
