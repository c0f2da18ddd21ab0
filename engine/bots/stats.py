"""Public statistics of the players at a table, gathered from the public events of past hands.

The table host (or the simulator) keeps one ``TableStats`` per table and calls ``record`` after
each hand with the hand's events and a stable key for each player (a seat number or a user id;
PHH indices move with the button, keys do not). ``HoleCardsDealt`` events are skipped by type:
only what every player at the table saw is counted. Shown hands are kept as their preflop
percentile, never as cards, so a ``SeatView`` holds no card but its own and the board.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields, replace

from engine.bots.preflop import preflop_table
from engine.bots.usual import FULL, usual
from engine.holdem.actions import ActionKind
from engine.holdem.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    PlayerActed,
    PotAwarded,
)
from engine.holdem.stats import HandTally


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Counts of one player's public actions over the hands recorded so far.

    Preflop: ``vpip`` hands in which they put chips in voluntarily (called or raised),
    ``pfr`` hands in which they raised, ``three_bets`` hands in which they re-raised a raise,
    and how often they ``faced_raises`` and ``folded_to_raises`` (each decision counts; the
    ``big`` counts are the part of those where calling cost ``BIG_BET`` of the pot or more).
    After the flop: ``aggressive`` bets and raises, ``calls``, ``checks``, and how often they
    ``faced_bets`` and ``folded_to_bets`` (and the same for big bets). On the flop, as
    ``engine.holdem.stats`` defines them: ``cbet_chances`` and ``cbets`` (continuation bets),
    ``faced_cbets`` and ``folded_to_cbets``; and ``cbets_raised``, the c-bets whose maker faced
    a raise at his next decision on the flop, and ``cbets_folded_to_raise``, the times he folded
    then. At showdown:
    ``showdowns`` reached, ``showdowns_won``, and ``shown`` hands whose preflop percentiles
    (0 = aces, 1 = the worst hand) add up to ``shown_percentile_sum``. The baseline these
    counts are judged by (``engine.bots.usual``): how much wider than at 6-max a regular plays
    at each hand's table size, summed over the hands (``wider_vpip_sum``, in VPIP) and over the
    hands shown (``wider_shown_sum``, in mean percentile); both 0 at six players or more.
    """

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bets: int = 0
    faced_raises: int = 0
    folded_to_raises: int = 0
    faced_big_raises: int = 0
    folded_to_big_raises: int = 0
    cbet_chances: int = 0
    cbets: int = 0
    faced_cbets: int = 0
    folded_to_cbets: int = 0
    cbets_raised: int = 0
    cbets_folded_to_raise: int = 0
    aggressive: int = 0
    calls: int = 0
    checks: int = 0
    faced_bets: int = 0
    folded_to_bets: int = 0
    faced_big_bets: int = 0
    folded_to_big_bets: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    shown: int = 0
    shown_percentile_sum: float = 0.0
    wider_vpip_sum: float = 0.0
    wider_shown_sum: float = 0.0

    @property
    def postflop_actions(self) -> int:
        """Bets, raises, calls and checks after the flop."""
        return self.aggressive + self.calls + self.checks

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(
            *(getattr(self, f.name) + getattr(other, f.name) for f in fields(PlayerStats))
        )


NO_STATS = PlayerStats()
"""A player nobody has seen play yet."""


class TableStats:
    """Per-player public statistics of one table. Not thread-safe: record under the table's
    lock, and hand the (immutable) snapshots to bot threads."""

    def __init__(self) -> None:
        self._stats: dict[Hashable, PlayerStats] = {}

    def get(self, player: Hashable) -> PlayerStats:
        """The player's statistics so far (all zero for a newcomer)."""
        return self._stats.get(player, NO_STATS)

    def snapshot(self, players: Sequence[Hashable]) -> tuple[PlayerStats, ...]:
        """The statistics of each player of a hand, in its PHH order."""
        return tuple(self.get(player) for player in players)

    def forget(self, player: Hashable) -> None:
        """Drop a player's statistics (they left the table)."""
        self._stats.pop(player, None)

    def record(self, events: Sequence[Event], players: Sequence[Hashable]) -> None:
        """Count one finished hand from its events; ``players[i]`` is PHH player ``i``'s key."""
        for index, delta in enumerate(hand_stats(events, len(players))):
            key = players[index]
            self._stats[key] = self.get(key) + delta


BIG_BET = 0.3
"""A bet is *big* for the player facing it when calling costs at least this share of the pot
they see (the bet included): about a 45%-pot bet or more. Folds are counted separately for big
bets, since a player who folds by the price folds far more often to them."""


def hand_stats(events: Sequence[Event], players: int) -> list[PlayerStats]:
    """Each player's statistics from one hand's public events."""
    tally = _HandTally(players)
    for event in events:
        tally.add(event)
    return tally.stats()


