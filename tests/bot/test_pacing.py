"""The bot has one request budget, shared by every game's tables."""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from bot.discord.pacing import ChannelBudget, Pacer, RequestKind, bot_pacer
from tests.e2e.fakediscord.ratelimits import RateLimiter


def test_pacing_every_caller_gets_the_bots_one_pacer() -> None:
    bot = SimpleNamespace()
    first = bot_pacer(bot)
    assert isinstance(first, Pacer)
    assert bot_pacer(bot) is first
    assert bot_pacer(SimpleNamespace()) is not first


def test_pacing_budget_stays_under_discords_global_limit() -> None:
    pacer = Pacer()
    assert pacer.per_second + pacer.burst < 50
    assert pacer.limit < 50


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_pacing_a_channel_allows_its_limit_then_waits_a_window_from_the_oldest_answer() -> None:
    clock = _Clock()
    budget = ChannelBudget(limit=5, window=5.0, clock=clock)
    for _ in range(5):
        assert budget.ready_in(RequestKind.EDIT) == 0.0
        budget.spend(RequestKind.EDIT)
        clock.now += 0.25  # the answer comes back a quarter second later
        budget.answered(RequestKind.EDIT)
    assert budget.ready_in(RequestKind.EDIT) == 5.0 - 1.0  # the first answer came at 100.25
    assert budget.ready_in(RequestKind.POST) == 0.0  # posts are counted apart


def test_pacing_a_channel_counts_a_request_in_flight_until_a_window_after_its_answer() -> None:
    # Two tables in one channel send side by side. A slow request sent at 100.0 may reach
    # Discord just before its answer; a quick one sent later opened Discord's window at 100.15.
    # Counting the slow one from when it was sent would let a third go at 105.0, into that
    # window with the two others.
    clock = _Clock()
    budget = ChannelBudget(limit=2, window=5.0, clock=clock)
    budget.spend(RequestKind.POST)  # the slow one
    clock.now = 100.1
    budget.spend(RequestKind.POST)  # the quick one
    clock.now = 100.2
    budget.answered(RequestKind.POST)
    clock.now = 105.0
    assert budget.ready_in(RequestKind.POST) == pytest.approx(0.2)  # a window after 100.2
    clock.now = 105.1
    budget.answered(RequestKind.POST)  # the slow one's answer
    assert budget.ready_in(RequestKind.POST) == pytest.approx(0.1)
    clock.now = 105.2
    assert budget.ready_in(RequestKind.POST) == 0.0
    budget.spend(RequestKind.POST)
    assert budget.ready_in(RequestKind.POST) == pytest.approx(4.9)  # the slow one counts on


def test_pacing_a_channel_full_of_requests_in_flight_waits_at_least_a_window() -> None:
    budget = ChannelBudget(limit=2, window=5.0, clock=_Clock())
    budget.spend(RequestKind.EDIT)
    budget.spend(RequestKind.EDIT)
    assert budget.ready_in(RequestKind.EDIT) == 5.0


def test_pacing_a_channel_first_contact_is_once_per_game() -> None:
    budget = ChannelBudget(limit=5, window=5.0, clock=_Clock())
    assert budget.first_contact("holdem") is True
    assert budget.first_contact("holdem") is False
    assert budget.first_contact("blackjack") is True


def test_pacing_after_a_restart_a_channel_starts_with_its_window_spent() -> None:
    clock = _Clock()
    budget = ChannelBudget(limit=5, window=5.0, clock=clock)
    budget.assume_spent()
    assert budget.ready_in(RequestKind.POST) == 5.0
    assert budget.ready_in(RequestKind.EDIT) == 5.0
    clock.now += 5.0
    assert budget.ready_in(RequestKind.POST) == 0.0


def test_pacing_both_games_share_a_channels_budget() -> None:
    pacer = Pacer(channel_limit=3, channel_window=2.0)
    assert pacer.channel(7) is pacer.channel(7)
    assert pacer.channel(7) is not pacer.channel(8)
    assert (pacer.channel(7).limit, pacer.channel(7).window) == (3, 2.0)


class _VirtualSelector(selectors.SelectSelector):
    """Never blocks: a wait for ``timeout`` moves the loop's time on by that much instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1000.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None:
            raise AssertionError("the loop would wait for ever")
        self.now += timeout
        return super().select(0)


class _VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on virtual time: timers fire in order, at once, deterministically."""

    def __init__(self) -> None:
        self.selector = _VirtualSelector()
        super().__init__(self.selector)

    def time(self) -> float:
        return self.selector.now


