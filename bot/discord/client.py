"""The bot: construction from config, cog loading, command sync, and graceful shutdown.

A ``discord.Client`` cannot be started twice, so every start builds a new ``FeltBot`` with
``create_bot``. Resources (config, clock, the storage and its recovery report) are made outside and
passed in, as in RoboDanny; cogs reach them through the bot (``bot.storage``, ``bot.recovery``).

Adding a feature is adding a module to ``bot/discord/cogs/`` with ``async def setup(bot)`` that
calls ``await bot.add_cog(...)``: every such module is loaded at startup, before the commands are
synced. Game cogs that hold games register a shutdown hook with ``bot.add_shutdown_hook`` to
finish or void them when the process is told to stop.

discord.py reconnects the gateway and retries most 5xx answers itself; the bot adds retries
with backoff for 503 Service Unavailable, which discord.py's REST client raises at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import pkgutil
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from bot.config import DISCORD_GATEWAY_URL, DiscordConfig, FeltConfig
from bot.discord.confirm import Confirmations, ConfirmButton
from bot.discord.database import register_storage_refusals
from bot.discord.errors import ErrorRouter, StartupError
from bot.discord.painters import Painters, open_painters
from bot.discord.sync import SyncOutcome, sync_commands, sync_state_path
from bot.discord.tree import FeltCommandTree
from storage import RecoveryReport, Storage

_log = logging.getLogger("felt.discord")

COGS_PACKAGE = "bot.discord.cogs"
ShutdownHook = Callable[[], Awaitable[None]]
CogFactory = Callable[["FeltBot"], commands.Cog]
UNAVAILABLE_BACKOFF_SECONDS = (0.5, 1.0, 2.0)
"""Pauses before each retry of a request that Discord answered 503 Service Unavailable."""


def intents() -> discord.Intents:
    """Only the ``guilds`` intent: channels and roles for the cache. No privileged intent.

    Interactions carry the member who used them (with roles and permissions), so Felt needs
    neither the members nor the message content intent.
    """
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


def discover_extensions(package: str = COGS_PACKAGE) -> tuple[str, ...]:
    """Every module of the cogs package that has a ``setup`` function, sorted by name."""
    module = importlib.import_module(package)
    found = []
    for info in pkgutil.iter_modules(module.__path__):
        if info.name.startswith("_"):
            continue
        name = f"{package}.{info.name}"
        if hasattr(importlib.import_module(name), "setup"):
            found.append(name)
    return tuple(sorted(found))


def apply_endpoints(config: DiscordConfig) -> Callable[[], None]:
    """Point discord.py at the configured REST and gateway URLs; returns a function that undoes it.

    discord.py keeps both as class attributes (process-global), so one process talks to one
    Discord. Tests call the returned function when they are done.
    """
    previous_base = discord.http.Route.BASE
    previous_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = config.api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = previous_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous_gateway

    return restore


class FeltBot(commands.AutoShardedBot):
    """Felt on Discord. Sharded from the start (one shard is fine below 2,500 guilds).

    Extension points for cogs:

    - ``bot.config``: the ``FeltConfig``; ``bot.clock()``: the injected time source;
    - ``bot.storage``: the chip database (opened, migrated and recovered before the bot was
      made; closed by whoever opened it, after the bot closed); ``bot.recovery``: what recovery
      put back at startup (voided hands, refunded rounds) so game cogs can tell those channels;
    - ``bot.confirmations.ask(...)``: Confirm/Cancel buttons before a destructive action;
    - ``bot.error_router.register_refusal(ErrorType)``: show another layer's errors as refusals
      (storage's user-facing refusals are registered already);
    - ``bot.add_shutdown_hook(hook)``: ``await hook()`` runs on SIGINT/SIGTERM before the bot
      disconnects, within ``[discord] shutdown_grace_seconds``; ``bot.shutting_down`` is True
      from then on and new commands are refused.
    """

    def __init__(
        self,
        config: FeltConfig,
        *,
        extensions: Sequence[str] | None = None,
        cogs: Sequence[CogFactory] = (),
        clock: Callable[[], float] = time.time,
        error_router: ErrorRouter | None = None,
        identify_spacing: float = 5.0,
        storage: Storage | None = None,
        recovery: RecoveryReport | None = None,
        painters: Painters = Painters.THREADS,
        **options: Any,
    ) -> None:
        discord_config = config.discord
        if discord_config.shard_ids:
            options["shard_ids"] = list(discord_config.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=FeltCommandTree,
            intents=intents(),
            shard_count=discord_config.shard_count or None,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            # Chips and tables belong to a guild, so commands are guild-only unless a command
            # opts in with @app_commands.allowed_contexts(dms=True).
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            **options,
        )
        self.config = config
        self.clock = clock
        self.painters = painters
        """Where table pictures are drawn (``bot.discord.painters``; ``felt run``: processes)."""
        self._drawing: Executor | None = None
        self.started_at = clock()
        self.error_router = error_router or ErrorRouter()
        register_storage_refusals(self.error_router)
        self._storage = storage
        self.recovery = recovery
        self.confirmations = Confirmations(clock)
        self.shutting_down = False
        self.logged_in = asyncio.Event()
        """Set once Discord answered the login, before the cogs load and the commands sync."""
        self.sync_outcomes: list[SyncOutcome] = []
        self._extension_names = discover_extensions() if extensions is None else tuple(extensions)
        self._cog_factories = tuple(cogs)
        self._identify_spacing = identify_spacing
        self._shutdown_hooks: list[ShutdownHook] = []
        self._shutdown_task: asyncio.Task[None] | None = None
        if discord_config.gateway_url != DISCORD_GATEWAY_URL:
            self._use_configured_gateway(discord_config.gateway_url)
        self._retry_unavailable()

    @property
    def storage(self) -> Storage:
        """The chip database; a bot made without one (some tests) fails here, loudly."""
        if self._storage is None:
            raise RuntimeError("this bot was created without a storage (create_bot(storage=...))")
        return self._storage

    @property
    def has_storage(self) -> bool:
        return self._storage is not None

    def _use_configured_gateway(self, url: str) -> None:
        # An auto-sharded client asks REST for the gateway URL; a configured gateway proxy wins.
        ask_discord = self.http.get_bot_gateway

        async def get_bot_gateway() -> tuple[int, str, Any]:
            shards, _discord_url, limits = await ask_discord()
            return shards, url, limits

        setattr(self.http, "get_bot_gateway", get_bot_gateway)  # noqa: B010

    def _retry_unavailable(self) -> None:
        # discord.py retries 500, 502, 504 and 524 itself but raises a 503 at once, although
        # Discord's edge answers 503 for the same passing overloads.
        send = self.http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            for delay in UNAVAILABLE_BACKOFF_SECONDS:
                try:
                    return await send(route, **kwargs)
                except discord.DiscordServerError as error:
                    if error.status != 503:
                        raise
                    _log.warning(
                        "Discord answered 503; retrying in %.1f s",
                        delay,
                        extra={"route": f"{route.method} {route.path}"},
                    )
                await asyncio.sleep(delay)
                for file in kwargs.get("files") or ():
                    file.reset(seek=True)
            return await send(route, **kwargs)

        setattr(self.http, "request", request)  # noqa: B010

    # ----- startup -----------------------------------------------------------------------------

    async def setup_hook(self) -> None:
        # Discord has answered the login (user, application): what follows is loading cogs here,
        # which takes what it takes, then the command sync, which is bounded on its own.
        self.logged_in.set()
        self.add_dynamic_items(ConfirmButton)
        for name in self._extension_names:
            await self.load_extension(name)
        for factory in self._cog_factories:
            await self.add_cog(factory(self))
        application_id = self.application_id
        assert application_id is not None  # login fetched it
        discord_config = self.config.discord
        timeout = discord_config.connect_timeout_seconds
        try:
            async with asyncio.timeout(timeout):
                self.sync_outcomes = await sync_commands(
                    self.tree,
                    application_id,
                    discord_config,
                    sync_state_path(self.config.database.path),
                )
        except TimeoutError:
            raise StartupError(
                f"Discord at {discord_config.api_base_url} did not answer the command sync "
                f"within {timeout:g} s"
            ) from None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord allows one IDENTIFY per 5 s per bucket; tests connect to a fake and skip it.
        if not initial and self._identify_spacing:
            await asyncio.sleep(self._identify_spacing)

    async def on_ready(self) -> None:
        _log.info(
            "connected to Discord",
            extra={
                "user": str(self.user),
                "guilds": len(self.guilds),
                "shards": self.shard_count,
            },
        )

    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[FeltBot],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        # A command that returns without answering would show "The application did not
        # respond": a bug, logged loudly, and the member gets a neutral answer instead.
        if not interaction.response.is_done():
            _log.error(
                "command finished without answering", extra={"command": command.qualified_name}
            )
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message("Done.", ephemeral=True)

    # ----- shutdown ----------------------------------------------------------------------------

    def add_shutdown_hook(self, hook: ShutdownHook) -> None:
        """Run ``await hook()`` when the bot is told to stop, before it disconnects."""
        self._shutdown_hooks.append(hook)

    def remove_shutdown_hook(self, hook: ShutdownHook) -> None:
        with contextlib.suppress(ValueError):
            self._shutdown_hooks.remove(hook)

    async def shutdown(self, reason: str = "shutdown") -> None:
        """Stop taking new commands, let the hooks finish or void games, then disconnect.

        Hooks run concurrently; those still running after ``shutdown_grace_seconds`` are
        cancelled. Calling it again waits for the first call.
        """
        if self._shutdown_task is None:
            self._shutdown_task = asyncio.create_task(self._shutdown(reason))
        await asyncio.shield(self._shutdown_task)

    async def _shutdown(self, reason: str) -> None:
        self.shutting_down = True
        hooks = list(self._shutdown_hooks)
        grace = self.config.discord.shutdown_grace_seconds
        _log.info("shutting down", extra={"reason": reason, "hooks": len(hooks)})
        if hooks:
            tasks = [asyncio.create_task(_run_hook(hook)) for hook in hooks]
            _done, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            if pending:
                _log.error(
                    "shutdown hooks did not finish in time and were cancelled",
                    extra={"pending": len(pending), "grace_seconds": grace},
                )
                await asyncio.wait(pending)
        await self.close()
        _log.info("shutdown complete", extra={"reason": reason})

    @property
    def drawing(self) -> Executor:
        """The executor both games draw their table pictures in, one per bot (a second pool of
        painter processes would cost its memory and buy nothing: they share the cores)."""
        if self._drawing is None:
            self._drawing = open_painters(self.painters, "felt-render")
        return self._drawing

    async def close(self) -> None:
        # Open questions die with the process; their buttons then answer "closed".
        self.confirmations.close()
        await super().close()
        drawing, self._drawing = self._drawing, None
        if drawing is not None:
            # Joined (off the loop): a painter process must not outlive the bot.
            await asyncio.to_thread(drawing.shutdown, wait=True, cancel_futures=True)


async def _run_hook(hook: ShutdownHook) -> None:
    try:
        await hook()
    except Exception:
        _log.exception("a shutdown hook failed", extra={"hook": getattr(hook, "__qualname__", "")})


def create_bot(
    config: FeltConfig,
    *,
    extensions: Sequence[str] | None = None,
    cogs: Sequence[CogFactory] = (),
    **options: Any,
) -> FeltBot:
    """A new bot for one run (a client cannot be started twice).

    ``extensions=None`` loads every cog module in ``bot/discord/cogs``; ``cogs`` adds cog
    factories (tests use it for commands that fail or dawdle on purpose). Other options go to
    ``FeltBot`` and discord.py (``storage``, ``recovery``, ``clock``, ``error_router``,
    ``identify_spacing``...). The caller owns ``storage``: it opens it before and closes it
    after the bot (see ``bot.discord.database.open_for_bot``).
    """
    return FeltBot(config, extensions=extensions, cogs=cogs, **options)
