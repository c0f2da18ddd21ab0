"""The presenters' shared worker supervisor: failures are logged, paused on, and retried."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord import presenting
from bot.discord.presenting import WORKER_RESTART_SECONDS, WorkerPresenter


class _Client:
    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed


class _Presenter(WorkerPresenter):
    label = "test"

    def __init__(self) -> None:
        super().__init__()
        self.client = _Client()  # type: ignore[assignment]
        self.channel_id = 1
        self.resets = 0

    @property
    def settled(self) -> bool:
        return True

    def _worker_failed(self) -> None:
        self.resets += 1


async def test_presenting_a_failing_worker_pauses_then_runs_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(presenting.asyncio, "sleep", pause)
    presenter = _Presenter()
    calls = 0

    async def worker() -> Any:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise RuntimeError("Discord said no")

    await presenter._run(worker, "posts")
    assert calls == 3
    assert pauses == [WORKER_RESTART_SECONDS, WORKER_RESTART_SECONDS]
    assert presenter.resets == 2


async def test_presenting_no_restart_once_the_client_is_closed() -> None:
    presenter = _Presenter()
    calls = 0

    async def worker() -> Any:
        nonlocal calls
        calls += 1
        presenter.client.closed = True  # type: ignore[attr-defined]
        raise RuntimeError("connection gone")

    await presenter._run(worker, "table")
    assert calls == 1
