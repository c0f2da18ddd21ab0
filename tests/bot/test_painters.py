"""Table pictures drawn in painter processes (``bot/discord/painters``): the same bytes as in a
thread, and a pool whose worker died draws again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from bot.discord.painters import NICENESS, PainterPool, Painters, open_painters
from bot.render import render_holdem_table
from bot.render.samples import six_max_mid_hand
from tests.e2e.support.felt_process import running


@pytest.fixture
def pool() -> Iterator[PainterPool]:
    painters = PainterPool(1)
    yield painters
    painters.shutdown(wait=True, cancel_futures=True)


def test_painters_draw_a_table_picture_byte_for_byte_as_a_thread_does(pool: PainterPool) -> None:
    view = six_max_mid_hand()
    assert pool.submit(render_holdem_table, view).result(timeout=60) == render_holdem_table(view)


def test_painters_draw_at_a_lower_cpu_priority_than_the_bot(pool: PainterPool) -> None:
    bot = os.nice(0)
    assert pool.submit(os.nice, 0).result(timeout=60) == min(19, bot + NICENESS)
    assert os.nice(0) == bot  # the bot itself keeps its priority


def test_painters_start_a_new_pool_when_a_worker_was_killed(pool: PainterPool) -> None:
    view = six_max_mid_hand()
    expected = render_holdem_table(view)
    assert pool.submit(render_holdem_table, view).result(timeout=60) == expected
    (worker,) = pool.pids()
    os.kill(worker, signal.SIGKILL)
    # The pool notices the death on its own thread; the next picture comes from a new pool.
    drawn = None
    for _ in range(3):
        try:
            drawn = pool.submit(render_holdem_table, view).result(timeout=60)
            break
        except Exception:  # the picture that was in flight when the worker died
            continue
    assert drawn == expected and pool.restarts == 1 and worker not in pool.pids()


def test_painters_are_threads_unless_processes_are_asked_for() -> None:
    threads = open_painters(Painters.THREADS, "felt-test-render")
    processes = open_painters(Painters.PROCESSES, "felt-test-render")
    try:
        assert not isinstance(threads, PainterPool) and isinstance(processes, PainterPool)
    finally:
        threads.shutdown()
        processes.shutdown()


KILLED_BOT = """
import os, signal
from bot.discord.painters import PainterPool
from bot.render import render_holdem_table
from bot.render.samples import six_max_mid_hand
from tests.e2e.support.felt_process import running
pool = PainterPool(1)
pool.submit(render_holdem_table, six_max_mid_hand()).result(timeout=60)
print(*pool.pids(), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_painters_end_when_their_bot_is_killed_outright() -> None:
    # The painters inherit the bot's output pipes: ``run`` returns once every holder is gone.
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=60, check=False
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    (worker,) = (int(pid) for pid in killed.stdout.split())
    assert not running(worker)
