"""7-card evaluations per second: engine.evaluate versus phevaluator's evaluate_cards and treys.

All three evaluate the same random hands in one run. Goals: ours keeps at least half of
phevaluator's own speed and is at least 5x treys.

    .venv/bin/python bench/evaluate.py [--hands 200000]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from phevaluator import evaluate_cards
from treys import Card as TreysCard
from treys import Evaluator

from engine.cards import DECK
from engine.evaluate import evaluate


def timed(label: str, run: Callable[[], object], hands: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    rate = hands / best
    print(f"{label:<34} {rate / 1e6:8.3f} M evals/s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [rng.sample(DECK, 7) for _ in range(args.hands)]
    ids = [[card.id for card in hand] for hand in hands]
    treys_hands = [[TreysCard.new(str(card)) for card in hand] for hand in hands]
    treys = Evaluator()

    # The three must agree on the order of hands before their speeds mean anything.
    for hand, card_ids, t in zip(hands[:2000], ids[:2000], treys_hands[:2000], strict=True):
        assert evaluate(hand).strength == 7463 - evaluate_cards(*card_ids)
        assert treys.evaluate(t[:2], t[2:]) == evaluate_cards(*card_ids)

    print(f"7-card hands: {args.hands:,} (best of 3 runs each)")
    ours = timed("engine.evaluate (Card objects)", lambda: [evaluate(h) for h in hands], args.hands)
    reference = timed(
        "phevaluator.evaluate_cards (ints)",
        lambda: [evaluate_cards(*h) for h in ids],
        args.hands,
    )
    slow = timed(
        "treys Evaluator.evaluate",
        lambda: [treys.evaluate(h[:2], h[2:]) for h in treys_hands],
        args.hands,
    )
    print(f"ours / phevaluator = {ours / reference:.2f}  (goal >= 0.5)")
    print(f"ours / treys       = {ours / slow:.1f}  (goal >= 5)")


if __name__ == "__main__":
    main()
