"""Where one group of seats out-earns another at a 6-max table: the margin split by situation.

Plays a seeded duplicate session (each deal from every seat, as the slow tests do) and splits
the paired margin of ``--group`` over the other seats (the group's mean net minus the others',
in bb/100, as ``engine.bots.margins`` measures it) by the situation each seat was in: its
position, its line before the flop (each of its actions with the number of raises it faced,
``R0`` an open, ``C2`` a call of a 3-bet), the street it left the hand on, its line on the
flop, and, for the lines that face a 3-bet, the strength of its hand (preflop percentile). The
rows add up to the whole margin, so the rows with the largest negative figures are where the
group loses. Each row also shows how often each group was in it and its mean net in big blinds.
At the end, each group's c-bet figures from the table statistics the bots read
(``engine.bots.stats``): c-bets, folds to c-bets, and folds of its c-bets to raises.

    .venv/bin/python bench/bot_profile.py --hands 12000 --seed 11       # hard against normal
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.bots.margins import DealNets
from engine.bots.preflop import preflop_table
from engine.bots.registry import parse_seats
from engine.bots.simulate import simulate_holdem
from engine.bots.stats import PlayerStats, TableStats
from engine.holdem.actions import ActionKind
from engine.holdem.events import (
    BoardDealt,
    CardsMucked,
    CardsShown,
    HoleCardsDealt,
    PlayerActed,
)
from engine.holdem.hand import Hand

POSITIONS = ("SB", "BB", "UTG", "HJ", "CO", "BTN")
STREETS = ("preflop", "flop", "turn", "river")
LETTERS = {
    ActionKind.FOLD: "F",
    ActionKind.CHECK: "X",
    ActionKind.CALL: "C",
    ActionKind.BET: "B",
    ActionKind.RAISE: "R",
}
BANDS = (0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
"""Preflop percentile bands for the hands that faced a 3-bet."""


@dataclass(slots=True)
class Row:
    """Occurrences and net chips of each group in one situation."""

    count: list[int] = field(default_factory=lambda: [0, 0])
    net: list[int] = field(default_factory=lambda: [0, 0])


@dataclass(slots=True)
class Seen:
    """One player's facts in one hand."""

    preflop: list[str] = field(default_factory=list)
    flop: list[str] = field(default_factory=list)
    left: str = "won"
    percentile: float = 1.0


