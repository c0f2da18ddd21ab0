"""The fake gateway: Discord's websocket protocol (v10, JSON text frames, no compression).

HELLO -> IDENTIFY (or RESUME) -> READY + GUILD_CREATE per guild of the shard, heartbeats answered
with ACKs, dispatches numbered with ``s`` and kept for RESUME. Events for a session whose socket
is gone are buffered and replayed on RESUME, as Discord does. Tests can force a RECONNECT (op 7),
an INVALID_SESSION (op 9) or a dropped connection to check that the bot survives them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

_log = logging.getLogger("fakediscord.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

GUILD_MEMBERS = 1 << 1
PRIVILEGED_INTENTS = {
    GUILD_MEMBERS: "GUILD_MEMBERS",
    1 << 8: "GUILD_PRESENCES",
    1 << 15: "MESSAGE_CONTENT",
}
CLIENT_SENDS_PER_MINUTE = 120
RESUME_BUFFER = 5000


class GatewayConnection:
    """One websocket; outgoing frames go through a queue so their order is the order of events."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.sent_times: deque[float] = deque()
        self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while True:
            frame = await self.outbox.get()
            if frame is None or self.socket.closed:
                return
            try:
                await self.socket.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    def send(self, payload: dict[str, Any]) -> None:
        self.outbox.put_nowait(json.dumps(payload, separators=(",", ":")))

    def send_frame(self, frame: str) -> None:
        self.outbox.put_nowait(frame)

    async def close(self, code: int, message: str = "") -> None:
        self.outbox.put_nowait(None)
        await self.writer
        if not self.socket.closed:
            await self.socket.close(code=code, message=message.encode())


@dataclass(eq=False, slots=True)
class GatewaySession:
    """A session Discord keeps across reconnects until it is invalidated."""

    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    sequence: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=RESUME_BUFFER))
    connection: GatewayConnection | None = None
    ready: bool = False
    valid: bool = True

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.sequence += 1
        frame = json.dumps(
            {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}, separators=(",", ":")
        )
        self.buffer.append((self.sequence, frame))
        if self.connection is not None:
            self.connection.send_frame(frame)


