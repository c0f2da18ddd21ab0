"""A bot seat keeps its name and personality when the bot process is killed mid-hand (SIGKILL: no
shutdown hook runs, the hand in play is voided by recovery at the next start): the real `felt run`
restarted on the same database seats the same bots under the same names, with the personalities
stored with their seats (migration 0005), and plays on.

The graceful restart is tests/e2e/test_holdem_bot_personality_restart.py, which also checks, in
process, that a restored seat's strategy plays the stored personality.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.support.bot_world import World
from tests.e2e.support.felt_process import start_felt_run, write_run_config

BOTS = 3
GUARD_SECONDS = 60.0
"""How long any one wait may take before the test calls the bot stuck (a hang guard)."""

BotSeats = dict[int, tuple[str | None, str | None]]


async def poll(condition: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until the async ``condition()`` (a look at the database) holds."""
    deadline = time.monotonic() + GUARD_SECONDS
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def table_state(database: Path) -> tuple[int | None, BotSeats]:
    """The open table's hand in progress and its bot seats' (name, stored personality)."""
    async with await Storage.open(database, create=False, migrate=False, pool_size=1) as storage:
        (table,) = await storage.list_tables(open_only=True)
    seats = {s.seat_no: (s.bot_name, s.bot_personality) for s in table.seats if s.is_bot}
    return table.hand_in_progress, seats


def table_messages(fake: FakeDiscord, world: World) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(world.channel) if "holdem-table.png" in m.filenames]


async def test_holdem_bot_seats_keep_their_names_and_personalities_after_a_crash(
    fake_discord: FakeDiscord, world: World, tmp_path: Path
) -> None:
    fake, database = fake_discord, tmp_path / "felt.db"
    config = write_run_config(
        tmp_path / "config.toml",
        api_base_url=fake.api_base_url,
        gateway_url=fake.gateway_url,
        database=database,
        discord="shutdown_grace_seconds = 5\n",
        # Bots act at once; Alice's turn waits, so the kill lands in the middle of a hand.
        sections="[holdem]\nbot_delay_seconds = 0\nturn_seconds = 600\n",
    )
    process = await start_felt_run(config, fake.token, quiet_stdout=True)
    try:
        await fake.wait_for_bot(within=GUARD_SECONDS)
        opened = await fake.slash(world.alice, world.channel, "holdem start", seats=4, bots=BOTS)
        await opened.wait_answered(within=GUARD_SECONDS)
        await poll(lambda: has_hand(database), "the first hand")
        hand_before, before = await table_state(database)
        assert hand_before is not None and len(before) == BOTS
        assert all(name and personality for name, personality in before.values()), before
        # Three bots of one level are not three copies.
        assert len({personality for _, personality in before.values()}) == BOTS

        process.send_signal(signal.SIGKILL)
        await process.wait()
        fake.gateway.current.clear()  # the killed session must not count as connected
        shown_before = len(table_messages(fake, world))

        process = await start_felt_run(config, fake.token, quiet_stdout=True)
        await fake.wait_for_bot(within=GUARD_SECONDS)
        await fake.wait_for_message(
            world.channel, lambda m: "Felt restarted" in m.text, within=GUARD_SECONDS
        )
        await poll(lambda: has_hand(database, after=hand_before), "a hand after the restart")
        _, after = await table_state(database)
        assert after == before
        await fake.wait_until(
            lambda: len(table_messages(fake, world)) > shown_before,
            within=GUARD_SECONDS,
            what="the table message after the restart",
        )
        shown = table_messages(fake, world)[-1].text
        for name, _ in before.values():
            assert f"🤖 {name}" in shown, shown
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(process.communicate(), GUARD_SECONDS)
    log = err.decode()
    assert process.returncode == 0, log[-3000:]
    assert "drawing a new one" not in log  # every stored personality was read back


async def has_hand(database: Path, *, after: int | None = None) -> bool:
    try:
        hand, _ = await table_state(database)
    except ValueError:  # no table open yet
        return False
    return hand is not None and (after is None or hand > after)