class Profile:
    """An ``on_hand`` recorder: each situation's nets by group."""

    def __init__(self, group: Sequence[int], seats: int) -> None:
        self.group = set(group)
        self.sizes = (len(self.group), seats - len(self.group))
        self.tables: dict[str, defaultdict[str, Row]] = defaultdict(lambda: defaultdict(Row))
        self.hands = 0
        self.book = TableStats()

    def __call__(self, hand: Hand, order: Sequence[int]) -> None:
        self.hands += 1
        self.book.record(hand.events, order)
        seen = self._seen(hand, len(order))
        for player, seat in enumerate(order):
            facts = seen[player]
            net = hand.stacks[player] - hand.starting_stacks[player]
            side = 0 if seat in self.group else 1
            position = POSITIONS[player] if len(order) == 6 else str(player)
            line = "-".join(facts.preflop) or "-"
            keys = {
                "position": position,
                "preflop line": line,
                "position, preflop line": f"{position} {line}",
                "preflop line, street left": f"{line} -> {facts.left}",
            }
            if facts.flop:
                keys["preflop line, flop line"] = f"{line} | {'-'.join(facts.flop)}"
            if any(int(token[1:]) >= 2 for token in facts.preflop):
                band = next(b for b in BANDS if facts.percentile <= b)
                keys["3-bet lines by hand (top share)"] = f"{line} top {band:.0%}"
            for table, key in keys.items():
                row = self.tables[table][key]
                row.count[side] += 1
                row.net[side] += net

    @staticmethod
    def _seen(hand: Hand, players: int) -> list[Seen]:
        seen = [Seen() for _ in range(players)]
        street, raises = 0, 0
        table = preflop_table()
        for event in hand.events:
            match event:
                case HoleCardsDealt(player=p, cards=cards):
                    seen[p].percentile = table.percentile(cards[0], cards[1])
                case BoardDealt(street=s):
                    street, raises = int(s), 0
                case PlayerActed(player=p, kind=kind):
                    token = f"{LETTERS[kind]}{raises}"
                    if street == 0:
                        seen[p].preflop.append(token)
                    elif street == 1:
                        seen[p].flop.append(token)
                    if kind is ActionKind.FOLD:
                        seen[p].left = f"fold {STREETS[street]}"
                    if kind in (ActionKind.BET, ActionKind.RAISE):
                        raises += 1
                case CardsShown(player=p) | CardsMucked(player=p):
                    seen[p].left = "showdown"
                case _:
                    pass
        return seen

    def report(self, big_blind: int, top: int) -> None:
        """Print each table's rows, the largest effects on the margin first."""
        scale = 100.0 / (self.hands * big_blind)
        for name, rows in self.tables.items():
            total = 0.0
            lines = []
            for key, row in rows.items():
                effect = scale * (row.net[0] / self.sizes[0] - row.net[1] / self.sizes[1])
                total += effect
                means = [row.net[s] / big_blind / max(1, row.count[s]) for s in (0, 1)]
                lines.append((effect, key, row.count, means))
            lines.sort(key=lambda item: abs(item[0]), reverse=True)
            print(f"\n== {name} (margin {total:+.1f} bb/100)")
            print(f"{'situation':<44}{'bb/100':>8}{'n group':>9}{'n other':>9}{'bb each':>9}"
                  f"{'other':>8}")  # fmt: skip
            for effect, key, count, means in lines[:top]:
                print(f"{key:<44}{effect:>+8.1f}{count[0]:>9}{count[1]:>9}{means[0]:>+9.2f}"
                      f"{means[1]:>+8.2f}")  # fmt: skip

    def report_cbets(self, seats: int) -> None:
        """Print each group's c-bet, fold to c-bet and c-bet folded to a raise rates."""
        for name, members in (("group", self.group), ("other", set(range(seats)) - self.group)):
            total = sum((self.book.get(seat) for seat in members), PlayerStats())
            print(
                f"{name}: c-bet {percent(total.cbets, total.cbet_chances)} of "
                f"{total.cbet_chances:,}, fold to c-bet "
                f"{percent(total.folded_to_cbets, total.faced_cbets)} of {total.faced_cbets:,}, "
                "c-bet folded to a raise "
                f"{percent(total.cbets_folded_to_raise, total.cbets_raised)}"
                f" of {total.cbets_raised:,}"
            )


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default=",".join(["smart:hard", "smart"] * 3))
    parser.add_argument("--group", default="0,2,4", help="the seats (from 0) measured")
    parser.add_argument("--hands", type=int, default=12_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--top", type=int, default=25, help="rows per table")
    args = parser.parse_args()
    specs = parse_seats(args.seats)
    group = [int(s) for s in args.group.split(",")]
    profile = Profile(group, len(specs))
    nets = DealNets(len(specs), block=len(specs))

    def both(hand: Hand, order: Sequence[int]) -> None:
        profile(hand, order)
        nets(hand, order)

    simulate_holdem(specs, args.hands, seed=args.seed, duplicate=True, on_hand=both)
    print(f"{args.seats}, group {args.group}, {args.hands:,} duplicate hands, seed {args.seed}")
    others = [seat for seat in range(len(specs)) if seat not in group]
    margin = nets.margin(group, others, 2)
    low, high = margin.interval_95
    print(f"margin: {margin.bb_per_100:+.1f} +/- {margin.stderr_bb_per_100:.1f} bb/100, "
          f"95% interval [{low:+.1f}, {high:+.1f}] over {margin.units:,} deals")  # fmt: skip
    profile.report(2, args.top)
    print()
    profile.report_cbets(len(specs))


if __name__ == "__main__":
    main()
