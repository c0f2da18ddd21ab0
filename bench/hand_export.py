"""Hands per second that `felt db export hands` writes, per format, against a PHH reference.

A SQLite database is filled with real settled 6-max hands (``--bots``, by default the smart
bots Felt's tables seat, 100 big blinds deep, stored through ``Storage`` as a table host stores
them). Each format is then exported the way the command does it (batched reads from the
database, then the conversion) into memory. The reference, measured in the same run on the same
hands, is PHH through the standard reader: ``phh.dumps(phh.loads(text))`` of every stored text.
Rates are given in CPU time of this process (``time.process_time``) and in wall time: on a
shared machine the CPU figure is the stable one. Goal: at least 5,000 hands/s for the export.

    .venv/bin/python bench/hand_export.py [--hands 600] [--repeat 3] [--bots smart]
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


async def _seed(path: Path, hands: int, bots: str) -> None:
    storage = await Storage.open(path)
    try:
        await seed_hands(
            storage,
            guild_id=GUILD,
            channel_id=CHANNEL,
            members=[MEMBER],
            hands=hands,
            seed=2024,
            strategies=bots.split(","),
        )
    finally:
        await storage.close()


async def _export_seconds(
    path: Path, kind: HandFormat, query: HandQuery
) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and hands of one export."""
    storage = await Storage.open(path, create=False, migrate=False, pool_size=1, read_only=True)
    try:
        out = io.StringIO()
        cpu, wall = time.process_time(), time.perf_counter()
        count = await _write(storage, query, kind, out)
        return time.process_time() - cpu, time.perf_counter() - wall, count
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
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bots", default="smart", help="the seats' strategies, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.db"
        start = time.perf_counter()
        asyncio.run(_seed(path, args.hands, args.bots))
        texts = asyncio.run(_texts(path))
        lines = sum(text.count("\n  ") for text in texts) / len(texts)
        print(
            f"seeded {len(texts):,} settled 6-max hands ({args.bots}; {lines:.1f} PHH actions a "
            f"hand) in {time.perf_counter() - start:.1f} s"
        )
        cpu, wall = min(_reference_seconds(texts) for _ in range(args.repeat))
        reference = len(texts) / cpu
        print(
            f"reference phh.dumps(phh.loads(text))  : {reference:8,.0f} hands/s CPU "
            f"({len(texts) / wall:,.0f} wall)"
        )
        for kind in HandFormat:
            for label, query in (("host", HandQuery()), ("--player", HandQuery(user_id=MEMBER))):
                runs = [asyncio.run(_export_seconds(path, kind, query)) for _ in range(args.repeat)]
                cpu, wall, count = min(runs)
                rate = count / cpu
                print(
                    f"export --format {kind.value:<10} {label:<8}: {rate:8,.0f} hands/s CPU "
                    f"({count / wall:,.0f} wall; {rate / reference:.2f}x the reference)"
                )


def _reference_seconds(texts: list[str]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for text in texts:
        phh.dumps(phh.loads(text))
    return time.process_time() - cpu, time.perf_counter() - wall


if __name__ == "__main__":
    main()
