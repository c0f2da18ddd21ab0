"""Deals: each player's equity by ICM (Malmuth-Harville) and by chip-chop, and a deal in chips.

Malmuth-Harville: a player finishes first with probability stack / total; given who finished
above, the next place goes the same way among the rest. ``icm_exact`` sums this over every
order by dynamic programming over the set of players already placed (2^n sets, so exact up to
``EXACT_LIMIT`` players and still quick); ``icm_monte_carlo`` samples orders instead, from a
seeded generator: ordering players by ``Exp(1) / stack`` draws exactly the Harville order
(the smallest of independent exponentials with rates ``stack`` is player ``i`` with probability
``stack_i / total``, and memorylessness repeats it for every later place). ``icm`` picks one.

Payouts are the prizes for 1st, 2nd, ... in any unit; equities come back in the same unit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.tournament.errors import IcmError

EXACT_LIMIT = 10
"""Up to this many players ``icm`` is exact; above it, Monte Carlo."""
DEFAULT_TRIALS = 200_000


def _check(stacks: Sequence[int | float], payouts: Sequence[int | float]) -> None:
    if len(stacks) < 1:
        raise IcmError("give at least one stack")
    for stack in stacks:
        if not math.isfinite(stack) or stack <= 0:
            raise IcmError(f"every stack must be above 0, not {stack}")
    if not payouts:
        raise IcmError("give at least one payout")
    for payout in payouts:
        if not math.isfinite(payout) or payout < 0:
            raise IcmError(f"payouts must be 0 or more, not {payout}")
    if len(payouts) > len(stacks):
        raise IcmError(f"{len(payouts)} payouts for {len(stacks)} players: give at most one each")


def icm_exact(stacks: Sequence[int | float], payouts: Sequence[int | float]) -> list[float]:
    """Each player's Malmuth-Harville equity, exactly (for up to ~20 players; 2^n work)."""
    _check(stacks, payouts)
    n = len(stacks)
    total = float(sum(stacks))
    places = len(payouts)
    # reach[mask]: the probability that the players in ``mask`` take the top |mask| places
    # (in some order); only sets no bigger than the number of paid places matter.
    reach = {0: 1.0}
    removed = {0: 0.0}
    equity = [0.0] * n
    frontier = [0]
    for place in range(places):
        following: dict[int, float] = {}
        for mask in frontier:
            chance = reach[mask]
            left = total - removed[mask]
            for player in range(n):
                bit = 1 << player
                if mask & bit:
                    continue
                step = chance * stacks[player] / left
                equity[player] += step * payouts[place]
                bigger = mask | bit
                if bigger not in following:
                    following[bigger] = 0.0
                    removed[bigger] = removed[mask] + stacks[player]
                following[bigger] += step
        reach = following
        frontier = list(following)
    return equity


def icm_monte_carlo(
    stacks: Sequence[int | float],
    payouts: Sequence[int | float],
    rng: random.Random,
    trials: int = DEFAULT_TRIALS,
) -> list[float]:
    """Each player's Malmuth-Harville equity estimated from ``trials`` sampled finishing orders
    (standard error ~ payout / sqrt(trials))."""
    _check(stacks, payouts)
    if trials < 1:
        raise IcmError(f"trials must be at least 1, not {trials}")
    n = len(stacks)
    places = len(payouts)
    totals = [0.0] * n
    expovariate = rng.expovariate
    players = range(n)
    for _ in range(trials):
        keys = [expovariate(stacks[player]) for player in players]
        order = sorted(players, key=keys.__getitem__)
        for place in range(places):
            totals[order[place]] += payouts[place]
    return [value / trials for value in totals]


def icm(
    stacks: Sequence[int | float],
    payouts: Sequence[int | float],
    *,
    seed: int = 0,
    trials: int = DEFAULT_TRIALS,
) -> list[float]:
    """Equities: exact up to ``EXACT_LIMIT`` players, Monte Carlo (seeded) beyond."""
    if len(stacks) <= EXACT_LIMIT:
        return icm_exact(stacks, payouts)
    return icm_monte_carlo(stacks, payouts, random.Random(f"felt-icm:{seed}"), trials)


def chip_chop(stacks: Sequence[int | float], payouts: Sequence[int | float]) -> list[float]:
    """The chip-chop deal: everyone is guaranteed the lowest prize still to be paid (0 when
    fewer places pay than players remain), and the rest is split in proportion to chips."""
    _check(stacks, payouts)
    n = len(stacks)
    floor = payouts[n - 1] if len(payouts) == n else 0
    rest = sum(payouts) - floor * n
    total = float(sum(stacks))
    return [floor + rest * stack / total for stack in stacks]


def whole_deal(equities: Sequence[float], pool: int) -> tuple[int, ...]:
    """Equities paid in whole chips summing to ``pool``: each rounded down, the chips left
    over one each to the largest fractions (ties to the earlier player)."""
    if pool < 0:
        raise IcmError(f"a prize pool cannot be negative: {pool}")
    total = sum(equities)
    if total <= 0:
        raise IcmError("the equities must add up to more than 0")
    exact = [pool * equity / total for equity in equities]
    amounts = [math.floor(value) for value in exact]
    order = sorted(range(len(exact)), key=lambda k: (-(exact[k] - amounts[k]), k))
    for k in order[: pool - sum(amounts)]:
        amounts[k] += 1
    return tuple(amounts)
