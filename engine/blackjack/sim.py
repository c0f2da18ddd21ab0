"""Simulated Blackjack sessions: one seat, one strategy, many rounds of the live-play engine.

``simulate`` plays ``Round`` exactly as a table does (events switched off) and returns a
``SimResult`` of exact integer totals, so results from several workers add up with ``combine``
to the same figures whatever the split. Edges are per chip wagered; a counting strategy can
spread its bets by the true count, and side bets in the rules are made every round.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.blackjack.actions import Action, Phase
from engine.blackjack.counting import BetRamp, Counter, CountingError
from engine.blackjack.round import Round
from engine.blackjack.rules import Rules
from engine.blackjack.shoe import Shoe
from engine.blackjack.sidebets import perfect_pairs_payout, twenty_one_three_payout
from engine.blackjack.strategy import (
    BasicStrategy,
    BlackjackStrategy,
    DealerStrategy,
    SimpleStrategy,
    strategy_named,
)


@dataclass(frozen=True, slots=True)
class SideBetTotals:
    """Totals of one side bet over a session: ``bets`` bets of ``stake`` chips each."""

    bets: int = 0
    stake: int = 0
    net: int = 0
    net_squares: int = 0

    @property
    def house_edge_pct(self) -> float:
        """The player's average loss per bet, in percent."""
        return -100.0 * self.net / (self.stake * self.bets) if self.bets else 0.0

    @property
    def stderr_pct(self) -> float:
        """Standard error of ``house_edge_pct``."""
        return _stderr_pct(self.bets, self.net, self.net_squares, self.stake)

    def summary(self) -> dict[str, float | int]:
        """The figures ``--json`` prints for the side bet."""
        return {
            "bets": self.bets,
            "house_edge_pct": self.house_edge_pct,
            "stderr_pct": self.stderr_pct,
        }

    def __add__(self, other: SideBetTotals) -> SideBetTotals:
        if self.bets and other.bets and self.stake != other.stake:
            raise ValueError("side bets of different stakes cannot be combined")
        return SideBetTotals(
            bets=self.bets + other.bets,
            stake=self.stake or other.stake,
            net=self.net + other.net,
            net_squares=self.net_squares + other.net_squares,
        )


def _stderr_pct(rounds: int, net: int, net_squares: int, stake: int) -> float:
    if rounds < 2:
        return 0.0
    mean = net / rounds
    variance = (net_squares - rounds * mean * mean) / (rounds - 1)
    return 100.0 * math.sqrt(max(variance, 0.0) / rounds) / stake


