"""The fake Discord's clock: Unix seconds that tests can move forward without waiting."""

from __future__ import annotations

import time


class FakeClock:
    """Wall-clock time in Unix seconds, as Discord's servers see it.

    By default it follows real time, so a bot that is really slow still misses the 3 s deadline,
    and ``advance()`` jumps ahead on top of that (the 15-minute token expiry in a test takes no
    time). ``follow_real_time=False`` freezes it at ``start`` so only ``advance()`` moves it.
    """

    __slots__ = ("_follow_real_time", "_offset", "_real_start", "_start")

    def __init__(self, *, start: float | None = None, follow_real_time: bool = True) -> None:
        self._start = time.time() if start is None else start
        self._real_start = time.monotonic()
        self._follow_real_time = follow_real_time
        self._offset = 0.0

    def now(self) -> float:
        """The current time in Unix seconds."""
        elapsed = time.monotonic() - self._real_start if self._follow_real_time else 0.0
        return self._start + elapsed + self._offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward; time never goes back."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds

    def __call__(self) -> float:
        return self.now()
