"""Blackjack statistics per player (rounds, net, return per round, doubles, splits), defined.

Each settled round adds one ``RoundCounts`` per player; counts add up (``+``), so a running total
is kept at settlement and never recomputed by re-reading old rounds. The definitions:

- **Rounds**: rounds the player had a bet in that were settled (refunded rounds do not count).
- **Hands**: the player's hands settled in those rounds (a split makes two; at least one a round).
- **Hands won**: hands that paid more than their stake; **blackjacks**: naturals paid as such.
- **Staked**: every chip the player put at risk: the initial bet, doubles, split bets and
  insurance.
- **Net**: chips paid back minus chips staked, summed over rounds.
- **Return per round**: net / rounds (chips, may be negative); **return %**: net / staked.
- **Doubles** / **splits** / **insurances taken**: how many times the player doubled down, split
  a pair, or bought insurance; ``doubles_pct`` and ``splits_pct`` are per 100 hands.
- **Decisions** / **correct decisions**: the player's own decisions (not timed out) graded against
  basic strategy for the table's rules (``bot/blackjack/grading.py``); **accuracy** is the share
  that were correct. **Expected loss** (thousandths of a chip) is what the others cost in
  expectation (kept, not ranked: a board of it would put the worst player first).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.ratios import Ratio


@dataclass(frozen=True, slots=True)
class RoundCounts:
    """One player's Blackjack counts over some rounds; ratios are ``None`` with no rounds."""

    rounds: int = 0
    hands: int = 0
    hands_won: int = 0
    blackjacks: int = 0
    staked: int = 0
    net: int = 0
    doubles: int = 0
    splits: int = 0
    insurances: int = 0
    decisions: int = 0
    correct_decisions: int = 0
    expected_loss_milli: int = 0

    def __add__(self, other: RoundCounts) -> RoundCounts:
        return RoundCounts(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    @property
    def return_per_round(self) -> float | None:
        return RATIO["return_per_round"].of(self)

    @property
    def return_pct(self) -> float | None:
        return RATIO["return_pct"].of(self)

    @property
    def hands_won_pct(self) -> float | None:
        return RATIO["hands_won"].of(self)

    @property
    def doubles_pct(self) -> float | None:
        return RATIO["doubles"].of(self)

    @property
    def splits_pct(self) -> float | None:
        return RATIO["splits"].of(self)


RATIOS: tuple[Ratio, ...] = (
    Ratio("return_per_round", "Return per round", ("net",), ("rounds",), scale=1),
    Ratio("return_pct", "Return", ("net",), ("staked",)),
    Ratio("hands_won", "Hands won", ("hands_won",), ("hands",)),
    Ratio("doubles", "Doubles", ("doubles",), ("hands",)),
    Ratio("splits", "Splits", ("splits",), ("hands",)),
    Ratio("accuracy", "Basic strategy", ("correct_decisions",), ("decisions",)),
)
"""Every ratio statistic of the definitions above, in the order /stats shows them (a new one,
such as basic-strategy accuracy, is a pair of counts fields and one line here)."""

RATIO = {ratio.key: ratio for ratio in RATIOS}

NO_ROUNDS = RoundCounts()
