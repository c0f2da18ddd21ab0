"""How strong each smart level is: win rates with 95% intervals, as the slow tests check them.

Each line plays one seeded match with ``engine.bots.simulate.simulate_holdem`` and prints the
first seat's bb/100 with its standard error and 95% interval (and the style of each seat).
Heads-up matches are played in duplicate (each deal from both seats), which cancels most of the
cards' luck. At 6-max (``MARGINS``) each deal is played from every seat too, and the figure
is a paired margin (``engine.bots.margins``): the first seat's net minus another seat's (or the
hard seats' mean minus the normal seats'), deal by deal, in bb/100 with its 95% interval. The
same matches, hands and seed as ``tests/engine/bots/test_simulate.py``, so the README's figures
can be reproduced line by line:

    .venv/bin/python bench/bot_strength.py                  # hard against normal (minutes)
    .venv/bin/python bench/bot_strength.py --only hard      # every match naming "hard"
    .venv/bin/python bench/bot_strength.py --only ""        # every match (long)
"""

from __future__ import annotations

import argparse
import time

from engine.bots.margins import DealNets
from engine.bots.registry import parse_seats
from engine.bots.simulate import simulate_holdem

FIELD = "random,passive,aggressive,random,passive"
MATCHES: tuple[tuple[str, int, bool], ...] = (
    ("smart:hard,smart", 20_000, True),
    ("smart,smart:easy", 6_000, True),
    *(
        (f"{level},{other}", 6_000, True)
        for level in ("smart:easy", "smart", "smart:hard")
        for other in ("random", "passive", "aggressive")
    ),
    *((f"smart:hard,{exploit}", 4_000, True) for exploit in ("minraiser", "shover", "station")),
)
"""(seats, hands, duplicate): the slow tests' matches, at seed 2024."""

MARGINS: tuple[tuple[str, int, tuple[int, ...]], ...] = (
    *((f"{level},{FIELD}", 24_000, (0,)) for level in ("smart:easy", "smart", "smart:hard")),
    (",".join(["smart:hard", "smart"] * 3), 24_000, (0, 2, 4)),
)
"""(seats, hands, the group of seats measured against each other seat): the 6-max slow tests'
matches, in duplicate at seed 2024. A field's first seat is measured against every other
seat; hard's three seats against normal's three together."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        default="smart:hard,smart",
        help='play only matches whose seats contain this ("" for all)',
    )
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(f"{'seats':<52}{'hands':>7}  {'bb/100':>8} {'s.e.':>6}  {'95% interval':<18} style")
    for seats, hands, duplicate in MATCHES:
        if args.only not in seats:
            continue
        started = time.perf_counter()
        result = simulate_holdem(parse_seats(seats), hands, args.seed, duplicate=duplicate)
        first = result.seats[0]
        low, high = first.interval_95
        interval = f"[{low:+.1f}, {high:+.1f}]"
        style = first.style
        label = seats + (" (duplicate)" if duplicate else "")
        print(
            f"{label:<52}{hands:>7,}  {first.bb_per_100:>+8.1f} "
            f"{first.stderr_bb_per_100:>6.1f}  {interval:<18} VPIP {style.vpip_pct or 0:.1f} "
            f"PFR {style.pfr_pct or 0:.1f} AF {style.af or 0:.2f} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    for seats, hands, group in MARGINS:
        if args.only in seats:
            print_margins(seats, hands, group, args.seed)


def print_margins(seats: str, hands: int, group: tuple[int, ...], seed: int) -> None:
    """Play a 6-max match in duplicate and print the group's margin over each other seat (or
    over all the other seats together when the group has several)."""
    names = seats.split(",")
    nets = DealNets(len(names), block=len(names))
    started = time.perf_counter()
    result = simulate_holdem(parse_seats(seats), hands, seed, duplicate=True, on_hand=nets)
    rest = [seat for seat in range(len(names)) if seat not in group]
    pairs = [(list(group), rest)] if len(group) > 1 else [(list(group), [seat]) for seat in rest]
    first = result.seats[group[0]]
    low, high = first.interval_95
    print(
        f"{seats} (duplicate, {hands:,} hands): seat 1 {first.bb_per_100:+.1f} "
        f"+/- {first.stderr_bb_per_100:.1f} [{low:+.1f}, {high:+.1f}] "
        f"VPIP {first.style.vpip_pct or 0:.1f} ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    for mine, theirs in pairs:
        margin = nets.margin(mine, theirs, result.big_blind)
        low, high = margin.interval_95
        label = "+".join(names[s] for s in mine) + " minus " + "+".join(names[s] for s in theirs)
        print(
            f"    {label:<60} {margin.bb_per_100:>+8.1f} {margin.stderr_bb_per_100:>6.1f}  "
            f"[{low:+.1f}, {high:+.1f}]",
            flush=True,
        )


if __name__ == "__main__":
    main()
