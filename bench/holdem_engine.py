"""Random legal play at a 6-max table, showdowns included: our engine versus PokerKit.

Both play hands with the same action mix (fold/check-call/bet-raise to random sizes) and deal
from a fresh shuffle each hand. Goal: ours >= 50x PokerKit.

The machine these run on is shared, so the two alternate over ``--rounds`` rounds (ours, then
PokerKit, in each) and the medians are compared; each round is timed in process CPU time (what
other programs cannot take from us) and on the wall clock. ``--profile`` also prints where our
engine's time goes (cProfile, by own time).

    .venv/bin/python bench/holdem_engine.py [--hands 4000] [--pokerkit-hands 150] [--rounds 5]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import time
from collections.abc import Callable

from pokerkit import Automation, NoLimitTexasHoldem

from engine.holdem import Call, CardsShown, Check, Fold, Hand, RaiseTo, Stakes

PLAYERS = 6
STACK = 200
SMALL_BLIND, BIG_BLIND = 1, 2
GOAL = 50


def play_ours(hands: int, rng: random.Random) -> int:
    stakes = Stakes.standard(PLAYERS, SMALL_BLIND, BIG_BLIND)
    stacks = [STACK] * PLAYERS
    fold, check, call = Fold(), Check(), Call()
    showdowns = 0
    for _ in range(hands):
        hand = Hand(stakes, stacks, rng=rng)
        while not hand.is_complete:
            legal = hand.turn
            assert legal is not None
            roll = rng.random()
            if roll < 0.15 and legal.can_fold:
                action: Fold | Check | Call | RaiseTo = fold
            elif roll < 0.30 and legal.min_raise_to is not None and legal.max_raise_to is not None:
                action = RaiseTo(rng.randint(legal.min_raise_to, legal.max_raise_to))
            else:
                action = check if legal.can_check else call
            hand.act(legal.player, action)
        showdowns += any(isinstance(event, CardsShown) for event in hand.events)
    return showdowns


def play_pokerkit(hands: int, rng: random.Random) -> int:
    game = NoLimitTexasHoldem(
        tuple(Automation),  # every automation, dealing included
        True,
        0,
        (SMALL_BLIND, BIG_BLIND),
        BIG_BLIND,
    )
    showdowns = 0
    for _ in range(hands):
        state = game([STACK] * PLAYERS, PLAYERS)
        while state.status:
            roll = rng.random()
            if roll < 0.15 and state.can_fold():
                state.fold()
            elif roll < 0.30 and state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))
            else:
                state.check_or_call()
        showdowns += any(
            type(op).__name__ == "HoleCardsShowingOrMucking" for op in state.operations
        )
    return showdowns


def timed(play: Callable[[int, random.Random], int], hands: int, seed: int) -> tuple[float, float]:
    """(hands per CPU-second, hands per wall-clock second) of one run."""
    wall, cpu = time.perf_counter(), time.process_time()
    play(hands, random.Random(seed))
    return hands / (time.process_time() - cpu), hands / (time.perf_counter() - wall)


def profile_ours(hands: int, seed: int) -> None:
    """Where our engine's time goes: cProfile's top functions by their own time."""
    profiler = cProfile.Profile()
    profiler.runcall(play_ours, hands, random.Random(seed))
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(18)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4_000, help="our hands per round")
    parser.add_argument("--pokerkit-hands", type=int, default=150, help="PokerKit's per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also profile our engine")
    args = parser.parse_args()
    random.seed(args.seed)  # PokerKit shuffles with the global generator
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before: {load}")

    play_ours(200, random.Random(0))  # warm up: first-use tables, caches
    play_pokerkit(20, random.Random(0))
    ours: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for number in range(args.rounds):
        ours.append(timed(play_ours, args.hands, args.seed + number))
        theirs.append(timed(play_pokerkit, args.pokerkit_hands, args.seed + number))
    cpu_ratios = [o[0] / t[0] for o, t in zip(ours, theirs, strict=True)]
    for label, index in (("CPU", 0), ("wall", 1)):
        mine = statistics.median(o[index] for o in ours)
        reference = statistics.median(t[index] for t in theirs)
        print(
            f"{label:>4}: Felt engine {mine:8,.0f} hands/s, PokerKit {reference:6,.1f} hands/s "
            f"(medians of {args.rounds} alternated rounds): {mine / reference:5.1f}x"
        )
    showdowns = play_ours(1_000, random.Random(args.seed))
    print(
        f"per-round CPU ratios: {' '.join(f'{r:.1f}' for r in cpu_ratios)}; "
        f"{showdowns / 10:.1f}% of our hands reach a showdown"
    )
    verdict = "meets" if statistics.median(cpu_ratios) >= GOAL else "BELOW"
    print(f"goal >= {GOAL}x PokerKit (median CPU ratio): {verdict}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.profile:
        profile_ours(args.hands, args.seed)


if __name__ == "__main__":
    main()
