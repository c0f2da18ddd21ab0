"""The fake REST API: the endpoints discord.py calls in Felt's flows, with Discord's errors.

Every request is authenticated (except the interaction endpoints, which use the token in the
path, as on Discord), rate limited, checked against Discord's limits, applied to the fake's state,
recorded, and answered with ``Content-Type: application/json`` exactly (with a charset suffix
discord.py would not parse the body as JSON).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import limits
from .faults import HANG
from .model import (
    ChannelKind,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    InteractionKind,
    MessageFlag,
    Permission,
    ResponseKind,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"
INTERACTION_DEADLINE_SECONDS = 3.0
INTERACTION_TOKEN_SECONDS = 15 * 60
JSON_HEADERS = {"Content-Type": "application/json"}
COMMAND_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")

ALLOWED_RESPONSES: dict[InteractionKind, frozenset[ResponseKind]] = {
    InteractionKind.APPLICATION_COMMAND: frozenset(
        {ResponseKind.CHANNEL_MESSAGE, ResponseKind.DEFERRED_CHANNEL_MESSAGE, ResponseKind.MODAL}
    ),
    InteractionKind.COMPONENT: frozenset(
        {
            ResponseKind.CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_UPDATE_MESSAGE,
            ResponseKind.UPDATE_MESSAGE,
            ResponseKind.MODAL,
        }
    ),
    # A modal cannot answer a modal submit.
    InteractionKind.MODAL_SUBMIT: frozenset(
        {
            ResponseKind.CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_UPDATE_MESSAGE,
            ResponseKind.UPDATE_MESSAGE,
        }
    ),
    InteractionKind.AUTOCOMPLETE: frozenset({ResponseKind.AUTOCOMPLETE_RESULT}),
}


class ApiFailure(Exception):
    """An error answer: HTTP status, Discord's JSON error code, message, optional extra body."""

    def __init__(
        self, status: int, code: int, message: str, body: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.body = body or {"code": code, "message": message}


def form_error(errors: list[limits.FieldError], prefix: str = "") -> ApiFailure:
    body = limits.form_body_error(errors, prefix=prefix)
    return ApiFailure(400, 50035, "Invalid Form Body", body)


UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
CANNOT_DM = (403, 50007, "Cannot send messages to this user")
NO_MUTUAL_GUILDS = (403, 50278, "Cannot send messages to this user: no mutual guilds")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
NOT_AUTHOR = (403, 50005, "Cannot edit a message authored by another user")
TOO_LARGE = (413, 40005, "Request entity too large")
INVALID_JSON = (400, 50109, "The request body contains invalid JSON.")
INVALID_RECIPIENT = (400, 50033, "Invalid Recipient(s)")
THREAD_ARCHIVED = (400, 50083, "Thread is archived")
TOO_MANY_CHANNELS = (400, 30013, "Maximum number of guild channels reached (500)")
MAX_GUILD_CHANNELS = 500
MAX_CATEGORY_CHANNELS = 50
CREATABLE_KINDS = (ChannelKind.TEXT, ChannelKind.CATEGORY)


def fail(error: tuple[int, int, str]) -> ApiFailure:
    return ApiFailure(*error)


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes

    @property
    def index(self) -> int | None:
        match = re.fullmatch(r"files\[(\d+)\]", self.field)
        return int(match.group(1)) if match else None


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the bot made and what the fake answered."""

    method: str
    route: str
    """The route template, e.g. ``POST /channels/{channel_id}/messages``."""
    path: str
    status: int
    code: int
    """Discord's error code, 0 for a success."""
    body: Any
    """The JSON body (or multipart ``payload_json``), None without one."""
    files: tuple[tuple[str, int], ...]
    """(filename, size) of each uploaded file."""
    at: float
    interaction_id: int | None = None


@dataclass(slots=True)
class Context:
    """What a handler gets besides the request: the parsed body and the interaction, if any."""

    request: web.Request
    body: Any = None
    files: tuple[UploadedFile, ...] = ()
    interaction: FakeInteraction | None = None


Handler = Callable[[Context], Awaitable[Any]]


class RestApi:
    """Registers the routes on an aiohttp application; the state lives in ``FakeDiscord``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def install(self, app: web.Application) -> None:
        self._app = app
        route = self._route
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._download)
        route("GET", "/gateway", self.get_gateway, auth=False)
        route("GET", "/gateway/bot", self.get_gateway_bot)
        route("GET", "/users/@me", self.get_me)
        route("GET", "/users/{user_id}", self.get_user)
        route("POST", "/users/@me/channels", self.open_dm)
        route("GET", "/oauth2/applications/@me", self.get_application)
        route("GET", "/applications/@me", self.get_application)
        route("GET", "/applications/{application_id}/commands", self.get_commands)
        route("PUT", "/applications/{application_id}/commands", self.put_commands)
        route("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands)
        route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands)
        route(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            self.interaction_callback,
            auth=False,
            counts_globally=False,
        )
        webhook = {"auth": False, "counts_globally": False}
        route("POST", "/webhooks/{application_id}/{token}", self.create_followup, **webhook)
        route(
            "GET",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self.get_webhook_message,
            **webhook,
        )
        route(
            "PATCH",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self.edit_webhook_message,
            **webhook,
        )
        route(
            "DELETE",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self.delete_webhook_message,
            **webhook,
        )
        route("GET", "/channels/{channel_id}", self.get_channel)
        route("PATCH", "/channels/{channel_id}", self.edit_channel)
        route("DELETE", "/channels/{channel_id}", self.delete_channel)
        route("GET", "/channels/{channel_id}/messages", self.get_messages)
        route("POST", "/channels/{channel_id}/messages", self.create_message)
        route("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        route("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        route("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        route("POST", "/channels/{channel_id}/typing", self.typing)
        route("POST", "/channels/{channel_id}/threads", self.create_thread)
        route("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread)
        route("GET", "/guilds/{guild_id}", self.get_guild)
        route("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        route("POST", "/guilds/{guild_id}/channels", self.create_guild_channel)
        route("GET", "/guilds/{guild_id}/roles", self.get_guild_roles)
        route("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._unknown)

    # ----- plumbing ----------------------------------------------------------------------------

    def _route(
        self,
        method: str,
        template: str,
        handler: Handler,
        *,
        auth: bool = True,
        counts_globally: bool = True,
    ) -> None:
        route_key = f"{method} {template}"
        fake = self.fake

        async def endpoint(request: web.Request) -> web.StreamResponse:
            context = Context(request)
            status, code, headers = 200, 0, dict(JSON_HEADERS)
            result: Any = None
            try:
                if auth and request.headers.get("Authorization") != f"Bot {fake.token}":
                    raise ApiFailure(401, 0, "401: Unauthorized")
                if request.body_exists:
                    await self._read_body(context)
                fault = fake.faults.take(route_key)
                if fault is not None:
                    fake.record(
                        RecordedRequest(
                            method=request.method,
                            route=route_key,
                            path=request.path_qs,
                            status=fault.status,
                            code=0,
                            body=context.body,
                            files=(),
                            at=fake.clock.now(),
                        )
                    )
                    if fault.status == HANG:
                        await fake.stopping.wait()
                    return fault.response()
                major = _major_parameter(request)
                decision = fake.rate_limiter.check(
                    route_key, major, counts_globally=counts_globally
                )
                headers.update(decision.headers)
                if not decision.allowed:
                    raise ApiFailure(
                        429,
                        0,
                        "You are being rate limited.",
                        {
                            "message": "You are being rate limited.",
                            "retry_after": round(decision.retry_after, 3),
                            "global": decision.is_global,
                        },
                    )
                result = await handler(context)
            except ApiFailure as failure:
                status, code, result = failure.status, failure.code, failure.body
                if context.interaction is not None:
                    context.interaction.errors.append(
                        _api_error(failure, request.method, request.path)
                    )
            except Exception as error:  # a bug in the fake: answer 500 and fail the test
                fake.internal_error(error)
                status, code, result = 500, 0, {"message": "500: Internal Server Error", "code": 0}
            if result is None and status == 200:
                status = 204
            fake.record(
                RecordedRequest(
                    method=request.method,
                    route=route_key,
                    path=request.path_qs,
                    status=status,
                    code=code,
                    body=context.body,
                    files=tuple((part.filename, len(part.data)) for part in context.files),
                    at=fake.clock.now(),
                    interaction_id=context.interaction.id if context.interaction else None,
                )
            )
            fake.changed(context.interaction.id if context.interaction else None, everything=False)
            if status == 204:
                return web.Response(
                    status=204, headers={k: v for k, v in headers.items() if k != "Content-Type"}
                )
            return web.Response(
                body=json.dumps(result, separators=(",", ":")).encode(),
                status=status,
                headers=headers,
            )

        self.fake.app_routes.append(route_key)
        self._app.router.add_route(method, API_PREFIX + template, endpoint)

    async def _read_body(self, context: Context) -> None:
        request = context.request
        content_type = request.content_type
        if content_type == "application/json":
            raw = await request.read()
            if not raw:
                return
            try:
                context.body = json.loads(raw)
            except ValueError:
                raise fail(INVALID_JSON) from None
            return
        if content_type == "multipart/form-data":
            files = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                data = await part.read(decode=False)
                if name == "payload_json":
                    try:
                        context.body = json.loads(bytes(data))
                    except ValueError:
                        raise fail(INVALID_JSON) from None
                else:
                    files.append(
                        UploadedFile(
                            field=name,
                            filename=part.filename or name,
                            content_type=part.headers.get("Content-Type"),
                            data=bytes(data),
                        )
                    )
            context.files = tuple(files)
            return
        raw = await request.read()
        if raw:
            raise fail(INVALID_JSON)

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        self.fake.unknown_routes.append(f"{request.method} {request.path}")
        self.fake.record(
            RecordedRequest(
                method=request.method,
                route="unknown",
                path=request.path_qs,
                status=404,
                code=0,
                body=None,
                files=(),
                at=self.fake.clock.now(),
            )
        )
        return web.Response(
            body=b'{"message":"404: Not Found","code":0}', status=404, headers=JSON_HEADERS
        )

    async def _download(self, request: web.Request) -> web.StreamResponse:
        attachment = self.fake.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    # ----- identity ----------------------------------------------------------------------------

    async def get_gateway(self, context: Context) -> Any:
        return {"url": self.fake.gateway_url}

    async def get_gateway_bot(self, context: Context) -> Any:
        return {
            "url": self.fake.advertised_gateway_url or self.fake.gateway_url,
            "shards": self.fake.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def get_me(self, context: Context) -> Any:
        return {
            **self.fake.bot_user.to_payload(),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "bio": "",
        }

    async def get_user(self, context: Context) -> Any:
        user = self.fake.users.get(_snowflake(context.request.match_info["user_id"]))
        if user is None:
            raise ApiFailure(404, 10013, "Unknown User")
        return user.to_payload()

    async def get_application(self, context: Context) -> Any:
        fake = self.fake
        return {
            "id": str(fake.application_id),
            "name": fake.bot_user.username,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": fake.owner.to_payload(),
            "team": None,
            "bot": fake.bot_user.to_payload(),
            "interactions_endpoint_url": None,
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "integration_types_config": {"0": {}},
        }

    # ----- application commands ----------------------------------------------------------------

    async def get_commands(self, context: Context) -> Any:
        guild_id = context.request.match_info.get("guild_id")
        self._check_application(context)
        return list(self.fake.registered_commands(_snowflake(guild_id) if guild_id else None))

    async def put_commands(self, context: Context) -> Any:
        self._check_application(context)
        guild_id_text = context.request.match_info.get("guild_id")
        guild_id = _snowflake(guild_id_text) if guild_id_text else None
        if guild_id is not None and guild_id not in self.fake.guilds:
            raise ApiFailure(404, 10004, "Unknown Guild")
        commands = context.body
        if not isinstance(commands, list):
            raise form_error([limits.FieldError("", "LIST_TYPE_CONVERT", "Must be an array.")])
        errors = _check_commands(commands)
        if errors:
            raise form_error(errors)
        return self.fake.store_commands(guild_id, commands)

    def _check_application(self, context: Context) -> None:
        if _snowflake(context.request.match_info["application_id"]) != self.fake.application_id:
            raise ApiFailure(403, 50001, "Missing Access")

    # ----- interactions ------------------------------------------------------------------------

    async def interaction_callback(self, context: Context) -> Any:
        fake = self.fake
        match = context.request.match_info
        interaction = fake.interactions.get(_snowflake(match["interaction_id"]))
        if interaction is None or interaction.token != match["token"]:
            raise fail(UNKNOWN_INTERACTION)
        context.interaction = interaction
        if fake.clock.now() - interaction.created_at > INTERACTION_DEADLINE_SECONDS:
            raise fail(UNKNOWN_INTERACTION)
        if interaction.acknowledged:
            raise fail(ALREADY_ACKNOWLEDGED)
        body = context.body if isinstance(context.body, dict) else {}
        try:
            kind = ResponseKind(int(body.get("type", 0)))
        except ValueError:
            raise form_error(
                [limits.FieldError("type", "BASE_TYPE_CHOICES", "Value must be one of the types.")]
            ) from None
        allowed = set(ALLOWED_RESPONSES.get(interaction.kind, frozenset()))
        if interaction.message is None:
            # Only a component's message (or a modal opened from one) can be updated.
            allowed -= {ResponseKind.DEFERRED_UPDATE_MESSAGE, ResponseKind.UPDATE_MESSAGE}
        if kind not in allowed:
            allowed_text = ", ".join(str(int(choice)) for choice in sorted(allowed))
            raise form_error(
                [
                    limits.FieldError(
                        "type", "BASE_TYPE_CHOICES", f"Value must be one of {{{allowed_text}}}."
                    )
                ]
            )
        data = body.get("data") or {}
        message: FakeMessage | None = None
        if kind is ResponseKind.CHANNEL_MESSAGE:
            self._check_new_message(data, context.files, prefix="data")
            message = fake.create_message(
                interaction.channel,
                data,
                context.files,
                interaction=interaction,
                ephemeral=bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL),
            )
            interaction.original = message
        elif kind is ResponseKind.DEFERRED_CHANNEL_MESSAGE:
            ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
            message = fake.create_message(
                interaction.channel,
                {"content": "", "flags": int(MessageFlag.LOADING)},
                (),
                interaction=interaction,
                ephemeral=ephemeral,
            )
            interaction.original = message
        elif kind in (ResponseKind.DEFERRED_UPDATE_MESSAGE, ResponseKind.UPDATE_MESSAGE):
            assert interaction.message is not None
            if kind is ResponseKind.UPDATE_MESSAGE:
                self._check_edit(interaction.message, data, context.files, prefix="data")
                fake.edit_message(interaction.message, data, context.files)
                message = interaction.message
            interaction.original = interaction.message
        elif kind is ResponseKind.MODAL:
            modal_errors = limits.check_modal(data)
            if modal_errors:
                raise form_error(modal_errors, prefix="data")
            interaction.modal = data
        elif kind is ResponseKind.AUTOCOMPLETE_RESULT:
            choices = data.get("choices") or []
            if len(choices) > limits.SELECT_OPTIONS:
                raise form_error(
                    [
                        limits.FieldError(
                            "choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                        )
                    ],
                    prefix="data",
                )
            interaction.autocomplete_choices = choices
        interaction.response_kind = kind
        interaction.acknowledged_at = fake.clock.now()
        if context.request.query.get("with_response", "").lower() not in ("1", "true"):
            return None
        callback: dict[str, Any] = {
            "id": str(interaction.id),
            "type": int(interaction.kind),
            "activity_instance_id": None,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": bool(message and message.loading),
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": int(kind)}
        if message is not None:
            resource["message"] = message.to_payload(fake.application_id)
        return {"interaction": callback, "resource": resource}

    def _interaction_for_webhook(self, context: Context) -> FakeInteraction:
        fake = self.fake
        match = context.request.match_info
        interaction = fake.interactions_by_token.get(match["token"])
        if interaction is None or _snowflake(match["application_id"]) != fake.application_id:
            raise fail(UNKNOWN_WEBHOOK)
        context.interaction = interaction
        if fake.clock.now() - interaction.created_at > INTERACTION_TOKEN_SECONDS:
            raise fail(INVALID_WEBHOOK_TOKEN)
        if not interaction.acknowledged:
            raise fail(UNKNOWN_WEBHOOK)
        return interaction

    def _webhook_message(self, context: Context, interaction: FakeInteraction) -> FakeMessage:
        wanted = context.request.match_info["message_id"]
        if wanted == "@original":
            message = interaction.original
        else:
            message_id = _snowflake(wanted)
            candidates = [*([interaction.original] if interaction.original else [])]
            candidates += interaction.followups
            message = next((m for m in candidates if m.id == message_id), None)
        if message is None or message.deleted:
            raise fail(UNKNOWN_MESSAGE)
        return message

    async def create_followup(self, context: Context) -> Any:
        interaction = self._interaction_for_webhook(context)
        body = context.body if isinstance(context.body, dict) else {}
        original = interaction.original
        if (
            interaction.response_kind is ResponseKind.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: a followup sent while the deferral still shows "thinking..." resolves that
            # message, and keeps the deferral's visibility whatever the followup's flags say.
            self._check_edit(original, body, context.files)
            self.fake.edit_message(original, body, context.files, resolve_loading=True)
            message = original
        else:
            self._check_new_message(body, context.files)
            message = self.fake.create_message(
                interaction.channel,
                body,
                context.files,
                interaction=interaction,
                ephemeral=bool(int(body.get("flags") or 0) & MessageFlag.EPHEMERAL),
            )
            interaction.followups.append(message)
        if context.request.query.get("wait", "").lower() not in ("1", "true"):
            return None
        return message.to_payload(self.fake.application_id)

    async def get_webhook_message(self, context: Context) -> Any:
        interaction = self._interaction_for_webhook(context)
        message = self._webhook_message(context, interaction)
        return message.to_payload(self.fake.application_id)

    async def edit_webhook_message(self, context: Context) -> Any:
        interaction = self._interaction_for_webhook(context)
        message = self._webhook_message(context, interaction)
        body = context.body if isinstance(context.body, dict) else {}
        self._check_edit(message, body, context.files)
        self.fake.edit_message(message, body, context.files, resolve_loading=True)
        return message.to_payload(self.fake.application_id)

    async def delete_webhook_message(self, context: Context) -> Any:
        interaction = self._interaction_for_webhook(context)
        message = self._webhook_message(context, interaction)
        self.fake.delete_message(message)
        return None

    # ----- channels and messages ---------------------------------------------------------------

    def _channel(self, context: Context) -> FakeChannel:
        channel = self.fake.channels.get(_snowflake(context.request.match_info["channel_id"]))
        if channel is None:
            raise fail(UNKNOWN_CHANNEL)
        return channel

    def _channel_message(self, context: Context, channel: FakeChannel) -> FakeMessage:
        message = channel.messages.get(_snowflake(context.request.match_info["message_id"]))
        if message is None or message.deleted or message.ephemeral:
            raise fail(UNKNOWN_MESSAGE)
        return message

    def _require(self, channel: FakeChannel, permission: int) -> None:
        if channel.guild is None:
            return
        if self.fake.bot_permissions_in(channel) & permission != permission:
            raise fail(MISSING_PERMISSIONS)

    async def get_channel(self, context: Context) -> Any:
        channel = self._channel(context)
        self._require(channel, Permission.VIEW_CHANNEL)
        return channel.to_payload()

    async def edit_channel(self, context: Context) -> Any:
        channel = self._channel(context)
        body = context.body if isinstance(context.body, dict) else {}
        if channel.is_thread:
            channel.archived = bool(body.get("archived", channel.archived))
            channel.locked = bool(body.get("locked", channel.locked))
        else:
            self._require(channel, Permission.MANAGE_CHANNELS)
        if "name" in body:
            channel.name = str(body["name"])
        self.fake.channel_updated(channel)
        return channel.to_payload()

    async def get_messages(self, context: Context) -> Any:
        channel = self._channel(context)
        self._require(channel, Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)
        query = context.request.query
        limit = max(1, min(100, int(query.get("limit", 50))))
        visible = [m for m in channel.messages.values() if not m.deleted and not m.ephemeral]
        if "before" in query:
            visible = [m for m in visible if m.id < int(query["before"])]
        if "after" in query:
            visible = [m for m in visible if m.id > int(query["after"])]
            chosen = visible[:limit]
        else:
            chosen = visible[-limit:]
        application_id = self.fake.application_id
        return [message.to_payload(application_id) for message in reversed(chosen)]

    async def get_message(self, context: Context) -> Any:
        channel = self._channel(context)
        self._require(channel, Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)
        return self._channel_message(context, channel).to_payload(self.fake.application_id)

    async def create_message(self, context: Context) -> Any:
        channel = self._channel(context)
        body = context.body if isinstance(context.body, dict) else {}
        if channel.kind is ChannelKind.DM:
            recipient = channel.recipient
            assert recipient is not None
            if not any(recipient.id in guild.members for guild in self.fake.guilds.values()):
                raise fail(NO_MUTUAL_GUILDS)
            if not recipient.accepts_dms:
                raise fail(CANNOT_DM)
        else:
            needed = Permission.VIEW_CHANNEL | (
                Permission.SEND_MESSAGES_IN_THREADS
                if channel.is_thread
                else Permission.SEND_MESSAGES
            )
            if context.files:
                needed |= Permission.ATTACH_FILES
            self._require(channel, needed)
            if channel.archived or channel.locked:
                raise fail(THREAD_ARCHIVED)
        self._check_new_message(body, context.files)
        message = self.fake.create_message(channel, body, context.files)
        return message.to_payload(self.fake.application_id)

    async def edit_message(self, context: Context) -> Any:
        channel = self._channel(context)
        message = self._channel_message(context, channel)
        if message.author is not self.fake.bot_user:
            raise fail(NOT_AUTHOR)
        body = context.body if isinstance(context.body, dict) else {}
        self._check_edit(message, body, context.files)
        self.fake.edit_message(message, body, context.files)
        return message.to_payload(self.fake.application_id)

    async def delete_message(self, context: Context) -> Any:
        channel = self._channel(context)
        message = self._channel_message(context, channel)
        if message.author is not self.fake.bot_user:
            self._require(channel, Permission.MANAGE_MESSAGES)
        self.fake.delete_message(message)
        return None

    async def typing(self, context: Context) -> Any:
        self._channel(context)
        return None

    async def create_thread(self, context: Context) -> Any:
        channel = self._channel(context)
        if channel.guild is None or channel.is_thread:
            raise ApiFailure(400, 50024, "Cannot execute action on this channel type")
        body = context.body if isinstance(context.body, dict) else {}
        private = int(body.get("type", 11)) == ChannelKind.PRIVATE_THREAD
        self._require(
            channel,
            Permission.CREATE_PRIVATE_THREADS if private else Permission.CREATE_PUBLIC_THREADS,
        )
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(
                [limits.FieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100.")]
            )
        starter = context.request.match_info.get("message_id")
        if starter is not None:
            self._channel_message(context, channel)
        thread = self.fake.create_thread(
            channel,
            name,
            private=private,
            thread_id=_snowflake(starter) if starter is not None else None,
        )
        return thread.to_payload()

    async def open_dm(self, context: Context) -> Any:
        body = context.body if isinstance(context.body, dict) else {}
        try:
            recipient_id = int(body.get("recipient_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise fail(INVALID_RECIPIENT) from None
        user = self.fake.users.get(recipient_id)
        if user is None or user.bot:
            raise fail(INVALID_RECIPIENT)
        return self.fake.dm_channel(user).to_payload()

    # ----- guilds ------------------------------------------------------------------------------

    def _guild(self, context: Context) -> Any:
        guild = self.fake.guilds.get(_snowflake(context.request.match_info["guild_id"]))
        if guild is None:
            raise ApiFailure(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, context: Context) -> Any:
        guild = self._guild(context)
        payload = guild.to_payload(self.fake.bot_user)
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            payload.pop(key, None)
        return payload

    async def get_guild_channels(self, context: Context) -> Any:
        guild = self._guild(context)
        return [
            channel.to_payload() for channel in guild.channels.values() if not channel.is_thread
        ]

    async def create_guild_channel(self, context: Context) -> Any:
        """``POST /guilds/{id}/channels``: Manage Channels; a name of 1-100 characters (a text
        channel's lowercased, spaces made dashes, as Discord stores it); a parent that is a
        category of the guild with room (50 channels); at most 500 channels a guild."""
        guild = self._guild(context)
        if guild.bot_permissions & Permission.MANAGE_CHANNELS != Permission.MANAGE_CHANNELS:
            raise fail(MISSING_PERMISSIONS)
        body = context.body if isinstance(context.body, dict) else {}
        errors: list[limits.FieldError] = []
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            errors.append(
                limits.FieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100.")
            )
        try:
            kind = ChannelKind(int(body.get("type") or 0))
        except ValueError:
            kind = None
        if kind not in CREATABLE_KINDS:
            errors.append(
                limits.FieldError(
                    "type", "BASE_TYPE_CHOICES", "Value must be one of the channel types."
                )
            )
        parent = None
        if body.get("parent_id") is not None:
            parent = guild.channels.get(_snowflake(str(body["parent_id"])))
            if (
                parent is None
                or parent.kind is not ChannelKind.CATEGORY
                or kind is ChannelKind.CATEGORY
            ):
                errors.append(
                    limits.FieldError("parent_id", "CHANNEL_PARENT_INVALID_TYPE", "Not a category.")
                )
            elif (
                sum(
                    1
                    for c in guild.channels.values()
                    if c.parent_id == parent.id and not c.is_thread
                )
                >= MAX_CATEGORY_CHANNELS
            ):
                errors.append(
                    limits.FieldError(
                        "parent_id",
                        "CHANNEL_PARENT_MAX_CHANNELS",
                        "Maximum number of channels in category reached (50)",
                    )
                )
        if errors:
            raise form_error(errors)
        assert kind is not None
        if sum(1 for c in guild.channels.values() if not c.is_thread) >= MAX_GUILD_CHANNELS:
            raise fail(TOO_MANY_CHANNELS)
        if kind is ChannelKind.TEXT:
            name = "-".join(name.lower().split())
        channel = self.fake.create_channel(guild, name, category=parent, kind=kind)
        return channel.to_payload()

    async def delete_channel(self, context: Context) -> Any:
        """``DELETE /channels/{id}``: Manage Channels (Manage Threads for a thread); a bot
        cannot delete a DM this way."""
        channel = self._channel(context)
        if channel.guild is None:
            raise ApiFailure(400, 50003, "Cannot execute action on a DM channel")
        self._require(
            channel, Permission.MANAGE_THREADS if channel.is_thread else Permission.MANAGE_CHANNELS
        )
        payload = channel.to_payload()
        self.fake.delete_channel(channel)
        return payload

    async def get_guild_roles(self, context: Context) -> Any:
        return [role.to_payload() for role in self._guild(context).roles.values()]

    async def get_member(self, context: Context) -> Any:
        guild = self._guild(context)
        member = guild.members.get(_snowflake(context.request.match_info["user_id"]))
        if member is None:
            raise ApiFailure(404, 10007, "Unknown Member")
        return member.to_payload()

    # ----- checks ------------------------------------------------------------------------------

    def _check_files(self, files: tuple[UploadedFile, ...]) -> None:
        for part in files:
            if len(part.data) > self.fake.attachment_size_limit:
                raise fail(TOO_LARGE)

    def _check_new_message(
        self, body: dict[str, Any], files: tuple[UploadedFile, ...], *, prefix: str = ""
    ) -> None:
        self._check_files(files)
        errors = limits.check_message(body, file_count=len(files))
        if errors:
            raise form_error(errors, prefix)
        if limits.is_empty_message(body, len(files)):
            raise fail(EMPTY_MESSAGE)

    def _check_edit(
        self,
        message: FakeMessage,
        body: dict[str, Any],
        files: tuple[UploadedFile, ...],
        *,
        prefix: str = "",
    ) -> None:
        self._check_files(files)
        merged = {
            "content": body.get("content", message.content)
            if "content" in body
            else message.content,
            "embeds": body.get("embeds", message.embeds),
            "components": body.get("components", message.components),
            "flags": message.flags | int(body.get("flags") or 0),
            "attachments": body.get("attachments"),
        }
        errors = limits.check_message(merged, file_count=len(files))
        if errors:
            raise form_error(errors, prefix)
        kept = len(body["attachments"]) if body.get("attachments") else 0
        if "attachments" not in body:
            kept = len(message.attachments)
        if limits.is_empty_message(merged, kept + len(files)) and not message.loading:
            raise fail(EMPTY_MESSAGE)


def _api_error(failure: ApiFailure, method: str, path: str) -> Any:
    from .model import ApiError

    return ApiError(failure.status, failure.code, failure.message, method, path)


def _snowflake(text: str | None) -> int:
    try:
        return int(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return -1


def _major_parameter(request: web.Request) -> str:
    match = request.match_info
    for key in ("channel_id", "guild_id", "token", "application_id"):
        value = match.get(key)
        if value is not None:
            return value
    return ""


def _check_commands(commands: list[Any]) -> list[limits.FieldError]:
    """The checks Discord makes on a bulk overwrite that discord.py does not make itself."""
    errors: list[limits.FieldError] = []
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        if not isinstance(command, dict):
            errors.append(limits.FieldError(str(index), "DICT_TYPE_CONVERT", "Must be an object."))
            continue
        kind = int(command.get("type", 1))
        name = str(command.get("name", ""))
        if (kind, name) in names:
            errors.append(
                limits.FieldError(
                    f"{index}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name."
                )
            )
        names.add((kind, name))
        if kind == 1:
            if not COMMAND_NAME.match(name):
                errors.append(
                    limits.FieldError(
                        f"{index}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name."
                    )
                )
            if not 1 <= len(str(command.get("description", ""))) <= 100:
                errors.append(
                    limits.FieldError(
                        f"{index}.description",
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                )
            errors.extend(_check_options(command.get("options") or [], f"{index}.options", 0))
    return errors


def _check_options(options: list[Any], path: str, depth: int) -> list[limits.FieldError]:
    errors: list[limits.FieldError] = []
    if len(options) > 25:
        errors.append(limits.FieldError(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer."))
    seen_optional = False
    for index, option in enumerate(options):
        option_path = f"{path}.{index}"
        kind = int(option.get("type", 0))
        if not COMMAND_NAME.match(str(option.get("name", ""))):
            errors.append(
                limits.FieldError(
                    f"{option_path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name."
                )
            )
        if not 1 <= len(str(option.get("description", ""))) <= 100:
            errors.append(
                limits.FieldError(
                    f"{option_path}.description", "BASE_TYPE_BAD_LENGTH", "Must be 1 to 100 long."
                )
            )
        if kind in (1, 2):
            if depth >= (1 if kind == 2 else 2):
                errors.append(
                    limits.FieldError(
                        f"{option_path}.type", "APPLICATION_COMMAND_TOO_DEEP", "Nested too deeply."
                    )
                )
            errors.extend(
                _check_options(option.get("options") or [], f"{option_path}.options", depth + 1)
            )
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    limits.FieldError(
                        f"{option_path}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        if len(option.get("choices") or []) > 25:
            errors.append(
                limits.FieldError(
                    f"{option_path}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer."
                )
            )
    return errors


__all__ = ["ApiFailure", "FakeAttachment", "RecordedRequest", "RestApi", "UploadedFile"]
