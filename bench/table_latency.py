"""How long a member waits to see their turn on the table message, before and after issue 21.

A table channel may edit its messages about 5 times per 5 s (the fake Discord enforces it, and
Discord's global 50 requests/s). Felt used to edit on every change as soon as the budget
allowed, so bots' moves spent the budget and a member's turn could wait for the window to
reopen. Now a turn offer goes at once (and first, bot-wide), while redraws wait for a quiet
moment and for spare budget and carry everything that changed meanwhile (``table_edits``).

Both are measured in one run, one after the other, on the same tables and seed
(``bench/discord_load.py`` with ``--edits immediate``, then ``--edits held``): Hold'em tables of
2 members (they think 0.5-2.5 s) and 4 bots (1 s a move). The figure is the time from a member's
turn beginning in the bot (the click, or the bot's move that ended the turn before) to the
table message offering that turn's buttons. Goal: p90 at most 1.5 s. Edits per second count
both routes: the channel's, and a member's click's (``bot/discord/interaction_edits.py``).

    .venv/bin/python bench/table_latency.py [--tables 20] [--seconds 60] [--warmup 60]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import discord_load

GOAL_P90 = 1.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    figures: dict[str, tuple[float, float, float, int, float]] = {}
    for edits in ("immediate", "held"):
        args = discord_load.parser().parse_args(
            [
                f"--tables={options.tables}",
                f"--seconds={options.seconds}",
                f"--warmup={options.warmup}",
                f"--seed={options.seed}",
                f"--edits={edits}",
            ]
        )
        bot, fake = discord_load.measure(args)
        delays = discord_load.turn_delays(bot, fake)
        routes = fake["routes"]
        sent = sum(
            routes.get(r, 0) for r in (discord_load.EDIT_ROUTE, discord_load.CLICK_EDIT_ROUTE)
        )
        edits_per_second = sent / options.seconds
        figures[edits] = (
            discord_load.percentile(delays, 0.5),
            discord_load.percentile(delays, 0.9),
            max(delays, default=float("nan")),
            len(delays),
            edits_per_second,
        )
        if fake["rate_limited"]:
            print(f"  ({edits}: {fake['rate_limited']} answers 429)")
    print(
        f"Member turn shown on the table message: {options.tables} Hold'em tables "
        f"(2 members, 4 bots), {options.seconds:.0f} s measured each"
    )
    print(f"{'':<38}{'p50':>8}{'p90':>8}{'max':>8}{'turns':>8}{'edits/s':>9}")
    labels = {
        "immediate": "before: every change edited at once",
        "held": "after: offers first, redraws held",
    }
    for edits, (p50, p90, worst, count, rate) in figures.items():
        print(f"{labels[edits]:<38}{p50:>7.2f}s{p90:>7.2f}s{worst:>7.2f}s{count:>8}{rate:>9.1f}")
    before, after = figures["immediate"][1], figures["held"][1]
    verdict = "met" if after <= GOAL_P90 else "NOT met"
    print(f"p90 after / before: x{after / before:.2f}; goal p90 <= {GOAL_P90} s {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
