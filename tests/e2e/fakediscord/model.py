"""What the fake Discord knows: users, guilds, roles, members, channels, messages, interactions.

These objects are the fake's live state. Tests read them (a message's current content after edits,
its buttons, who may see it) and create them through ``FakeDiscord``'s methods, which also tell a
connected bot about them. ``to_payload`` methods give the JSON shapes Discord sends.
"""

from __future__ import annotations

import asyncio
import datetime
import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord

DISCORD_EPOCH_MS = 1_420_070_400_000


class Permission(enum.IntFlag):
    """The permission bits the fake looks at (Discord has more; they are carried along as ints)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | Permission.MANAGE_MESSAGES | Permission.MANAGE_THREADS


class ChannelKind(enum.IntEnum):
    """Discord's channel types that the fake models."""

    TEXT = 0
    DM = 1
    CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class InteractionKind(enum.IntEnum):
    """Discord's interaction types."""

    PING = 1
    APPLICATION_COMMAND = 2
    COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class ResponseKind(enum.IntEnum):
    """Discord's interaction callback types."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class MessageFlag(enum.IntFlag):
    """Message flag bits that change what the fake does."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


def iso_time(unix_seconds: float) -> str:
    """Discord's ISO-8601 timestamp format."""
    moment = datetime.datetime.fromtimestamp(unix_seconds, tz=datetime.UTC)
    return moment.isoformat(timespec="microseconds")


def snowflake_time(snowflake: int) -> float:
    """The Unix time a snowflake was made at."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


@dataclass(eq=False, slots=True)
class FakeUser:
    """A Discord account: a member of the test guilds, or the bot itself."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    accepts_dms: bool = True
    """False makes every message the bot sends to this user's DM fail with 50007."""
    dm_channel: FakeChannel | None = None

    @property
    def name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            payload["bot"] = True
        return payload


@dataclass(eq=False, slots=True)
class FakeRole:
    """A guild role; ``@everyone`` has the guild's id."""

    id: int
    guild: FakeGuild
    name: str
    permissions: int
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False, slots=True)
class FakeMember:
    """A user's membership of one guild, with roles."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = 0.0

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.nick or self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        """Guild-level permissions, computed the way Discord does (owner and admin get all)."""
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone_role.permissions
        for role in self.roles:
            value |= role.permissions
        if value & Permission.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def has(self, permission: Permission) -> bool:
        return bool(self.permissions & permission)

    def to_payload(
        self, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": iso_time(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if with_permissions:
            payload["permissions"] = str(self.permissions)
        return payload


@dataclass(eq=False, slots=True)
class FakeChannel:
    """A guild text channel, a thread, or a DM with the bot."""

    id: int
    kind: ChannelKind
    name: str
    guild: FakeGuild | None = None
    parent_id: int | None = None
    recipient: FakeUser | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    bot_denied: int = 0
    """Permission bits taken away from the bot in this channel (e.g. SEND_MESSAGES)."""
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    last_message_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.kind in (ChannelKind.PUBLIC_THREAD, ChannelKind.PRIVATE_THREAD)

    def to_payload(self) -> dict[str, Any]:
        if self.kind is ChannelKind.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.kind),
                "last_message_id": _maybe_str(self.last_message_id),
                "recipients": [self.recipient.to_payload()],
                "flags": 0,
            }
        assert self.guild is not None
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": int(self.kind),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": _maybe_str(self.parent_id),
            "last_message_id": _maybe_str(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            payload["owner_id"] = _maybe_str(self.owner_id)
            payload["message_count"] = len(self.messages)
            payload["member_count"] = 1
            payload["thread_metadata"] = {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso_time(snowflake_time(self.id)),
                "locked": self.locked,
                "invitable": True,
            }
        else:
            payload["topic"] = None
        return payload


@dataclass(eq=False, slots=True)
class FakeGuild:
    """A server: roles (``@everyone`` first), channels, members; the bot is always a member."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    bot_permissions: int = int(BOT_PERMISSIONS)

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    def member(self, user_id: int) -> FakeMember:
        return self.members[user_id]

    def to_payload(self, bot_user: FakeUser, *, all_members: bool = False) -> dict[str, Any]:
        """The full guild, as GUILD_CREATE sends it.

        Without the privileged members intent Discord sends only the bot's own member; with it
        (``all_members``), every member of a guild below the large threshold (250).
        """
        bot_member = self.members.get(bot_user.id)
        if all_members and len(self.members) < 250:
            members = [member.to_payload() for member in self.members.values()]
        else:
            members = [bot_member.to_payload()] if bot_member else []
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "member_count": len(self.members),
            "large": len(self.members) >= 250,
            "joined_at": iso_time(snowflake_time(self.id)),
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "roles": [role.to_payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [
                channel.to_payload() for channel in self.channels.values() if not channel.is_thread
            ],
            "threads": [
                channel.to_payload()
                for channel in self.channels.values()
                if channel.is_thread and not channel.archived
            ],
            "members": members,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False, slots=True)
