"""One Blackjack table's presence in its Discord channel: what its events post and show.

``publish`` only records what the table host said and returns at once. The table's
``TableChannel`` sends the posts (results, cancellations, notices) and a table message for each
round (edited to the round's latest state only), paced and in order; this module decides what
they say. Blackjack has no private cards, so no DMs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.blackjack.events import (
    ActionTaken,
    BetPlaced,
    BettingOpened,
    BlackjackSnapshot,
    RoundFinished,
    RoundRefunded,
    ShoeReshuffled,
    TableChanged,
    TableEvent,
    TurnStarted,
)
from bot.discord.blackjack import formatting
from bot.discord.blackjack.components import build_view
from bot.discord.posts import Post
from bot.discord.presenting import ChannelPresenter, PresenterSetup
from bot.discord.table_channel import POST_LINGER_SECONDS
from bot.discord.table_look import TableLook, TablePayload
from bot.render import BlackjackTableView, render_blackjack_table
from bot.tables.events import Notice
from storage import Game

__all__ = ["POST_LINGER_SECONDS", "BlackjackPresenter", "EventTap"]

LOOK = TableLook(
    render=render_blackjack_table, image_name=formatting.IMAGE_NAME, build_view=build_view
)

EventTap = Callable[[int, TableEvent], None]

_log = logging.getLogger("felt.discord.blackjack")


@dataclass(slots=True)
class _Round:
    """What one round's table message should show."""

    round_id: int
    snapshot: BlackjackSnapshot | None = None
    log: list[str] = field(default_factory=list)
    finished: bool = False
    cancelled: str | None = None
    held: bool = False

    @property
    def done(self) -> bool:
        return self.finished or self.cancelled is not None


class BlackjackPresenter(ChannelPresenter[TableEvent, TablePayload[BlackjackTableView]]):
    """The ``Presenter`` of one Blackjack table: turns its events into Discord messages."""

    game = Game.BLACKJACK
    look = LOOK

    def __init__(
        self,
        setup: PresenterSetup,
        *,
        hints: Callable[[], bool] = lambda: True,
        watch: Callable[[TableEvent], None] | None = None,
    ) -> None:
        super().__init__(setup)
        self._hints = hints
        self._watch = watch
        """Sees each event as it is published (the live count questions), before the posts."""
        self._rounds: dict[int, _Round] = {}
        self._current: int | None = None

    # ----- what the cog asks ---------------------------------------------------------------------

    def announce(self, post: Post) -> None:
        """Post something in the channel (in order with the table's own posts)."""
        self.channel.post(post)

    def table_message_id(self, round_id: int) -> int | None:
        """The id of ``round_id``'s table message, once it is posted (while it is tracked)."""
        return self.channel.message_id(round_id)

    # ----- events --------------------------------------------------------------------------------

    def _handle(self, event: TableEvent) -> None:
        if self._watch is not None:
            try:
                self._watch(event)
            except Exception:  # a watcher's failure must never stop the table's messages
                _log.exception("a table watcher failed on %s", type(event).__name__)
        match event:
            case TableChanged(snapshot=snapshot):
                if snapshot.round_id is None:
                    return  # between rounds the last round's message keeps its result
                found = self._round(snapshot.round_id)
                if found.done:
                    return
                found.snapshot = snapshot
                channel, key = self.channel, found.round_id
                if channel.message_id(key) is None and not channel.queued(key):
                    channel.show(key, lambda: self._payload(found))
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
                self.channel.post(formatting.result_post(event))
                self.channel.finish(round_id)
            case RoundRefunded(round_id=round_id, reason=reason, held=held):
                cancelled = self._rounds.get(round_id)
                if cancelled is not None:
                    cancelled.cancelled, cancelled.held = reason, held
                self.channel.post(formatting.cancelled_post(round_id, reason, held=held))
                self.channel.finish(round_id)
            case ShoeReshuffled():
                self.channel.post(formatting.reshuffle_post(event))
            case Notice(text=text):
                self.channel.post(Post(description=formatting.escape(text)))

    def _round(self, round_id: int) -> _Round:
        found = self._rounds.get(round_id)
        if found is None:
            # Rounds that are over and whose last state is on their message are done with.
            for old in [r for r in self._rounds.values() if r.done]:
                if not self.channel.tracks(old.round_id):
                    del self._rounds[old.round_id]
            found = self._rounds[round_id] = _Round(round_id)
        self._current = round_id
        return found

    def _log(self, line: str) -> None:
        current = self._rounds.get(self._current) if self._current is not None else None
        if current is not None:
            current.log.append(line)

    def _payload(self, found: _Round) -> TablePayload[BlackjackTableView] | None:
        if found.snapshot is None:
            return None
        return formatting.table_payload(
            found.snapshot,
            found.log,
            hints=self._hints(),
            finished=found.finished,
            cancelled=found.cancelled,
            held=found.held,
        )
