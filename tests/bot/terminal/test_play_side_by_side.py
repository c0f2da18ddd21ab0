"""Two `felt play` processes on one database (issue 15): while a Hold'em hand waits for the
player, `felt play --daily` and a second game in another terminal never void it; a killed game's
chips are put back by the next game, not by the wallet alone."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.terminal.wallet import PRACTICE_GUILD_ID
from storage import HandStatus, Storage
from tests.bot.terminal.support import PROMPT, ROOT, Play, read_wallet

TURN = r"Your turn\. [^\r\n]*" + PROMPT


def hands_in_progress(database: Path) -> list[tuple[int, int]]:
    """(table id, hand id) of every local hand in progress."""

    async def read() -> list[tuple[int, int]]:
        async with await Storage.open(database) as storage:
            tables = await storage.list_tables(
                PRACTICE_GUILD_ID
            )  # seeded games: the practice wallet
            return [
                (t.table_id, t.hand_in_progress) for t in tables if t.hand_in_progress is not None
            ]

    return asyncio.run(read())


def wallet_only(database: Path, *arguments: str) -> str:
    """`felt play --daily` (no game), its output."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *arguments, "--db", str(database)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    return done.stdout


def hand_status(database: Path, table_id: int, hand_id: int) -> HandStatus:
    async def read() -> HandStatus:
        async with await Storage.open(database) as storage:
            hand = await storage.get_hand(table_id, hand_id)
            assert hand is not None
            return hand.status

    return asyncio.run(read())


def test_a_second_terminal_never_voids_the_game_of_the_first(play: Play, database: Path) -> None:
    first = play("holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5")
    first.expect(TURN)
    live = hands_in_progress(database)
    assert [hand for _table, hand in live] == [1]

    daily = wallet_only(database, "--daily")
    second = play("blackjack", "--auto", "--seed", "3")
    assert second.finish() == 0

    assert "Daily bonus" in daily
    assert "Put back" not in daily + second.text
    assert hands_in_progress(database) == live
    first.send("c")
    first.expect(TURN, r"Your result: ")
    first.send("q")
    assert first.finish() == 0
    assert "Traceback" not in first.text
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.at_tables == 0 and wallet.open_tables == 0


def test_a_killed_game_is_put_back_by_the_next_game_at_once(play: Play, database: Path) -> None:
    killed = play("holdem", "--seats", "2", "--bots", "passive", "--seed", "5")
    killed.expect(TURN)
    ((table_id, hand_id),) = hands_in_progress(database)
    killed.child.kill(9)
    killed.child.wait()

    again = play("blackjack", "--auto", "--seed", "3")
    assert again.finish() == 0

    assert "Put back chips from 1 game(s) an earlier session left open." in again.text
    assert hand_status(database, table_id, hand_id) is HandStatus.VOIDED
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.at_tables == 0 and wallet.open_tables == 0