class FakeAttachment:
    """A file attached to a message; ``data`` holds the bytes the bot uploaded."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            payload["content_type"] = self.content_type
        if self.description is not None:
            payload["description"] = self.description
        return payload


@dataclass(frozen=True, slots=True)
class Button:
    """A button as a member sees it on a message."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu as a member sees it on a message."""

    custom_id: str
    options: tuple[tuple[str, str], ...]
    """(label, value) pairs."""
    min_values: int
    max_values: int
    disabled: bool
    placeholder: str | None


_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False, slots=True)
class FakeMessage:
    """A message in its current state (after every edit); deleted messages stay, marked deleted."""

    id: int
    channel: FakeChannel
    author: FakeUser
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    edited_at: float | None = None
    deleted: bool = False
    ephemeral_for: FakeUser | None = None
    """The only user who sees this message, for an ephemeral interaction response."""
    interaction: FakeInteraction | None = None
    """The interaction whose response or followup created this message."""
    message_type: int = 0
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """True while a deferred response still shows "Bot is thinking..."."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def filenames(self) -> list[str]:
        return [attachment.filename for attachment in self.attachments]

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first, whatever the nesting (action rows, containers...)."""
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            yield component
            children = list(component.get("components", ()))
            if "component" in component:
                children.append(component["component"])
            if "accessory" in component:
                children.append(component["accessory"])
            stack.extend(reversed(children))

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                label=component.get("label"),
                custom_id=component.get("custom_id"),
                style=int(component.get("style", 1)),
                disabled=bool(component.get("disabled", False)),
                emoji=_emoji_text(component.get("emoji")),
                url=component.get("url"),
            )
            for component in self.iter_components()
            if component.get("type") == 2
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                custom_id=component["custom_id"],
                options=tuple(
                    (option["label"], option["value"]) for option in component.get("options", ())
                ),
                min_values=int(component.get("min_values", 1)),
                max_values=int(component.get("max_values", 1)),
                disabled=bool(component.get("disabled", False)),
                placeholder=component.get("placeholder"),
            )
            for component in self.iter_components()
            if component.get("type") in (3, 5, 6, 7, 8)
        ]

    @property
    def button_labels(self) -> list[str]:
        return [button.label or "" for button in self.buttons]

    @property
    def text(self) -> str:
        """Everything a person can read on the message, one piece per line.

        Content, every embed string (title, description, fields, footer, author), component
        labels and placeholders, select options, text displays, and attachment filenames and
        alt text: what a privacy check must scan.
        """
        return "\n".join(_message_strings(self))

    @property
    def mentions(self) -> list[int]:
        return [int(found) for found in _MENTION.findall(self.content)]

    def to_payload(self, application_id: int) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso_time(self.created_at),
            "edited_timestamp": iso_time(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [attachment.to_payload() for attachment in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.message_type,
            "flags": self.flags,
        }
        if self.channel.guild is not None:
            payload["guild_id"] = str(self.channel.guild.id)
        if self.interaction is not None:
            payload["application_id"] = str(application_id)
            payload["webhook_id"] = str(application_id)
        return payload


def _emoji_text(emoji: Any) -> str | None:
    if not isinstance(emoji, dict):
        return None
    return emoji.get("name")


def _message_strings(message: FakeMessage) -> Iterator[str]:
    if message.content:
        yield message.content
    for embed in message.embeds:
        yield from _embed_strings(embed)
    for component in message.iter_components():
        for key in ("label", "placeholder", "content", "description"):
            value = component.get(key)
            if isinstance(value, str) and value:
                yield value
        for option in component.get("options", ()):
            for key in ("label", "description", "value"):
                value = option.get(key)
                if isinstance(value, str) and value:
                    yield value
    for attachment in message.attachments:
        yield attachment.filename
        if attachment.description:
            yield attachment.description


def _embed_strings(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description", "url"):
        value = embed.get(key)
        if isinstance(value, str) and value:
            yield value
    for nested in ("author", "footer"):
        part = embed.get(nested) or {}
        for key in ("name", "text"):
            value = part.get(key)
            if isinstance(value, str) and value:
                yield value
    for image in ("image", "thumbnail"):
        url = (embed.get(image) or {}).get("url")
        if isinstance(url, str) and url:
            yield url
    for embed_field in embed.get("fields", ()):
        yield str(embed_field.get("name", ""))
        yield str(embed_field.get("value", ""))


def _maybe_str(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class ApiError:
    """An error the fake answered, tied to the interaction (if any) whose token was used."""

    status: int
    code: int
    message: str
    method: str
    path: str


@dataclass(eq=False, slots=True)
class FakeInteraction:
    """One interaction a test sent as a member, and everything the bot did with it."""

    id: int
    token: str
    kind: InteractionKind
    user: FakeUser
    member: FakeMember | None
    guild: FakeGuild | None
    channel: FakeChannel
    data: dict[str, Any]
    created_at: float
    fake: FakeDiscord
    message: FakeMessage | None = None
    """For a button, select or a modal opened from one: the message it was on."""
    response_kind: ResponseKind | None = None
    acknowledged_at: float | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    autocomplete_choices: list[dict[str, Any]] | None = None
    errors: list[ApiError] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def acknowledged(self) -> bool:
        return self.response_kind is not None

    @property
    def answered(self) -> bool:
        """Acknowledged, and not left showing "thinking..." (a deferral that was never resolved)."""
        if self.response_kind is None:
            return False
        if self.response_kind is ResponseKind.DEFERRED_CHANNEL_MESSAGE:
            return self.original is not None and not self.original.loading
        return True

    @property
    def messages(self) -> list[FakeMessage]:
        """The response (if it is a message) and the followups, in order, current state."""
        created = [self.original] if self.original is not None else []
        return [message for message in created + self.followups if not message.deleted]

    @property
    def reply(self) -> FakeMessage:
        """The message the member sees as the answer: the response, else the first followup."""
        for message in self.messages:
            return message
        raise AssertionError(f"interaction {self.id} has no reply message; errors: {self.errors}")

    @property
    def error_codes(self) -> list[int]:
        return [error.code for error in self.errors]

    async def wait_acknowledged(self, within: float = 10.0) -> FakeInteraction:
        """Wait until the bot acknowledged (responded to or deferred) this interaction."""
        await self.fake.wait_until(
            lambda: self.acknowledged or bool(self.errors),
            within=within,
            what=f"interaction {self.id} to be acknowledged",
            interaction_id=self.id,
        )
        return self

    async def wait_answered(self, within: float = 10.0) -> FakeInteraction:
        """Wait until the member sees an answer (a deferral's "thinking..." must be resolved)."""
        await self.fake.wait_until(
            lambda: self.answered or bool(self.errors),
            within=within,
            what=f"interaction {self.id} to be answered",
            interaction_id=self.id,
        )
        return self

    async def wait_for_followups(self, count: int, within: float = 10.0) -> FakeInteraction:
        """Wait until the bot sent at least ``count`` followup messages (after the response)."""
        await self.fake.wait_until(
            lambda: len(self.followups) >= count or bool(self.errors),
            within=within,
            what=f"{count} followups to interaction {self.id}",
            interaction_id=self.id,
        )
        return self


@dataclass(slots=True)
class Waiter:
    """A condition a test waits for; checked after every change the fake records."""

    predicate: Any
    future: asyncio.Future[None]
