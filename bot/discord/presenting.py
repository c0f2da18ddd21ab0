"""What both games' presenters share: their table's channel, the event tap, drain and close.

A presenter's ``publish`` records an event (and shows it to a test's tap) and returns at once;
the subclass maps the event to posts and table messages of its ``TableChannel``, whose worker
does the Discord requests. Tests and shutdown ``drain`` a presenter, then ``aclose`` it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import discord

from bot.discord.kept_messages import storage_of
from bot.discord.pacing import Pacer
from bot.discord.table_channel import POST_LINGER_SECONDS, TableChannel
from bot.discord.table_look import TableLook, TablePayload
from bot.discord.workers import Sleep
from storage import Game

E = TypeVar("E")
P = TypeVar("P", bound=TablePayload[Any])


@dataclass(frozen=True, slots=True)
class PresenterSetup:
    """Where a presenter shows its table, and how it paces and draws: the same for both games.
    ``tap`` sees every event a test asked to watch."""

    client: discord.Client
    guild_id: int
    channel_id: int
    pacer: Pacer
    executor: Executor | None = None
    tap: Callable[[int, Any], Any] | None = None
    linger: float = POST_LINGER_SECONDS
    sleep: Sleep = asyncio.sleep


class ChannelPresenter(Generic[E, P]):
    """Base of the Hold'em and Blackjack presenters: subclasses set ``game`` and ``look`` and
    map each event in ``_handle``."""

    game: ClassVar[Game]
    look: ClassVar[TableLook]

    def __init__(self, setup: PresenterSetup) -> None:
        self.client = setup.client
        self.guild_id = setup.guild_id
        self.channel_id = setup.channel_id
        self._tap = setup.tap
        self._storage = storage_of(setup.client)
        self.channel: TableChannel[P] = TableChannel(
            client=setup.client,
            guild_id=setup.guild_id,
            channel_id=setup.channel_id,
            game=self.game,
            look=self.look,
            pacer=setup.pacer,
            storage=self._storage,
            executor=setup.executor,
            linger=setup.linger,
            sleep=setup.sleep,
        )

    async def publish(self, event: E) -> None:
        if self._tap is not None:
            self._tap(self.channel_id, event)
        self._handle(event)
        self.channel.changed()

    def _handle(self, event: E) -> None:
        raise NotImplementedError

    @property
    def requests(self) -> int:
        """Discord requests this presenter made."""
        return self.channel.requests

    @property
    def settled(self) -> bool:
        """Nothing waits to be sent."""
        return self.channel.settled

    async def drain(self) -> None:
        """Wait until everything published so far has been sent (or given up on)."""
        await self.channel.drain()

    async def aclose(self) -> None:
        """Stop sending (what is still queued is dropped)."""
        await self.channel.aclose()
