"""One table's channel in Discord: its posts and table messages, sent by one paced worker.

Each game's presenter maps its events to ``Post``s and to table messages (a key, and a function
that draws the message's latest payload); this module does the rest, for both games:

- posts go out in order; those that wait together (a first post lingers a moment for the rest of
  its burst) go out as one message (``merge_posts``);
- a table message is posted in order with the posts, then edited to its latest state only; its
  picture is drawn (off the event loop) only when it changed, and while the painters are full a
  turn offer goes with the old one (``table_pictures.edit_picture``);
- every request first waits for the channel's ``ChannelBudget`` and the bot's ``Pacer`` (an
  edit through a member's click, for that click's budget: ``interaction_edits``), and only then
  is its payload built: what goes out is the state when it is sent;
- one worker sends one request at a time, in order. Turn offers (and the last state of a message
  with buttons) go first; redraws wait for a quiet table, spare budget and free drawing threads
  (``drawing``), and carry all that changed meanwhile (``table_edits``); a new table message
  waits until the older ones lost their buttons;
- the table messages are kept in storage while they are managed, so after a restart the first
  table channel of a game in a channel takes the buttons off those left from before, and starts
  with the channel's budget spent (Discord's buckets may still be full from before).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from typing import Any, Generic

import discord

from bot.discord.interaction_edits import Courier, Couriers
from bot.discord.kept_messages import KeptMessages
from bot.discord.pacing import ChannelBudget, Pacer, RequestKind
from bot.discord.posts import Post, merge_posts
from bot.discord.send_failures import GONE, SEND_FAILURES, log_failure
from bot.discord.table_edits import EditPolicy, Message, NewMessage, Step, pressing
from bot.discord.table_look import P, TableLook, sending, without_buttons
from bot.discord.table_pictures import draw_ahead, edit_picture, picture_file
from bot.discord.workers import Sleep, Workers
from storage import Game, Storage

POST_LINGER_SECONDS = 0.05
"""How long a first post waits for the rest of its burst, so a burst becomes one message."""


class TableChannel(Generic[P]):
    """The posts and table messages of one game's table in one channel."""

    def __init__(
        self,
        *,
        client: discord.Client,
        guild_id: int,
        channel_id: int,
        game: Game,
        look: TableLook,
        pacer: Pacer,
        storage: Storage | None = None,
        executor: Executor | None = None,
        linger: float = POST_LINGER_SECONDS,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client = client
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.game = game
        self._look = look
        self._pacer = pacer
        self._budget: ChannelBudget = pacer.channel(channel_id)
        self._policy = pacer.edit_policy or EditPolicy()
        self._kept = KeptMessages(storage, guild_id, channel_id, game)
        self._couriers = Couriers(pacer.clock)
        self._executor = executor
        self._linger = linger
        self._posts: collections.deque[Post | NewMessage] = collections.deque()
        self._linger_until = 0.0
        self._messages: dict[Hashable, Message[P]] = {}
        self._posts_since_message = 0
        self._changes = asyncio.Event()
        self._queue_changes = asyncio.Event()  # the post queue changed (wakes a wait for edits)
        self._redraw_turn = asyncio.Event()  # its turn to redraw came, or its table changed
        self._busy = False
        self.requests = 0  # Discord requests this channel made (posts and edits)...
        self.token_edits = 0  # ...of which edits through a click (outside the global budget)
        self.workers = Workers(
            client=client,
            label=game.value,
            channel_id=channel_id,
            settled=lambda: self.settled,
            failed=self._worker_failed,
            sleep=sleep,
        )

    # ----- what the presenter says -----------------------------------------------------------

    def post(self, post: Post) -> None:
        """Queue a post, in order with the others and the table messages."""
        if not any(isinstance(item, Post) for item in self._posts):
            self._linger_until = self._now() + self._linger
        self._posts.append(post)
        self.changed(queue=True)

    def show(self, key: Hashable, draft: Callable[[], P | None]) -> None:
        """Post a table message for ``key`` after what is queued; ``draft`` says what it shows
        (it is asked again before every request, so the latest state is what goes out)."""
        self._messages[key] = Message(key, draft)
        self._posts.append(NewMessage(key))
        self.changed(queue=True)

    def finish(self, key: Hashable) -> None:
        """``key``'s message changes no more after what its draft says now (it is forgotten
        once that is on it)."""
        found = self._messages.get(key)
        if found is not None:
            found.final = True
            self.changed()

    def retire(self, key: Hashable, last: P | None = None) -> None:
        """``key``'s message is an old one now: it shows ``last`` (default: what it showed,
        without buttons), then is forgotten. One never posted is dropped."""
        found = self._messages.get(key)
        if found is None:
            return
        if found.queued:
            self._drop(found)
            return
        frozen = last if last is not None else (without_buttons(found.sent) if found.sent else None)
        found.draft = lambda: frozen
        found.final = True
        self.changed()

    def changed(self, *, queue: bool = False) -> None:
        """Something a table message shows (or, with ``queue``, the post queue) changed: the
        worker looks again."""
        if not self.workers.running:
            self.workers.start(channel=self._work)
        now = self._now()
        for found in self._messages.values():
            found.drafted = None
            found.changed_at = now
            if found.dirty_since is None:
                found.dirty_since = now
        self._changes.set()
        self._redraw_turn.set()
        if queue:
            self._queue_changes.set()

    def hand_over(self, interaction: discord.Interaction[Any]) -> None:
        """A deferred click on a table message: its edits go through the click's token."""
        clicked = interaction.message
        if clicked is None or all(m.message_id != clicked.id for m in self._messages.values()):
            return
        self._couriers.take(interaction, clicked.id)
        self._changes.set()  # a held-back edit may go now, outside the channel's budget
        self._queue_changes.set()

    def message_id(self, key: Hashable) -> int | None:
        return found.message_id if (found := self._messages.get(key)) is not None else None

    def tracks(self, key: Hashable) -> bool:
        return key in self._messages

    def queued(self, key: Hashable) -> bool:
        return (found := self._messages.get(key)) is not None and found.queued

    @property
    def buried(self) -> bool:
        """Whether posts were sent (or wait) after the newest table message."""
        return bool(self._posts_since_message) or any(isinstance(i, Post) for i in self._posts)

    @property
    def settled(self) -> bool:
        """Nothing waits to be sent."""
        return (
            not self._posts
            and not self._busy
            and not self._kept.leftovers
            and not self._kept.forgotten
            and not any(self._outdated(found) for found in self._messages.values())
        )

    async def drain(self) -> None:
        await self.workers.drain()

    async def aclose(self) -> None:
        await self.workers.aclose()

    # ----- choosing the next request ---------------------------------------------------------

    def _draft(self, found: Message[P]) -> P | None:
        """``found``'s latest payload. Asked once per change (the worker and ``settled`` look
        many times between two changes, and drawing a payload is not cheap)."""
        if found.drafted is None:
            found.drafted = (found.draft(),)
        return found.drafted[0]

    def _outdated(self, found: Message[P]) -> bool:
        if found.message_id is None:
            return False
        payload = self._draft(found)
        return payload is not None and payload != found.sent

    def _plan(self) -> tuple[float, Step | None]:
        """The next request, and the seconds until it may be sent (``table_edits``)."""
        edits_in = self._budget.ready_in(RequestKind.EDIT)
        posts_in = self._budget.ready_in(RequestKind.POST)
        urgent: Message[P] | None = None
        calm: Message[P] | None = None
        retiring = False
        for found in list(self._messages.values()):
            if found.message_id is None:
                continue
            payload = self._draft(found)
            if payload is None or payload == found.sent:
                found.dirty_since = None
                if found.final:
                    self._forget(found)
                continue
            retiring |= found.final and bool(found.sent and found.sent.buttons)
            first = pressing(self._policy, payload, found.sent, final=found.final)
            if first and (urgent is None or (found.final and not urgent.final)):
                urgent = found
            elif not first and calm is None:
                calm = found
        steps: list[tuple[float, Step]] = []
        if self._kept.leftovers:
            steps.append((edits_in, Step(RequestKind.EDIT, True, self._retire_leftover)))
        if urgent is not None:
            ready = self._edits_in(urgent, edits_in)
            steps.append((ready, self._edit_step(urgent, urgent=True)))
        if self._posts:
            head = self._posts[0]
            if isinstance(head, NewMessage):
                ready = float("inf") if retiring else posts_in
                posted = self._messages.get(head.key)
                steps.append((ready, Step(RequestKind.POST, True, self._post_message, posted)))
            else:
                ready = max(posts_in, self._linger_until - self._now())
                # A new table's posts (its table message not up yet) are as pressing as it.
                steps.append((ready, Step(RequestKind.POST, self._opening, self._post_posts)))
        if calm is not None:
            policy = self._policy
            held = policy.hold(calm.changed_at, calm.dirty_since, self._now())
            spare = self._edits_in(calm, None, reserve=policy.reserve)
            steps.append((max(held, spare), self._edit_step(calm, urgent=False)))
        if not steps:
            return float("inf"), None
        for ready, step in steps:
            if ready <= 0:
                return 0.0, step
        return min(steps, key=lambda entry: entry[0])

    @property
    def _opening(self) -> bool:
        return all(found.message_id is None for found in self._messages.values())

    def _edits_in(self, found: Message[P], channel_in: float | None, *, reserve: int = 0) -> float:
        """Seconds until ``found`` may be edited (by its click's budget, or the channel's)."""
        courier = self._couriers.live(found.message_id)
        if courier is not None:
            return courier.budget.ready_in(RequestKind.EDIT, reserve=reserve)
        if channel_in is not None:
            return channel_in
        return self._budget.ready_in(RequestKind.EDIT, reserve=reserve)

    def _edit_step(self, found: Message[P], *, urgent: bool) -> Step:
        courier = self._couriers.live(found.message_id)
        # A redraw through a click is not in the bot-wide queue, but still draws one at a time
        # bot-wide: the drawing threads stay free for turn offers.
        cosmetic = not urgent and self._policy.redraws_last
        return Step(
            RequestKind.EDIT, urgent, lambda: self._edit(found, courier), found, cosmetic, courier
        )

    # ----- the worker --------------------------------------------------------------------------

    async def _work(self) -> None:
        await self._kept.take_over(self._budget)
        admitted = False
        while True:
            await self._kept.flush()
            wait, step = self._plan()
            if self._kept.forgotten:
                continue  # planning found messages that are done: storage hears it first
            if step is None or wait > 0:
                self._pacer.drawing.pass_on()
                admitted = False
                self.workers.wake()
                await self._pause(None if step is None else wait)
                continue
            if not admitted:  # the event loop must have time for it (``loop_gate``)
                await self._pacer.admission.enter(pressing=step.urgent, opening=self._opening)
                admitted = True
                continue  # plan again: the wait may have been long
            admitted = False
            turns = self._pacer.drawing
            if step.cosmetic and not turns.free:
                # Its turn comes when nothing else is drawn; a change here is planned at once.
                self._redraw_turn.clear()
                turns.when_free(self._redraw_turn)
                await self._redraw_turn.wait()
                continue
            if not step.cosmetic:
                turns.pass_on()  # woken to redraw, it sends something else: the next may draw
            lagging = not step.cosmetic and turns.congested  # the picture follows (``_edit``)
            if step.message is not None and not lagging:  # drawn before the bot-wide wait
                async with turns.redraw() if step.cosmetic else turns.pressing():
                    payload = self._draft(step.message)
                    await draw_ahead(step.message, payload, self._look, self._executor)
            granted = step.courier is None  # an interaction endpoint: not in the global budget
            if granted:
                await self._pacer.acquire(urgent=step.urgent, cosmetic=step.cosmetic)
                # The bot-wide wait may have been long: plan again, and build what is due now.
                wait, step = self._plan()
                if step is None or wait > 0 or step.courier is not None:
                    self._pacer.unused()
                    granted = False
                    if step is None or wait > 0:
                        continue
            budget = step.courier.budget if step.courier is not None else self._budget
            self._busy = True
            budget.spend(step.kind)
            try:
                self.requests += 1
                self.token_edits += step.courier is not None
                await step.run()
            finally:
                # Counted from the answer: the request reached Discord before it.
                budget.answered(step.kind)
                if granted:
                    self._pacer.answered()
                self._busy = False

    async def _pause(self, seconds: float | None) -> None:
        """Wait for a change that may be sent sooner, or ``seconds`` (None: for any change)."""
        # A table change may be sent sooner if the edit budget is free, or a click can carry it.
        edits_now = self._budget.ready_in(RequestKind.EDIT) <= 0 or len(self._couriers) > 0
        event = self._changes if seconds is None or edits_now else self._queue_changes
        self._changes.clear()
        self._queue_changes.clear()
        if seconds is None:
            await event.wait()
            return
        # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation that
        # lands as the wait ends, and this worker would then never stop (a hang at shutdown).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await event.wait()

    def _worker_failed(self) -> None:
        self._busy = False

    async def _retire_leftover(self) -> None:
        leftover = self._kept.leftovers.pop(0)
        try:
            await self._channel().get_partial_message(leftover.message_id).edit(view=None)
        except GONE:
            pass
        except SEND_FAILURES as error:
            self._failed("could not take the buttons off an old table message", error)
            return  # kept in storage: the next start tries again
        self._kept.forgotten.append(leftover.message_id)

    async def _post_posts(self) -> None:
        batch: list[Post] = []
        for item in self._posts:
            if isinstance(item, NewMessage):
                break
            batch.append(item)
        content, embeds, used = merge_posts(batch)
        for _ in range(max(1, used)):
            self._posts.popleft()
        mentions = [user for post in batch[:used] for user in post.mentions]
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in mentions]
        )
        try:
            await self._channel().send(
                content=content or None, embeds=embeds, allowed_mentions=allowed
            )
        except SEND_FAILURES as error:
            self._failed("could not post in a table's channel", error)
            return
        self._posts_since_message += 1

    async def _post_message(self) -> None:
        head = self._posts.popleft()
        assert isinstance(head, NewMessage)
        found = self._messages.get(head.key)
        if found is None or not found.queued:
            return
        try:
            await self._send_message(found)
        finally:
            found.queued = False  # only now: until it is posted, nobody asks for another

    async def _send_message(self, found: Message[P]) -> None:
        payload = self._draft(found)
        if payload is None:
            if found.final:
                self._drop(found)
            return
        file = await picture_file(found, payload, self._look, self._executor)
        fields = self._look.fields(payload, pictured=file is not None)
        fields["file"] = file if file is not None else discord.utils.MISSING
        fields["view"] = fields["view"] or discord.utils.MISSING
        try:
            message = await sending(self._channel().send(**fields), fields)
        except SEND_FAILURES as error:
            self._failed("could not post a table message", error)
            if found.final:
                self._drop(found)
            return
        found.message_id = message.id
        found.sent = payload
        self._posts_since_message = 0
        await self._kept.keep(found.message_id, has_buttons=bool(payload.buttons))

    async def _edit(self, found: Message[P], courier: Courier | None = None) -> None:
        message_id, previous = found.message_id, found.sent
        payload = self._draft(found)
        if message_id is None or payload is None or payload == previous:
            return
        congested = self._pacer.drawing.congested
        file, sent = await edit_picture(
            found, payload, previous, self._look, self._executor, congested
        )
        if sent is None:
            return  # only the picture changed, and the painters are full: a redraw is due
        found.dirty_since = None  # what changed so far goes out now
        fields = self._look.fields(payload)  # view None: the buttons come off
        if file is not None:
            fields["attachments"] = [file]
        if courier is not None and courier.message_id == message_id:
            try:
                await sending(courier.edit(**fields), fields)
            except SEND_FAILURES as error:
                # The token expired or the message is gone: the channel's route tries next.
                self._failed("could not edit a table message through a click", error)
                self._couriers.drop(message_id)
                return
        else:
            try:
                await sending(
                    self._channel().get_partial_message(message_id).edit(**fields), fields
                )
            except discord.NotFound:
                self._message_gone(found, message_id)
                return
            except SEND_FAILURES as error:
                self._failed("could not edit a table message", error)
                # Counted as sent: the next change tries again, and a message that cannot be
                # edited must not be retried in a loop.
                found.sent = sent
                return
        found.sent = sent
        if bool(payload.buttons) != bool(previous and previous.buttons) and not found.final:
            await self._kept.keep(message_id, has_buttons=bool(payload.buttons))

    def _message_gone(self, found: Message[P], message_id: int) -> None:
        """Someone deleted ``found``'s message: one still in play gets a new one."""
        self._kept.forgotten.append(message_id)
        self._couriers.drop(message_id)
        found.message_id, found.sent = None, None
        if found.final:
            self._messages.pop(found.key, None)
        else:
            found.queued = True
            self._posts.append(NewMessage(found.key))

    # ----- forgetting, storage and helpers -------------------------------------------------------

    def _forget(self, found: Message[P]) -> None:
        """``found``'s last state is on it: stop tracking it."""
        self._messages.pop(found.key, None)
        if found.message_id is not None:
            self._kept.forgotten.append(found.message_id)

    def _drop(self, found: Message[P]) -> None:
        self._messages.pop(found.key, None)
        with contextlib.suppress(ValueError):
            self._posts.remove(NewMessage(found.key))

    def _channel(self) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(self.channel_id, guild_id=self.guild_id)

    def _failed(self, what: str, error: BaseException) -> None:
        log_failure(what, error, self.channel_id, self.game)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()
