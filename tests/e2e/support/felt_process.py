"""The real `felt run` as a child process: its config file pointed at a fake Discord, and the
process started with the token in its environment, for the e2e tests that run it whole."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[3]


def write_run_config(
    path: Path,
    *,
    api_base_url: str,
    gateway_url: str,
    database: str | Path,
    discord: str = "",
    sections: str = "",
) -> Path:
    """A `felt run` config at ``path``: Discord at ``api_base_url``/``gateway_url``, the database a
    SQLite file (a Path) or a PostgreSQL URL (a str, with its SQLite path beside ``path``), more
    ``[discord]`` lines in ``discord`` and whole sections after it in ``sections``."""
    if isinstance(database, str):
        where = f'path = "{path.parent / "felt.db"}"\nurl = "{database}"\n'
    else:
        where = f'path = "{database}"\n'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "[discord]\n"
        f'api_base_url = "{api_base_url}"\n'
        f'gateway_url = "{gateway_url}"\n'
        f"{discord}"
        f"[database]\n{where}"
        f"{sections}",
        encoding="utf-8",
    )
    return path


async def start_felt_run(
    config: Path, token: str, *arguments: str, quiet_stdout: bool = False
) -> asyncio.subprocess.Process:
    """`felt run --config CONFIG ARGUMENTS...` with ``DISCORD_TOKEN`` set; stdout and stderr piped
    (stdout thrown away with ``quiet_stdout``, for processes whose output nobody reads)."""
    return await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot.cli", "run", "--config", str(config), *arguments),
        env={**os.environ, "DISCORD_TOKEN": token, "PYTHONPATH": str(REPOSITORY)},
        stdout=asyncio.subprocess.DEVNULL if quiet_stdout else asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (an exited child nobody reaped yet is a
    zombie: it runs no more)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status
