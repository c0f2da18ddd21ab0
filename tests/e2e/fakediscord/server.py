"""``FakeDiscord``: the server, its state, and the API tests use to act as members and look around.

Start it, point the bot at ``api_base_url`` and ``gateway_url``, build a world (guilds, channels,
members), then send slash commands, click buttons and submit modals as members, and read what
each member can see. Every rule the fake enforces answers with Discord's error code, is recorded
in ``requests`` and counted in ``stats``, and is attached to the interaction whose token was used.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import limits
from .clock import FakeClock
from .faults import ServerFaults
from .gateway import Gateway
from .model import (
    DISCORD_EPOCH_MS,
    EVERYONE_PERMISSIONS,
    ChannelKind,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionKind,
    MessageFlag,
    Permission,
    Waiter,
)
from .ratelimits import DEFAULT_GLOBAL_PER_SECOND, RateLimiter, RateLimitRule
from .rest import RecordedRequest, RestApi, UploadedFile


class FakeUsageError(Exception):
    """A test asked for something a Discord client could not do (click a disabled button...)."""


@dataclass(slots=True)
class FakeStats:
    """Counters a test or a benchmark can assert on."""

    requests: int = 0
    rate_limited: int = 0
    """Answers with status 429."""
    invalid: int = 0
    """Answers Discord counts towards its invalid-request ban: 401, 403 and 429."""
    errors: int = 0
    """Every answer with a status of 400 or more."""
    by_code: Counter[int] = field(default_factory=Counter)
    """Error answers by Discord error code (0 for errors without one, like 429)."""
    by_route: Counter[str] = field(default_factory=Counter)
    """Every request by route (``PATCH /channels/{channel_id}/messages/{message_id}``)."""


OPTION_SUBCOMMAND, OPTION_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
MAX_SAFE_INTEGER = 2**53 - 1


class FakeDiscord:
    """A local Discord for end-to-end tests: real websocket gateway, real HTTP, Discord's rules."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        clock: FakeClock | None = None,
        bot_name: str = "Felt",
        recommended_shards: int = 1,
        privileged_intents: int = 0,
        rate_limits: Mapping[str, RateLimitRule] | None = None,
        global_rate_limit: int | None = DEFAULT_GLOBAL_PER_SECOND,
        attachment_size_limit: int = limits.DEFAULT_ATTACHMENT_SIZE_LIMIT,
        heartbeat_interval_ms: int = 41_250,
        record_requests: bool = True,
    ) -> None:
        self.token = token
        self.clock = clock or FakeClock()
        self.recommended_shards = recommended_shards
        self.privileged_intents = privileged_intents
        """Privileged intent bits the application is allowed (others close with 4014)."""
        self.attachment_size_limit = attachment_size_limit
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.record_requests = record_requests
        """False keeps only counters: no request log, no interaction payloads (load tests)."""
        self.rate_limiter = RateLimiter(self.clock, rate_limits, global_rate_limit)
        self.advertised_gateway_url: str | None = None
        """What ``GET /gateway/bot`` answers instead of ``gateway_url`` (to test proxies)."""
        self.expected_shards: Sequence[int] | None = None
        """Shard ids the bot runs, if not all of them (for ``wait_for_bot``)."""

        self._last_snowflake = 0
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.deleted_channels: list[FakeChannel] = []
        """Channels deleted (by the bot through REST, or by the test), oldest first."""
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self._ephemerals: dict[int, list[FakeMessage]] = {}
        self._global_commands: dict[str, dict[str, Any]] = {}
        self._guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.command_syncs: list[int | None] = []
        """One entry per successful bulk overwrite: None for global, else the guild id."""

        self.requests: list[RecordedRequest] = []
        self.stats = FakeStats()
        self.unknown_routes: list[str] = []
        self.app_routes: list[str] = []
        self._waiters: list[Waiter] = []
        self.internal_errors: list[BaseException] = []
        """Exceptions inside the fake itself; any of them fails every wait at once."""
        self._keyed_waiters: dict[int, list[Waiter]] = {}

        self.application_id = self.next_id()
        self.bot_user = FakeUser(self.application_id, bot_name.lower(), bot_name, bot=True)
        self.owner = FakeUser(self.next_id(), "felt-owner", "Felt Owner")
        self.users[self.bot_user.id] = self.bot_user

        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.faults = ServerFaults()
        self.stopping = asyncio.Event()
        """Server errors still to answer (``fail_next``), and those answered."""
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----- lifecycle ---------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> FakeDiscord:
        """Listen on ``host``; port 0 picks a free port (read it back from ``port``)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.install(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._host = host
        return self

    async def stop(self) -> None:
        self.stopping.set()  # hung requests (``fail_next(HANG)``) end now
        for waiter in [*self._waiters, *(w for ws in self._keyed_waiters.values() for w in ws)]:
            if not waiter.future.done():
                waiter.future.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def api_base_url(self) -> str:
        """What to put in ``[discord] api_base_url``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What to put in ``[discord] gateway_url``."""
        return f"ws://{self._host}:{self.port}/gateway"

    # ----- ids, records, waiting ---------------------------------------------------------------

    def next_id(self, *, shard: int | None = None, shard_count: int = 1) -> int:
        """A fresh, increasing snowflake; with ``shard``, one whose guild lands on that shard."""
        milliseconds = int(self.clock.now() * 1000) - DISCORD_EPOCH_MS
        value = max(self._last_snowflake + 1, milliseconds << 22)
        if shard is not None:
            timestamp = value >> 22
            while timestamp % shard_count != shard:
                timestamp += 1
            value = max(value, timestamp << 22)
        self._last_snowflake = value
        return value

    def record(self, request: RecordedRequest) -> None:
        stats = self.stats
        stats.requests += 1
        stats.by_route[request.route] += 1
        if request.status >= 400:
            stats.errors += 1
            stats.by_code[request.code] += 1
            if request.status in (401, 403, 429):
                stats.invalid += 1
            if request.status == 429:
                stats.rate_limited += 1
        if self.record_requests:
            self.requests.append(request)

    def internal_error(self, error: BaseException) -> None:
        """Record a bug in the fake and wake every waiter so that the test fails now."""
        self.internal_errors.append(error)
        self.changed()

    def changed(self, interaction_id: int | None = None, *, everything: bool = True) -> None:
        """Wake the waiters whose condition now holds; called after every change.

        A request made with an interaction's token changes only that interaction and the
        world (``interaction_id``); other requests and gateway events may change anything, but
        waiters tied to one interaction only care about that interaction's token, so a request
        without a token (``everything=False``) skips them. That keeps a load test with
        hundreds of interactions in flight from re-checking every one on every request.
        """
        _wake(self._waiters)
        if interaction_id is not None:
            _wake(self._keyed_waiters.get(interaction_id, ()))
        elif everything:
            for waiters in list(self._keyed_waiters.values()):
                _wake(waiters)

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        *,
        within: float = 10.0,
        what: str = "a condition",
        interaction_id: int | None = None,
    ) -> None:
        """Wait until ``predicate()`` is true, re-checked after each request and gateway event.

        No polling: the predicate runs when the fake's state changes. ``within`` (real seconds)
        only bounds a failing test, which gets the last requests in its message. A predicate
        about one interaction only passes its ``interaction_id`` so it is checked only when a
        request used that interaction's token.
        """

        def holds() -> bool:
            if self.internal_errors:
                raise AssertionError(f"the fake Discord failed: {self.internal_errors[0]!r}")
            return predicate()

        if holds():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = Waiter(holds, future)
        bucket = (
            self._waiters
            if interaction_id is None
            else self._keyed_waiters.setdefault(interaction_id, [])
        )
        bucket.append(waiter)
        try:
            await asyncio.wait_for(future, within)
        except TimeoutError:
            raise AssertionError(
                f"timed out after {within} s waiting for {what}\n{self.describe()}"
            ) from None
        finally:
            bucket.remove(waiter)
            if interaction_id is not None and not bucket:
                self._keyed_waiters.pop(interaction_id, None)

    def expected_shard_ids(self, shard_count: int) -> Sequence[int]:
        return self.expected_shards if self.expected_shards is not None else range(shard_count)

    async def wait_for_bot(self, within: float = 15.0) -> None:
        """Wait until every shard of the bot identified (or resumed) and got its guilds."""
        await self.wait_until(
            self.gateway.all_shards_ready, within=within, what="the bot to connect"
        )

    def describe(self, last: int = 15) -> str:
        """The last requests, for failure messages."""
        lines = [
            f"  {request.method} {request.path} -> {request.status}"
            + (f" (code {request.code})" if request.code else "")
            for request in self.requests[-last:]
        ]
        return "last requests:\n" + ("\n".join(lines) if lines else "  (none)")

    def errors(self, code: int | None = None) -> list[RecordedRequest]:
        """Recorded error answers, optionally only those with one Discord error code."""
        return [
            request
            for request in self.requests
            if request.status >= 400 and (code is None or request.code == code)
        ]

    def unacknowledged(self) -> list[FakeInteraction]:
        """Interactions older than 3 s (fake clock) that the bot never acknowledged: each one
        shows "This interaction failed" in the member's client."""
        now = self.clock.now()
        return [
            interaction
            for interaction in self.interactions.values()
            if not interaction.acknowledged and now - interaction.created_at > 3.0
        ]

    def forget_expired_interactions(self) -> int:
        """Drop interactions whose token expired (15 min on the fake clock); returns how many.

        For long load runs: an expired interaction can no longer be used by the bot, and its
        messages stay where members see them.
        """
        deadline = self.clock.now() - 15 * 60
        expired = [i for i in self.interactions.values() if i.created_at < deadline]
        for interaction in expired:
            del self.interactions[interaction.id]
            self.interactions_by_token.pop(interaction.token, None)
        return len(expired)

    # ----- building the world ------------------------------------------------------------------

    def create_user(self, name: str, *, accepts_dms: bool = True, bot: bool = False) -> FakeUser:
        user = FakeUser(self.next_id(), name.lower(), name, bot=bot, accepts_dms=accepts_dms)
        self.users[user.id] = user
        return user

    def create_guild(self, name: str = "Felt Test", *, shard: int | None = None) -> FakeGuild:
        """A guild with ``@everyone``, the bot as a member, and no channels yet.

        ``shard`` picks an id that lands on that shard out of ``recommended_shards``.
        """
        guild_id = self.next_id(shard=shard, shard_count=self.recommended_shards)
        guild = FakeGuild(guild_id, name, owner_id=self.owner.id)
        guild.roles[guild_id] = FakeRole(guild_id, guild, "@everyone", int(EVERYONE_PERMISSIONS))
        self.guilds[guild_id] = guild
        now = self.clock.now()
        guild.members[self.owner.id] = FakeMember(self.owner, guild, joined_at=now)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild, joined_at=now)
        self.gateway.dispatch_to_guild(guild_id, "GUILD_CREATE", guild.to_payload(self.bot_user))
        self.changed()
        return guild

    def create_role(
        self, guild: FakeGuild, name: str, permissions: int = 0, *, position: int | None = None
    ) -> FakeRole:
        role = FakeRole(
            self.next_id(),
            guild,
            name,
            int(permissions),
            position=len(guild.roles) if position is None else position,
        )
        guild.roles[role.id] = role
        self.gateway.dispatch_to_guild(
            guild.id, "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_payload()}
        )
        return role

    def create_channel(
        self,
        guild: FakeGuild,
        name: str = "general",
        *,
        category: FakeChannel | None = None,
        kind: ChannelKind = ChannelKind.TEXT,
    ) -> FakeChannel:
        """A text channel (or, with ``kind``, a category) of ``guild``, in ``category``."""
        parent_id = category.id if category is not None else None
        channel = FakeChannel(self.next_id(), kind, name, guild=guild, parent_id=parent_id)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.gateway.dispatch_to_guild(guild.id, "CHANNEL_CREATE", channel.to_payload())
        self.changed()
        return channel

    def create_category(self, guild: FakeGuild, name: str) -> FakeChannel:
        return self.create_channel(guild, name, kind=ChannelKind.CATEGORY)

    def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a guild channel as Discord does: its threads go with it, a category's
        channels stay, uncategorised."""
        guild = channel.guild
        assert guild is not None
        for other in list(guild.channels.values()):
            if other.parent_id != channel.id:
                continue
            if other.is_thread:
                self.delete_channel(other)
            else:
                other.parent_id = None
                self.channel_updated(other)
        guild.channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        self.deleted_channels.append(channel)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        payload = channel.to_payload()
        if channel.is_thread:
            payload = {k: payload[k] for k in ("id", "guild_id", "parent_id", "type")}
        self.gateway.dispatch_to_guild(guild.id, event, payload)
        self.changed()

    def create_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        private: bool = False,
        thread_id: int | None = None,
        owner: FakeUser | None = None,
    ) -> FakeChannel:
        assert parent.guild is not None
        kind = ChannelKind.PRIVATE_THREAD if private else ChannelKind.PUBLIC_THREAD
        thread = FakeChannel(
            thread_id if thread_id is not None else self.next_id(),
            kind,
            name,
            guild=parent.guild,
            parent_id=parent.id,
            owner_id=(owner or self.bot_user).id,
            bot_denied=parent.bot_denied,
        )
        parent.guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        self.gateway.dispatch_to_guild(
            parent.guild.id, "THREAD_CREATE", {**thread.to_payload(), "newly_created": True}
        )
        self.changed()
        return thread

    def channel_updated(self, channel: FakeChannel) -> None:
        if channel.guild is not None:
            event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
            self.gateway.dispatch_to_guild(channel.guild.id, event, channel.to_payload())

    def create_member(
        self,
        guild: FakeGuild,
        name: str,
        *,
        admin: bool = False,
        permissions: int | None = None,
        roles: Iterable[FakeRole] = (),
        accepts_dms: bool = True,
        user: FakeUser | None = None,
    ) -> FakeMember:
        """A member of ``guild`` (a new user unless ``user`` is given).

        ``admin=True`` gives a role with Manage Server (not Administrator, so checks that look
        for Manage Server are tested as such); ``permissions`` gives a role with exactly those
        bits on top of ``@everyone``.
        """
        if user is None:
            user = self.create_user(name, accepts_dms=accepts_dms)
        member = FakeMember(user, guild, roles=list(roles), joined_at=self.clock.now())
        if admin:
            member.roles.append(self.create_role(guild, f"{name} admin", Permission.MANAGE_GUILD))
        if permissions is not None:
            member.roles.append(self.create_role(guild, f"{name} perms", permissions))
        guild.members[user.id] = member
        self.changed()
        return member

    def set_dms_open(self, who: FakeUser | FakeMember, accepts: bool) -> None:
        """Open or close a user's DMs to the bot (closed: 50007 on every DM)."""
        _user_of(who).accepts_dms = accepts

    def deny_bot(self, channel: FakeChannel, permissions: int) -> None:
        """Take permissions away from the bot in one channel (e.g. SEND_MESSAGES)."""
        channel.bot_denied |= int(permissions)

    def bot_permissions_in(self, channel: FakeChannel) -> int:
        if channel.guild is None:
            return int(Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.ATTACH_FILES)
        return channel.guild.bot_permissions & ~channel.bot_denied

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        if user.dm_channel is None:
            channel = FakeChannel(self.next_id(), ChannelKind.DM, "", recipient=user)
            self.channels[channel.id] = channel
            user.dm_channel = channel
        return user.dm_channel

    # ----- messages (used by the REST handlers) ------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel,
        payload: Mapping[str, Any],
        files: Sequence[UploadedFile],
        *,
        interaction: FakeInteraction | None = None,
        ephemeral: bool = False,
    ) -> FakeMessage:
        flags = int(payload.get("flags") or 0) & ~int(MessageFlag.EPHEMERAL)
        if ephemeral:
            flags |= MessageFlag.EPHEMERAL
        message_type = 0
        if interaction is not None and interaction.kind is InteractionKind.APPLICATION_COMMAND:
            message_type = 20  # a chat input command's response
        message = FakeMessage(
            id=self.next_id(),
            channel=channel,
            author=self.bot_user,
            created_at=self.clock.now(),
            content=str(payload.get("content") or ""),
            embeds=[_normalise_embed(embed) for embed in payload.get("embeds") or []],
            components=list(payload.get("components") or []),
            flags=flags,
            ephemeral_for=interaction.user if ephemeral and interaction is not None else None,
            interaction=interaction,
            message_type=message_type,
        )
        message.attachments = self._attachments_for(
            message, payload.get("attachments"), files, keep=()
        )
        self.messages[message.id] = message
        if message.ephemeral_for is not None:
            self._ephemerals.setdefault(message.ephemeral_for.id, []).append(message)
        else:
            channel.messages[message.id] = message
            channel.last_message_id = message.id
        return message

    def edit_message(
        self,
        message: FakeMessage,
        payload: Mapping[str, Any],
        files: Sequence[UploadedFile],
        *,
        resolve_loading: bool = False,
    ) -> None:
        was_loading = message.loading
        if "content" in payload:
            message.content = str(payload["content"] or "")
        if "embeds" in payload:
            message.embeds = [_normalise_embed(embed) for embed in payload["embeds"] or []]
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "attachments" in payload or files:
            message.attachments = self._attachments_for(
                message,
                payload.get("attachments"),
                files,
                keep=message.attachments if "attachments" not in payload else (),
            )
        if "flags" in payload and payload["flags"] is not None:
            settable = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2
            message.flags = (message.flags & ~settable) | (int(payload["flags"]) & settable)
        if was_loading and resolve_loading:
            message.flags &= ~MessageFlag.LOADING
        else:
            message.edited_at = self.clock.now()
            message.edits += 1

    def delete_message(self, message: FakeMessage) -> None:
        message.deleted = True

    def _attachments_for(
        self,
        message: FakeMessage,
        listed: Any,
        files: Sequence[UploadedFile],
        *,
        keep: Sequence[FakeAttachment],
    ) -> list[FakeAttachment]:
        """The attachments after a create or edit: kept ones (by id) plus the uploaded files."""
        by_index = {part.index: part for part in files}
        existing = {attachment.id: attachment for attachment in message.attachments}
        result = list(keep)
        used: set[int | None] = set()
        for entry in listed or []:
            if not isinstance(entry, Mapping):
                continue
            entry_id = _int_or_none(entry.get("id"))
            if entry_id is not None and entry_id in existing:
                result.append(existing[entry_id])
            elif entry_id in by_index:
                part = by_index[entry_id]
                used.add(entry_id)
                result.append(
                    self._store_attachment(
                        message, part, str(entry.get("filename") or part.filename), entry
                    )
                )
        for part in files:
            if part.index not in used:
                result.append(self._store_attachment(message, part, part.filename, {}))
        return result

    def _store_attachment(
        self, message: FakeMessage, part: UploadedFile, filename: str, entry: Mapping[str, Any]
    ) -> FakeAttachment:
        attachment_id = self.next_id()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=filename,
            data=part.data,
            content_type=part.content_type,
            description=entry.get("description"),
            url=f"{self.base_url}/attachments/{message.channel.id}/{attachment_id}/{filename}",
        )
        self.attachments[attachment_id] = attachment
        return attachment

    # ----- commands ----------------------------------------------------------------------------

    def store_commands(self, guild_id: int | None, commands: list[dict[str, Any]]) -> Any:
        """A bulk overwrite: keeps each name's id, as Discord does, and bumps the version."""
        previous = (
            self._global_commands if guild_id is None else self._guild_commands.get(guild_id, {})
        )
        stored: dict[str, dict[str, Any]] = {}
        for command in commands:
            name = command["name"]
            kind = int(command.get("type", 1))
            old = previous.get(f"{kind}:{name}")
            full = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                **command,
                "id": old["id"] if old else str(self.next_id()),
                "application_id": str(self.application_id),
                "version": str(self.next_id()),
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored[f"{kind}:{name}"] = full
        if guild_id is None:
            self._global_commands = stored
        else:
            self._guild_commands[guild_id] = stored
        self.command_syncs.append(guild_id)
        return list(stored.values())

    def registered_commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The commands as synced: global ones, or one guild's own."""
        source = (
            self._global_commands if guild_id is None else self._guild_commands.get(guild_id, {})
        )
        return list(source.values())

    def find_command(self, name: str, guild: FakeGuild | None) -> dict[str, Any]:
        """The chat input command a member in ``guild`` would pick: the guild's, else global."""
        key = f"1:{name}"
        if guild is not None and key in self._guild_commands.get(guild.id, {}):
            return self._guild_commands[guild.id][key]
        if key in self._global_commands:
            return self._global_commands[key]
        known = sorted(
            {c["name"] for c in self._global_commands.values()}
            | {c["name"] for c in self._guild_commands.get(guild.id if guild else 0, {}).values()}
        )
        raise FakeUsageError(f"/{name} is not a synced command here; synced: {known}")

    # ----- acting as a member ------------------------------------------------------------------

    async def slash(
        self,
        who: FakeMember | FakeUser,
        channel: FakeChannel | None,
        command: str,
        /,
        *,
        unchecked: bool = False,
        **options: Any,
    ) -> FakeInteraction:
        """Run ``/command`` (e.g. ``"felt-admin config holdem"``) with options, as ``who``.

        ``channel=None`` runs it in ``who``'s DM with the bot. Options are converted by the
        synced command's schema: members, users, roles and channels become ids with
        ``resolved`` data; values a real client would refuse (wrong type, out of range, missing
        required option) raise ``FakeUsageError`` unless ``unchecked=True``, which sends them
        as given (what a modified client could do).
        """
        member, user, guild, channel = self._actor(who, channel)
        parts = command.strip().lstrip("/").split()
        schema = self.find_command(parts[0], guild)
        builder = _OptionBuilder(self, guild, unchecked=unchecked)
        built = builder.build(schema.get("options") or [], parts[1:], options)
        resolved = builder.resolved
        data: dict[str, Any] = {"id": schema["id"], "name": schema["name"], "type": 1}
        if built:
            data["options"] = built
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in schema:
            data["guild_id"] = schema["guild_id"]
        return self._send_interaction(
            InteractionKind.APPLICATION_COMMAND,
            user=user,
            member=member,
            guild=guild,
            channel=channel,
            data=data,
        )

    async def autocomplete(
        self,
        who: FakeMember | FakeUser,
        channel: FakeChannel | None,
        command: str,
        focused: str,
        typed: str,
        /,
        **options: Any,
    ) -> FakeInteraction:
        """Type ``typed`` into option ``focused``; the bot answers with choices (type 8)."""
        member, user, guild, channel = self._actor(who, channel)
        parts = command.strip().lstrip("/").split()
        schema = self.find_command(parts[0], guild)
        built = _OptionBuilder(self, guild, unchecked=True).build(
            schema.get("options") or [], parts[1:], options
        )
        leaf = built
        while leaf and leaf[0].get("type") in (OPTION_SUBCOMMAND, OPTION_GROUP):
            leaf = leaf[0].setdefault("options", [])
        leaf.append({"name": focused, "type": STRING, "value": typed, "focused": True})
        data = {"id": schema["id"], "name": schema["name"], "type": 1, "options": built}
        return self._send_interaction(
            InteractionKind.AUTOCOMPLETE,
            user=user,
            member=member,
            guild=guild,
            channel=channel,
            data=data,
        )

    async def click(
        self,
        who: FakeMember | FakeUser,
        message: FakeMessage,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        unchecked: bool = False,
    ) -> FakeInteraction:
        """Press a button on ``message``, found by its exact ``label`` or ``custom_id``.

        Refuses (``FakeUsageError``) what a client cannot do: a disabled or link button, a
        message the member cannot see, a deleted message; ``unchecked=True`` skips that.
        """
        if (label is None) == (custom_id is None):
            raise FakeUsageError("click needs exactly one of label= or custom_id=")
        buttons = [
            component
            for component in message.iter_components()
            if component.get("type") == 2
            and (
                component.get("label") == label
                if label is not None
                else component.get("custom_id") == custom_id
            )
        ]
        if not buttons:
            raise FakeUsageError(
                f"no button {label or custom_id!r} on message {message.id}; "
                f"buttons: {[(b.label, b.custom_id) for b in message.buttons]}"
            )
        if len(buttons) > 1:
            raise FakeUsageError(f"{len(buttons)} buttons match {label or custom_id!r}")
        button = buttons[0]
        if not unchecked:
            self._check_can_use(who, message)
            if button.get("disabled"):
                raise FakeUsageError(f"button {label or custom_id!r} is disabled")
            if button.get("style") in (5, 6):
                raise FakeUsageError("link and premium buttons do not send interactions")
        data = {"custom_id": button.get("custom_id"), "component_type": 2}
        return self._component_interaction(who, message, data)

    async def select(
        self,
        who: FakeMember | FakeUser,
        message: FakeMessage,
        values: Sequence[str],
        *,
        custom_id: str | None = None,
        unchecked: bool = False,
    ) -> FakeInteraction:
        """Choose ``values`` in a select menu on ``message`` (the only one, or by custom_id)."""
        selects = [
            component
            for component in message.iter_components()
            if component.get("type") in limits.SELECT_TYPES
            and (custom_id is None or component.get("custom_id") == custom_id)
        ]
        if len(selects) != 1:
            raise FakeUsageError(f"{len(selects)} select menus match {custom_id!r}")
        menu = selects[0]
        if not unchecked:
            self._check_can_use(who, message)
            if menu.get("disabled"):
                raise FakeUsageError("the select menu is disabled")
            allowed = {option["value"] for option in menu.get("options", ())}
            if menu.get("type") == 3 and not set(values) <= allowed:
                raise FakeUsageError(f"{values} are not all options of the menu: {sorted(allowed)}")
            low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
            if not low <= len(values) <= high:
                raise FakeUsageError(f"choose between {low} and {high} values")
        data = {
            "custom_id": menu.get("custom_id"),
            "component_type": menu.get("type"),
            "values": list(values),
        }
        return self._component_interaction(who, message, data)

    async def submit_modal(
        self,
        who: FakeMember | FakeUser,
        opened_by: FakeInteraction,
        values: Mapping[str, str],
        *,
        unchecked: bool = False,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot showed in answer to ``opened_by``.

        ``values`` maps each text input's custom_id (or its label) to the typed text; inputs
        left out are submitted empty. A client refuses a missing required input and lengths
        outside min/max (``FakeUsageError`` unless ``unchecked``), and a modal is submitted once.
        """
        modal = opened_by.modal
        if modal is None:
            raise FakeUsageError(f"interaction {opened_by.id} was not answered with a modal")
        if opened_by.modal_submitted and not unchecked:
            raise FakeUsageError("this modal was already submitted")
        if _user_of(who) is not opened_by.user and not unchecked:
            raise FakeUsageError("only the member the modal was shown to can submit it")
        remaining = dict(values)
        submitted = [
            _submit_component(component, remaining, unchecked) for component in modal["components"]
        ]
        if remaining and not unchecked:
            raise FakeUsageError(f"the modal has no inputs {sorted(remaining)}")
        opened_by.modal_submitted = True
        data = {"custom_id": modal["custom_id"], "components": submitted}
        member, user, guild, channel = self._actor(who, opened_by.channel)
        return self._send_interaction(
            InteractionKind.MODAL_SUBMIT,
            user=user,
            member=member,
            guild=guild,
            channel=channel,
            data=data,
            message=opened_by.message,
        )

    def _actor(
        self, who: FakeMember | FakeUser, channel: FakeChannel | None
    ) -> tuple[FakeMember | None, FakeUser, FakeGuild | None, FakeChannel]:
        user = _user_of(who)
        if channel is None or channel.kind is ChannelKind.DM:
            return None, user, None, channel or self.dm_channel(user)
        guild = channel.guild
        assert guild is not None
        member = who if isinstance(who, FakeMember) else guild.members.get(user.id)
        if member is None or member.guild is not guild:
            member = guild.members.get(user.id)
        if member is None:
            raise FakeUsageError(f"{user.name} is not a member of {guild.name}")
        return member, user, guild, channel

    def _check_can_use(self, who: FakeMember | FakeUser, message: FakeMessage) -> None:
        user = _user_of(who)
        if message.deleted:
            raise FakeUsageError(f"message {message.id} was deleted")
        if message.ephemeral_for is not None and message.ephemeral_for is not user:
            raise FakeUsageError(f"message {message.id} is ephemeral to someone else")
        if message.channel.kind is ChannelKind.DM and message.channel.recipient is not user:
            raise FakeUsageError(f"message {message.id} is in someone else's DM")
        if message.channel.guild is not None and user.id not in message.channel.guild.members:
            raise FakeUsageError(f"{user.name} is not in the message's guild")

    def _component_interaction(
        self, who: FakeMember | FakeUser, message: FakeMessage, data: dict[str, Any]
    ) -> FakeInteraction:
        member, user, guild, channel = self._actor(
            who, message.channel if message.channel.kind is not ChannelKind.DM else None
        )
        return self._send_interaction(
            InteractionKind.COMPONENT,
            user=user,
            member=member,
            guild=guild,
            channel=channel,
            data=data,
            message=message,
        )

    def _send_interaction(
        self,
        kind: InteractionKind,
        *,
        user: FakeUser,
        member: FakeMember | None,
        guild: FakeGuild | None,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            id=self.next_id(),
            token=secrets.token_urlsafe(48),
            kind=kind,
            user=user,
            member=member,
            guild=guild,
            channel=channel,
            data=data,
            created_at=self.clock.now(),
            fake=self,
            message=message,
        )
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": int(kind),
            "token": interaction.token,
            "version": 1,
            "data": data,
            "channel": channel.to_payload(),
            "channel_id": str(channel.id),
            "app_permissions": str(self.bot_permissions_in(channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "locale": "en-US",
            "attachment_size_limit": self.attachment_size_limit,
        }
        if guild is not None:
            assert member is not None
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = member.to_payload(with_permissions=True)
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = user.to_payload()
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = 1
        if message is not None:
            payload["message"] = message.to_payload(self.application_id)
        if self.record_requests:
            interaction.payload = payload
        if not self.gateway.dispatch_to_guild(
            guild.id if guild else None, "INTERACTION_CREATE", payload
        ):
            raise FakeUsageError("the bot is not connected to the gateway")
        self.interactions[interaction.id] = interaction
        self.interactions_by_token[interaction.token] = interaction
        return interaction

    # ----- what members see --------------------------------------------------------------------

    def channel_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """The channel as every member sees it: current messages, oldest first (no ephemerals)."""
        return [m for m in channel.messages.values() if not m.deleted and not m.ephemeral]

    def last_message(self, channel: FakeChannel) -> FakeMessage | None:
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dms(self, who: FakeMember | FakeUser) -> list[FakeMessage]:
        """The bot's DMs to this user that arrived."""
        channel = _user_of(who).dm_channel
        return [] if channel is None else self.channel_messages(channel)

    def ephemerals(self, who: FakeMember | FakeUser) -> list[FakeMessage]:
        """Ephemeral messages shown to this user (and nobody else), oldest first."""
        return [m for m in self._ephemerals.get(_user_of(who).id, []) if not m.deleted]

    def visible_to(self, who: FakeMember | FakeUser) -> list[FakeMessage]:
        """Everything this user can read: their guilds' channels, their DMs, their ephemerals."""
        user = _user_of(who)
        seen: list[FakeMessage] = []
        for guild in self.guilds.values():
            if user.id in guild.members:
                for channel in guild.channels.values():
                    seen.extend(self.channel_messages(channel))
        seen.extend(self.dms(user))
        seen.extend(self.ephemerals(user))
        return sorted(seen, key=lambda message: message.id)

    async def wait_for_message(
        self,
        channel: FakeChannel,
        predicate: Callable[[FakeMessage], bool] = lambda message: True,
        *,
        within: float = 10.0,
    ) -> FakeMessage:
        """Wait until a message in ``channel`` matches, and return the newest such one."""
        found: list[FakeMessage] = []

        def check() -> bool:
            matches = [m for m in self.channel_messages(channel) if predicate(m)]
            if matches:
                found.append(matches[-1])
            return bool(matches)

        await self.wait_until(check, within=within, what=f"a message in #{channel.name}")
        return found[-1]

    # ----- gateway controls --------------------------------------------------------------------

    async def reconnect(self, shard_id: int | None = None) -> None:
        """Ask the bot to reconnect (op 7); it should RESUME and miss nothing."""
        await self.gateway.send_reconnect(shard_id)

    async def invalidate_session(
        self, shard_id: int | None = None, *, resumable: bool = False
    ) -> None:
        """Send INVALID_SESSION (op 9); the bot must identify again."""
        await self.gateway.send_invalid_session(shard_id, resumable=resumable)

    async def drop_connection(self, shard_id: int | None = None) -> None:
        """Close the gateway socket abruptly; the bot should reconnect and RESUME."""
        await self.gateway.drop_connection(shard_id)

    # ----- REST faults -------------------------------------------------------------------------

    def fail_next(self, *statuses: int, route: str | None = None) -> None:
        """Answer the next requests (on ``route``, a template such as ``"PATCH
        /channels/{channel_id}/messages/{message_id}"``, or on any route) with these server
        errors, one request each, in order; ``faults.HANG`` never answers."""
        self.faults.add(statuses, route)


def _wake(waiters: Iterable[Waiter]) -> None:
    for waiter in list(waiters):
        if waiter.future.done():
            continue
        try:
            if waiter.predicate():
                waiter.future.set_result(None)
        except Exception as error:  # a broken predicate fails the waiting test
            waiter.future.set_exception(error)


def _user_of(who: FakeMember | FakeUser) -> FakeUser:
    return who.user if isinstance(who, FakeMember) else who


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _normalise_embed(embed: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "rich", **embed}


def _submit_component(
    component: dict[str, Any], remaining: dict[str, str], unchecked: bool
) -> dict[str, Any]:
    """The submitted form of one modal component, mirroring its structure."""
    kind = component.get("type")
    if kind == 1:
        return {
            "type": 1,
            "components": [
                _submit_component(child, remaining, unchecked)
                for child in component.get("components", ())
            ],
        }
    if kind == 18:
        inner = dict(component.get("component") or {})
        if "label" not in inner and component.get("label"):
            inner["label"] = component["label"]
        submitted = {"type": 18, "component": _submit_component(inner, remaining, unchecked)}
        if "id" in component:
            submitted["id"] = component["id"]
        return submitted
    if kind == 4:
        custom_id = component["custom_id"]
        label = component.get("label")
        value = remaining.pop(custom_id, None)
        if value is None and label is not None:
            value = remaining.pop(label, None)
        value = component.get("value") or "" if value is None else value
        if not unchecked:
            if component.get("required", True) and not value:
                raise FakeUsageError(f"the modal input {label or custom_id!r} is required")
            low = int(component.get("min_length") or 0)
            high = int(component.get("max_length") or limits.TEXT_INPUT_VALUE)
            if value and not low <= len(value) <= high:
                raise FakeUsageError(
                    f"the modal input {label or custom_id!r} takes {low} to {high} characters"
                )
        submitted = {"type": 4, "custom_id": custom_id, "value": value}
        if "id" in component:
            submitted["id"] = component["id"]
        return submitted
    if kind in limits.SELECT_TYPES:
        custom_id = component["custom_id"]
        raw = remaining.pop(custom_id, None)
        chosen = [raw] if isinstance(raw, str) else list(raw or [])
        return {"type": kind, "custom_id": custom_id, "values": chosen}
    return {key: component[key] for key in ("type", "id") if key in component}


def _subcommand_names(schema: list[dict[str, Any]]) -> list[str]:
    return [o["name"] for o in schema if o.get("type") in (OPTION_SUBCOMMAND, OPTION_GROUP)]


class _OptionBuilder:
    """Turns a test's keyword options into Discord's option payload, as a client would."""

    def __init__(self, fake: FakeDiscord, guild: FakeGuild | None, *, unchecked: bool) -> None:
        self.fake = fake
        self.guild = guild
        self.unchecked = unchecked
        self.resolved: dict[str, dict[str, Any]] = {}

    def build(
        self, schema: list[dict[str, Any]], path: list[str], given: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        if path:
            for parent in schema:
                if parent["name"] == path[0] and parent.get("type") in (
                    OPTION_SUBCOMMAND,
                    OPTION_GROUP,
                ):
                    inner = self.build(parent.get("options") or [], path[1:], given)
                    return [{"type": parent["type"], "name": parent["name"], "options": inner}]
            raise FakeUsageError(f"no subcommand {path[0]!r}; choices: {_subcommand_names(schema)}")
        if _subcommand_names(schema):
            raise FakeUsageError(f"this command needs a subcommand: {_subcommand_names(schema)}")
        by_name = {option["name"]: option for option in schema}
        built = []
        for name, value in given.items():
            option = by_name.get(name)
            if option is None:
                if not self.unchecked:
                    raise FakeUsageError(f"no option {name!r}; options: {sorted(by_name)}")
                built.append({"name": name, "type": STRING, "value": value})
                continue
            built.append({"name": name, "type": option["type"], "value": self.value(option, value)})
        if not self.unchecked:
            missing = [
                option["name"]
                for option in schema
                if option.get("required") and option["name"] not in given
            ]
            if missing:
                raise FakeUsageError(f"missing required options {missing}")
        return built

    def value(self, option: dict[str, Any], value: Any) -> Any:
        kind = option["type"]
        name = option["name"]
        resolved = self.resolved
        guild = self.guild
        fake = self.fake

        def refuse(why: str) -> FakeUsageError:
            return FakeUsageError(f"option {name!r}: {why} (pass unchecked=True to send it anyway)")

        if kind in (USER, MENTIONABLE) and isinstance(value, (FakeMember, FakeUser)):
            user = _user_of(value)
            resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
            member = guild.members.get(user.id) if guild is not None else None
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.to_payload(
                    with_user=False, with_permissions=True
                )
            return str(user.id)
        if kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            return str(value.id)
        if kind == CHANNEL and isinstance(value, FakeChannel):
            payload = value.to_payload()
            payload["permissions"] = str(ALL_VISIBLE)
            resolved.setdefault("channels", {})[str(value.id)] = payload
            return str(value.id)
        if kind == ATTACHMENT and isinstance(value, tuple):
            filename, data = value
            attachment_id = fake.next_id()
            attachment = FakeAttachment(
                attachment_id,
                filename,
                bytes(data),
                url=f"{fake.base_url}/attachments/0/{attachment_id}/{filename}",
            )
            fake.attachments[attachment_id] = attachment
            resolved.setdefault("attachments", {})[str(attachment_id)] = attachment.to_payload()
            return str(attachment_id)
        if self.unchecked:
            return value
        if kind == STRING:
            if not isinstance(value, str):
                raise refuse(f"expected a string, got {value!r}")
            low, high = option.get("min_length"), option.get("max_length")
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                raise refuse(f"length must be between {low} and {high}")
        elif kind == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise refuse(f"expected an integer, got {value!r}")
            if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
                raise refuse("Discord integers lie within +-2^53")
        elif kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise refuse(f"expected a number, got {value!r}")
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise refuse(f"expected true or false, got {value!r}")
        else:
            raise refuse(f"cannot send {value!r} for an option of type {kind}")
        if kind in (INTEGER, NUMBER):
            low, high = option.get("min_value"), option.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise refuse(f"must be between {low} and {high}")
        choices = option.get("choices")
        if choices and value not in [choice["value"] for choice in choices]:
            raise refuse(f"must be one of {[choice['value'] for choice in choices]}")
        return value


ALL_VISIBLE = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.READ_MESSAGE_HISTORY
