"""Which table-message edit a channel sends next, and when: turn offers at once, redraws held.

A channel may edit its messages about 5 times per 5 s. Spent on every move, that budget runs out
and a member's turn waits for the window to reopen (seconds). So edits are of two kinds:

- a turn offer (the message gains buttons it did not have: a member's Fold/Call/Raise, a
  Blackjack seat's Hit/Stand), news (a hand's result, told on the table message) or the last
  state of a message that is done: sent as soon as the channel's budget allows, and served
  first by the bot's ``Pacer``;
- a redraw (a bot's move, a log line, buttons taken away): held until the table has been quiet
  for ``quiet_seconds`` (or ``longest_hold_seconds`` after its first unsent change), and sent
  only while ``reserve`` edits of the window stay free for the offers. A redraw that waits is
  merged with what follows: the bots' moves reach the table in the same edit as the next
  member's turn. Countdowns need no edit (Discord renders ``<t:...:R>``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic

from bot.discord.interaction_edits import Courier
from bot.discord.pacing import RequestKind
from bot.discord.table_look import P


@dataclass(frozen=True, slots=True)
class EditPolicy:
    """How a table channel spends its edits (see the module docstring)."""

    reserve: int = 2
    """Edits of the channel's window that redraws leave free for turn offers."""
    quiet_seconds: float = 1.25
    """A redraw waits until nothing changed at the table for this long..."""
    longest_hold_seconds: float = 4.0
    """...but no longer than this after its first unsent change."""
    redraws_last: bool = True
    """Redraws queue behind everything else in the bot-wide ``Pacer``; without this, every edit
    that changes buttons is pressing and the others queue with the posts (as before issue 21)."""

    def hold(self, changed_at: float, dirty_since: float | None, now: float) -> float:
        """Seconds a redraw still waits for the table to be quiet (0: it may go)."""
        if dirty_since is None:
            return 0.0
        until = min(changed_at + self.quiet_seconds, dirty_since + self.longest_hold_seconds)
        return max(0.0, until - now)


IMMEDIATE_EDITS = EditPolicy(
    reserve=0, quiet_seconds=0.0, longest_hold_seconds=0.0, redraws_last=False
)
"""Every change edited as soon as the budget allows (Felt before issue 21; for benchmarks)."""


def pressing(policy: EditPolicy, payload: Any, sent: Any, *, final: bool) -> bool:
    """Whether the edit of a message showing ``sent`` to ``payload`` goes first: it offers a
    turn (puts a button on the message that it did not have), tells news (a hand's result:
    the payload's ``news`` changed), or is the last state of a message that had buttons."""
    before = tuple(button.custom_id for button in sent.buttons) if sent is not None else ()
    after = tuple(button.custom_id for button in payload.buttons)
    if not policy.redraws_last:
        return after != before
    news = bool(payload.news) and payload.news != (sent.news if sent is not None else "")
    return news or (final and bool(before)) or any(custom_id not in before for custom_id in after)


@dataclass(slots=True)
class Message(Generic[P]):
    """One table message: how to draw it, and what it shows."""

    key: Hashable
    draft: Callable[[], P | None]
    message_id: int | None = None
    sent: P | None = None
    queued: bool = True
    """Its post waits in the post queue."""
    final: bool = False
    """No change will come after what ``draft`` says: forget it once that is sent."""
    picture: tuple[Any, bytes | None] | None = None
    """A picture drawn for the next request (a view and its image), until it is sent."""
    drafted: tuple[P | None] | None = None
    """What ``draft`` said since the last change (None: ask it again)."""
    changed_at: float = 0.0
    """When the table last changed (loop time)."""
    dirty_since: float | None = None
    """When the first change not yet on the message came (None: none since the last edit)."""


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A marker in the post queue: post the table message of ``key`` here."""

    key: Hashable


@dataclass(frozen=True, slots=True)
class Step:
    kind: RequestKind
    urgent: bool
    run: Callable[[], Any]
    message: Message[Any] | None = None
    """The table message it posts or edits (its picture is drawn before the bot-wide wait)."""
    cosmetic: bool = False
    """A redraw: last in the bot-wide queue."""
    courier: Courier | None = None
    """An edit sent through a member's click (``interaction_edits``): not paced bot-wide, and
    counted in the click's own budget instead of the channel's."""
