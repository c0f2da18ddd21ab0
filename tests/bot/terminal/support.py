"""What `felt play` tests share besides fixtures: a game in a real pseudo-terminal (pexpect), and
the wallet read back from the database after it."""

from __future__ import annotations

import asyncio
import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pexpect

from bot.terminal.wallet import LOCAL_GUILD_ID, LOCAL_USER_ID, PRACTICE_GUILD_ID
from storage import Storage

ROOT = Path(__file__).resolve().parents[3]
START = 1000
"""The starting grant of a fresh wallet (the config's default)."""
TIMEOUT = 15
PROMPT = "\r\n> "


class Game:
    """One `felt play ...` process in a pseudo-terminal, its whole output kept."""

    def __init__(self, folder: Path, database: Path, *arguments: str) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "TERM": "dumb",  # plain text: no colour codes between the words we expect
            "COLUMNS": "140",
            "LINES": "60",
        }
        env.pop("DISCORD_TOKEN", None)
        self.output = io.StringIO()
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "bot.cli", "play", *arguments, "--fast", "--db", str(database)],
            cwd=str(folder),
            env=env,
            encoding="utf-8",
            timeout=TIMEOUT,
            dimensions=(60, 140),
        )
        self.child.logfile_read = self.output

    def expect(self, *patterns: str) -> int:
        """Wait for the first of ``patterns`` (regular expressions); its index."""
        return int(self.child.expect(list(patterns)))

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def interrupt(self) -> None:
        """Ctrl-C, as the terminal sends it."""
        self.child.sendintr()

    def finish(self) -> int:
        """Wait for the process to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        status = self.child.exitstatus
        assert status is not None, f"killed by signal {self.child.signalstatus}"
        return int(status)

    @property
    def text(self) -> str:
        """Everything printed so far, with the terminal's CRLF turned into LF."""
        return self.output.getvalue().replace("\r\n", "\n")


@dataclass(frozen=True, slots=True)
class Wallet:
    balance: int
    at_tables: int
    in_play: int
    ledger_ok: bool
    open_tables: int


def read_wallet(database: Path, *, practice: bool = True) -> Wallet:
    """The terminal player's chips, and whether every chip is accounted for.

    The games here run with ``--seed`` (the cards are known), so they play from the practice
    wallet; ``practice=False`` reads the real one.
    """
    guild_id = PRACTICE_GUILD_ID if practice else LOCAL_GUILD_ID

    async def read() -> Wallet:
        storage = await Storage.open(database)
        try:
            account = await storage.get_account(guild_id, LOCAL_USER_ID)
            assert account is not None
            report = await storage.check()
            tables = await storage.list_tables(guild_id)
            return Wallet(
                account.balance, account.at_tables, account.in_play, report.ok, len(tables)
            )
        finally:
            await storage.close()

    return asyncio.run(read())


Play = Callable[..., Game]
