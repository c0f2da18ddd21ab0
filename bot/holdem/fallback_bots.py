"""Stand-in bot players and all-in equities, used until ``engine.bots`` and ``engine.equity`` land.

The Discord front imports ``DEFAULT_BOTS`` and ``DEFAULT_EQUITY`` from here and nowhere else, so
swapping in the real strategies is a one-line change in ``bot/discord/cogs/holdem.py``. The bot
checks when it can and calls otherwise; it never raises, whatever the hand looks like.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from bot.holdem.host import BotFactory, BotPlayer, EquityFunction
from engine.cards import DECK, Card
from engine.evaluate import rank_of
from engine.holdem import Action, Call, Check, Fold, Hand

EXACT_RUNOUT_LIMIT = 20_000
"""Enumerate every run-out up to this many boards; sample beyond (preflop all-ins)."""
SAMPLES = 3_000


class CheckOrCall:
    """Checks when it can, calls otherwise, folds only when neither is possible."""

    __slots__ = ()

    def decide(self, hand: Hand, player: int) -> Action:
        try:
            legal = hand.legal_actions()
        except Exception:  # a bot must never take its table down
            return Fold()
        if legal is None or legal.player != player:
            return Fold()
        if legal.can_check:
            return Check()
        if legal.can_call:
            return Call()
        return Fold()


def make_bot(name: str, strategy: str, rng: random.Random) -> BotPlayer:
    """A ``BotFactory``: every bot plays check-or-call, whatever its strategy name."""
    return CheckOrCall()


def equity(hands: Sequence[tuple[Card, ...]], board: Sequence[Card]) -> list[float]:
    """Each face-up hand's share of the pot over the remaining run-outs (ties split).

    Exact when there are few run-outs (flop and turn), else a fixed-seed sample, so the same
    hands and board always give the same figures.
    """
    used = {card for cards in hands for card in cards} | set(board)
    remaining = [card for card in DECK if card not in used]
    missing = 5 - len(board)
    shares = [0.0] * len(hands)
    if missing <= 0:
        runouts: Sequence[tuple[Card, ...]] = [()]
    elif _count(len(remaining), missing) <= EXACT_RUNOUT_LIMIT:
        runouts = list(itertools.combinations(remaining, missing))
    else:
        source = random.Random(hash((tuple(sorted(used)), len(hands))) & 0xFFFF_FFFF)
        runouts = [tuple(source.sample(remaining, missing)) for _ in range(SAMPLES)]
    for runout in runouts:
        full = [*board, *runout]
        ranks = [rank_of([*cards, *full]) for cards in hands]
        best = min(ranks)  # phevaluator: lower is stronger
        winners = [i for i, rank in enumerate(ranks) if rank == best]
        for i in winners:
            shares[i] += 1.0 / len(winners)
    return [share / len(runouts) for share in shares]


def _count(pool: int, taken: int) -> int:
    result = 1
    for i in range(taken):
        result = result * (pool - i) // (i + 1)
    return result


DEFAULT_BOTS: BotFactory = make_bot
DEFAULT_EQUITY: EquityFunction | None = equity
