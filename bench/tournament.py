"""Tournaments of bots, played to the end: a 9-player turbo Sit & Go of smart bots, and a
1,000-entry multi-table tournament (100+ tables, balancing, breaking, final table).

1. ``--sngs`` turbo Sit & Gos of nine ``smart`` bots: the time of each (goal: under 2 s).
2. One multi-table tournament of ``--entries`` bots (strategies cycled from ``--mix``, 9-max,
   the ``turbo`` multi-table preset): time, hands, hands/s, and the table moves it took.

References measured in the same run: the plain 6-max hand loop of bench/holdem_engine.py (the
engine alone, random actions, no bots), and the same bot mix playing 9-max cash hands through
``engine.bots.simulate`` (the bots' own cost, no tournament). The tournament's hands/s is given
as a ratio of each; the CPU time spent inside the tournament model's calls (``start_hand``,
``finish_hand``, the clock) is measured separately and compared with the plain loop's time per
hand, since the bots' decisions dominate the rest.

    .venv/bin/python bench/tournament.py [--entries 1000] [--sngs 5] [--mix LIST] [--seed 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.bots.registry import make_strategy, parse_seats
from engine.bots.simulate import simulate_holdem
from engine.holdem import Hand
from engine.tournament import (
    Format,
    PlayerSeated,
    SeatReason,
    TournamentConfig,
    TournamentEvent,
    preset,
)
from engine.tournament.simulate import SIM_BUY_IN, play_tournament, simulate_tournaments
from engine.tournament.tournament import Tournament

DEFAULT_MIX = "smart,aggressive,passive,random"
SNG_GOAL_SECONDS = 2.0
MTT_GOAL_SECONDS = 60.0


def _holdem_bench() -> ModuleType:
    path = Path(__file__).with_name("holdem_engine.py")
    spec = importlib.util.spec_from_file_location("holdem_engine_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_sngs(count: int, seed: int) -> list[float]:
    """Seconds for each of ``count`` 9-player turbo Sit & Gos of smart bots."""
    specs = parse_seats(",".join(["smart"] * 9))
    times = []
    for number in range(count):
        start = time.perf_counter()
        simulate_tournaments(specs, 1, preset("turbo"), seed + number)
        times.append(time.perf_counter() - start)
    return times


class _Watcher:
    """Counts hands, table moves by reason, and the most tables in play."""

    def __init__(self) -> None:
        self.most_tables = 0
        self.final_table_at = 0
        self.hands = 0
        self.moves = {reason: 0 for reason in SeatReason}

    def __call__(self, tournament: Tournament, hand: Hand, events: list[TournamentEvent]) -> None:
        self.hands += 1
        tables = len(tournament.seating.tables)
        self.most_tables = max(self.most_tables, tables)
        if tables == 1 and not self.final_table_at:
            self.final_table_at = self.hands
        for event in events:
            if isinstance(event, PlayerSeated):
                self.moves[event.move.reason] += 1


class _ModelClock:
    """CPU seconds spent inside the tournament model's per-hand calls, by wrapping them for
    the benchmark's run (the engine itself carries no timing code)."""

    CALLS = ("start_hand", "finish_hand", "advance_clock", "can_start_hand")

    def __init__(self) -> None:
        self.seconds = 0.0
        self._saved: dict[str, Callable[..., Any]] = {}

    def __enter__(self) -> _ModelClock:
        for name in self.CALLS:
            original = getattr(Tournament, name)
            self._saved[name] = original
            setattr(Tournament, name, self._timed(original))
        return self

    def __exit__(self, *_: object) -> None:
        for name, original in self._saved.items():
            setattr(Tournament, name, original)

    def _timed(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - start

        return timed


def bench_mtt(entries: int, mix: list[str], seed: int) -> tuple[float, float, int, _Watcher, float]:
    """One multi-table tournament: wall and CPU seconds, hands, what the watcher saw, and the
    CPU seconds spent in the tournament model."""
    config = TournamentConfig(
        "bench", preset("turbo", Format.MULTI_TABLE), SIM_BUY_IN, Format.MULTI_TABLE, 9,
        entries, seed=seed,
    )  # fmt: skip
    strategies = {f"bot{n}": make_strategy(mix[n % len(mix)]) for n in range(entries)}
    watcher = _Watcher()
    start, cpu = time.perf_counter(), time.process_time()
    with _ModelClock() as model:
        played = play_tournament(config, strategies, f"bench:{seed}", on_hand=watcher)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return elapsed, cpu, played.hands, watcher, model.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000)
    parser.add_argument("--sngs", type=int, default=5)
    parser.add_argument("--mix", default=DEFAULT_MIX)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    mix = args.mix.split(",")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    bench_sngs(1, 10_000)  # warm up: preflop tables, evaluator caches
    times = bench_sngs(args.sngs, args.seed)
    print(
        f"9-player turbo Sit & Go, smart bots: mean {statistics.mean(times):.2f} s, "
        f"max {max(times):.2f} s over {len(times)} (goal < 2 s)"
    )

    elapsed, cpu, hands, watcher, model = bench_mtt(args.entries, mix, args.seed)
    rate = hands / elapsed
    moves = ", ".join(
        f"{reason.value} {count:,}" for reason, count in watcher.moves.items() if count
    )
    print(
        f"{args.entries:,}-entry MTT ({','.join(mix)}): {elapsed:.1f} s ({cpu:.1f} s CPU), "
        f"{hands:,} hands, {rate:,.0f} hands/s ({hands / cpu:,.0f} per CPU second), up to "
        f"{watcher.most_tables} tables, final table from hand {watcher.final_table_at:,}; "
        f"moves: {moves} (goal: to the end in < 60 s)"
    )
    print(
        f"  of which the tournament model: {model:.2f} s CPU ({100 * model / cpu:.1f}%, "
        f"{1000 * model / hands:.2f} ms a hand); the rest is the hands and the bots"
    )

    engine_bench = _holdem_bench()
    start = time.perf_counter()
    engine_bench.play_ours(5_000, random.Random(args.seed))
    plain = 5_000 / (time.perf_counter() - start)
    print(f"reference: plain 6-max hand loop (bench/holdem_engine.py): {plain:,.0f} hands/s")
    cash_hands = 2_000
    specs = parse_seats(",".join(mix[n % len(mix)] for n in range(9)))
    start = time.perf_counter()
    simulate_holdem(specs, cash_hands, args.seed, small_blind=10, big_blind=20, stack=1_500)
    cash = cash_hands / (time.perf_counter() - start)
    print(f"reference: the same bots, 9-max cash hands (engine.bots.simulate): {cash:,.0f} hands/s")
    print(f"ratio: MTT / plain loop {rate / plain:.3f}x; MTT / bots' cash hands {rate / cash:.2f}x")
    print(f"model overhead per hand / plain loop's time per hand: {model / hands * plain:.2f}x")
    sng_verdict = "meets" if max(times) < SNG_GOAL_SECONDS else "BELOW"
    mtt_verdict = "meets" if elapsed < MTT_GOAL_SECONDS else "BELOW"
    print(
        f"goals: every Sit & Go under {SNG_GOAL_SECONDS:.0f} s wall: {sng_verdict}; "
        f"the {args.entries:,}-entry MTT under {MTT_GOAL_SECONDS:.0f} s wall: {mtt_verdict}"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
