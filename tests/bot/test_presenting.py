"""The table channels' worker supervisor: failures are logged, paused on, and retried."""

from __future__ import annotations

from typing import Any

from bot.discord.workers import WORKER_RESTART_SECONDS, Workers


class _Client:
    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed


class _Pauses:
    """The injected sleep: records each pause instead of waiting."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


def workers(client: _Client, pauses: _Pauses, resets: list[int]) -> Workers:
    return Workers(
        client=client,  # type: ignore[arg-type]
        label="test",
        channel_id=1,
        settled=lambda: True,
        failed=lambda: resets.append(1),
        sleep=pauses,
    )


async def test_presenting_a_failing_worker_pauses_then_runs_again() -> None:
    pauses, resets = _Pauses(), list[int]()
    supervisor = workers(_Client(), pauses, resets)
    calls = 0

    async def worker() -> Any:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise RuntimeError("Discord said no")

    await supervisor.run(worker, "posts")
    assert calls == 3
    assert pauses.seconds == [WORKER_RESTART_SECONDS, WORKER_RESTART_SECONDS]
    assert len(resets) == 2


async def test_presenting_no_restart_once_the_client_is_closed() -> None:
    client, pauses = _Client(), _Pauses()
    supervisor = workers(client, pauses, [])
    calls = 0

    async def worker() -> Any:
        nonlocal calls
        calls += 1
        client.closed = True
        raise RuntimeError("connection gone")

    await supervisor.run(worker, "table")
    assert calls == 1
    assert pauses.seconds == []


async def test_presenting_workers_never_start_again_after_close() -> None:
    supervisor = workers(_Client(), _Pauses(), [])
    await supervisor.aclose()

    async def worker() -> None:
        raise AssertionError("must not run")

    supervisor.start(table=worker)
    assert not supervisor.running
