"""How long bot decisions take: smart at a 9-handed table per street, and a 6-max session.

1. Nine ``smart`` bots (each with its own personality, as at a table) play hands; every
   decision is timed and reported per street as p50, p95 and max (goal: p95 <= 30 ms at every
   difficulty), with the decision counts. Each decision is timed twice: on the wall clock (what
   a table waits) and as the CPU time of the thread that decided (``time.thread_time``), which
   other processes on a loaded machine do not inflate; the goal is judged on both.
2. Ten thousand 6-max hands with five ``smart`` bots and one ``random`` seat (the stand-in for a
   human), stacks reset every hand, as ``felt sim holdem`` plays them.

Reference measured in the same run: phevaluator's 7-card evaluations per second through its C
core, and a ``random`` bot's decision time; the worst p95 is also given as multiples of them
(how many C evaluations, and how many random decisions, one such decision is worth), which move
less with the machine's load than milliseconds do. The load average is printed too.

    .venv/bin/python bench/bot_decisions.py [--hands 300] [--session-hands 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import defaultdict

from phevaluator import _pheval

from engine.bots.personality import Personality
from engine.bots.registry import make_strategy, parse_seats
from engine.bots.simulate import seating, session_rng, simulate_holdem
from engine.bots.smart import Difficulty, SmartStrategy
from engine.bots.stats import TableStats
from engine.bots.strategy import RandomStrategy, Strategy
from engine.bots.view import SeatView
from engine.holdem import Hand, Stakes, Street

GOAL_P95_MS = 30.0


def evaluator_rate(rng: random.Random, count: int = 200_000) -> float:
    """7-card evaluations per second through the C core."""
    hands = [tuple(rng.sample(range(52), 7)) for _ in range(count)]
    evaluate = _pheval.evaluate_7cards
    started = time.perf_counter()
    for hand in hands:
        evaluate(*hand)
    return count / (time.perf_counter() - started)


def time_table(
    strategies: list[Strategy], hands: int, seed: int
) -> tuple[dict[Street, list[float]], dict[Street, list[float]], float]:
    """Play ``hands`` hands; the decision times (ms) of every seat by street, on the wall clock
    and in thread CPU time, and the mean decision time (ms) of a random bot on the same views."""
    players = len(strategies)
    stakes = Stakes.standard(players, 1, 2)
    book = TableStats()
    rngs = [session_rng(seed, f"seat:{seat}") for seat in range(players)]
    times: dict[Street, list[float]] = defaultdict(list)
    cpu: dict[Street, list[float]] = defaultdict(list)
    reference: list[float] = []
    baseline = RandomStrategy()
    spare = random.Random(seed)
    for number in range(hands):
        order = seating(number, players)
        hand = Hand(stakes, [200] * players, rng=session_rng(seed, f"deck:{number}"))
        stats = book.snapshot(order)
        while not hand.is_complete:
            legal = hand.turn
            assert legal is not None
            player = legal.player
            seat = order[player]
            view = SeatView.from_hand(hand, player, stats=stats)
            started, started_cpu = time.perf_counter(), time.thread_time()
            action = strategies[seat].decide(view, rngs[seat])
            times[view.street].append(1000 * (time.perf_counter() - started))
            cpu[view.street].append(1000 * (time.thread_time() - started_cpu))
            started = time.perf_counter()
            baseline.decide(view, spare)
            reference.append(1000 * (time.perf_counter() - started))
            hand.act(player, action)
        book.record(hand.events, order)
    return times, cpu, statistics.fmean(reference)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="9-handed hands per difficulty")
    parser.add_argument("--session-hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    load = os.getloadavg()
    print(f"CPUs: {os.cpu_count()}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    rate = evaluator_rate(random.Random(args.seed))
    print(f"reference: phevaluator C core {rate / 1e6:.2f} M evaluations/s in this run")

    worst = worst_cpu = 0.0
    worst_random_ms = 0.0
    for difficulty in Difficulty:
        strategies: list[Strategy] = [
            SmartStrategy(difficulty, personality=Personality.draw(difficulty, seat))
            for seat in range(9)
        ]
        times, cpu, random_ms = time_table(strategies, args.hands, args.seed)
        print(
            f"\nsmart:{difficulty.value} at a 9-handed table, {args.hands} hands "
            f"(a random bot decides in {random_ms * 1000:.0f} us)"
        )
        print(f"  {'street':<8}{'decisions':>10}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}"
              f"{'p95/goal':>10}{'CPU p95':>9}")  # fmt: skip
        for street in Street:
            values = times.get(street, [])
            if not values:
                continue
            p95 = percentile(values, 0.95)
            cpu_p95 = percentile(cpu[street], 0.95)
            worst_cpu = max(worst_cpu, cpu_p95)
            if p95 > worst:
                worst, worst_random_ms = p95, random_ms
            print(
                f"  {street.name.lower():<8}{len(values):>10,}{percentile(values, 0.5):>9.2f}"
                f"{p95:>9.2f}{max(values):>9.2f}{p95 / GOAL_P95_MS:>10.2f}{cpu_p95:>9.2f}"
            )
    print(f"\nworst p95: {worst:.2f} ms on the wall clock, {worst_cpu:.2f} ms of CPU "
          f"(goal {GOAL_P95_MS:.0f} ms): wall {'met' if worst <= GOAL_P95_MS else 'NOT met'}, "
          f"CPU {'met' if worst_cpu <= GOAL_P95_MS else 'NOT met'}")  # fmt: skip
    print(
        f"ratio to the in-run references: {worst / 1000 * rate:,.0f} C evaluations, "
        f"{worst / worst_random_ms:,.0f} random-bot decisions"
    )

    seats = parse_seats("smart,smart,smart,smart,smart,random")
    assert all(make_strategy(spec).name == spec.strategy for spec in seats)
    started = time.perf_counter()
    simulate_holdem(seats, args.session_hands, args.seed)
    elapsed = time.perf_counter() - started
    print(
        f"\n{args.session_hands:,} 6-max hands, five smart bots and a random one: "
        f"{elapsed:.1f} s ({args.session_hands / elapsed:,.0f} hands/s, "
        f"{1000 * elapsed / args.session_hands:.2f} ms a hand)"
    )


if __name__ == "__main__":
    main()
