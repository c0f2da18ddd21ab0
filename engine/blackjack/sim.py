"""Simulated Blackjack sessions: one seat, one strategy, many rounds of the live-play engine.

``simulate`` plays ``Round`` exactly as a table does (events switched off) and returns a
``SimResult`` of exact integer totals, so results from several workers add up with ``combine``
to the same figures whatever the split. Results are in *units* of the opening bet.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.blackjack.actions import Phase
from engine.blackjack.round import Round
from engine.blackjack.rules import Rules
from engine.blackjack.shoe import Shoe
from engine.blackjack.strategy import BlackjackStrategy, strategy_named


@dataclass(frozen=True, slots=True)
class SimResult:
    """Totals of a simulated session for one seat betting ``bet`` chips a round.

    A round is a win, push or loss by the sign of its net over all the seat's hands (splits,
    doubles and insurance included).
    """

    rounds: int
    bet: int
    net: int
    net_squares: int
    wins: int
    pushes: int
    losses: int

    @property
    def net_units(self) -> float:
        """Net result in opening bets (negative when the player lost)."""
        return self.net / self.bet

    @property
    def house_edge_pct(self) -> float:
        """The player's average loss per opening bet, in percent (negative: player's edge)."""
        return -100.0 * self.net / (self.bet * self.rounds) if self.rounds else 0.0

    @property
    def stderr_pct(self) -> float:
        """Standard error of ``house_edge_pct``."""
        n = self.rounds
        if n < 2:
            return 0.0
        mean = self.net / n
        variance = (self.net_squares - n * mean * mean) / (n - 1)
        return 100.0 * math.sqrt(max(variance, 0.0) / n) / self.bet

    @property
    def win_pct(self) -> float:
        """Rounds won, in percent."""
        return 100.0 * self.wins / self.rounds if self.rounds else 0.0

    @property
    def push_pct(self) -> float:
        """Rounds pushed, in percent."""
        return 100.0 * self.pushes / self.rounds if self.rounds else 0.0

    @property
    def loss_pct(self) -> float:
        """Rounds lost, in percent."""
        return 100.0 * self.losses / self.rounds if self.rounds else 0.0

    @property
    def win_ratio(self) -> float:
        """wins / (wins + losses), as the original exercise reports it."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.0

    def summary(self) -> dict[str, float | int]:
        """The figures ``felt sim blackjack --json`` prints, under its field names."""
        return {
            "hands": self.rounds,
            "house_edge_pct": self.house_edge_pct,
            "stderr_pct": self.stderr_pct,
            "win_pct": self.win_pct,
            "push_pct": self.push_pct,
            "loss_pct": self.loss_pct,
            "wins": self.wins,
            "losses": self.losses,
            "win_ratio": self.win_ratio,
        }

    @staticmethod
    def combine(results: Iterable[SimResult]) -> SimResult:
        """The totals of several sessions at the same bet."""
        parts = list(results)
        if not parts:
            raise ValueError("nothing to combine")
        bets = {part.bet for part in parts}
        if len(bets) != 1:
            raise ValueError("sessions at different bets cannot be combined")
        return SimResult(
            rounds=sum(part.rounds for part in parts),
            bet=parts[0].bet,
            net=sum(part.net for part in parts),
            net_squares=sum(part.net_squares for part in parts),
            wins=sum(part.wins for part in parts),
            pushes=sum(part.pushes for part in parts),
            losses=sum(part.losses for part in parts),
        )


def simulate(
    rules: Rules,
    strategy: BlackjackStrategy,
    rounds: int,
    rng: random.Random,
    *,
    bet: int | None = None,
    progress: Callable[[int], None] | None = None,
    progress_every: int = 50_000,
) -> SimResult:
    """Play ``rounds`` rounds for one seat and total the results.

    The shoe draws from ``rng``; the strategy gets its own generator seeded from it, so the cards
    do not depend on how many random numbers a strategy uses. ``bet`` defaults to
    ``rules.bet_unit`` so every payout is exact. ``progress`` is called with the rounds played so
    far every ``progress_every`` rounds.
    """
    if rounds < 0:
        raise ValueError("rounds must not be negative")
    stake = rules.bet_unit if bet is None else bet
    shoe = Shoe.for_rules(rules, rng)
    strategy_rng = random.Random(rng.getrandbits(64))
    choose = strategy.choose
    bets = {0: stake}
    over = Phase.OVER
    net_total = 0
    net_squares = 0
    wins = 0
    losses = 0
    played = 0
    while played < rounds:
        batch = min(progress_every, rounds - played)
        for _ in range(batch):
            game = Round(rules, shoe, bets, record_events=False)
            while game.phase is not over:
                decision = game.decision()
                game.act(decision.seat, choose(decision, strategy_rng))
            net = game.seat_net(0)
            net_total += net
            net_squares += net * net
            if net > 0:
                wins += 1
            elif net < 0:
                losses += 1
        played += batch
        if progress is not None:
            progress(played)
    return SimResult(
        rounds=rounds,
        bet=stake,
        net=net_total,
        net_squares=net_squares,
        wins=wins,
        pushes=rounds - wins - losses,
        losses=losses,
    )


@lru_cache(maxsize=32)
def simulated_house_edge(
    rules: Rules, strategy: str = "basic", rounds: int = 200_000, seed: int = 2024
) -> tuple[float, float]:
    """``(house edge %, standard error %)`` of ``strategy`` by simulation with a fixed seed.

    Deterministic and cached; ``engine.blackjack.analysis.house_edge`` is the instant figure for
    basic strategy, this one also measures a cut card and the other strategies.
    """
    result = simulate(rules, strategy_named(strategy, rules), rounds, random.Random(seed))
    return result.house_edge_pct, result.stderr_pct