class Gateway:
    """Serves ``GET /gateway`` as a websocket and routes events to the right shard's session."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.current: dict[int, GatewaySession] = {}
        """The live session of each shard id."""
        self.identify_count = 0
        self.resume_count = 0
        self.close_codes: list[int] = []
        """Close codes the fake used to end connections (4004 bad token, 4014 intents...)."""
        self._connections: set[GatewayConnection] = set()

    # ----- routing -----------------------------------------------------------------------------

    @property
    def shard_count(self) -> int:
        for session in self.current.values():
            return session.shard_count
        return 1

    def shard_for_guild(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    def session_for_guild(self, guild_id: int | None) -> GatewaySession | None:
        shard = 0 if guild_id is None else self.shard_for_guild(guild_id)
        session = self.current.get(shard)
        return session if session is not None and session.valid else None

    def dispatch_to_guild(self, guild_id: int | None, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the shard that owns the guild (DMs: shard 0); False if none is up."""
        session = self.session_for_guild(guild_id)
        if session is None or not session.ready:
            return False
        session.dispatch(event, data)
        return True

    def all_shards_ready(self) -> bool:
        if not self.current:
            return False
        count = self.shard_count
        return all(
            (session := self.current.get(shard)) is not None
            and session.ready
            and session.connection is not None
            for shard in self.fake.expected_shard_ids(count)
        )

    # ----- test controls -----------------------------------------------------------------------

    def _targets(self, shard_id: int | None) -> list[GatewaySession]:
        sessions = list(self.current.values())
        if shard_id is None:
            return sessions
        return [session for session in sessions if session.shard_id == shard_id]

    async def send_reconnect(self, shard_id: int | None = None) -> None:
        """Op 7: ask the client to reconnect and RESUME."""
        for session in self._targets(shard_id):
            connection = session.connection
            if connection is not None:
                session.connection = None
                connection.send({"op": RECONNECT, "d": None})
                await connection.close(4000, "reconnect requested")

    async def send_invalid_session(
        self, shard_id: int | None = None, *, resumable: bool = False
    ) -> None:
        """Op 9: the session is gone (``resumable=False``) or may be resumed."""
        for session in self._targets(shard_id):
            connection = session.connection
            if not resumable:
                session.valid = False
                session.ready = False
            if connection is not None:
                connection.send({"op": INVALID_SESSION, "d": resumable})

    async def drop_connection(self, shard_id: int | None = None, code: int = 4000) -> None:
        """Close the socket without warning, like a network failure; the session stays."""
        for session in self._targets(shard_id):
            connection = session.connection
            if connection is not None:
                session.connection = None
                await connection.close(code, "dropped by the test")

    async def close_all(self) -> None:
        for connection in list(self._connections):
            await connection.close(1001, "fake discord stopping")

    # ----- the protocol ------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await socket.prepare(request)
        connection = GatewayConnection(socket)
        self._connections.add(connection)
        connection.send({"op": HELLO, "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms}})
        session: GatewaySession | None = None
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    if message.type is WSMsgType.BINARY:
                        await connection.close(4002, "decode error")
                        self.close_codes.append(4002)
                        break
                    continue
                if self._client_rate_limited(connection):
                    await connection.close(4008, "rate limited")
                    self.close_codes.append(4008)
                    break
                try:
                    payload = json.loads(message.data)
                    op = payload["op"]
                except (ValueError, KeyError, TypeError):
                    await connection.close(4002, "decode error")
                    self.close_codes.append(4002)
                    break
                data = payload.get("d")
                if op == HEARTBEAT:
                    connection.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    if session is not None:
                        await connection.close(4005, "already authenticated")
                        self.close_codes.append(4005)
                        break
                    session = await self._identify(connection, data)
                    if session is None:
                        break
                elif op == RESUME:
                    session = await self._resume(connection, data)
                elif op in (PRESENCE, VOICE_STATE, REQUEST_MEMBERS):
                    if session is None:
                        await connection.close(4003, "not authenticated")
                        self.close_codes.append(4003)
                        break
                else:
                    await connection.close(4001, "unknown opcode")
                    self.close_codes.append(4001)
                    break
        except Exception as error:  # a bug in the fake: make the waiting test fail at once
            self.fake.internal_error(error)
            raise
        finally:
            self._connections.discard(connection)
            if session is not None and session.connection is connection:
                session.connection = None
            await connection.close(1000)
            self.fake.changed()
        return socket

    def _client_rate_limited(self, connection: GatewayConnection) -> bool:
        now = self.fake.clock.now()
        times = connection.sent_times
        times.append(now)
        while times and times[0] <= now - 60:
            times.popleft()
        return len(times) > CLIENT_SENDS_PER_MINUTE

    async def _identify(
        self, connection: GatewayConnection, data: dict[str, Any]
    ) -> GatewaySession | None:
        if not isinstance(data, dict) or data.get("token") != self.fake.token:
            await connection.close(4004, "Authentication failed.")
            self.close_codes.append(4004)
            return None
        intents = int(data.get("intents", 0))
        refused = [
            name
            for bit, name in PRIVILEGED_INTENTS.items()
            if intents & bit and not self.fake.privileged_intents & bit
        ]
        if refused:
            await connection.close(4014, "Disallowed intent(s).")
            self.close_codes.append(4014)
            return None
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await connection.close(4010, "Invalid shard.")
            self.close_codes.append(4010)
            return None
        self.identify_count += 1
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            shard_id=shard_id,
            shard_count=shard_count,
            intents=intents,
            connection=connection,
        )
        previous = self.current.get(shard_id)
        if previous is not None:
            previous.valid = False
        self.sessions[session.session_id] = session
        self.current[shard_id] = session
        guilds = [
            guild
            for guild in self.fake.guilds.values()
            if (guild.id >> 22) % shard_count == shard_id
        ]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.fake.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.fake.gateway_url,
            "application": {"id": str(self.fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": ["local"],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        if data.get("shard") is not None:
            ready["shard"] = [shard_id, shard_count]
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch(
                "GUILD_CREATE",
                guild.to_payload(self.fake.bot_user, all_members=bool(intents & GUILD_MEMBERS)),
            )
        session.ready = True
        self.fake.changed()
        return session

    async def _resume(
        self, connection: GatewayConnection, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(str((data or {}).get("session_id")))
        last_seen = (data or {}).get("seq") or 0
        if (
            session is None
            or not session.valid
            or (data or {}).get("token") != self.fake.token
            or (session.buffer and session.buffer[0][0] > last_seen + 1)
        ):
            connection.send({"op": INVALID_SESSION, "d": False})
            return None
        self.resume_count += 1
        session.connection = connection
        for sequence, frame in session.buffer:
            if sequence > last_seen:
                connection.send_frame(frame)
        session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        self.fake.changed()
        return session