@dataclass(frozen=True, slots=True)
class SimResult:
    """Totals of a simulated session for one seat, ``bet`` chips a unit.

    Each round's opening bet is ``bet`` with a flat bet, or a number of units from a bet spread;
    ``wagered`` adds them up and the edge is measured per chip wagered (the net over the total
    of opening bets). A round is a win, push or loss by the sign of its net over all the seat's
    hands (splits, doubles and insurance included; side bets are totalled on their own).
    """

    rounds: int
    bet: int
    net: int
    net_squares: int
    wins: int
    pushes: int
    losses: int
    wagered: int
    wagered_squares: int
    net_wagered: int
    """The sum over rounds of net times opening bet (for the standard error of the edge)."""
    side_21_3: SideBetTotals = SideBetTotals()
    perfect_pairs: SideBetTotals = SideBetTotals()

    @property
    def net_units(self) -> float:
        """Net result in units (negative when the player lost)."""
        return self.net / self.bet

    @property
    def average_bet(self) -> float:
        """The average opening bet, in chips."""
        return self.wagered / self.rounds if self.rounds else 0.0

    @property
    def house_edge_pct(self) -> float:
        """The player's average loss per chip wagered, in percent (negative: player's edge)."""
        return -100.0 * self.net / self.wagered if self.wagered else 0.0

    @property
    def player_edge_pct(self) -> float:
        """The player's average win per chip wagered, in percent (``-house_edge_pct``)."""
        return -self.house_edge_pct

    @property
    def stderr_pct(self) -> float:
        """Standard error of the edge, in percent.

        The edge is a ratio of totals, net over wagered; its standard error is that of the mean
        of each round's ``net - edge * bet`` over the average bet (with a flat bet, the usual
        standard error of the mean net over the bet).
        """
        n = self.rounds
        if n < 2 or not self.wagered:
            return 0.0
        ratio = self.net / self.wagered
        residual_squares = (
            self.net_squares - 2 * ratio * self.net_wagered + ratio * ratio * self.wagered_squares
        )
        variance = max(residual_squares, 0.0) / (n - 1)
        return 100.0 * math.sqrt(variance / n) / (self.wagered / n)

    @property
    def stdev_per_round(self) -> float:
        """The standard deviation of one round's net result, in chips."""
        n = self.rounds
        if n < 2:
            return 0.0
        mean = self.net / n
        return math.sqrt(max(self.net_squares - n * mean * mean, 0.0) / (n - 1))

    def risk_of_ruin(self, bankroll: int) -> float:
        """The chance of ever losing ``bankroll`` chips playing on like this, from 0 to 1.

        The diffusion estimate ``exp(-2 * mean * bankroll / variance)`` with the mean and
        variance of a round's net result; 1 when the mean is not positive (a losing or even game
        ruins any bankroll in the long run).
        """
        if bankroll < 1:
            raise ValueError("a bankroll is a whole number of chips, 1 or more")
        n = self.rounds
        mean = self.net / n if n else 0.0
        variance = self.stdev_per_round**2
        if mean <= 0 or variance == 0:
            return 1.0 if mean <= 0 else 0.0
        return math.exp(-2.0 * mean * bankroll / variance)

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
            "player_edge_pct": self.player_edge_pct,
            "average_bet": self.average_bet,
            "win_pct": self.win_pct,
            "push_pct": self.push_pct,
            "loss_pct": self.loss_pct,
            "wins": self.wins,
            "pushes": self.pushes,
            "losses": self.losses,
            "win_ratio": self.win_ratio,
        }

    @staticmethod
    def combine(results: Iterable[SimResult]) -> SimResult:
        """The totals of several sessions at the same unit bet."""
        parts = list(results)
        if not parts:
            raise ValueError("nothing to combine")
        bets = {part.bet for part in parts}
        if len(bets) != 1:
            raise ValueError("sessions at different bets cannot be combined")
        side_21_3 = SideBetTotals()
        perfect_pairs = SideBetTotals()
        for part in parts:
            side_21_3 += part.side_21_3
            perfect_pairs += part.perfect_pairs
        return SimResult(
            rounds=sum(part.rounds for part in parts),
            bet=parts[0].bet,
            net=sum(part.net for part in parts),
            net_squares=sum(part.net_squares for part in parts),
            wins=sum(part.wins for part in parts),
            pushes=sum(part.pushes for part in parts),
            losses=sum(part.losses for part in parts),
            wagered=sum(part.wagered for part in parts),
            wagered_squares=sum(part.wagered_squares for part in parts),
            net_wagered=sum(part.net_wagered for part in parts),
            side_21_3=side_21_3,
            perfect_pairs=perfect_pairs,
        )


class _SideBets:
    """The side bets a simulated seat makes every round (one unit each), and their totals."""

    __slots__ = ("pairs", "paytable", "pp_net", "pp_squares", "stake", "tt_net", "tt_squares")

    def __init__(self, rules: Rules, stake: int) -> None:
        self.paytable = rules.side_21_3
        self.pairs = rules.perfect_pairs
        self.stake = stake
        self.tt_net = self.tt_squares = self.pp_net = self.pp_squares = 0

    def settle(self, game: Round) -> None:
        stake = self.stake
        cards = game.opening_cards(0)
        if self.paytable is not None:
            pays = twenty_one_three_payout(cards, game.dealer_up, self.paytable)
            net = stake * pays if pays else -stake
            self.tt_net += net
            self.tt_squares += net * net
        if self.pairs:
            pays = perfect_pairs_payout(cards)
            net = stake * pays if pays else -stake
            self.pp_net += net
            self.pp_squares += net * net

    def totals(self, rounds: int) -> tuple[SideBetTotals, SideBetTotals]:
        stake = self.stake
        side_21_3 = SideBetTotals()
        perfect_pairs = SideBetTotals()
        if self.paytable is not None:
            side_21_3 = SideBetTotals(rounds, stake, self.tt_net, self.tt_squares)
        if self.pairs:
            perfect_pairs = SideBetTotals(rounds, stake, self.pp_net, self.pp_squares)
        return side_21_3, perfect_pairs


def simulate(
    rules: Rules,
    strategy: BlackjackStrategy,
    rounds: int,
    rng: random.Random,
    *,
    bet: int | None = None,
    spread: BetRamp | None = None,
    progress: Callable[[int], None] | None = None,
    progress_every: int = 50_000,
) -> SimResult:
    """Play ``rounds`` rounds for one seat and total the results.

    The shoe draws from ``rng``; the strategy gets its own generator seeded from it, so the cards
    do not depend on how many random numbers a strategy uses. ``bet`` (the unit) defaults to
    ``rules.bet_unit`` so every payout is exact. A counting strategy (one with a ``counter``,
    such as ``hilo``) has its counter follow the shoe, and ``spread`` then sizes each opening bet
    by the true count before the deal (a fresh shoe counts 0). Side bets in the rules are made
    every round, one unit each. ``progress`` is called with the rounds played so far every
    ``progress_every`` rounds.
    """
    if rounds < 0:
        raise ValueError("rounds must not be negative")
    stake, counter, ramp, flat = _betting(rules, strategy, bet, spread)
    shoe = Shoe.for_rules(rules, rng)
    play = _Player(rules, shoe, strategy, random.Random(rng.getrandbits(64)), stake)
    played = 0
    while played < rounds:
        batch = min(progress_every, rounds - played)
        play.rounds(batch, counter, ramp, flat)
        played += batch
        if progress is not None:
            progress(played)
    return play.result(rounds)


