"""`felt replay` against PokerKit's own replay of the same hand histories.

The hands are random 6-max hands played by the engine (the action mix of bench/holdem_engine.py)
and written as one ``.phhs`` file, as ``felt sim holdem --phh`` writes them. Felt's side is
``felt replay``'s own work on that file (reading it, parsing the TOML, replaying every hand,
writing each JSON line, without printing); PokerKit's is ``HandHistory.loads_all`` on the same
text and every state of every hand, to the finishing stacks, which must agree with ours. The
two alternate over ``--rounds`` rounds and are compared by their medians, in process CPU time
and on the wall clock. Goal: Felt >= 20x PokerKit. ``--profile`` prints where Felt's time goes.

    .venv/bin/python bench/replay.py [--hands 1000] [--pokerkit-hands 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pokerkit import HandHistory

from bot.cli.replay import _replayed
from engine.holdem import Call, Check, Fold, Hand, RaiseTo, Stakes, phh

GOAL = 20


def random_hands(count: int, seed: int) -> list[Hand]:
    """Hands of random legal play at a 6-max table (bench/holdem_engine.py's action mix)."""
    rng = random.Random(seed)
    stakes = Stakes.standard(6, 1, 2)
    hands = []
    for _ in range(count):
        hand = Hand(stakes, [200] * 6, rng=rng)
        while (legal := hand.turn) is not None:
            roll = rng.random()
            if roll < 0.15 and legal.can_fold:
                action: Fold | Check | Call | RaiseTo = Fold()
            elif roll < 0.30 and legal.min_raise_to is not None and legal.max_raise_to is not None:
                action = RaiseTo(rng.randint(legal.min_raise_to, legal.max_raise_to))
            else:
                action = Check() if legal.can_check else Call()
            hand.act(legal.player, action)
        hands.append(hand)
    return hands


def felt_replay(path: str) -> list[list[int]]:
    """``felt replay PATH``'s work: every hand's finishing stacks, from its JSON line."""
    stacks = []
    for line in _replayed(path):
        if not isinstance(line, str):
            raise SystemExit(f"felt replay refused a hand: {line}")
        stacks.append(json.loads(line)["finishing_stacks"])
    return stacks


def pokerkit_replay(path: str, limit: int) -> list[list[int]]:
    """PokerKit reading the same file and playing the first ``limit`` hands to the end."""
    stacks = []
    text = Path(path).read_text(encoding="utf-8")
    for history, _ in zip(HandHistory.loads_all(text), range(limit), strict=False):
        states = iter(history)
        state = next(states)
        for state in states:  # noqa: B007 - every state in turn; the last is the end
            pass
        stacks.append(list(state.stacks))
    return stacks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000, help="hands in the file")
    parser.add_argument("--pokerkit-hands", type=int, default=100, help="PokerKit's per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also profile felt replay")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    histories = [phh.from_hand(hand) for hand in random_hands(args.hands, args.seed)]
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "hands.phhs")
        Path(path).write_text(phh.dumps_all(histories), encoding="utf-8")
        ours = felt_replay(path)
        theirs = pokerkit_replay(path, args.pokerkit_hands)
        if ours[: len(theirs)] != theirs:
            sys.exit("Felt and PokerKit disagree on the finishing stacks")
        felt: list[tuple[float, float]] = []
        pokerkit: list[tuple[float, float]] = []
        for _ in range(args.rounds):
            wall, cpu = time.perf_counter(), time.process_time()
            felt_replay(path)
            felt.append((time.process_time() - cpu, time.perf_counter() - wall))
            wall, cpu = time.perf_counter(), time.process_time()
            pokerkit_replay(path, args.pokerkit_hands)
            pokerkit.append((time.process_time() - cpu, time.perf_counter() - wall))
        for label, index in (("CPU", 0), ("wall", 1)):
            mine = args.hands / statistics.median(f[index] for f in felt)
            reference = args.pokerkit_hands / statistics.median(p[index] for p in pokerkit)
            print(
                f"{label:>4}: felt replay {mine:8,.0f} hands/s, PokerKit {reference:6,.1f} "
                f"hands/s (medians of {args.rounds} alternated rounds): {mine / reference:5.1f}x"
            )
        ratios = [
            (args.hands / f[0]) / (args.pokerkit_hands / p[0])
            for f, p in zip(felt, pokerkit, strict=True)
        ]
        verdict = "meets" if statistics.median(ratios) >= GOAL else "BELOW"
        print(f"per-round CPU ratios: {' '.join(f'{r:.1f}' for r in ratios)}")
        print(f"goal >= {GOAL}x PokerKit (median CPU ratio): {verdict}")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(felt_replay, path)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
