"""One Blackjack table's presence in its Discord channel: a table message per round, and posts.

``publish`` only records what the table host said and returns at once; two worker tasks do the
Discord requests, each one at a time:

- posts (a fresh table message for each round, results, cancellations, notices): sent in order;
  whatever piled up while the previous request waited on a rate limit goes out as one message;
- table messages: edited to the latest state of their round only; the states in between are
  skipped (latest snapshot wins), and the image is re-rendered (in a worker thread) only when
  the picture changed.

discord.py paces each route from Discord's rate-limit headers and a ``Pacer`` keeps the bot
under the global limit, so a burst of decisions costs no 429: it only makes the coalescing
coarser. This mirrors the Hold'em front's ``TablePresenter`` (same workers, same rules), minus
DMs: Blackjack has no private cards.
"""

from __future__ import annotations

import asyncio
import collections
import io
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.blackjack.events import (
    ActionTaken,
    BetPlaced,
    BettingOpened,
    BlackjackSnapshot,
    Notice,
    RoundFinished,
    RoundRefunded,
    TableChanged,
    TableEvent,
    TurnStarted,
)
from bot.discord.blackjack import formatting
from bot.discord.blackjack.components import build_view
from bot.discord.blackjack.formatting import TablePayload
from bot.discord.pacing import Pacer
from bot.discord.posts import Post, merge_posts
from bot.discord.presenting import WorkerPresenter
from bot.render import render_blackjack_table
from bot.render.models import BlackjackTableView

_log = logging.getLogger("felt.discord.blackjack")

POST_LINGER_SECONDS = 0.05
"""How long a first post waits for the rest of its burst, so a burst becomes one message."""

EventTap = Callable[[int, TableEvent], None]


@dataclass(slots=True)
class _Round:
    """One round's table message: what it should show, and what it shows."""

    round_id: int
    snapshot: BlackjackSnapshot | None = None
    log: list[str] = field(default_factory=list)
    finished: bool = False
    cancelled: str | None = None
    message_id: int | None = None
    sent: TablePayload | None = None
    queued: bool = False
    """A new table message for this round waits in the post queue."""

    @property
    def done(self) -> bool:
        return self.finished or self.cancelled is not None


@dataclass(frozen=True, slots=True)
class _NewTableMessage:
    """A marker in the post queue: post this round's table message here."""

    round_id: int


