"""Running the bot in a process: endpoints, a bounded connection, and every failure as one line.

``felt run`` connects in steps, each bounded by ``[discord] connect_timeout_seconds``: the login
(REST: the bot user and the application), the command sync (``FeltBot.setup_hook``, after the
cogs load, which is not Discord's time), and the gateway (until the first shard's READY). Once
connected, discord.py reconnects the gateway and retries 5xx answers itself (``FeltBot`` adds
503). A failure before that is a ``StartupError`` of one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.cli.signals import StopSignals
from bot.config import FeltConfig
from bot.discord.client import FeltBot, apply_endpoints, create_bot
from bot.discord.collector import short_pauses
from bot.discord.errors import StartupError
from bot.discord.painters import Painters

_log = logging.getLogger("felt.discord.runner")

JSON_TYPE = "application/json"
QUOTE_LIMIT = 100
"""At most this many characters of what the other side said are quoted in a line."""


@dataclass(frozen=True, slots=True)
class ForeignAnswer:
    """A REST answer that is not Discord's JSON (a proxy's HTML page, a captive portal)."""

    status: int
    content_type: str


class AnswerWatch:
    """Remembers the first REST answer that had content but was not JSON."""

    def __init__(self) -> None:
        self.foreign: ForeignAnswer | None = None
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_end.append(self._on_request_end)

    async def _on_request_end(
        self,
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        response = params.response
        # A 5xx page is Cloudflare's passing trouble, retried; anything else not JSON means the
        # address does not lead to Discord's API.
        status, content_type = response.status, response.content_type
        if self.foreign is None and status != 204 and status < 500 and content_type != JSON_TYPE:
            self.foreign = ForeignAnswer(status, content_type)


async def run_bot(
    config: FeltConfig,
    *,
    signals: StopSignals | None = None,
    factory: Callable[..., FeltBot] = create_bot,
    **options: Any,
) -> int:
    """Connect and run until SIGINT/SIGTERM (exit code 0) or a failure (``StartupError``).

    The first signal, at any moment, starts the graceful shutdown (games finish or are voided);
    a second one closes the connection at once.
    """
    if not config.token:
        raise StartupError("no Discord token")
    restore = apply_endpoints(config.discord)
    watch = AnswerWatch()
    options.setdefault("painters", Painters.PROCESSES)  # the event loop keeps its interpreter
    bot = factory(config, http_trace=watch.trace, **options)
    try:
        with contextlib.ExitStack() as stack:
            stack.enter_context(short_pauses())  # no garbage collection stalls it for seconds
            if signals is None:  # not started by `felt run`: handle the signals here
                signals = stack.enter_context(StopSignals())
            stack.enter_context(signals.attached(bot))
            async with bot:
                try:
                    await connect(bot, config)
                except Exception as error:
                    if not bot.shutting_down:
                        raise StartupError(describe_failure(error, config, watch)) from error
                    # A signal closed the connection under the startup: that is a clean stop.
                    _log.debug("startup ended by the shutdown: %r", error)
                await signals.finished()
    finally:
        restore()
    return 0


async def connect(bot: FeltBot, config: FeltConfig) -> None:
    """Log in, connect the gateway, and run until the bot is closed; each step bounded."""
    discord_config = config.discord
    timeout = discord_config.connect_timeout_seconds
    _log.info(
        "connecting to Discord at %s",
        discord_config.api_base_url,
        extra={"gateway_url": discord_config.gateway_url, "timeout_seconds": timeout},
    )
    login = asyncio.create_task(bot.login(config.token))
    await bounded(
        login,
        bot.logged_in.wait(),
        timeout,
        f"Discord at {discord_config.api_base_url} did not answer within {timeout:g} s",
    )
    await login
    connection = asyncio.create_task(bot.connect())
    await bounded(
        connection,
        bot.wait_for("connect"),
        timeout,
        f"the Discord gateway at {discord_config.gateway_url} did not let the bot in "
        f"within {timeout:g} s",
    )
    _log.debug("gateway connected")
    await connection


async def bounded(
    work: asyncio.Task[None], milestone: Awaitable[object], seconds: float, late: str
) -> None:
    """Wait until ``milestone`` is reached or ``work`` ends, at most ``seconds``.

    Past that ``work`` is cancelled and ``late`` becomes a ``StartupError``; if ``work``
    ended first, its failure is raised.
    """
    reached = asyncio.ensure_future(milestone)
    done, _pending = await asyncio.wait(
        {work, reached}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED
    )
    reached.cancel()
    if not done:
        work.cancel()
        await asyncio.gather(work, return_exceptions=True)
        raise StartupError(late)
    if work in done and not reached.done():
        work.result()


def describe_failure(error: BaseException, config: FeltConfig, watch: AnswerWatch) -> str:
    """One line for an operator: what failed while connecting, and what to check."""
    base = config.discord.api_base_url
    if isinstance(error, StartupError):
        return str(error)
    if watch.foreign is not None:
        answer = watch.foreign
        return (
            f"{base} answered {answer.status} with {answer.content_type or 'no content type'}, "
            "not Discord's JSON: check [discord] api_base_url (a proxy or a wrong address?)"
        )
    match error:
        case discord.LoginFailure():
            return (
                "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN or "
                "[discord] token"
            )
        case discord.PrivilegedIntentsRequired():
            return f"Discord refused the gateway intents: {error}"
        case aiohttp.ClientConnectorError():
            return f"cannot reach Discord at {base}: {error.os_error}"
        case TimeoutError():
            return f"Discord at {base} stopped answering while the bot was connecting"
        case aiohttp.ServerDisconnectedError() | aiohttp.ClientOSError():
            return f"the connection to Discord at {base} was cut: {error}"
        case aiohttp.ClientError() | OSError():
            return f"cannot talk to Discord at {base}: {error}"
        case discord.GatewayNotFound():
            return f"Discord at {base} did not give a gateway address"
        case discord.ConnectionClosed():
            return f"the gateway closed the connection (code {error.code})"
        case discord.HTTPException():
            return f"Discord answered {error.status} while starting: {shorten(error.text)}"
        case commands.ExtensionError():
            cause = error.__cause__ or error
            return f"cannot load {error.name}: {cause}"
    _log.error("unexpected failure while connecting", exc_info=error)
    return f"unexpected failure while connecting to Discord ({type(error).__name__}); see the log"


def shorten(text: str) -> str:
    """``text`` on one line, cut to ``QUOTE_LIMIT`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_LIMIT else flat[: QUOTE_LIMIT - 1] + "…"
