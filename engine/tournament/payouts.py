"""Payouts: the prize pool, the standard curves by number of entries, custom percentages, and
prizes in whole chips, ties included.

Percentages are held in basis points (1/100 of a percent, summing to 10,000) so a pay table is
exact integers. **The remainder rule**: a prize is ``pool * share // 10_000`` rounded down, and
the chips the rounding leaves over go one each to 1st, 2nd, 3rd, ... place until none is left
(so 1st never gets less than its share, and the pool is always paid in full). Players who tie
for places (eliminated in the same hand with the same starting stack) share the prizes of the
places they cover equally, rounded down; the chips left over go one each to the tied players in
entry order (the earlier entry first).

The standard curve: 1-2 entries pay the winner alone; 3-6 pay 2 (65/35); 7-9 pay 3 (50/30/20);
from 10 entries ``max(3, ceil(15% of entries))`` places are paid on a power curve
``share(k) ∝ k^-a``, with ``a`` the largest exponent up to 1 that pays the last paid place at
least 1.5 times the average buy-in (``pool / entries``), so a min-cash is worth having and the
curve stays smooth.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.tournament.errors import PayoutError

WHOLE = 10_000
"""Basis points in 100%."""
PAID_FRACTION = 0.15
MIN_CASH_BUY_INS = 1.5
FIXED_CURVES: Mapping[int, tuple[int, ...]] = {
    1: (10_000,),
    2: (10_000,),
    3: (6_500, 3_500),
    4: (6_500, 3_500),
    5: (6_500, 3_500),
    6: (6_500, 3_500),
    7: (5_000, 3_000, 2_000),
    8: (5_000, 3_000, 2_000),
    9: (5_000, 3_000, 2_000),
}


def prize_pool(collected: int, fee: int = 0) -> int:
    """What is paid out: buy-ins, rebuys and add-ons collected, minus the house fee."""
    if collected < 0 or not 0 <= fee <= collected:
        raise PayoutError(f"the fee ({fee}) must be between 0 and what was collected ({collected})")
    return collected - fee


def fee_of(collected: int, fee_percent: int) -> int:
    """The house fee: ``fee_percent`` of what was collected, rounded down."""
    if not 0 <= fee_percent <= 100:
        raise PayoutError(f"the house fee must be 0 to 100 percent, not {fee_percent}")
    return collected * fee_percent // 100


def standard_shares(entries: int) -> tuple[int, ...]:
    """The standard pay table for ``entries`` entries, in basis points, 1st place first."""
    if entries < 1:
        raise PayoutError(f"a pay table needs at least one entry, not {entries}")
    if entries in FIXED_CURVES:
        return FIXED_CURVES[entries]
    paid = max(3, math.ceil(PAID_FRACTION * entries))
    exponent = _curve_exponent(paid, entries)
    weights = [math.pow(k, -exponent) for k in range(1, paid + 1)]
    return to_basis_points(weights)


def shares_for(entries: int, custom: Sequence[int] | None = None) -> tuple[int, ...]:
    """The pay table for ``entries`` entries: ``custom`` basis points (from
    :func:`custom_shares`) or, without them, the standard curve. A custom table that pays more
    places than there are entries drops the places nobody can take and scales the rest back to
    100%.

    >>> shares_for(2, (5_000, 3_000, 2_000))
    (6250, 3750)
    """
    if custom is None:
        return standard_shares(entries)
    if entries < 1:
        raise PayoutError(f"a pay table needs at least one entry, not {entries}")
    if len(custom) <= entries:
        return tuple(custom)
    return to_basis_points(custom[:entries])


def _curve_exponent(paid: int, entries: int) -> float:
    """The largest exponent <= 1 whose curve pays the last place >= MIN_CASH_BUY_INS average
    buy-ins (found by bisection; the last place's share grows as the exponent falls)."""
    target = MIN_CASH_BUY_INS / entries

    def last_share(exponent: float) -> float:
        weights = [math.pow(k, -exponent) for k in range(1, paid + 1)]
        return weights[-1] / sum(weights)

    if last_share(1.0) >= target:
        return 1.0
    low, high = 0.0, 1.0  # exponent 0 pays everyone equally: the most a last place can get
    for _ in range(40):
        middle = (low + high) / 2
        if last_share(middle) >= target:
            low = middle
        else:
            high = middle
    return low


def to_basis_points(weights: Sequence[float]) -> tuple[int, ...]:
    """Weights as basis points summing to exactly 10,000 (largest remainder, ties to the
    higher place), never rising from one place to the next."""
    total = sum(weights)
    exact = [WHOLE * weight / total for weight in weights]
    points = [math.floor(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda k: (-(exact[k] - points[k]), k))
    for k in by_remainder[: WHOLE - sum(points)]:
        points[k] += 1
    for k in range(1, len(points)):  # a rounding step up must not put a place above the one before
        if points[k] > points[k - 1]:
            points[k - 1], points[k] = points[k], points[k - 1]
    return tuple(points)


def custom_shares(percentages: Sequence[float | int | str]) -> tuple[int, ...]:
    """Percentages (1st place first, up to two decimals each, summing to 100, never rising)
    as basis points."""
    if not percentages:
        raise PayoutError("give at least one payout percentage")
    points: list[int] = []
    for place, value in enumerate(percentages, start=1):
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise PayoutError(f"place {place}: {value!r} is not a percentage") from None
        scaled = round(number * 100)
        if not math.isfinite(number) or abs(scaled - number * 100) > 1e-6 or scaled <= 0:
            raise PayoutError(
                f"place {place}: a payout must be above 0 with at most two decimals, not {value}"
            )
        points.append(scaled)
    if sum(points) != WHOLE:
        raise PayoutError(f"payout percentages must sum to 100, not {sum(points) / 100:g}")
    for place in range(1, len(points)):
        if points[place] > points[place - 1]:
            raise PayoutError(f"place {place + 1} cannot pay more than place {place}")
    return tuple(points)


def prizes(pool: int, shares: Sequence[int]) -> tuple[int, ...]:
    """Whole-chip prizes for 1st, 2nd, ... place: the remainder rule of the module docstring.

    >>> prizes(100, (5_000, 3_000, 2_000))
    (50, 30, 20)
    >>> prizes(101, (3_334, 3_333, 3_333))
    (34, 34, 33)
    """
    if pool < 0:
        raise PayoutError(f"a prize pool cannot be negative: {pool}")
    if sum(shares) != WHOLE or any(share < 0 for share in shares):
        raise PayoutError("shares must be basis points >= 0 summing to 10,000")
    amounts = [pool * share // WHOLE for share in shares]
    left = pool - sum(amounts)
    for place in range(left):  # left < len(shares): each floor lost less than one chip
        amounts[place] += 1
    return tuple(amounts)


def split_tie(prizes_shared: Sequence[int], players: int) -> tuple[int, ...]:
    """What each of ``players`` tied players gets from the prizes of the places they share:
    equal parts rounded down, the chips left over one each to the earlier players."""
    if players < 1:
        raise PayoutError("a tie needs at least one player")
    total = sum(prizes_shared)
    part, left = divmod(total, players)
    return tuple(part + (1 if index < left else 0) for index in range(players))


def places_prizes(
    finishing: Sequence[Sequence[int]], amounts: Sequence[int]
) -> dict[int, tuple[int, int]]:
    """Each entry's (place, prize) from the finishing groups, best first: a group of several
    entries tied and shares the prizes of the places it covers (its place is the best of them).
    Entries in a group are listed in entry order (which decides the leftover chips)."""
    result: dict[int, tuple[int, int]] = {}
    place = 1
    for group in finishing:
        covered = [
            amounts[k - 1] if k <= len(amounts) else 0 for k in range(place, place + len(group))
        ]
        for entry, prize in zip(group, split_tie(covered, len(group)), strict=True):
            result[entry] = (place, prize)
        place += len(group)
    return result
