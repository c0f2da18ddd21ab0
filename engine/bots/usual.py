"""What a regular's statistics look like at each table size: the baseline looseness is read from.

Heads-up a regular plays most hands (the button opens about 80% and the big blind defends most
of the rest) and shows down hands near the middle of the range; at a full table the same player
enters with a quarter of them. A reader that judged a heads-up opponent by 6-max habits would
take every regular for a maniac (their showdowns look like any two cards), stop reading their
bets and re-raises and play them as a careless player. So ``engine.bots.stats`` records, with
each hand and each hand shown down, how much wider than at 6-max a regular plays at that hand's
table size, and ``engine.bots.smart`` judges a player's width against that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Usual:
    """A regular's figures at one table size."""

    vpip: float
    """The share of hands they put chips in voluntarily."""
    shown: float
    """The mean preflop percentile (0 aces, 1 the worst hand) of the hands they show down."""


USUAL: Mapping[int, Usual] = {
    2: Usual(vpip=0.81, shown=0.40),
    3: Usual(vpip=0.57, shown=0.31),
    4: Usual(vpip=0.41, shown=0.24),
    5: Usual(vpip=0.32, shown=0.21),
    6: Usual(vpip=0.26, shown=0.18),
}
"""By the players dealt in: the ``smart`` (normal) level's own figures in self-play, 600 hands
at seed 2024 per size (``felt sim holdem``), which match published heads-up and short-handed
regulars' profiles (heads-up VPIP 70-85%, 6-max 20-28%). Past six players the 6-max figures
stand (a full-ring regular is a little tighter again, which would only make the reads stricter)."""

FULL = USUAL[6]
"""The figures the reads were tuned at (6-max): a player as loose there as a regular is at
another size is judged as that regular would be at 6-max."""


def usual(players: int) -> Usual:
    """A regular's figures at a table of ``players`` (2 to 10)."""
    return USUAL[min(max(players, 2), 6)]
