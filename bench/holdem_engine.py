"""Random legal play at a 6-max table, showdowns included: our engine versus PokerKit.

Both play hands with the same action mix (fold/check-call/bet-raise to random sizes) and deal
from a fresh shuffle each hand. Goal: ours >= 20x PokerKit.

    .venv/bin/python bench/holdem_engine.py [--hands 20000] [--pokerkit-hands 1000]
"""

from __future__ import annotations

import argparse
import random
import time

from pokerkit import Automation, NoLimitTexasHoldem

from engine.holdem import Call, CardsShown, Check, Fold, Hand, RaiseTo, Stakes

PLAYERS = 6
STACK = 200
SMALL_BLIND, BIG_BLIND = 1, 2


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--pokerkit-hands", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)  # PokerKit shuffles with the global generator

    play_ours(200, random.Random(0))  # warm up: first-use tables, caches
    play_pokerkit(20, random.Random(0))
    start = time.perf_counter()
    showdowns = play_ours(args.hands, random.Random(args.seed))
    ours = args.hands / (time.perf_counter() - start)
    print(f"Felt engine : {ours:9.0f} hands/s  ({args.hands:,} hands, {showdowns:,} showdowns)")

    start = time.perf_counter()
    showdowns = play_pokerkit(args.pokerkit_hands, random.Random(args.seed))
    reference = args.pokerkit_hands / (time.perf_counter() - start)
    print(
        f"PokerKit    : {reference:9.0f} hands/s  ({args.pokerkit_hands:,} hands,"
        f" {showdowns:,} showdowns)"
    )
    print(f"ratio       : {ours / reference:9.1f}x  (goal >= 20x)")


if __name__ == "__main__":
    main()
