"""Who is a Felt admin in a guild, and where games may run: checked on the server side.

``default_permissions`` on a command only hides it in clients (and server admins can change
who sees it); a modified client can still send it. So every admin command calls
:func:`require_admin` (or uses :func:`admin_only`), and every command that starts a game calls
:func:`require_game_channel` (or uses :func:`in_game_channel`).

A Felt admin has Manage Server (Discord's computed permissions in the interaction, so
Administrator and the owner count) or the role set with ``/felt-admin config admin-role``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord.errors import Refusal
from bot.discord.guild_settings import admin_role_id, game_channel_ids
from storage import Storage

T = TypeVar("T")


class NotAnAdmin(Refusal):
    """The member is not a Felt admin in this guild."""

    def __init__(self, role_id: int | None) -> None:
        who = "members with the Manage Server permission"
        if role_id is not None:
            who += f" or the <@&{role_id}> role"
        super().__init__(f"Only Felt admins can do this: {who}.")


class NotInGuild(Refusal):
    """A guild-only command reached the bot from a DM (a client that ignored the contexts)."""

    def __init__(self) -> None:
        super().__init__("Felt's chips and games belong to a server: use this in a server channel.")


class NotAGameChannel(Refusal):
    """Games are limited to some channels in this guild and this is not one of them."""

    def __init__(self, allowed: tuple[int, ...]) -> None:
        places = ", ".join(f"<#{channel_id}>" for channel_id in allowed)
        super().__init__(f"Games run only in {places} on this server.")
        self.allowed = allowed


def storage_of(interaction: discord.Interaction[Any]) -> Storage:
    """The storage of the bot that received ``interaction``."""
    storage = getattr(interaction.client, "storage", None)
    if not isinstance(storage, Storage):
        raise RuntimeError("the bot has no storage")
    return storage


def guild_member(interaction: discord.Interaction[Any]) -> discord.Member:
    """The member who interacted, or :class:`NotInGuild` in a DM."""
    if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
        raise NotInGuild()
    return interaction.user


async def member_is_admin(
    storage: Storage, member: discord.Member, permissions: discord.Permissions | None = None
) -> bool:
    """Whether ``member`` is a Felt admin in their guild.

    ``permissions`` are the member's permissions as Discord computed them for an interaction
    (``interaction.permissions``); without them, the guild-level ones from the cache.
    """
    granted = permissions if permissions is not None else member.guild_permissions
    if granted.manage_guild or granted.administrator:
        return True
    role_id = await admin_role_id(storage, member.guild.id)
    return role_id is not None and member.get_role(role_id) is not None


async def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member who interacted is a Felt admin here (False in a DM)."""
    if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
        return False
    return await member_is_admin(storage_of(interaction), interaction.user, interaction.permissions)


async def require_admin(interaction: discord.Interaction[Any]) -> discord.Member:
    """The member who interacted, if a Felt admin; else :class:`NotAnAdmin` (a refusal)."""
    member = guild_member(interaction)
    storage = storage_of(interaction)
    if not await member_is_admin(storage, member, interaction.permissions):
        raise NotAnAdmin(await admin_role_id(storage, member.guild.id))
    return member


async def may_run_games(
    storage: Storage, guild_id: int, channel_id: int, *, parent_id: int | None = None
) -> bool:
    """Whether games may run in a channel; a thread (give its ``parent_id``) follows its parent."""
    allowed = await game_channel_ids(storage, guild_id)
    return not allowed or channel_id in allowed or (parent_id is not None and parent_id in allowed)


async def require_game_channel(interaction: discord.Interaction[Any]) -> None:
    """Refuse (:class:`NotAGameChannel`) unless games may run where ``interaction`` happened."""
    guild_member(interaction)
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    assert guild_id is not None and channel_id is not None
    channel = interaction.channel
    parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
    storage = storage_of(interaction)
    if not await may_run_games(storage, guild_id, channel_id, parent_id=parent_id):
        raise NotAGameChannel(await game_channel_ids(storage, guild_id))


def admin_only() -> Callable[[T], T]:
    """An app-command check: only Felt admins (a refusal for anyone else)."""

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        await require_admin(interaction)
        return True

    return app_commands.check(predicate)


def in_game_channel() -> Callable[[T], T]:
    """An app-command check: only where games may run (a refusal elsewhere)."""

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        await require_game_channel(interaction)
        return True

    return app_commands.check(predicate)


TABLE_PERMISSIONS = (("send_messages", "Send Messages"), ("attach_files", "Attach Files"))
"""What Felt needs in a channel to show a table there: its message and its image."""


class CannotShowTable(Refusal):
    """Felt may not post a table in this channel, so nobody could see or play it."""

    def __init__(self, missing: list[str]) -> None:
        names = " and ".join(f"**{name}**" for name in missing)
        need = "permission" if len(missing) == 1 else "permissions"
        super().__init__(
            f"Felt cannot show a table here: it lacks the {names} {need} in this channel. "
            "Ask a server admin to allow it, or play in another channel."
        )


def refuse_bot_account(member: discord.Member) -> None:
    """Bot accounts never sit at a table."""
    if member.bot:
        raise Refusal("Bot accounts cannot play.")


def require_table_permissions(interaction: discord.Interaction[Any]) -> None:
    """Refuse (:class:`CannotShowTable`) unless Felt may post a table where ``interaction``
    happened (the permissions Discord computed for Felt there, sent with the interaction)."""
    granted = interaction.app_permissions
    missing = [name for flag, name in TABLE_PERMISSIONS if not getattr(granted, flag)]
    if missing:
        raise CannotShowTable(missing)
