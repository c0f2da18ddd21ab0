"""An endpoint on 127.0.0.1 that fails the way broken networks and wrong proxies do.

- ``HANG``: accepts the connection, reads the request, and never answers (whatever the client
  speaks: a PostgreSQL client hangs there too);
- ``RESET``: reads the request and resets the connection (TCP RST);
- ``HTML``: answers every request ``200 OK`` with an HTML page, as a captive portal or a
  misconfigured proxy does.

    async with MisbehavingEndpoint(Misbehaviour.HANG) as endpoint:
        # point api_base_url (or gateway_url) at endpoint.http_url / endpoint.ws_url
        await endpoint.wait_for_request(within=30)
"""

from __future__ import annotations

import asyncio
import enum
import socket
import struct
from types import TracebackType

HTML_PAGE = b"<!doctype html><html><body><h1>Welcome to the hotel network</h1></body></html>"


class Misbehaviour(enum.Enum):
    HANG = "hang"
    RESET = "reset"
    HTML = "html"


class MisbehavingEndpoint:
    """A TCP server speaking just enough HTTP to fail in one chosen way."""

    def __init__(self, misbehaviour: Misbehaviour) -> None:
        self.misbehaviour = misbehaviour
        self.requests = 0
        self._request_seen = asyncio.Event()
        self._connection_seen = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._held: set[asyncio.StreamWriter] = set()
        self.port = 0

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def __aenter__(self) -> MisbehavingEndpoint:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        for writer in self._held:
            writer.transport.abort()
        await self._server.wait_closed()

    async def wait_for_connection(self, *, within: float) -> None:
        """Until a client has connected here (whatever it speaks)."""
        await asyncio.wait_for(self._connection_seen.wait(), within)

    async def wait_for_request(self, *, within: float) -> None:
        """Until a client has sent a whole request head here."""
        await asyncio.wait_for(self._request_seen.wait(), within)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._connection_seen.set()
        self._held.add(writer)
        try:
            await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.transport.abort()
            return
        self.requests += 1
        self._request_seen.set()
        match self.misbehaviour:
            case Misbehaviour.HANG:
                pass  # never answered; aborted when the endpoint stops
            case Misbehaviour.RESET:
                connection = writer.get_extra_info("socket")
                # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                writer.transport.abort()
            case Misbehaviour.HTML:
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                    b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                    % (len(HTML_PAGE), HTML_PAGE)
                )
                await writer.drain()
                writer.close()
