"""Simulated Hold'em sessions between bots, reporting each seat's win rate with its error.

``simulate_holdem`` seats one strategy per seat and plays ``hands`` hands of the real engine:
stacks reset to ``stack`` every hand, the button moves one seat each hand, and every decision is
made from a ``SeatView`` with the table's public statistics, exactly as at a live table. Results
are exact integer totals per seat (net chips, the sum of squared per-hand nets, and the style
counts of ``engine.holdem.stats``: VPIP, PFR, 3-bet, AF, WTSD, W$SD) and a histogram of preflop
raises per hand, so shares of a run played in parallel combine into the same figures. Each smart
seat gets a ``Personality`` drawn from its level and the seed. Same seed, same result.

With ``duplicate=True`` each deal is played once from every seat (the button moves and the deck
stays for as many hands as there are seats), as duplicate bridge and the computer poker
competitions do: the cards' luck cancels between seats, so the error of a win rate shrinks
several times and differences between strategies show in far fewer hands. The standard error is
then measured over whole deals (the hands of one deal are not independent).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.bots.errors import IllegalBotActionError
from engine.bots.personality import Personality
from engine.bots.registry import BotSpec, make_strategy
from engine.bots.stats import PlayerStats, TableStats
from engine.bots.strategy import Strategy
from engine.bots.view import SeatView
from engine.errors import MalformedInputError
from engine.holdem.actions import ChooseRunCount
from engine.holdem.hand import Hand, Phase
from engine.holdem.options import HomeGameOptions, StraddleKind
from engine.holdem.stats import NO_COUNTS, StyleCounts, hand_tally
from engine.holdem.stats import total as total_style

MIN_SEATS, MAX_SEATS = 2, 10


class SimulationSetupError(MalformedInputError):
    """Seats, blinds, stacks or a hand count a simulation cannot be run with."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's totals: ``net`` chips over ``hands`` hands, and the sum of squared nets."""

    seat: int
    strategy: str
    hands: int
    net: int
    net_squares: int
    big_blind: int
    style: StyleCounts = NO_COUNTS
    """The seat's VPIP, PFR, 3-bet, AF, WTSD and W$SD counts over the run."""
    block: int = 1
    """Hands per independent unit: 1, or the seat count when every deal is played from each
    seat (``duplicate``); ``net_squares`` then sums the squared net of each deal."""

    @property
    def bb_per_100(self) -> float:
        """Big blinds won per 100 hands."""
        return 100.0 * self.net / (self.big_blind * self.hands) if self.hands else 0.0

    @property
    def stderr_bb_per_100(self) -> float:
        """The standard error of ``bb_per_100`` (hands, or deals played from every seat, are
        independent: stacks reset)."""
        n = -(-self.hands // self.block)
        if n < 2:
            return 0.0
        mean = self.net / n
        variance = max(0.0, (self.net_squares - n * mean * mean) / (n - 1))
        return 100.0 * math.sqrt(variance / n) / (self.block * self.big_blind)

    @property
    def interval_95(self) -> tuple[float, float]:
        """A 95% confidence interval of ``bb_per_100`` (normal approximation)."""
        half = 1.96 * self.stderr_bb_per_100
        return (self.bb_per_100 - half, self.bb_per_100 + half)


@dataclass(frozen=True, slots=True)
class HoldemSimResult:
    """A session's results, seat by seat (seats numbered from 1)."""

    hands: int
    big_blind: int
    seats: tuple[SeatResult, ...]
    preflop_raises: tuple[int, ...] = ()
    """``preflop_raises[k]``: the hands with ``k`` preflop bets and raises, all players
    together (an open-raise counts one, the big blind's post none)."""

    @property
    def preflop_raises_p99(self) -> int:
        """The 99th percentile of the preflop raises per hand (nearest rank)."""
        wanted = math.ceil(0.99 * sum(self.preflop_raises))
        seen = 0
        for raises, count in enumerate(self.preflop_raises):
            seen += count
            if seen >= wanted:
                return raises
        return 0

    def summary(self) -> dict[str, object]:
        """The JSON ``felt sim holdem --json`` prints, with exactly the issue's fields
        (percentages and AF are ``null`` when there was nothing to measure)."""
        return {
            "hands": self.hands,
            "preflop_raises_p99": self.preflop_raises_p99,
            "seats": [
                {
                    "seat": seat.seat,
                    "strategy": seat.strategy,
                    "net": seat.net,
                    "bb_per_100": seat.bb_per_100,
                    "stderr_bb_per_100": seat.stderr_bb_per_100,
                    "vpip_pct": seat.style.vpip_pct,
                    "pfr_pct": seat.style.pfr_pct,
                    "three_bet_pct": seat.style.three_bet_pct,
                    "af": seat.style.af,
                    "wtsd_pct": seat.style.wtsd_pct,
                    "wsd_pct": seat.style.wsd_pct,
                    "max_raises_in_a_hand": seat.style.max_raises_in_a_hand,
                }
                for seat in self.seats
            ],
        }

    @staticmethod
    def combine(results: Iterable[HoldemSimResult]) -> HoldemSimResult:
        """The totals of several sessions at the same table."""
        parts = list(results)
        if not parts:
            raise SimulationSetupError("nothing to combine")
        first = parts[0]
        seats = []
        for index, seat in enumerate(first.seats):
            same = [part.seats[index] for part in parts]
            seats.append(
                SeatResult(
                    seat.seat,
                    seat.strategy,
                    sum(s.hands for s in same),
                    sum(s.net for s in same),
                    sum(s.net_squares for s in same),
                    seat.big_blind,
                    total_style(s.style for s in same),
                    seat.block,
                )
            )
        longest = max(len(part.preflop_raises) for part in parts)
        histogram = tuple(
            sum(part.preflop_raises[k] for part in parts if k < len(part.preflop_raises))
            for k in range(longest)
        )
        return HoldemSimResult(
            sum(p.hands for p in parts), first.big_blind, tuple(seats), histogram
        )


def session_rng(seed: int, purpose: str) -> random.Random:
    """A generator for one purpose (the deck, a seat) of a seeded session; string seeds are
    hashed with SHA-512, so they are stable across processes and Python versions."""
    return random.Random(f"felt-sim-holdem:{seed}:{purpose}")


def check_setup(
    specs: Sequence[BotSpec], hands: int, small_blind: int, big_blind: int, stack: int
) -> None:
    """Refuse what cannot be simulated, with a message fit for the user."""
    if not MIN_SEATS <= len(specs) <= MAX_SEATS:
        raise SimulationSetupError(
            f"a table seats {MIN_SEATS} to {MAX_SEATS} players, not {len(specs)}"
        )
    if hands < 1:
        raise SimulationSetupError(f"the number of hands must be at least 1, not {hands}")
    if not 1 <= small_blind <= big_blind:
        raise SimulationSetupError(
            f"blinds must be whole numbers with 1 <= small <= big, not {small_blind}/{big_blind}"
        )
    if stack < 1:
        raise SimulationSetupError(f"the stack must be at least 1 chip, not {stack}")


def seating(number: int, seats: int) -> list[int]:
    """The seat of each PHH player in hand ``number`` (from 0): the button is seat
    ``number % seats`` and PHH player ``i`` sits ``i + 1`` seats after it."""
    button = number % seats
    return [(button + 1 + i) % seats for i in range(seats)]


def play_hand(
    hand: Hand,
    strategies: Sequence[Strategy],
    rngs: Sequence[random.Random],
    stats: Sequence[PlayerStats] | None = None,
) -> None:
    """Play ``hand`` to the end: ``strategies[i]`` decides for PHH player ``i`` with ``rngs[i]``.

    Raises ``IllegalBotActionError`` if a strategy returns an action the rules refuse. Bots all
    in before the river always agree to run the board as many times as the hand allows."""
    while not hand.is_complete:
        legal = hand.turn
        assert legal is not None  # automatic showdowns: a hand always has someone to act
        player = legal.player
        if hand.phase is Phase.RUN_COUNT:
            hand.act(player, ChooseRunCount(legal.max_run_count))
            continue
        view = SeatView.from_hand(hand, player, stats=stats)
        action = strategies[player].decide(view, rngs[player])
        if not legal.allows(action):
            raise IllegalBotActionError(
                f"{strategies[player].name} chose {action!r}, which is not legal: {legal}"
            )
        hand.act(player, action)


def _deal_block(seats: int, hands: int, first_hand: int, duplicate: bool) -> int:
    """How many hands share one deal: every seat's turn at it when ``duplicate``, else one."""
    block = seats if duplicate else 1
    if hands % block or first_hand % block:
        raise SimulationSetupError(
            f"duplicate deals need a number of hands divisible by the {seats} seats, not {hands}"
        )
    return block


def simulate_holdem(
    specs: Sequence[BotSpec],
    hands: int,
    seed: int,
    *,
    small_blind: int = 1,
    big_blind: int = 2,
    stack: int = 200,
    first_hand: int = 0,
    progress: Callable[[int], None] | None = None,
    progress_every: int = 100,
    on_hand: Callable[[Hand, Sequence[int]], None] | None = None,
    duplicate: bool = False,
    home: HomeGameOptions | None = None,
) -> HoldemSimResult:
    """Play ``hands`` hands between the seats ``specs`` and total each seat's results.

    The button starts at seat ``first_hand % seats`` and moves one seat per hand; ``progress``
    is called with the hands played every ``progress_every`` hands and at the end; ``on_hand``
    with each finished hand and the seat (from 0) of each of its PHH players. ``duplicate``
    plays each deal from every seat (``hands`` and ``first_hand`` must then be multiples of
    the seat count); ``home`` adds home-game options (every straddle allowed is posted).
    """
    check_setup(specs, hands, small_blind, big_blind, stack)
    n = len(specs)
    block = _deal_block(n, hands, first_hand, duplicate)
    home = home if home is not None else HomeGameOptions()
    straddles = 0 if home.straddle is StraddleKind.OFF else home.max_straddles
    strategies = [
        make_strategy(spec, personality=Personality.draw(spec.difficulty, f"{seed}:{seat}"))
        for seat, spec in enumerate(specs)
    ]
    rngs = [session_rng(seed, f"seat:{seat}") for seat in range(n)]
    book = TableStats()
    totals = _Totals(n, stack, block)
    stacks = [stack] * n
    for number in range(hands):
        order = seating(first_hand + number, n)
        # Each hand's deck has its own seed, so a hand's cards do not depend on how earlier
        # hands were played: changing one strategy leaves every deal the same. Duplicate deals
        # keep a deck while the button goes round, so each seat holds each position's cards.
        deal = (first_hand + number) // block
        deck = f"deck:{deal}" if not duplicate else f"duplicate-deck:{deal}"
        counted = first_hand + number + 1
        stakes = home.stakes(counted, n, small_blind, big_blind, straddles=straddles)
        options = home.hand_options(counted)
        hand = Hand(stakes, stacks, rng=session_rng(seed, deck), options=options)
        play_hand(
            hand,
            [strategies[seat] for seat in order],
            [rngs[seat] for seat in order],
            book.snapshot(order),
        )
        totals.add(hand, order)
        book.record(hand.events, order)
        if on_hand is not None:
            on_hand(hand, order)
        if progress is not None and ((number + 1) % progress_every == 0 or number + 1 == hands):
            progress(number + 1)
    return totals.result(specs, hands, big_blind)


class _Totals:
    """A session's running totals by seat: nets, squared nets (of each hand, or of each
    ``block`` of hands that share a deal), style counts, and the histogram of preflop raises
    per hand."""

    def __init__(self, seats: int, stack: int, block: int = 1) -> None:
        self.stack = stack
        self.block = block
        self.played = 0
        self.nets = [0] * seats
        self.squares = [0] * seats
        self.deal_nets = [0] * seats
        self.styles = [NO_COUNTS] * seats
        self.histogram: list[int] = []

    def add(self, hand: Hand, order: Sequence[int]) -> None:
        """Count a finished hand whose PHH player ``i`` sat in seat ``order[i]``."""
        for player, seat in enumerate(order):
            result = hand.stacks[player] - self.stack
            self.nets[seat] += result
            self.deal_nets[seat] += result
        self.played += 1
        if self.played % self.block == 0:
            for seat, result in enumerate(self.deal_nets):
                self.squares[seat] += result * result
            self.deal_nets = [0] * len(self.deal_nets)
        tally = hand_tally(hand.events, len(order))
        for player, counts in enumerate(tally.counts()):
            self.styles[order[player]] += counts
        self.histogram.extend([0] * (tally.preflop_raises + 1 - len(self.histogram)))
        self.histogram[tally.preflop_raises] += 1

    def result(self, specs: Sequence[BotSpec], hands: int, big_blind: int) -> HoldemSimResult:
        """The session's result: each seat's totals, and the preflop-raise histogram."""
        seats = tuple(
            SeatResult(
                seat + 1,
                spec.label,
                hands,
                self.nets[seat],
                self.squares[seat],
                big_blind,
                self.styles[seat],
                self.block,
            )
            for seat, spec in enumerate(specs)
        )
        return HoldemSimResult(hands, big_blind, seats, tuple(self.histogram))