CHART_STRATEGIES = (BasicStrategy, DealerStrategy, SimpleStrategy)
"""Strategies whose choice depends only on ``Round.chart_situation`` (a chart cell and the
legal actions; no random numbers, no count). The simulator asks one of them once per
situation and remembers the answer: building a ``Decision`` and asking the strategy at every
decision was about a third of a simulated round. Exact types only: a subclass (``hilo``) may
read more."""


class _Player:
    """One seat playing round after round, with the sums of its results."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        strategy: BlackjackStrategy,
        strategy_rng: random.Random,
        stake: int,
    ) -> None:
        self.rules, self.shoe, self.stake = rules, shoe, stake
        self.strategy, self.strategy_rng = strategy, strategy_rng
        self.side_bets = _SideBets(rules, stake) if rules.side_21_3 or rules.perfect_pairs else None
        self.net = self.net_squares = self.wagered = self.wagered_squares = 0
        self.net_wagered = self.wins = self.losses = 0

    def rounds(self, count: int, counter: Counter | None, ramp: BetRamp | None, flat: int) -> None:
        """Play ``count`` rounds, the bet sized by ``ramp`` from ``counter`` (else ``flat``)."""
        # The hot loop: everything it touches is a local, and the sums are stored once.
        rules, shoe, stake, side_bets = self.rules, self.shoe, self.stake, self.side_bets
        choose, strategy_rng = self.strategy.choose, self.strategy_rng
        bets = {0: flat}
        over = Phase.OVER
        chart: dict[tuple[bool, int, int, bool, int, int], Action] | None = None
        if type(self.strategy) in CHART_STRATEGIES:
            chart = {}
        net_total = net_squares = wagered = wagered_squares = net_wagered = wins = losses = 0
        for _ in range(count):
            wager = flat
            if ramp is not None and counter is not None:
                fresh = shoe.needs_shuffle or not counter.cards_left
                true_count = 0.0 if fresh else counter.running * 52 / counter.cards_left
                wager = stake * ramp.units(true_count)
                bets[0] = wager
            game = Round(rules, shoe, bets, record_events=False)
            if side_bets is not None:
                side_bets.settle(game)
            while game.phase is not over:
                if chart is None:
                    decision = game.decision()
                    game.act(decision.seat, choose(decision, strategy_rng))
                    continue
                situation = game.chart_situation(0)
                action = chart.get(situation)
                if action is None:
                    action = chart[situation] = choose(game.decision(0), strategy_rng)
                game.act(0, action)
            if counter is not None:
                counter.observe(shoe)
            net = game.seat_net(0)
            net_total += net
            net_squares += net * net
            wagered += wager
            wagered_squares += wager * wager
            net_wagered += net * wager
            if net > 0:
                wins += 1
            elif net < 0:
                losses += 1
        self.net += net_total
        self.net_squares += net_squares
        self.wagered += wagered
        self.wagered_squares += wagered_squares
        self.net_wagered += net_wagered
        self.wins += wins
        self.losses += losses

    def result(self, rounds: int) -> SimResult:
        side_bets = self.side_bets
        side_21_3, perfect_pairs = (
            side_bets.totals(rounds)
            if side_bets is not None
            else (SideBetTotals(), SideBetTotals())
        )
        return SimResult(
            rounds=rounds, bet=self.stake, net=self.net, net_squares=self.net_squares,
            wins=self.wins, pushes=rounds - self.wins - self.losses, losses=self.losses,
            wagered=self.wagered, wagered_squares=self.wagered_squares,
            net_wagered=self.net_wagered, side_21_3=side_21_3, perfect_pairs=perfect_pairs,
        )  # fmt: skip


def _betting(
    rules: Rules, strategy: BlackjackStrategy, bet: int | None, spread: BetRamp | None
) -> tuple[int, Counter | None, BetRamp | None, int]:
    """The unit stake, the strategy's counter (if it counts), the bet ramp (None for a flat bet)
    and the flat bet; a spread without a counting strategy is refused."""
    stake = rules.bet_unit if bet is None else bet
    counter: Counter | None = getattr(strategy, "counter", None)
    if spread is not None and not spread.is_flat and counter is None:
        raise CountingError(f"a bet spread needs a counting strategy, not {strategy.name!r}")
    ramp = spread if spread is not None and not spread.is_flat else None
    return stake, counter, ramp, stake * (spread.low if spread is not None else 1)


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
