"""Simulated tournaments between bots: the real tournament model, the real Hold'em engine and
the real bot strategies, reporting finishing places and ROI per strategy with a standard error.

``play_tournament`` runs one tournament to the end: every table plays a hand in turn (table
order), then the injected clock moves on ``SECONDS_PER_HAND`` (so minute-based levels rise as
they would at tables dealing about 80 hands an hour); at a break the bots take the add-on when
it is sold and the clock jumps to the break's end. With ``rebuys`` a busted bot rebuys whenever
the rules allow. Every decision is made from a ``SeatView`` with the tournament's public
statistics, as at a live table. ``simulate_tournaments`` repeats a Sit & Go ``tournaments``
times with the seats drawn afresh each time. Same seed, same result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.bots.personality import Personality
from engine.bots.registry import BotSpec, make_strategy
from engine.bots.simulate import play_hand
from engine.bots.stats import TableStats
from engine.bots.strategy import Strategy
from engine.errors import MalformedInputError
from engine.holdem.hand import Hand
from engine.tournament.events import TournamentEvent
from engine.tournament.structure import Break, Format, Structure
from engine.tournament.tournament import Phase, Tournament, TournamentConfig

SECONDS_PER_HAND = 45.0
SIM_BUY_IN = 1_000
"""Wallet chips per buy-in in a simulation (large enough that rounding the prizes is noise)."""
MAX_HANDS_PER_TABLE = 20_000
"""A tournament that has not ended after this many hands at one table is a bug, not a result."""


class TournamentSimError(MalformedInputError):
    """Seats, counts or a structure a tournament simulation cannot be run with."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's result in one tournament."""

    place: int
    prize: int
    payments: int
    """Buy-ins paid: the entry, its rebuys and add-ons."""


@dataclass(frozen=True, slots=True)
class PlayedTournament:
    """A finished tournament: each player's outcome, and how many hands were dealt."""

    outcomes: Mapping[str, Outcome]
    hands: int
    tournament: Tournament


def play_tournament(
    config: TournamentConfig,
    strategies: Mapping[str, Strategy],
    rng_seed: str,
    *,
    rebuys: bool = False,
    on_hand: Callable[[Tournament, Hand, list[TournamentEvent]], None] | None = None,
) -> PlayedTournament:
    """Register ``strategies``' players in order, start, and play to the end. ``on_hand`` is
    called after every hand with the tournament (already updated), the hand, and the events
    the hand's result caused (eliminations, moves, the finish)."""
    tournament = Tournament(config)
    for player in strategies:
        tournament.register(player)
    now = 0.0
    tournament.start(now)
    book = TableStats()
    decisions = {player: random.Random(f"{rng_seed}:seat:{player}") for player in strategies}
    hands = 0
    player_of = {entry.number: entry.player for entry in tournament.entries.values()}
    while tournament.phase is Phase.RUNNING:
        if tournament.on_break:
            now = _take_break(tournament, rebuys)
            continue
        for table in sorted(tournament.seating.tables):
            if not tournament.can_start_hand(table):
                continue
            setup = tournament.start_hand(table)
            deck = random.Random(f"{rng_seed}:deck:{hands}")
            hand = Hand(setup.stakes, setup.stacks, rng=deck)
            players = [player_of[entry] for entry in setup.entries]
            play_hand(
                hand,
                [strategies[p] for p in players],
                [decisions[p] for p in players],
                book.snapshot(setup.entries),
            )
            book.record(hand.events, setup.entries)
            hands += 1
            final = dict(zip(setup.entries, hand.stacks, strict=True))
            buying = [
                e
                for e, s in final.items()
                if s == 0 and rebuys and tournament.may_rebuy(e, stack=0)
            ]
            events = tournament.finish_hand(table, final, buying)
            if on_hand is not None:
                on_hand(tournament, hand, events)
            if tournament.phase is not Phase.RUNNING:
                break
        if hands > MAX_HANDS_PER_TABLE * max(1, len(tournament.seating.tables)):
            raise TournamentSimError("the tournament did not end: the blinds never rose")
        if tournament.phase is Phase.RUNNING:
            now += SECONDS_PER_HAND
            tournament.advance_clock(now)
    return PlayedTournament(_outcomes(tournament), hands, tournament)


def _take_break(tournament: Tournament, rebuys: bool) -> float:
    step = tournament.step
    assert isinstance(step, Break)
    if rebuys and step.add_on:
        for entry in tournament.alive:
            if tournament.can_add_on(entry.number):
                tournament.add_on(entry.number)
    due = tournament.next_change_at
    assert due is not None
    tournament.advance_clock(due)
    return due


def _outcomes(tournament: Tournament) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    prizes = {finish.entry: finish for finish in tournament.results}
    for entry in tournament.entries.values():
        finish = prizes[entry.number]
        payments = 1 + entry.rebuys + entry.add_ons
        before = outcomes.get(entry.player)
        if before is not None:  # a re-entry: the best place, everything paid and won
            finish_place = min(before.place, finish.place)
            outcomes[entry.player] = Outcome(
                finish_place, before.prize + finish.prize, before.payments + payments
            )
        else:
            outcomes[entry.player] = Outcome(finish.place, finish.prize, payments)
    return outcomes


# ------------------------------------------------------------------------------ many SNGs


