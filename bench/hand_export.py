"""Hands per second that `felt db export hands` writes, per format, against a PHH reference.

A SQLite database is filled with real settled 6-max hands (the simple bot strategies, antes on,
stored through ``Storage`` as a table host stores them). Each format is then exported the way
the command does it (batched reads from the database, then the conversion), into memory. The
reference, measured in the same run on the same hands, is PokerKit-compatible PHH through the
standard reader: ``phh.dumps(phh.loads(text))`` of every stored text. Goal: at least 5,000
hands/s for the export.

    .venv/bin/python bench/hand_export.py [--hands 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # for tests.bot.hand_seeding

from bot.cli.db_hands import _write
from bot.holdem.hand_files import HandFormat
from engine.holdem import phh
from storage.hand_export import HandQuery
from storage.store import Storage
from tests.bot.hand_seeding import seed_hands

GUILD, CHANNEL, MEMBER = 5, 9, 42


async def _seed(path: Path, hands: int) -> None:
    storage = await Storage.open(path)
    try:
        await seed_hands(
            storage,
            guild_id=GUILD,
            channel_id=CHANNEL,
            members=[MEMBER],
            hands=hands,
            seed=2024,
            ante=1,
        )
    finally:
        await storage.close()


async def _export_seconds(path: Path, kind: HandFormat, query: HandQuery) -> tuple[float, int]:
    storage = await Storage.open(path, create=False, migrate=False, pool_size=1, read_only=True)
    try:
        out = io.StringIO()
        start = time.perf_counter()
        count = await _write(storage, query, kind, out)
        return time.perf_counter() - start, count
    finally:
        await storage.close()


async def _texts(path: Path) -> list[str]:
    storage = await Storage.open(path, create=False, migrate=False, pool_size=1, read_only=True)
    try:
        texts: list[str] = []
        after = None
        while hands := await storage.settled_hands(HandQuery(), after=after, limit=2_000):
            texts.extend(hand.phh for hand in hands)
            after = hands[-1].position
        return texts
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.db"
        start = time.perf_counter()
        asyncio.run(_seed(path, args.hands))
        print(f"seeded {args.hands:,} settled 6-max hands in {time.perf_counter() - start:.1f} s")
        texts = asyncio.run(_texts(path))
        best_reference = min(_reference_seconds(texts) for _ in range(args.repeat))
        reference = len(texts) / best_reference
        print(f"reference  phh.dumps(phh.loads(text)): {reference:9,.0f} hands/s")
        for kind in HandFormat:
            for label, query in (
                ("host", HandQuery()),
                (f"--player {MEMBER}", HandQuery(user_id=MEMBER)),
            ):
                runs = [asyncio.run(_export_seconds(path, kind, query)) for _ in range(args.repeat)]
                seconds, count = min(runs)
                rate = count / seconds
                print(
                    f"export --format {kind.value:<10} {label:<12}: {rate:9,.0f} hands/s "
                    f"({count:,} hands; {rate / reference:.2f}x the reference)"
                )


def _reference_seconds(texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        phh.dumps(phh.loads(text))
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