def _run_load(pacer_of: Callable[[Callable[[], float]], Pacer]) -> tuple[int, int]:
    """200 tables keep a pacer busy for 20 s, each sending a request as soon as its last one
    was answered (20 ms after it reached the fake Discord's global limiter). In the first
    0.3 s of every second, requests are built slowly: those granted then go out only at its
    end (a picture executor backed up on a loaded machine), while the pacer grants on.
    Returns (requests, 429s)."""
    loop = _VirtualTimeLoop()
    judge = RateLimiter(loop.time, rules={}, global_per_second=50)
    pacer = pacer_of(loop.time)
    counts = {"requests": 0, "limited": 0}
    start = loop.time()
    route = "POST /channels/{channel_id}/messages"

    async def table(index: int) -> None:
        while loop.time() < start + 20.0:
            async with pacer.request(urgent=index % 2 == 0):
                into_second = (loop.time() - start) % 1.0
                await asyncio.sleep(max(0.0, 0.3 - into_second))
                counts["requests"] += 1
                counts["limited"] += not judge.check(route, "1", counts_globally=True).allowed
                await asyncio.sleep(0.02)

    async def main() -> None:
        await asyncio.gather(*(table(index) for index in range(200)))

    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
    return counts["requests"], counts["limited"]


def test_pacing_requests_built_slowly_after_their_grant_still_get_no_global_429() -> None:
    requests, limited = _run_load(lambda clock: Pacer(clock=clock))
    assert limited == 0
    assert requests >= 20 * 35  # the budget is still used: over 35 requests a second


def test_pacing_a_request_counts_a_second_past_its_answer_and_an_unused_grant_not_at_all() -> None:
    loop = _VirtualTimeLoop()
    pacer = Pacer(clock=loop.time, limit=1)
    granted: list[float] = []

    async def main() -> None:
        await pacer.acquire()
        pacer.unused()
        await pacer.acquire()  # at once: the grant before was given back
        granted.append(loop.time())
        loop.call_later(0.5, pacer.answered)
        await pacer.acquire()
        granted.append(loop.time())

    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
    assert granted == [1000.0, pytest.approx(1001.5)]


def test_pacing_a_grant_whose_caller_was_cancelled_is_given_back() -> None:
    loop = _VirtualTimeLoop()
    pacer = Pacer(clock=loop.time, limit=1)

    async def main() -> float:
        await pacer.acquire()
        waiting = asyncio.ensure_future(pacer.acquire())
        await asyncio.sleep(0)
        pacer.unused()  # grants ``waiting``, which is cancelled before it runs
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await pacer.acquire()
        return loop.time()

    try:
        assert loop.run_until_complete(main()) == 1000.0
    finally:
        loop.close()


def test_pacing_redraws_wait_behind_every_turn_offer_and_post() -> None:
    async def scenario() -> list[str]:
        loop = asyncio.get_running_loop()
        pacer = Pacer(per_second=10.0, burst=1, clock=loop.time)
        await pacer.acquire()  # the bucket is empty now: everything below waits
        order: list[str] = []

        async def wait(name: str, *, urgent: bool = False, cosmetic: bool = False) -> None:
            await pacer.acquire(urgent=urgent, cosmetic=cosmetic)
            order.append(name)
            pacer.answered()

        await asyncio.gather(
            wait("redraw 1", cosmetic=True),
            wait("result post"),
            wait("turn 1", urgent=True),
            wait("redraw 2", cosmetic=True),
            wait("turn 2", urgent=True),
        )
        return order

    loop = _VirtualTimeLoop()
    try:
        order = loop.run_until_complete(scenario())
    finally:
        loop.close()
    assert order == ["turn 1", "turn 2", "result post", "redraw 1", "redraw 2"]


def test_pacing_a_redraw_leaves_headroom_for_turns_in_the_global_second() -> None:
    async def scenario() -> tuple[bool, bool, bool]:
        loop = asyncio.get_running_loop()
        pacer = Pacer(per_second=1000.0, burst=100, clock=loop.time, limit=10)
        for _ in range(10 - Pacer.COSMETIC_HEADROOM):
            await pacer.acquire()  # in flight, unanswered
        redraw = asyncio.ensure_future(pacer.acquire(cosmetic=True))
        await asyncio.sleep(0)
        redraw_waited = not redraw.done()
        await pacer.acquire(urgent=True)  # a turn still goes at once
        turn_went = True
        for _ in range(10 - Pacer.COSMETIC_HEADROOM + 1):
            pacer.answered()  # counted a second more...
        await asyncio.wait_for(redraw, 5)  # ...then the redraw may go
        return redraw_waited, turn_went, redraw.done()

    loop = _VirtualTimeLoop()
    try:
        waited, turn_went, redraw_went = loop.run_until_complete(scenario())
    finally:
        loop.close()
    assert waited and turn_went and redraw_went


def test_pacing_counts_grants_by_kind() -> None:
    async def scenario() -> dict[str, int]:
        pacer = Pacer(per_second=0)  # no limits: every grant at once
        await pacer.acquire(urgent=True)
        await pacer.acquire()
        await pacer.acquire(cosmetic=True)
        await pacer.acquire(cosmetic=True)
        return dict(pacer.granted)

    assert asyncio.run(scenario()) == {"urgent": 1, "normal": 1, "cosmetic": 2}