@dataclass(frozen=True, slots=True)
class SeatTotals:
    """One seat's totals over a run (net and cost in wallet chips)."""

    seat: int
    strategy: str
    tournaments: int
    in_the_money: int
    place_sum: int
    payments: int
    net: int
    net_squares: int
    cost_net: int
    """Sum of cost * net, for the ratio estimator's variance."""
    cost_squares: int
    places: tuple[int, ...]
    """``places[k]``: tournaments finished in place ``k + 1``."""

    @property
    def roi_pct(self) -> float:
        """Return on investment: total net / total paid in, in percent."""
        cost = self.payments * SIM_BUY_IN
        return 100.0 * self.net / cost if cost else 0.0

    @property
    def stderr_roi_pct(self) -> float:
        """The standard error of ``roi_pct`` (the delta method for a ratio of means)."""
        n = self.tournaments
        if n < 2:
            return 0.0
        cost = self.payments * SIM_BUY_IN
        ratio = self.net / cost
        # Sum over tournaments of (net - ratio * cost)^2, from the running sums.
        spread = self.net_squares - 2 * ratio * self.cost_net + ratio * ratio * self.cost_squares
        mean_cost = cost / n
        return 100.0 * math.sqrt(max(0.0, spread) / (n * (n - 1))) / mean_cost

    def summary(self, with_entries: bool) -> dict[str, object]:
        """The seat's JSON object for ``felt sim tournament --json``."""
        row: dict[str, object] = {
            "seat": self.seat,
            "strategy": self.strategy,
            "itm_pct": 100.0 * self.in_the_money / self.tournaments,
            "roi_pct": self.roi_pct,
            "stderr_roi_pct": self.stderr_roi_pct,
            "avg_place": self.place_sum / self.tournaments,
        }
        if with_entries:
            row["entries"] = self.payments / self.tournaments
        return row


@dataclass(frozen=True, slots=True)
class TournamentSimResult:
    """A run's results, seat by seat (seats numbered from 1), and the hands dealt."""

    tournaments: int
    hands: int
    seats: tuple[SeatTotals, ...]
    rebuys_happened: bool

    def summary(self) -> dict[str, object]:
        """Exactly the JSON ``felt sim tournament --json`` prints."""
        return {
            "tournaments": self.tournaments,
            "seats": [seat.summary(self.rebuys_happened) for seat in self.seats],
        }


def sng_config(structure: Structure, players: int, seed: int) -> TournamentConfig:
    """A one-table Sit & Go for ``players`` at the simulation's buy-in."""
    return TournamentConfig(
        "simulated sit & go",
        structure,
        SIM_BUY_IN,
        Format.SIT_AND_GO,
        seats_per_table=max(players, 2),
        max_entries=players,
        seed=seed,
    )


def simulate_tournaments(
    specs: Sequence[BotSpec],
    tournaments: int,
    structure: Structure,
    seed: int,
    *,
    rebuys: bool = False,
    progress: Callable[[int], None] | None = None,
) -> TournamentSimResult:
    """Play ``tournaments`` Sit & Gos between ``specs`` (one player per spec) and total each
    seat's places and ROI."""
    if not 2 <= len(specs) <= 10:
        raise TournamentSimError(f"a Sit & Go seats 2 to 10 players, not {len(specs)}")
    if tournaments < 1:
        raise TournamentSimError(f"the number of tournaments must be at least 1, not {tournaments}")
    if rebuys:
        structure = structure.with_rebuys()
    names = [f"seat{seat + 1}" for seat in range(len(specs))]
    strategies = {
        name: make_strategy(spec, personality=Personality.draw(spec.difficulty, f"{seed}:{name}"))
        for name, spec in zip(names, specs, strict=True)
    }
    totals = [_Running(len(specs)) for _ in specs]
    hands = 0
    for number in range(tournaments):
        config = sng_config(structure, len(specs), _derived(seed, number))
        played = play_tournament(
            config, strategies, f"felt-sim-tournament:{seed}:{number}", rebuys=rebuys
        )
        hands += played.hands
        for seat, name in enumerate(names):
            totals[seat].add(played.outcomes[name])
        if progress is not None:
            progress(number + 1)
    seats = tuple(
        totals[seat].result(seat + 1, spec.label, tournaments) for seat, spec in enumerate(specs)
    )
    happened = any(seat.payments > tournaments for seat in seats)
    return TournamentSimResult(tournaments, hands, seats, happened)


def _derived(seed: int, number: int) -> int:
    return random.Random(f"felt-sim-tournament-draw:{seed}:{number}").getrandbits(63)


class _Running:
    def __init__(self, players: int) -> None:
        self.count = 0
        self.itm = 0
        self.place_sum = 0
        self.payments = 0
        self.net = 0
        self.net_squares = 0
        self.cost_net = 0
        self.cost_squares = 0
        self.places = [0] * players

    def add(self, outcome: Outcome) -> None:
        cost = outcome.payments * SIM_BUY_IN
        net = outcome.prize - cost
        self.count += 1
        self.itm += outcome.prize > 0
        self.place_sum += outcome.place
        self.payments += outcome.payments
        self.net += net
        self.net_squares += net * net
        self.cost_net += cost * net
        self.cost_squares += cost * cost
        self.places[outcome.place - 1] += 1

    def result(self, seat: int, label: str, tournaments: int) -> SeatTotals:
        return SeatTotals(
            seat,
            label,
            tournaments,
            self.itm,
            self.place_sum,
            self.payments,
            self.net,
            self.net_squares,
            self.cost_net,
            self.cost_squares,
            tuple(self.places),
        )
