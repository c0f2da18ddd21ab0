"""One table's presence in its Discord channel: the table message, the posts, the DMs.

``publish`` only records what the table host said and returns at once; three worker tasks do the
Discord requests, each one at a time:

- posts (streets, results, notices, a fresh table message for each hand): sent in order;
  whatever piled up while the previous request waited on a rate limit goes out as one message;
- the table message: edited to the latest state only; the states in between are skipped
  (latest snapshot wins), and the image is re-rendered (in a worker thread) only when it changed;
- DMs of hole cards, newest hand only; a member whose DMs are closed is told once in the
  channel to use "My cards", and not DMed again for a while.

discord.py paces each route from Discord's rate-limit headers, and a bot-wide ``Pacer`` keeps
all tables together under the global limit, so bursts of bot actions cost no 429: they only
make the coalescing coarser.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import io
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.discord.holdem import formatting
from bot.discord.holdem.components import build_view
from bot.discord.holdem.formatting import TablePayload, table_payload
from bot.discord.pacing import Pacer
from bot.discord.posts import Post, merge_posts
from bot.discord.presenting import WorkerPresenter
from bot.holdem.events import (
    ActionTaken,
    HandFinished,
    HandsTabled,
    HandStarted,
    HandVoided,
    HoleCards,
    Notice,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PlayerSatOut,
    StreetDealt,
    TableChanged,
    TableClosed,
    TableEvent,
    TableSnapshot,
    TableStatus,
    TurnStarted,
)
from bot.render import render_cards, render_holdem_table
from bot.render.models import HoldemTableView

_log = logging.getLogger("felt.discord.holdem")

DM_FAILURE_CODES = frozenset({50007, 50278})
"""Cannot send messages to this user (DMs closed), or no mutual guild."""
DM_RETRY_AFTER_HANDS = 5
"""After a refused DM, skip this many hands before trying again (each refusal is an invalid
request in Discord's ban counter)."""
POST_LINGER_SECONDS = 0.05
CLOSE_DRAIN_SECONDS = 60.0
SEND_FAILURES = (discord.HTTPException, aiohttp.ClientError, TimeoutError)
"""What a Discord request may fail with and the presenter survives (it logs and moves on)."""
"""How long a first post waits for the rest of its burst, so a burst becomes one message."""

EventTap = Callable[[int, TableEvent], None]
ClosedCallback = Callable[["TablePresenter"], None]


@dataclass(frozen=True, slots=True)
class _NewTableMessage:
    """A marker in the post queue: post a fresh table message here (the old one is retired)."""

    retire_with: TablePayload | None


class TablePresenter(WorkerPresenter):
    """The ``Presenter`` of one table: turns its events into Discord messages."""

    label = "holdem"

    def __init__(
        self,
        *,
        client: discord.Client,
        guild_id: int,
        channel_id: int,
        pacer: Pacer,
        executor: Executor | None = None,
        tap: EventTap | None = None,
        on_closed: ClosedCallback | None = None,
        linger: float = POST_LINGER_SECONDS,
    ) -> None:
        super().__init__()
        self.client = client
        self.guild_id = guild_id
        self.channel_id = channel_id
        self._pacer = pacer
        self._executor = executor
        self._tap = tap
        self._on_closed = on_closed
        self._linger = linger

        self._snapshot: TableSnapshot | None = None
        self._last_final: tuple[TableSnapshot, tuple[str, ...]] | None = None
        self._between_hands = False
        self._closed: TableClosed | None = None
        self._voided: HandVoided | None = None
        self._log: list[str] = []
        self._street = "Preflop"
        self._street_actions: list[str] = []

        self._posts: collections.deque[Post | _NewTableMessage] = collections.deque()
        self._posts_since_table = 0
        self._table_message: int | None = None
        self._sent: dict[int, TablePayload] = {}
        self._retiring: dict[int, TablePayload | None] = {}
        """Old table messages to freeze, with their final state (None: as last sent, without
        buttons)."""
        self._replacing = False
        self._dms: collections.OrderedDict[int, HoleCards] = collections.OrderedDict()
        self._dm_skip: dict[int, int] = {}
        self._hole_images: dict[int, tuple[int, bytes]] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}

        self._posts_ready = asyncio.Event()
        self._table_dirty = asyncio.Event()
        self._dms_ready = asyncio.Event()
        self._busy = 0
        self._closer: asyncio.Task[None] | None = None
        self.requests = 0
        """Discord requests this presenter made (posts, edits, DMs)."""

    # ----- the Presenter protocol ----------------------------------------------------------------

    async def publish(self, event: TableEvent) -> None:
        if self._tap is not None:
            self._tap(self.channel_id, event)
        self._start()
        self._handle(event)

    # ----- what the cog asks ---------------------------------------------------------------------

    def repost(self) -> None:
        """Post the table message again at the bottom of the channel (``/holdem table``)."""
        self._start()
        self._queue_table_message(None)

    def announce(self, text: str) -> None:
        """Post a line in the channel, in order with the table's own posts."""
        self._start()
        self._post(Post(description=text, colour=formatting.TABLE_COLOUR))

    def hole_image(self, user_id: int, hand_id: int) -> bytes | None:
        """The rendered hole cards DMed to a member for this hand, if any (for "My cards")."""
        found = self._hole_images.get(user_id)
        return found[1] if found is not None and found[0] == hand_id else None

    def remember_hole_image(self, user_id: int, hand_id: int, image: bytes) -> None:
        self._hole_images[user_id] = (hand_id, image)

    @property
    def table_message_id(self) -> int | None:
        return self._table_message

    @property
    def settled(self) -> bool:
        """Nothing waits to be sent."""
        return (
            not self._posts
            and not self._dms
            and not self._busy
            and not self._retiring
            and not self._table_outdated()
        )

    # ----- events --------------------------------------------------------------------------------

    def _handle(self, event: TableEvent) -> None:
        match event:
            case TableChanged(snapshot=snapshot):
                self._set_snapshot(snapshot)
            case HandStarted():
                retire = None
                if self._last_final is not None:
                    final, log = self._last_final
                    retire = table_payload(final, log, live=False)
                self._between_hands = False
                self._voided = None
                self._log = []
                self._street = "Preflop"
                self._street_actions = []
                if (
                    self._table_message is None
                    or self._posts_since_table
                    or any(isinstance(item, Post) for item in self._posts)
                ):
                    self._queue_table_message(retire)
            case HoleCards():
                self._dms.pop(event.user_id, None)
                self._dms[event.user_id] = event
                self._dms_ready.set()
            case ActionTaken(text=text):
                self._log.append(text)
                self._street_actions.append(text)
            case StreetDealt():
                self._post(formatting.street_post(event, self._street, self._street_actions))
                self._street = event.street
                self._street_actions = []
            case HandsTabled():
                self._post(formatting.tabled_post(event))
            case HandFinished(snapshot=snapshot):
                self._post(formatting.result_post(event, self._street, self._street_actions))
                self._street_actions = []
                self._last_final = (snapshot, tuple(self._log))
                self._set_snapshot(snapshot)
                self._between_hands = True
            case TurnStarted():
                pass  # the snapshot that follows carries the turn and its deadline
            case PlayerJoined():
                self._post(Post(description=formatting.joined_line(event)))
            case PlayerLeft():
                self._post(Post(description=formatting.left_line(event)))
            case PlayerSatOut():
                self._post(Post(description=formatting.sat_out_line(event)))
            case PlayerReturned():
                self._post(Post(description=formatting.returned_line(event)))
            case HandVoided():
                self._post(formatting.voided_post(event))
                self._voided = event
                self._table_dirty.set()
                self._last_final = None
                self._between_hands = False
                self._log = []
            case Notice(text=text):
                self._post(Post(description=formatting.escape(text)))
            case TableClosed():
                self._closed = event
                self._post(formatting.closed_post(event))
                self._hole_images.clear()
                self._dms.clear()
                self._table_dirty.set()
                self._closer = asyncio.get_running_loop().create_task(self._finish())

    def _set_snapshot(self, snapshot: TableSnapshot) -> None:
        self._snapshot = snapshot
        if self._table_message is None and not self._table_message_pending():
            self._queue_table_message(None)
        self._table_dirty.set()

    def _post(self, post: Post) -> None:
        self._posts.append(post)
        self._posts_ready.set()

    def _queue_table_message(self, retire: TablePayload | None) -> None:
        """Post a fresh table message after everything queued (one at a time: a pending one
        moves to the end, so nothing buries it)."""
        for item in [item for item in self._posts if isinstance(item, _NewTableMessage)]:
            retire = retire or item.retire_with
            self._posts.remove(item)
        self._posts.append(_NewTableMessage(retire))
        self._posts_ready.set()

    # ----- what the table message shows -----------------------------------------------------------

    def _display(self) -> tuple[TableSnapshot, tuple[str, ...]] | None:
        """The snapshot to draw: between hands, the last hand's result while the same players
        sit (the turn line still says what the table waits for); else the latest."""
        snapshot = self._snapshot
        if snapshot is None:
            return None
        final = self._last_final
        if (
            final is not None
            and snapshot.hand_id is None
            and self._between_hands
            and _same_seats(snapshot, final[0])
        ):
            return final
        return snapshot, tuple(self._log)

    def _payload(self) -> TablePayload | None:
        shown = self._display()
        if shown is None:
            return None
        snapshot, log = shown
        if self._closed is not None or snapshot.status is TableStatus.CLOSED:
            payload = table_payload(snapshot, log, live=False)
            return _with_content(payload, "This table is closed.")
        voided = self._voided
        if voided is not None and snapshot.hand_id == voided.hand_id:
            payload = table_payload(snapshot, log, live=False)
            return _with_content(payload, f"Hand #{voided.hand_id} was cancelled.")
        payload = table_payload(snapshot, log)
        latest = self._snapshot
        if latest is not None and latest is not snapshot:
            payload = _with_content(payload, formatting.turn_line(latest))
        return payload

    def _table_outdated(self) -> bool:
        current = self._table_message
        if current is None or self._table_message_pending():
            return False
        payload = self._payload()
        return payload is not None and payload != self._sent.get(current)

    def _table_message_pending(self) -> bool:
        return self._replacing or any(isinstance(item, _NewTableMessage) for item in self._posts)

    # ----- workers -------------------------------------------------------------------------------

    def _start(self) -> None:
        if self._tasks or (self._closer is not None and self._closer.done()):
            return
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._run(self._post_worker, "posts")),
            loop.create_task(self._run(self._table_worker, "table")),
            loop.create_task(self._run(self._dm_worker, "dms")),
        ]
        if self._snapshot is not None or self._posts:
            self._table_dirty.set()

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
                    self._replacing = True
                    try:
                        await self._send_table_message(head.retire_with)
                    finally:
                        self._replacing = False
                        self._table_dirty.set()
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
        mentions = [user for post in batch[:used] for user in post.mentions]
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in mentions]
        )
        await self._pacer.acquire()
        try:
            self.requests += 1
            await self._channel().send(
                content=content or None, embeds=embeds, allowed_mentions=allowed
            )
        except SEND_FAILURES as error:
            _log_failure("could not post in a table's channel", error, self.channel_id)
            return
        self._posts_since_table += 1

    async def _send_table_message(self, retire_with: TablePayload | None) -> None:
        payload = self._payload()
        if payload is None:
            return
        await self._pacer.acquire(urgent=_offers_a_turn(payload))
        payload = self._payload() or payload  # the latest, after the wait
        file = await self._render(payload.view, payload.alt_text)
        view = build_view(list(payload.buttons))
        try:
            self.requests += 1
            message = await self._channel().send(
                content=payload.content or None,
                embed=_embed(payload, with_image=file is not None),
                file=file if file is not None else discord.utils.MISSING,
                view=view if view is not None else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except SEND_FAILURES as error:
            _log_failure("could not post a table message", error, self.channel_id)
            return
        old = self._table_message
        self._table_message = message.id
        self._sent[message.id] = payload
        self._posts_since_table = 0
        if old is not None:
            # The table worker freezes it once any edit it has in flight is done, comparing
            # with what that edit really sent.
            self._retiring[old] = retire_with
        self._table_dirty.set()

    async def _table_worker(self) -> None:
        while True:
            await self._table_dirty.wait()
            self._table_dirty.clear()
            while True:
                if self._retiring:
                    message_id = next(iter(self._retiring))
                    final = self._retiring.pop(message_id)
                    sent = self._sent.pop(message_id, None)
                    if final is None and sent is not None:
                        final = _without_buttons(sent)
                    if final is not None and final != sent:
                        await self._pacer.acquire()
                        await self._edit(message_id, final, sent.view if sent else None)
                    continue
                current = self._table_message
                if current is None or self._table_message_pending():
                    break
                payload = self._payload()
                sent = self._sent.get(current)
                if payload is None or payload == sent:
                    break
                await self._pacer.acquire(urgent=_offers_a_turn(payload))
                if self._table_message != current or self._table_message_pending():
                    continue
                # The state may have moved on while waiting for the budget: send the latest.
                payload = self._payload() or payload
                edited = await self._edit(current, payload, sent.view if sent else None)
                if current in self._sent or self._table_message == current:
                    # What the message shows now (the retiring step compares with it). A failed
                    # edit counts as sent too: the next change tries again, and a message that
                    # cannot be edited must not be retried in a loop.
                    self._sent[current] = payload
                if not edited:
                    break
            self._wake_settled()

    async def _edit(
        self, message_id: int, payload: TablePayload, previous_view: HoldemTableView | None
    ) -> bool:
        self._busy += 1
        try:
            file = None
            if payload.view != previous_view:
                file = await self._render(payload.view, payload.alt_text)
            self.requests += 1
            message = self._channel().get_partial_message(message_id)
            options: dict[str, Any] = {}
            if file is not None:
                options["attachments"] = [file]
            await message.edit(
                content=payload.content or None,
                embed=_embed(payload, with_image=True),
                view=build_view(list(payload.buttons)),
                allowed_mentions=discord.AllowedMentions.none(),
                **options,
            )
            return True
        except discord.NotFound:
            if self._table_message == message_id:
                # Someone deleted the table message: post a new one.
                self._table_message = None
                self._sent.pop(message_id, None)
                self._queue_table_message(None)
            return False
        except SEND_FAILURES as error:
            _log_failure("could not edit a table message", error, self.channel_id)
            return False
        finally:
            self._busy -= 1

    async def _dm_worker(self) -> None:
        while True:
            if not self._dms:
                self._dms_ready.clear()
                self._wake_settled()
                await self._dms_ready.wait()
                continue
            _user, hole = self._dms.popitem(last=False)
            self._busy += 1
            try:
                await self._send_hole_cards(hole)
            finally:
                self._busy -= 1

    async def _send_hole_cards(self, hole: HoleCards) -> None:
        image = await self._in_worker(render_cards, hole.cards)
        if image is not None:
            self.remember_hole_image(hole.user_id, hole.hand_id, image)
        skip = self._dm_skip.get(hole.user_id, 0)
        if skip > 0:
            self._dm_skip[hole.user_id] = skip - 1
            return
        name = self._snapshot.name if self._snapshot is not None else "Hold'em"
        text = (
            f"**{formatting.escape(name)}** · Hand #{hole.hand_id} in <#{self.channel_id}>\n"
            f"Your cards: **{formatting.hole_cards_text(hole.cards)}**"
        )
        try:
            channel = self._dm_channels.get(hole.user_id)
            if channel is None:
                await self._pacer.acquire()
                self.requests += 1
                channel = await self.client.create_dm(discord.Object(hole.user_id))
                self._dm_channels[hole.user_id] = channel
            await self._pacer.acquire()
            self.requests += 1
            file = (
                discord.File(
                    io.BytesIO(image),
                    filename=formatting.CARDS_IMAGE_NAME,
                    description="Your hole cards",
                )
                if image is not None
                else discord.utils.MISSING
            )
            await channel.send(text, file=file)
            self._dm_skip.pop(hole.user_id, None)
        except discord.Forbidden as error:
            if error.code not in DM_FAILURE_CODES:
                raise
            first = hole.user_id not in self._dm_skip
            self._dm_skip[hole.user_id] = DM_RETRY_AFTER_HANDS
            if first:
                self._post(formatting.dm_closed_post(hole.user_id))
        except SEND_FAILURES as error:
            _log_failure("could not DM hole cards", error, self.channel_id)

    async def _finish(self) -> None:
        """After the table closed: send what is left, then stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), CLOSE_DRAIN_SECONDS)
        await self.aclose()
        if self._on_closed is not None:
            self._on_closed(self)

    # ----- helpers -------------------------------------------------------------------------------

    def _channel(self) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(self.channel_id, guild_id=self.guild_id)

    async def _render(self, view: HoldemTableView, alt_text: str) -> discord.File | None:
        image = await self._in_worker(render_holdem_table, view)
        if image is None:
            return None
        return discord.File(io.BytesIO(image), filename=formatting.IMAGE_NAME, description=alt_text)

    async def _in_worker(self, render: Callable[[Any], bytes], argument: Any) -> bytes | None:
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, render, argument)
        except Exception:
            _log.exception("rendering failed; sending text only")
            return None


def _offers_a_turn(payload: TablePayload) -> bool:
    """Whether the table message offers a member their turn (its requests go first)."""
    return any(button.custom_id.startswith("holdem:act:") for button in payload.buttons)


def _log_failure(what: str, error: BaseException, channel_id: int) -> None:
    _log.warning(
        "%s: %s",
        what,
        error,
        extra={
            "channel_id": channel_id,
            "status": getattr(error, "status", None),
            "code": getattr(error, "code", None),
        },
    )


def _same_seats(now: TableSnapshot, then: TableSnapshot) -> bool:
    """Whether the same players sit in the same seats (stacks may have been topped up)."""
    return [(s.seat_no, s.name) for s in now.seats] == [(s.seat_no, s.name) for s in then.seats]


def _with_content(payload: TablePayload, content: str) -> TablePayload:
    return TablePayload(
        content=content,
        title=payload.title,
        description=payload.description,
        footer=payload.footer,
        view=payload.view,
        buttons=payload.buttons,
        alt_text=payload.alt_text,
    )


def _without_buttons(payload: TablePayload) -> TablePayload:
    return TablePayload(
        content="",
        title=payload.title,
        description=payload.description,
        footer=payload.footer,
        view=payload.view,
        buttons=(),
        alt_text=payload.alt_text,
    )


def _embed(payload: TablePayload, *, with_image: bool) -> discord.Embed:
    embed = payload.embed()
    if not with_image:
        embed.set_image(url=None)
    return embed