class _HandTally:
    """One hand's counters, player by player, filled event by event."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.vpip = [False] * players
        self.pfr = [False] * players
        self.three_bet = [False] * players
        self.faced_raises = [0] * players
        self.folded_to_raises = [0] * players
        self.faced_big_raises = [0] * players
        self.folded_to_big_raises = [0] * players
        self.aggressive = [0] * players
        self.calls = [0] * players
        self.checks = [0] * players
        self.faced = [0] * players
        self.folded = [0] * players
        self.faced_big = [0] * players
        self.folded_big = [0] * players
        self.showdown = [False] * players
        self.won = [False] * players
        self.shown: list[float | None] = [None] * players
        self.street = 0
        self.raises = 0
        self.pot = 0
        self.street_bets = [0] * players
        self.table = preflop_table()
        self.style = HandTally(players)
        """The standard counts, for the c-bet chances and folds to c-bets."""
        self.flop_decisions: list[tuple[int, bool, bool]] = []
        """Each flop decision: the player, whether it faced a bet, whether it folded."""

    def add(self, event: Event) -> None:
        """Count one event."""
        self.style.add(event)
        match event:
            case AntePosted(amount=amount):
                self.pot += amount
            case BlindPosted(player=p, amount=amount):
                self.pot += amount
                self.street_bets[p] += amount
            case BetReturned(amount=amount):
                self.pot -= amount
            case BoardDealt(street=street):
                self.street = street
                self.street_bets = [0] * self.players
            case PlayerActed(player=p, kind=kind, added=added, bet_to=bet_to):
                self._acted(p, kind, added, bet_to)
            case CardsShown(player=p, cards=cards):
                self.showdown[p] = True
                self.shown[p] = self.table.percentile(cards[0], cards[1])
            case CardsMucked(player=p):
                self.showdown[p] = True
            case PotAwarded(shares=shares) if any(self.showdown):
                for p, _ in shares:
                    self.won[p] = True
            case _:
                pass  # private hole cards, the hand's end

    def _acted(self, p: int, kind: ActionKind, added: int, bet_to: int) -> None:
        street_bets = self.street_bets
        to_call = max(street_bets) - street_bets[p]
        big = to_call > 0 and to_call >= BIG_BET * self.pot
        self.pot += added
        street_bets[p] = bet_to
        folding = kind is ActionKind.FOLD
        if self.street == 0:
            self._acted_preflop(p, kind, to_call, folding, big)
            return
        if self.street == 1:
            self.flop_decisions.append((p, to_call > 0, folding))
        if to_call > 0:
            self.faced[p] += 1
            self.folded[p] += folding
            self.faced_big[p] += big
            self.folded_big[p] += folding and big
        if kind in (ActionKind.BET, ActionKind.RAISE):
            self.aggressive[p] += 1
        elif kind is ActionKind.CALL:
            self.calls[p] += 1
        elif kind is ActionKind.CHECK:
            self.checks[p] += 1

    def _acted_preflop(
        self, p: int, kind: ActionKind, to_call: int, folding: bool, big: bool
    ) -> None:
        if self.raises and to_call > 0:
            self.faced_raises[p] += 1
            self.folded_to_raises[p] += folding
            self.faced_big_raises[p] += big
            self.folded_to_big_raises[p] += folding and big
        if kind in (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE):
            self.vpip[p] = True
        if kind in (ActionKind.BET, ActionKind.RAISE):
            self.pfr[p] = True
            if self.raises >= 1:
                self.three_bet[p] = True
            self.raises += 1

    def _cbet_raised(self, cbettor: int) -> tuple[int, int]:
        """Whether the c-bettor faced a raise at his next flop decision, and folded to it."""
        decisions = [(faced, folded) for p, faced, folded in self.flop_decisions if p == cbettor]
        if len(decisions) < 2 or not decisions[1][0]:
            return 0, 0
        return 1, int(decisions[1][1])

    def stats(self) -> list[PlayerStats]:
        """Each player's statistics for the hand."""
        out = []
        regular = usual(self.players)
        style = self.style.counts()
        for p in range(self.players):
            raised, folded_to_raise = self._cbet_raised(p) if style[p].cbets else (0, 0)
            stats = PlayerStats(
                hands=1,
                vpip=int(self.vpip[p]),
                pfr=int(self.pfr[p]),
                three_bets=int(self.three_bet[p]),
                faced_raises=self.faced_raises[p],
                folded_to_raises=self.folded_to_raises[p],
                faced_big_raises=self.faced_big_raises[p],
                folded_to_big_raises=self.folded_to_big_raises[p],
                cbet_chances=style[p].cbet_chances,
                cbets=style[p].cbets,
                faced_cbets=style[p].fold_to_cbet_chances,
                folded_to_cbets=style[p].folds_to_cbet,
                cbets_raised=raised,
                cbets_folded_to_raise=folded_to_raise,
                aggressive=self.aggressive[p],
                calls=self.calls[p],
                checks=self.checks[p],
                faced_bets=self.faced[p],
                folded_to_bets=self.folded[p],
                faced_big_bets=self.faced_big[p],
                folded_to_big_bets=self.folded_big[p],
                showdowns=int(self.showdown[p]),
                showdowns_won=int(self.won[p] and self.showdown[p]),
                wider_vpip_sum=regular.vpip - FULL.vpip,
            )
            percentile = self.shown[p]
            if percentile is not None:
                stats = replace(
                    stats,
                    shown=1,
                    shown_percentile_sum=percentile,
                    wider_shown_sum=regular.shown - FULL.shown,
                )
            out.append(stats)
        return out
