"""What the statistics cost: the counts a hand adds at settlement, and the /stats picture.

1. Settlement with and without the statistics, in the same run: random 6-seat hands settled
   through ``Storage.settle_hand`` on one SQLite file (synchronous=NORMAL, the default), every
   other hand with its ``counts``, the medians compared; plus the game layer's cost of counting
   a hand (``hand_stats`` + ``counts_by_seat``). Goal: under 1 ms per hand added.
2. The /stats picture (a year of daily bankroll and the ten tendencies), best of the repeats,
   against Pillow encoding a blank RGB image of the same size to PNG (as ``bench/render.py``).
   Goal: under 100 ms.

It also prints how fast a recount from the stored PHH goes (what `felt db check` and
`felt db stats check|rebuild` do for every hand).

    .venv/bin/python bench/stats.py [--hands 300] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

sys.path.append(str(Path(__file__).resolve().parents[1]))

from bot.cli.db_stats import count_hand
from bot.render.stats_chart import (
    BankrollPoint,
    StatsPicture,
    Tendency,
    render_stats_picture,
    stats_image_size,
)
from engine.bots.strategy import RandomStrategy
from engine.bots.view import SeatView
from engine.holdem import Hand, Stakes, phh
from engine.holdem.stats import counts_by_seat, hand_stats
from storage import Storage

SEATS = 6
GUILD = 1
STACK = 2_000


def play(rng: random.Random, stacks: list[int]) -> Hand:
    hand = Hand(Stakes.standard(len(stacks), 5, 10), stacks, rng=rng)
    while (turn := hand.turn) is not None:
        hand.act(turn.player, RandomStrategy().decide(SeatView.from_hand(hand, turn.player), rng))
    return hand


@dataclass(frozen=True, slots=True)
class Settled:
    """Seconds each ``settle_hand`` took (wall clock and this process's CPU) without and with
    statistics, and the seconds a recount of every hand from its stored PHH took."""

    wall_without: list[float]
    wall_with: list[float]
    cpu_without: list[float]
    cpu_with: list[float]
    recount: float


async def settle_run(path: Path, hands: int) -> Settled:
    """The two kinds alternate hand by hand in one database, so the machine's noise falls on
    both alike; CPU time (every thread of this process) is what the other helpers' load
    disturbs least."""
    rng = random.Random(7)
    times: dict[bool, list[float]] = {False: [], True: []}
    cpu: dict[bool, list[float]] = {False: [], True: []}
    async with await Storage.open(path) as storage:
        table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
        for seat in range(SEATS):
            await storage.admin_grant(GUILD, 100 + seat, 10**9, actor_id=0, key=f"g{seat}")
            await storage.buy_in(table, seat, 100 + seat, STACK, key=f"in{seat}")
        stacks = dict.fromkeys(range(SEATS), STACK)
        for number in range(1, 2 * hands + 1):
            for seat, stack in stacks.items():
                if stack < 100:
                    await storage.rebuy(table, seat, STACK, key=f"re{number}:{seat}")
                    stacks[seat] += STACK
            seats = list(range(SEATS))
            await storage.start_hand(table, number, stacks, key=f"s{number}")
            hand = play(rng, [stacks[s] for s in seats])
            text = phh.dumps(phh.from_hand(hand, seats=seats))
            with_counts = number % 2 == 0
            counts = counts_by_seat(hand_stats(hand), seats) if with_counts else None
            final = {seat: hand.stacks[p] for p, seat in enumerate(seats)}
            start, start_cpu = time.perf_counter(), time.process_time()
            await storage.settle_hand(
                table, number, final, phh=text, counts=counts, key=f"e{number}"
            )
            times[with_counts].append(time.perf_counter() - start)
            cpu[with_counts].append(time.process_time() - start_cpu)
            stacks = final
        start = time.perf_counter()
        await storage.recount_stats(count_hand)
        recount = time.perf_counter() - start
    return Settled(times[False], times[True], cpu[False], cpu[True], recount)


def counting_ms(hands: int, repeats: int) -> float:
    """Milliseconds per hand the game layer spends counting a finished hand."""
    rng = random.Random(7)
    finished = [play(rng, [STACK] * SEATS) for _ in range(hands)]
    seats = list(range(SEATS))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in finished:
            counts_by_seat(hand_stats(hand), seats)
        best = min(best, time.perf_counter() - start)
    return 1000 * best / hands


def year_picture() -> StatsPicture:
    rng = random.Random(3)
    total, points = 0, []
    for day in range(365):
        total += rng.randint(-900, 1_000)
        points.append(BankrollPoint(f"day {day + 1}", total))
    labels = ("VPIP", "PFR", "3-bet", "F 3-bet", "C-bet", "F c-bet", "AFq", "WTSD", "W$SD", "WWSD")
    tendencies = tuple(Tendency(label, rng.uniform(0, 80), rng.uniform(0, 80)) for label in labels)
    return StatsPicture("Alice · Hold'em + Blackjack · all time", tuple(points), tendencies)


def best_ms(run: object, repeats: int) -> float:
    assert callable(run)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return 1000 * best


def blank_png(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size).save(buffer, format="PNG")
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        run = asyncio.run(settle_run(Path(folder) / "b.db", args.hands))
    count_ms = counting_ms(args.hands, args.repeats)
    print(f"settlement, {SEATS} seats, SQLite, {args.hands} hands of each kind, alternated:")
    print(f"  counting a finished hand (game layer): {count_ms:.3f} ms (best of {args.repeats})")
    for kind, without, with_stats in (
        ("wall clock", run.wall_without, run.wall_with),
        ("process CPU", run.cpu_without, run.cpu_with),
    ):
        without_ms = 1000 * statistics.median(without)
        with_ms = 1000 * statistics.median(with_stats)
        added = with_ms - without_ms + count_ms
        print(
            f"  {kind}: settle_hand median {without_ms:.3f} ms without statistics (the "
            f"reference), {with_ms:.3f} ms with; added per hand with counting {added:.3f} ms "
            f"(goal < 1 ms); ratio {with_ms / without_ms:.2f}"
        )
    print(
        f"  recount from the stored PHH (felt db stats check/rebuild, felt db check): "
        f"{2 * args.hands / run.recount:,.0f} hands/s"
    )

    picture = year_picture()
    size = stats_image_size(picture)
    cold = best_ms(lambda: render_stats_picture(picture), 1)
    render = best_ms(lambda: render_stats_picture(picture), max(10, args.repeats * 5))
    reference = best_ms(lambda: blank_png(size), max(10, args.repeats * 5))
    print(f"/stats picture {size[0]}x{size[1]}, 365 days and 10 tendencies:")
    print(
        f"  first render (cold fonts): {cold:.1f} ms; best render: {render:.1f} ms (goal < 100 ms)"
    )
    print(
        f"  Pillow PNG-encoding a blank image of that size: {reference:.1f} ms; "
        f"ratio {render / reference:.1f}"
    )


if __name__ == "__main__":
    main()
