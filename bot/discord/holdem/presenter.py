"""One Hold'em table's presence in its Discord channel: what its events post and show, and DMs.

``publish`` only records what the table host said and returns at once. The table's
``TableChannel`` sends the posts (an opened table, cancelled hands, the closing) and the table
message (edited to the latest state only; a fresh one once posts buried the last), paced and
in order; this module decides what they say. A hand's streets, all-in run-out and result, and
the table's notices (who sat down, left or went away), are told on the table message itself,
so a hand costs a few edits rather than a post per street (issue 21: 1,000 tables share the
bot's 50 requests a second). Hole cards go by DM, newest hand only; a member whose
DMs are closed is told once per table (kept in storage, so a restart does not tell them again)
to use "My cards", and not DMed again for a while.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import itertools
import logging
from collections.abc import Callable

import discord

from bot.discord.attachments import attachment
from bot.discord.holdem import formatting
from bot.discord.holdem.components import build_view
from bot.discord.holdem.formatting import HandResult, table_payload
from bot.discord.holdem.home_posts import home_post
from bot.discord.holdem.home_table import home_buttons
from bot.discord.holdem.ledger import post_closing_ledger
from bot.discord.holdem.rail import RailDms
from bot.discord.posts import Post
from bot.discord.presenting import ChannelPresenter, PresenterSetup
from bot.discord.send_failures import SEND_FAILURES
from bot.discord.table_channel import POST_LINGER_SECONDS
from bot.discord.table_look import (
    TABLE_COLOUR,
    TableLook,
    TablePayload,
    render_off_loop,
    with_content,
)
from bot.discord.workers import Workers
from bot.holdem.events import (
    ActionTaken,
    HandCancelled,
    HandDealt,
    HandFinished,
    HandsTabled,
    HoldemTableClosed,
    HoleCards,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PlayerSatOut,
    StreetDealt,
    TableChanged,
    TableEvent,
    TableLifecycle,
    TableSnapshot,
    TurnStarted,
)
from bot.holdem.home_events import BountyCollected, CardsRevealed, RabbitHuntDealt
from bot.holdem.rail import RailCards
from bot.render import HoldemTableView, render_cards, render_holdem_table
from bot.tables.events import Notice
from storage import Game, StorageError

_log = logging.getLogger("felt.discord.holdem")

__all__ = ["POST_LINGER_SECONDS", "ClosedCallback", "EventTap", "TablePresenter"]

DM_FAILURE_CODES = frozenset({50007, 50278})
"""Cannot send messages to this user (DMs closed), or no mutual guild."""
DM_RETRY_AFTER_HANDS = 5
"""After a refused DM, skip this many hands before trying again (each refusal is an invalid
request in Discord's ban counter)."""
CLOSE_DRAIN_SECONDS = 60.0
NOTICES_SHOWN = 4
"""The table's latest notices on the table message (who sat down, left, went away...)."""
RESULTS_SHOWN = 3
"""Hands whose results the table message shows (the last in full, the two before in a line
each): results are not posts of their own, and a busy bot may finish more than one hand of a
table between two of its edits."""

LOOK = TableLook(
    render=render_holdem_table, image_name=formatting.IMAGE_NAME, build_view=build_view
)

EventTap = Callable[[int, TableEvent], None]
ClosedCallback = Callable[["TablePresenter"], None]


class TablePresenter(ChannelPresenter[TableEvent, TablePayload[HoldemTableView]]):
    """The ``Presenter`` of one table: turns its events into Discord messages."""

    game = Game.HOLDEM
    look = LOOK

    def __init__(self, setup: PresenterSetup, *, on_closed: ClosedCallback | None = None) -> None:
        super().__init__(setup)
        self._pacer = setup.pacer
        self._executor = setup.executor
        self._on_closed = on_closed
        self._rail = RailDms(setup.client, setup.pacer, setup.channel_id)

        self._snapshot: TableSnapshot | None = None
        self._last_final: tuple[TableSnapshot, tuple[str, ...]] | None = None
        self._between_hands = False
        self._closed: HoldemTableClosed | None = None
        self._voided: HandCancelled | None = None
        self._log: list[str] = []
        """This hand's story as the table message tells it (moves, streets, hands tabled)."""
        self._results: collections.deque[HandResult] = collections.deque(maxlen=RESULTS_SHOWN)
        self._notices: collections.deque[tuple[int, str]] = collections.deque(maxlen=NOTICES_SHOWN)
        """The table's news (who sat down, left, went away, rebought...), each with the number
        of hands dealt here when it came: shown on the table message until a hand later."""
        self._hands_dealt = 0
        self._keys = itertools.count(1)
        self._current: int | None = None
        """The key of the live table message in the channel."""

        self._dms: collections.OrderedDict[int, HoleCards] = collections.OrderedDict()
        self._dm_skip: dict[int, int] = {}
        self._hole_images: dict[int, tuple[int, bytes]] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._dms_ready = asyncio.Event()
        self._dm_busy = False
        self._dm_requests = 0
        self._dm_workers = Workers(
            client=setup.client,
            label="holdem",
            channel_id=setup.channel_id,
            settled=lambda: not self._dms and not self._dm_busy,
            failed=self._dm_failed,
            sleep=setup.sleep,
        )
        self._closer: asyncio.Task[None] | None = None

    # ----- what the cog asks ---------------------------------------------------------------------

    def repost(self) -> None:
        """Post the table message again at the bottom of the channel (``/holdem table``)."""
        self._new_table_message(None)

    def announce(self, text: str) -> None:
        """Post a line in the channel, in order with the table's own posts."""
        self.channel.post(Post(description=text, colour=TABLE_COLOUR))

    def hole_image(self, user_id: int, hand_id: int) -> bytes | None:
        """The rendered hole cards DMed to a member for this hand, if any (for "My cards")."""
        found = self._hole_images.get(user_id)
        return found[1] if found is not None and found[0] == hand_id else None

    def remember_hole_image(self, user_id: int, hand_id: int, image: bytes) -> None:
        self._hole_images[user_id] = (hand_id, image)

    @property
    def table_message_id(self) -> int | None:
        return self.channel.message_id(self._current) if self._current is not None else None

    @property
    def requests(self) -> int:
        """Discord requests this presenter made (posts, edits, DMs)."""
        return super().requests + self._dm_requests

    @property
    def settled(self) -> bool:
        """Nothing waits to be sent."""
        return super().settled and not self._dms and not self._dm_busy

    async def drain(self) -> None:
        """Wait until everything published so far has been sent (or given up on)."""
        while not self.settled and (self.channel.workers.running or self._dm_workers.running):
            await self.channel.drain()
            await self._dm_workers.drain()
        await self._rail.drain()

    async def aclose(self) -> None:
        """Stop sending (what is still queued is dropped)."""
        self._rail.close()
        await asyncio.gather(self.channel.aclose(), self._dm_workers.aclose())

    # ----- events --------------------------------------------------------------------------------

    def _handle(self, event: TableEvent) -> None:
        match event:
            case TableChanged(snapshot=snapshot):
                self._set_snapshot(snapshot)
            case HandDealt():
                self._start_hand()
            case HoleCards():
                self._dms.pop(event.user_id, None)
                self._dms[event.user_id] = event
                self._dm_workers.start(dms=self._dm_worker)
                self._dms_ready.set()
            case ActionTaken(text=text):
                self._log.append(formatting.action_line(text))
            case StreetDealt():
                self._log.append(formatting.street_line(event))
            case HandsTabled():
                self._log.extend(formatting.tabled_lines(event))
            case HandFinished(snapshot=snapshot):
                self._results.append(formatting.hand_result(event))
                self._last_final = (snapshot, tuple(self._log))
                self._set_snapshot(snapshot)
                self._between_hands = True
            case TurnStarted():
                pass  # the snapshot that follows carries the turn and its deadline
            case PlayerJoined():
                self._notice(formatting.joined_line(event))
            case PlayerLeft():
                self._notice(formatting.left_line(event))
            case PlayerSatOut():
                self._notice(formatting.sat_out_line(event))
            case PlayerReturned():
                self._notice(formatting.returned_line(event))
            case HandCancelled():
                self.channel.post(formatting.voided_post(event))
                self._voided = event
                self._last_final = None
                self._between_hands = False
                self._log = []
            case Notice(text=text):
                self._notice(formatting.escape(text))
            case RailCards():
                self._rail.send(event, self._snapshot.name if self._snapshot else "Hold'em")
            case CardsRevealed() | RabbitHuntDealt() | BountyCollected():
                self.channel.post(home_post(event))
            case HoldemTableClosed():
                self._closed = event
                self.channel.post(formatting.closed_post(event))
                if self._current is not None:
                    self.channel.finish(self._current)  # its closed state is the last
                self._hole_images.clear()
                self._dms.clear()
                self._closer = asyncio.get_running_loop().create_task(self._finish())

    def _start_hand(self) -> None:
        retire = None
        if self._last_final is not None:
            final, log = self._last_final
            retire = table_payload(
                final, log, live=False, results=tuple(self._results), notices=self._news()
            )
        self._between_hands = False
        self._voided = None
        self._log = []
        self._hands_dealt += 1
        if self._current is None or self.channel.buried:
            self._new_table_message(retire)

    def _notice(self, line: str) -> None:
        """Tell the table's news on the table message (a post would bury it, and cost a
        request of its own)."""
        self._notices.append((self._hands_dealt, line))

    def _news(self) -> tuple[str, ...]:
        """The notices that came since the hand before this one began."""
        since = self._hands_dealt - 1
        return tuple(line for dealt, line in self._notices if dealt >= since)

    def _set_snapshot(self, snapshot: TableSnapshot) -> None:
        self._snapshot = snapshot
        current = self._current
        if current is None or (
            self.channel.message_id(current) is None and not self.channel.queued(current)
        ):
            self._new_table_message(None)  # none yet, or it had nothing to show when its turn came

    def _new_table_message(self, retire: TablePayload[HoldemTableView] | None) -> None:
        """Post a fresh table message after everything queued; the one before becomes an old
        message showing ``retire`` (default: what it showed, without buttons)."""
        if self._current is not None:
            self.channel.retire(self._current, retire)
        self._current = next(self._keys)
        self.channel.show(self._current, self._payload)

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
        # This hand's log names its cards under the hand's number: none without one.
        return snapshot, tuple(self._log) if snapshot.hand_id is not None else ()

    def _payload(self) -> TablePayload[HoldemTableView] | None:
        shown = self._display()
        if shown is None:
            return None
        snapshot, log = shown
        results, notices = tuple(self._results), self._news()
        if self._closed is not None or snapshot.status is TableLifecycle.CLOSED:
            payload = table_payload(snapshot, log, live=False, results=results, notices=notices)
            return with_content(payload, "This table is closed.")
        voided = self._voided
        if voided is not None and snapshot.hand_id == voided.hand_id:
            payload = table_payload(snapshot, log, live=False, results=results, notices=notices)
            return with_content(payload, f"Hand #{voided.hand_id} was cancelled.")
        payload = table_payload(snapshot, log, results=results, notices=notices)
        latest = self._snapshot
        if latest is not None and latest is not snapshot:
            payload = with_content(payload, formatting.turn_line(latest))
            # Between hands the last result stays in view with the latest after-hand buttons.
            payload = dataclasses.replace(payload, buttons=tuple(home_buttons(latest)))
        return payload

    # ----- DMs -----------------------------------------------------------------------------------

    def _dm_failed(self) -> None:
        self._dm_busy = False

    async def _dm_worker(self) -> None:
        while True:
            if not self._dms:
                self._dms_ready.clear()
                self._dm_workers.wake()
                await self._dms_ready.wait()
                continue
            _user, hole = self._dms.popitem(last=False)
            self._dm_busy = True
            try:
                await self._send_hole_cards(hole)
            finally:
                self._dm_busy = False

    async def _send_hole_cards(self, hole: HoleCards) -> None:
        image = await render_off_loop(self._executor, render_cards, hole.cards)
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
                async with self._pacer.request():
                    self._dm_requests += 1
                    channel = await self.client.create_dm(discord.Object(hole.user_id))
                self._dm_channels[hole.user_id] = channel
            file = (
                attachment(
                    image,
                    filename=formatting.CARDS_IMAGE_NAME,
                    description="Your hole cards",
                )
                if image is not None
                else discord.utils.MISSING
            )
            async with self._pacer.request():
                self._dm_requests += 1
                await channel.send(text, file=file)
            self._dm_skip.pop(hole.user_id, None)
        except discord.Forbidden as error:
            if error.code not in DM_FAILURE_CODES:
                raise
            first = hole.user_id not in self._dm_skip
            self._dm_skip[hole.user_id] = DM_RETRY_AFTER_HANDS
            if first and await self._first_dm_refusal(hole.user_id):
                self.channel.post(formatting.dm_closed_post(hole.user_id))
        except SEND_FAILURES as error:
            _log.warning(
                "could not DM hole cards: %s",
                error,
                extra={"channel_id": self.channel_id, "status": getattr(error, "status", None)},
            )

    async def _first_dm_refusal(self, user_id: int) -> bool:
        """Whether this member was never told at this table that their DMs are closed (once
        per table, across restarts when there is storage)."""
        if self._storage is None or self._snapshot is None:
            return True
        try:
            return await self._storage.note_dm_refused(self._snapshot.table_id, user_id)
        except StorageError:
            _log.exception("could not note a closed DM", extra={"channel_id": self.channel_id})
            return True

    async def _finish(self) -> None:
        """After the table closed: send what is left, then stop."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_DRAIN_SECONDS):
                await self.drain()
        if self._closed is not None and self._closed.settle_up is not None:
            try:
                async with self._pacer.request():
                    await post_closing_ledger(self.client, self.channel_id, self._closed.settle_up)
            except SEND_FAILURES as error:
                _log.warning("could not post the ledger: %s", error)
        await self.aclose()
        if self._on_closed is not None:
            self._on_closed(self)


def _same_seats(now: TableSnapshot, then: TableSnapshot) -> bool:
    """Whether the same players sit in the same seats (stacks may have been topped up)."""
    return [(s.seat_no, s.name) for s in now.seats] == [(s.seat_no, s.name) for s in then.seats]
