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


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Counts of one player's public actions over the hands recorded so far.

    Preflop: ``vpip`` hands in which they put chips in voluntarily (called or raised),
    ``pfr`` hands in which they raised, ``three_bets`` hands in which they re-raised a raise,
    and how often they ``faced_raises`` and ``folded_to_raises`` (each decision counts; the
    ``big`` counts are the part of those where calling cost ``BIG_BET`` of the pot or more).
    After the flop: ``aggressive`` bets and raises, ``calls``, ``checks``, and how often they
    ``faced_bets`` and ``folded_to_bets`` (and the same for big bets). At showdown:
    ``showdowns`` reached, ``showdowns_won``, and ``shown`` hands whose preflop percentiles
    (0 = aces, 1 = the worst hand) add up to ``shown_percentile_sum``.
    """

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bets: int = 0
    faced_raises: int = 0
    folded_to_raises: int = 0
    faced_big_raises: int = 0
    folded_to_big_raises: int = 0
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
    vpip = [False] * players
    pfr = [False] * players
    three_bet = [False] * players
    faced_raises = [0] * players
    folded_to_raises = [0] * players
    faced_big_raises = [0] * players
    folded_to_big_raises = [0] * players
    aggressive = [0] * players
    calls = [0] * players
    checks = [0] * players
    faced = [0] * players
    folded = [0] * players
    faced_big = [0] * players
    folded_big = [0] * players
    showdown = [False] * players
    won = [False] * players
    shown: list[float | None] = [None] * players
    street = 0
    raises = 0
    pot = 0
    street_bets = [0] * players
    table = preflop_table()
    for event in events:
        match event:
            case AntePosted(amount=amount):
                pot += amount
            case BlindPosted(player=p, amount=amount):
                pot += amount
                street_bets[p] += amount
            case BetReturned(amount=amount):
                pot -= amount
            case BoardDealt(street=number):
                street = number
                street_bets = [0] * players
            case PlayerActed(player=p, kind=kind, added=added, bet_to=bet_to):
                to_call = max(street_bets) - street_bets[p]
                big = to_call > 0 and to_call >= BIG_BET * pot
                pot += added
                street_bets[p] = bet_to
                folding = kind is ActionKind.FOLD
                if street == 0:
                    if raises and to_call > 0:
                        faced_raises[p] += 1
                        folded_to_raises[p] += folding
                        faced_big_raises[p] += big
                        folded_to_big_raises[p] += folding and big
                    if kind in (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE):
                        vpip[p] = True
                    if kind in (ActionKind.BET, ActionKind.RAISE):
                        pfr[p] = True
                        if raises >= 1:
                            three_bet[p] = True
                        raises += 1
                    continue
                if to_call > 0:
                    faced[p] += 1
                    folded[p] += folding
                    faced_big[p] += big
                    folded_big[p] += folding and big
                if kind in (ActionKind.BET, ActionKind.RAISE):
                    aggressive[p] += 1
                elif kind is ActionKind.CALL:
                    calls[p] += 1
                elif kind is ActionKind.CHECK:
                    checks[p] += 1
            case CardsShown(player=p, cards=cards):
                showdown[p] = True
                shown[p] = table.percentile(cards[0], cards[1])
            case CardsMucked(player=p):
                showdown[p] = True
            case PotAwarded(shares=shares) if any(showdown):
                for p, _ in shares:
                    won[p] = True
            case _:
                pass  # private hole cards, the hand's end
    out = []
    for p in range(players):
        stats = PlayerStats(
            hands=1,
            vpip=int(vpip[p]),
            pfr=int(pfr[p]),
            three_bets=int(three_bet[p]),
            faced_raises=faced_raises[p],
            folded_to_raises=folded_to_raises[p],
            faced_big_raises=faced_big_raises[p],
            folded_to_big_raises=folded_to_big_raises[p],
            aggressive=aggressive[p],
            calls=calls[p],
            checks=checks[p],
            faced_bets=faced[p],
            folded_to_bets=folded[p],
            faced_big_bets=faced_big[p],
            folded_to_big_bets=folded_big[p],
            showdowns=int(showdown[p]),
            showdowns_won=int(won[p] and showdown[p]),
        )
        percentile = shown[p]
        if percentile is not None:
            stats = replace(stats, shown=1, shown_percentile_sum=percentile)
        out.append(stats)
    return out
