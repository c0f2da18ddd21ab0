"""Running the bot in a process: endpoints, signals, and startup failures as one line each."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.config import FeltConfig
from bot.discord.client import FeltBot, apply_endpoints, create_bot
from bot.discord.errors import StartupError

_log = logging.getLogger("felt.discord.runner")

HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def run_bot(
    config: FeltConfig, *, factory: Callable[..., FeltBot] = create_bot, **options: Any
) -> int:
    """Run until SIGINT/SIGTERM (graceful, exit code 0) or a fatal error (``StartupError``).

    The first signal starts the graceful shutdown (games finish or are voided); a second one
    closes the connection at once.
    """
    if not config.token:
        raise StartupError("no Discord token")
    restore = apply_endpoints(config.discord)
    bot = factory(config, **options)
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()

    def on_signal(name: str) -> None:
        if bot.shutting_down:
            _log.warning("second %s: closing now", name)
            task = loop.create_task(bot.close())
        else:
            _log.info("received %s", name)
            task = loop.create_task(bot.shutdown(name))
        pending.add(task)
        task.add_done_callback(pending.discard)

    installed = []
    for handled in HANDLED_SIGNALS:
        try:
            loop.add_signal_handler(handled, on_signal, handled.name)
            installed.append(handled)
        except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
            pass
    try:
        async with bot:
            await bot.start(config.token)
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
    except discord.LoginFailure:
        raise StartupError(
            "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN or [discord] token"
        ) from None
    except discord.PrivilegedIntentsRequired as error:
        raise StartupError(f"Discord refused the gateway intents: {error}") from None
    except aiohttp.ClientConnectorError as error:
        raise StartupError(
            f"cannot reach Discord at {config.discord.api_base_url}: {error.os_error}"
        ) from None
    except discord.ConnectionClosed as error:
        raise StartupError(f"the gateway closed the connection (code {error.code})") from None
    except discord.HTTPException as error:
        raise StartupError(
            f"Discord answered {error.status} while starting: {error.text}"
        ) from None
    except commands.ExtensionError as error:
        cause = error.__cause__ or error
        raise StartupError(f"cannot load {error.name}: {cause}") from None
    finally:
        for handled in installed:
            loop.remove_signal_handler(handled)
        restore()
    return 0
