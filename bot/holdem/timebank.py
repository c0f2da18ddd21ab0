"""Time banks: seconds a member may take beyond their turn timer, spent over the session.

The rules (table options ``time_bank``, ``time_bank_refill``, ``time_bank_every``):

- A member's bank belongs to them at this table: it starts full (``time_bank`` seconds) the
  first time they sit, and leaving and sitting down again does not refill it.
- When a member's turn timer runs out and their bank has seconds left, the bank starts: the turn
  gets a new deadline, now + the bank, shown as a live countdown like the turn timer. If they
  act in time, the seconds used (whole seconds, rounded up) come off the bank; if the bank runs
  out, the timeout rule plays for them (check, else fold) and the bank is empty.
- Every ``time_bank_every`` hands (after hands whose number is a multiple of it), each seated
  member's bank gains ``time_bank_refill`` seconds, never above ``time_bank``. A bank above a
  lowered ``time_bank`` is cut down to it.
- Banks are saved with the table at the end of every hand. A table restored after a restart
  gives each member the bank they had when the last finished hand ended (the hand cut short by
  the restart was voided, and so is any time used in it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.holdem.settings import HoldemSettings
from storage import Storage


@dataclass(frozen=True, slots=True)
class RunningBank:
    """A member's bank that is counting down now."""

    user_id: int
    started_at: float
    seconds: int


class TimeBanks:
    """The banks of one table's members, by user id, and the one running now (if any)."""

    def __init__(self, stored: Mapping[int, int] | None = None) -> None:
        self._seconds: dict[int, int] = dict(stored or {})
        self.running: RunningBank | None = None

    def left(self, user_id: int, settings: HoldemSettings) -> int:
        """Seconds left in the member's bank (full if they never used it)."""
        return min(self._seconds.get(user_id, settings.time_bank), settings.time_bank)

    def start(self, user_id: int, now: float, settings: HoldemSettings) -> float | None:
        """Start the member's bank as their turn timer ran out: the new deadline, or None
        when the bank is empty (the timeout rule plays)."""
        seconds = self.left(user_id, settings)
        if seconds <= 0:
            return None
        self.running = RunningBank(user_id, now, seconds)
        return now + seconds

    def stop(self, now: float) -> None:
        """The turn with a running bank ended (acted, timed out, hand over): charge the time."""
        running = self.running
        if running is None:
            return
        used = min(running.seconds, math.ceil(max(0.0, now - running.started_at)))
        self._seconds[running.user_id] = running.seconds - used
        self.running = None

    async def after_hand(
        self,
        storage: Storage,
        table_id: int,
        hand_id: int,
        members: Iterable[int],
        settings: HoldemSettings,
    ) -> None:
        """Refill every ``time_bank_every`` hands, then save the seated members' banks."""
        if not settings.time_bank:
            return
        seated = sorted(set(members))
        refill = settings.time_bank_refill if hand_id % settings.time_bank_every == 0 else 0
        for user_id in seated:
            self._seconds[user_id] = min(settings.time_bank, self.left(user_id, settings) + refill)
        await storage.save_time_banks(table_id, {u: self._seconds[u] for u in seated})
