"""`felt run` as a real process against the fake Discord: start, answer, stop on SIGTERM."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from bot.discord.holdem.formatting import IMAGE_NAME
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World
from tests.e2e.support.felt_process import running, start_felt_run, write_run_config


def write_config(path: Path, fake: FakeDiscord, database: Path, *, log_format: str) -> Path:
    return write_run_config(
        path,
        api_base_url=fake.api_base_url,
        gateway_url=fake.gateway_url,
        database=database,
        discord="shutdown_grace_seconds = 5\n",
        sections=f'[logging]\nformat = "{log_format}"\n',
    )


async def test_felt_run_serves_commands_and_stops_cleanly_on_sigterm(
    fake_discord: FakeDiscord, world: World, tmp_path: Path
) -> None:
    config = write_config(
        tmp_path / "config.toml", fake_discord, tmp_path / "felt.db", log_format="json"
    )

    for run in range(2):
        process = await start_felt_run(config, fake_discord.token)
        try:
            await fake_discord.wait_for_bot(within=30)
            interaction = await fake_discord.slash(world.alice, world.channel, "ping")
            await interaction.wait_answered(within=30)
            assert interaction.reply.content.startswith("Pong")
        finally:
            process.send_signal(signal.SIGTERM)
            _stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
        log = stderr.decode()
        assert process.returncode == 0, log
        assert '"message": "shutdown complete"' in log
        assert '"reason": "SIGTERM"' in log
        if run == 0:
            assert '"message": "commands synced"' in log
        # the old session must not count as connected for the next run
        fake_discord.gateway.current.clear()

    # The second run found the same commands and did not push them again.
    assert fake_discord.command_syncs == [None]


async def test_felt_run_with_a_refused_token_says_so_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    config = write_config(
        tmp_path / "config.toml", fake_discord, tmp_path / "felt.db", log_format="text"
    )

    process = await start_felt_run(config, "not-the-token")
    _stdout, stderr = await asyncio.wait_for(process.communicate(), 30)

    assert process.returncode == 1
    last_line = stderr.decode().strip().splitlines()[-1]
    assert last_line == (
        "felt run: Discord refused the token (401 Unauthorized): "
        "check DISCORD_TOKEN or [discord] token"
    )


async def test_felt_run_draws_the_table_picture_in_a_painter_process_and_stops_cleanly(
    fake_discord: FakeDiscord, world: World, tmp_path: Path
) -> None:
    config = write_config(
        tmp_path / "config.toml", fake_discord, tmp_path / "felt.db", log_format="json"
    )
    process = await start_felt_run(config, fake_discord.token)
    try:
        await fake_discord.wait_for_bot(within=30)
        opened = await fake_discord.slash(world.alice, world.channel, "holdem start", bots=1)
        await opened.wait_answered(within=30)

        def pictured() -> bool:
            return any(
                IMAGE_NAME in message.filenames
                for message in fake_discord.channel_messages(world.channel)
            )

        await fake_discord.wait_until(pictured, within=60, what="the table message's picture")
        # multiprocessing's fork server is felt run's child; the painters are its children.
        servers = [
            pid for pid in descendants_of(process.pid, depth=1) if "forkserver" in command_of(pid)
        ]
        workers = [pid for server in servers for pid in descendants_of(server)]
        assert servers and workers, "felt run draws in worker processes"
    finally:
        process.send_signal(signal.SIGTERM)
        _stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    log = stderr.decode()
    assert process.returncode == 0, log
    assert "Traceback" not in log and '"message": "shutdown complete"' in log
    # The painters were joined before felt run exited (the fork server ends when it sees its
    # parent gone).
    assert not alive(workers), "painter processes outlive felt run"


def descendants_of(pid: int, depth: int = 10) -> list[int]:
    """The live processes ``pid`` started, and theirs, ``depth`` generations (Linux's /proc)."""
    parents: dict[int, int] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            lines = status.read_text().splitlines()
        except OSError:
            continue
        parent = next((line.split()[1] for line in lines if line.startswith("PPid:")), "0")
        parents[int(status.parent.name)] = int(parent)
    found: list[int] = []
    generation = [pid]
    for _ in range(depth):
        generation = [child for child, parent in parents.items() if parent in generation]
        found += generation
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def alive(pids: list[int]) -> bool:
    return any(running(pid) for pid in pids)