class BlackjackPresenter(WorkerPresenter):
    """The ``Presenter`` of one Blackjack table: turns its events into Discord messages."""

    label = "blackjack"

    def __init__(
        self,
        *,
        client: discord.Client,
        guild_id: int,
        channel_id: int,
        pacer: Pacer,
        executor: Executor | None = None,
        hints: Callable[[], bool] = lambda: True,
        tap: EventTap | None = None,
        linger: float = POST_LINGER_SECONDS,
    ) -> None:
        super().__init__()
        self.client = client
        self.guild_id = guild_id
        self.channel_id = channel_id
        self._pacer = pacer
        self._executor = executor
        self._hints = hints
        self._tap = tap
        self._linger = linger

        self._rounds: dict[int, _Round] = {}
        self._current: int | None = None
        self._posts: collections.deque[Post | _NewTableMessage] = collections.deque()
        self._posts_ready = asyncio.Event()
        self._table_dirty = asyncio.Event()
        self._busy = 0
        self.requests = 0
        """Discord requests this presenter made (posts and edits)."""

    # ----- the Presenter protocol ----------------------------------------------------------------

    async def publish(self, event: TableEvent) -> None:
        if self._tap is not None:
            self._tap(self.channel_id, event)
        self._start()
        self._handle(event)

    # ----- what the cog asks ---------------------------------------------------------------------

    def announce(self, post: Post) -> None:
        """Post something in the channel (in order with the table's own posts)."""
        self._start()
        self._post(post)

    def table_message_id(self, round_id: int) -> int | None:
        """The id of ``round_id``'s table message, once it is posted (while it is tracked)."""
        found = self._rounds.get(round_id)
        return found.message_id if found is not None else None

    @property
    def settled(self) -> bool:
        """Nothing waits to be sent."""
        return not self._posts and not self._busy and not any(map(self._outdated, self._rounds))

    # ----- events --------------------------------------------------------------------------------

    def _handle(self, event: TableEvent) -> None:
        match event:
            case TableChanged(snapshot=snapshot):
                if snapshot.round_id is None:
                    return  # between rounds the last round's message keeps its result
                found = self._round(snapshot.round_id)
                if found.done:
                    return
                found.snapshot = snapshot
                if found.message_id is None and not found.queued:
                    self._queue_table_message(found)
                self._table_dirty.set()
            case BettingOpened(round_id=round_id):
                self._round(round_id)
            case BetPlaced():
                self._log(formatting.bet_line(event))
            case ActionTaken(text=text):
                self._log(text)
            case TurnStarted():
                pass  # the snapshot that follows carries the turn and its deadline
            case RoundFinished(round_id=round_id, snapshot=snapshot):
                found = self._round(round_id)
                found.snapshot = snapshot
                found.finished = True
                self._post(formatting.result_post(event))
                self._table_dirty.set()
            case RoundRefunded(round_id=round_id, reason=reason):
                cancelled = self._rounds.get(round_id)
                if cancelled is not None:
                    cancelled.cancelled = reason
                self._post(formatting.cancelled_post(round_id, reason))
                self._table_dirty.set()
            case Notice(text=text):
                self._post(Post(description=formatting.escape(text)))

    def _round(self, round_id: int) -> _Round:
        found = self._rounds.get(round_id)
        if found is None:
            found = self._rounds[round_id] = _Round(round_id)
        self._current = round_id
        return found

    def _log(self, line: str) -> None:
        current = self._rounds.get(self._current) if self._current is not None else None
        if current is not None:
            current.log.append(line)
            self._table_dirty.set()

    def _post(self, post: Post) -> None:
        self._posts.append(post)
        self._posts_ready.set()

    def _queue_table_message(self, found: _Round) -> None:
        found.queued = True
        self._posts.append(_NewTableMessage(found.round_id))
        self._posts_ready.set()

    # ----- what a table message shows -------------------------------------------------------------

    def _payload(self, found: _Round) -> TablePayload | None:
        if found.snapshot is None:
            return None
        return formatting.table_payload(
            found.snapshot,
            found.log,
            hints=self._hints(),
            finished=found.finished,
            cancelled=found.cancelled,
        )

    def _outdated(self, round_id: int) -> bool:
        found = self._rounds[round_id]
        if found.queued:
            return True
        if found.message_id is None:
            return False
        payload = self._payload(found)
        return payload is not None and payload != found.sent

    def _forget_settled_rounds(self) -> None:
        """Stop tracking rounds that are over and whose last state is on their message."""
        for round_id in [
            round_id
            for round_id, found in self._rounds.items()
            if found.done and not self._outdated(round_id)
        ]:
            del self._rounds[round_id]

    # ----- workers -------------------------------------------------------------------------------

    def _start(self) -> None:
        if self._tasks:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._run(self._post_worker, "posts")),
            loop.create_task(self._run(self._table_worker, "table")),
        ]

    def _worker_failed(self) -> None:
        self._busy = 0

    async def _post_worker(self) -> None:
        while True:
            if not self._posts:
                self._posts_ready.clear()
                self._wake_settled()
                await self._posts_ready.wait()
                if self._linger:
                    await asyncio.sleep(self._linger)
                continue
            head = self._posts[0]
            self._busy += 1
            try:
                if isinstance(head, _NewTableMessage):
                    self._posts.popleft()
                    await self._send_table_message(head.round_id)
                else:
                    await self._send_posts()
            finally:
                self._busy -= 1

    async def _send_posts(self) -> None:
        batch: list[Post] = []
        for item in self._posts:
            if isinstance(item, _NewTableMessage):
                break
            batch.append(item)
        content, embeds, used = merge_posts(batch)
        for _ in range(max(1, used)):
            self._posts.popleft()
        await self._pacer.acquire()
        try:
            self.requests += 1
            await self._channel().send(
                content=content or None,
                embeds=embeds,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            _log.warning(
                "could not post in a blackjack table's channel: %s",
                error,
                extra={"channel_id": self.channel_id, "status": error.status, "code": error.code},
            )

    async def _send_table_message(self, round_id: int) -> None:
        found = self._rounds.get(round_id)
        if found is None:
            return
        found.queued = False
        payload = self._payload(found)
        if payload is None or found.message_id is not None:
            return
        file = await self._render(payload.view, payload.alt_text)
        view = build_view(list(payload.buttons))
        await self._pacer.acquire()
        try:
            self.requests += 1
            message = await self._channel().send(
                content=payload.content or None,
                embed=payload.embed(with_image=file is not None),
                file=file if file is not None else discord.utils.MISSING,
                view=view if view is not None else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            _log.warning(
                "could not post a blackjack table message: %s",
                error,
                extra={"channel_id": self.channel_id, "status": error.status, "code": error.code},
            )
            return
        found.message_id = message.id
        found.sent = payload
        self._table_dirty.set()

    async def _table_worker(self) -> None:
        while True:
            await self._table_dirty.wait()
            self._table_dirty.clear()
            while True:
                stale = next(
                    (
                        found
                        for found in self._rounds.values()
                        if found.message_id is not None and self._outdated(found.round_id)
                    ),
                    None,
                )
                if stale is None:
                    break
                payload = self._payload(stale)
                assert payload is not None and stale.message_id is not None
                message_id = stale.message_id
                previous = stale.sent.view if stale.sent is not None else None
                edited = await self._edit(message_id, payload, previous)
                if stale.message_id == message_id:
                    # A failed edit counts as sent too: the next change tries again, and a
                    # message that cannot be edited must not be retried in a loop.
                    stale.sent = payload
                if not edited:
                    break
            self._forget_settled_rounds()
            self._wake_settled()

    async def _edit(
        self, message_id: int, payload: TablePayload, previous_view: BlackjackTableView | None
    ) -> bool:
        self._busy += 1
        try:
            file = None
            if payload.view != previous_view:
                file = await self._render(payload.view, payload.alt_text)
            await self._pacer.acquire()
            self.requests += 1
            options: dict[str, Any] = {}
            if file is not None:
                options["attachments"] = [file]
            await (
                self._channel()
                .get_partial_message(message_id)
                .edit(
                    content=payload.content or None,
                    embed=payload.embed(),
                    view=build_view(list(payload.buttons)),
                    allowed_mentions=discord.AllowedMentions.none(),
                    **options,
                )
            )
            return True
        except discord.NotFound:
            # Someone deleted the table message: a round still in play gets a new one.
            for found in self._rounds.values():
                if found.message_id == message_id:
                    found.message_id = None
                    found.sent = None
                    if not found.done:
                        self._queue_table_message(found)
            return False
        except discord.HTTPException as error:
            _log.warning(
                "could not edit a blackjack table message: %s",
                error,
                extra={"channel_id": self.channel_id, "status": error.status, "code": error.code},
            )
            return False
        finally:
            self._busy -= 1

    # ----- helpers -------------------------------------------------------------------------------

    def _channel(self) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(self.channel_id, guild_id=self.guild_id)

    async def _render(self, view: BlackjackTableView, alt_text: str) -> discord.File | None:
        try:
            loop = asyncio.get_running_loop()
            image = await loop.run_in_executor(self._executor, render_blackjack_table, view)
        except Exception:
            _log.exception("rendering a blackjack table failed; sending text only")
            return None
        return discord.File(io.BytesIO(image), filename=formatting.IMAGE_NAME, description=alt_text)
