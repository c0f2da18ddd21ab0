"""Server errors on demand: the next REST requests answered 500, 502 or 503 as Discord's edge does,
or never answered at all (``HANG``: an overloaded proxy that accepted the request).

Discord's API answers a 500 with its JSON error body; a 502 comes from Cloudflare as an HTML
page, and a 503 from the upstream proxy as plain text. A fault consumes one request (a retry is a
new request) and the handler does not run, so nothing changes on the fake's side.

    fake.fail_next(500, 502, 503, route="PATCH /channels/{channel_id}/messages/{message_id}")
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass

from aiohttp import web

HANG = 0
"""A fault ``status`` that leaves the request unanswered until the fake stops."""

BODIES: dict[int, tuple[str, bytes]] = {
    500: (
        "application/json",
        json.dumps({"message": "500: Internal Server Error", "code": 0}).encode(),
    ),
    502: (
        "text/html",
        b"<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway"
        b"</h1></center><hr><center>cloudflare</center></body></html>",
    ),
    503: (
        "text/plain",
        b"upstream connect error or disconnect/reset before headers. reset reason: overflow",
    ),
}


@dataclass(frozen=True, slots=True)
class ServerFault:
    """One request to fail: with ``status``, on ``route`` (a route template) or on any route."""

    status: int
    route: str | None = None

    def matches(self, route_key: str) -> bool:
        return self.route is None or self.route == route_key

    def response(self) -> web.Response:
        content_type, body = BODIES.get(self.status, BODIES[503])
        return web.Response(body=body, status=self.status, headers={"Content-Type": content_type})


class ServerFaults:
    """The faults still to serve, in order."""

    def __init__(self) -> None:
        self._pending: deque[ServerFault] = deque()
        self.served: list[tuple[int, str]] = []
        """(status, route) of every fault answered so far."""

    def add(self, statuses: tuple[int, ...], route: str | None) -> None:
        for status in statuses:
            if status not in BODIES and status != HANG:
                raise ValueError(f"no canned answer for status {status}")
            self._pending.append(ServerFault(status, route))

    def take(self, route_key: str) -> ServerFault | None:
        """The first pending fault for ``route_key``, removed; None if there is none."""
        for fault in self._pending:
            if fault.matches(route_key):
                self._pending.remove(fault)
                self.served.append((fault.status, route_key))
                return fault
        return None

    def __len__(self) -> int:
        return len(self._pending)
