"""Standard poker statistics (VPIP, PFR, 3-bet, AF, WTSD, W$SD) counted from hands' events or PHH.

The definitions are the ones the common trackers (PokerTracker 4, Hold'em Manager) use; where they
leave a choice, the choice is written down here so every number Felt shows means one thing:

- **Hands** are hands dealt, walks (everyone folds to the big blind) included.
- **VPIP** (voluntarily put money in pot): the share of hands in which the player called, bet or
  raised before the flop. Posting a blind or an ante is not voluntary; the big blind who checks
  his option has not put money in voluntarily; a small blind who completes has.
- **PFR** (pre-flop raise): the share of hands in which the player raised before the flop (an
  open-raise, a 3-bet or any later re-raise; at most once per hand). The big blind's post is not
  a raise.
- **3-bet %**: 3-bets made over chances to 3-bet. A chance is a preflop decision facing exactly
  one raise (the open); the 3-bet is a re-raise made then. A *limp-raise* (limp, someone raises,
  the limper re-raises) is a 3-bet: it is a re-raise facing one raise, and it also counts for VPIP
  and PFR. At most one chance and one 3-bet per hand.
- **AF** (aggression factor): (bets + raises) / calls after the flop, over all postflop streets;
  undefined (``None``) with no postflop calls.
- **WTSD** (went to showdown): showdowns over hands in which the player saw the flop (was not
  folded when the flop came, all-in players included). A showdown is a hand that ends with two
  or more players not folded; each of them went to showdown, whether they showed or mucked.
- **W$SD** (won money at showdown): showdowns in which the player won any part of a pot, split
  pots included, over showdowns.
- **Raises in a hand**: a player's own bets and raises on all streets; ``max_raises_in_a_hand``
  is the most of them in any one hand. ``preflop_raises`` of a hand counts every player's preflop
  bets and raises together (an open-raise counts one; the big blind's post does not).

Counts are integers, so ``StyleCounts`` add up hand by hand (``+``): keep a running total and
add each settled hand's counts, never re-read old hands. ``HandTally`` counts one hand event by
event; ``hand_counts`` does a whole hand; ``counts_from_phh`` replays a PHH hand first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from engine.holdem.actions import ActionKind
from engine.holdem.events import BoardDealt, Event, HandEnded, PlayerActed, PotAwarded
from engine.holdem.phh import HandHistory, replay
from engine.holdem.streets import Street

_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)
_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)


def _pct(count: int, total: int) -> float | None:
    return 100.0 * count / total if total else None


@dataclass(frozen=True, slots=True)
class StyleCounts:
    """One player's counts over some hands; the percentages are properties (``None`` when
    there was no chance to measure them)."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    max_raises_in_a_hand: int = 0

    def __add__(self, other: StyleCounts) -> StyleCounts:
        values = {
            f.name: (
                max(getattr(self, f.name), getattr(other, f.name))
                if f.name == "max_raises_in_a_hand"
                else getattr(self, f.name) + getattr(other, f.name)
            )
            for f in fields(StyleCounts)
        }
        return StyleCounts(**values)

    @property
    def vpip_pct(self) -> float | None:
        return _pct(self.vpip, self.hands)

    @property
    def pfr_pct(self) -> float | None:
        return _pct(self.pfr, self.hands)

    @property
    def three_bet_pct(self) -> float | None:
        return _pct(self.three_bets, self.three_bet_chances)

    @property
    def af(self) -> float | None:
        return self.postflop_aggressive / self.postflop_calls if self.postflop_calls else None

    @property
    def wtsd_pct(self) -> float | None:
        return _pct(self.showdowns, self.saw_flop)

    @property
    def wsd_pct(self) -> float | None:
        return _pct(self.showdowns_won, self.showdowns)


NO_COUNTS = StyleCounts()


def total(counts: Iterable[StyleCounts]) -> StyleCounts:
    """The sum of ``counts``."""
    result = NO_COUNTS
    for part in counts:
        result = result + part
    return result


class HandTally:
    """One hand's counts, filled event by event (in the hand's PHH player order)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.street = Street.PREFLOP
        self.preflop_raises = 0
        """Every player's preflop bets and raises so far, together."""
        self._folded = [False] * players
        self._vpip = [False] * players
        self._pfr = [False] * players
        self._chance = [False] * players
        self._three_bet = [False] * players
        self._aggressive = [0] * players
        self._calls = [0] * players
        self._raises = [0] * players
        self._saw_flop = [False] * players
        self._won = [False] * players
        self._ended = False

    def add(self, event: Event) -> None:
        """Count one event (private and chip-only events change nothing)."""
        match event:
            case BoardDealt(street=street):
                if street is Street.FLOP:
                    self._saw_flop = [not folded for folded in self._folded]
                self.street = street
            case PlayerActed(player=p, kind=kind):
                self._acted(p, kind)
            case PotAwarded(shares=shares):
                for p, _ in shares:
                    self._won[p] = True
            case HandEnded():
                self._ended = True
            case _:
                pass

    def _acted(self, p: int, kind: ActionKind) -> None:
        aggressive = kind in _AGGRESSIVE
        self._raises[p] += aggressive
        if kind is ActionKind.FOLD:
            self._folded[p] = True
        if self.street is not Street.PREFLOP:
            self._aggressive[p] += aggressive
            self._calls[p] += kind is ActionKind.CALL
            return
        if self.preflop_raises == 1 and not self._chance[p]:
            self._chance[p] = True
            self._three_bet[p] = aggressive
        self._vpip[p] |= kind in _VOLUNTARY
        self._pfr[p] |= aggressive
        self.preflop_raises += aggressive

    @property
    def showdown(self) -> bool:
        """Whether the hand ended with two or more players not folded."""
        return self._ended and self._folded.count(False) >= 2

    def counts(self) -> list[StyleCounts]:
        """Each player's counts for this hand (showdowns once ``HandEnded`` was added)."""
        showdown = self.showdown
        return [
            StyleCounts(
                hands=1,
                vpip=int(self._vpip[p]),
                pfr=int(self._pfr[p]),
                three_bet_chances=int(self._chance[p]),
                three_bets=int(self._three_bet[p]),
                postflop_aggressive=self._aggressive[p],
                postflop_calls=self._calls[p],
                saw_flop=int(self._saw_flop[p]),
                showdowns=int(showdown and not self._folded[p]),
                showdowns_won=int(showdown and not self._folded[p] and self._won[p]),
                max_raises_in_a_hand=self._raises[p],
            )
            for p in range(self.players)
        ]


def hand_tally(events: Sequence[Event], players: int) -> HandTally:
    """The tally of a whole hand."""
    tally = HandTally(players)
    for event in events:
        tally.add(event)
    return tally


def hand_counts(events: Sequence[Event], players: int) -> list[StyleCounts]:
    """Each player's counts from one finished hand's events."""
    return hand_tally(events, players).counts()


def counts_from_phh(history: HandHistory) -> list[StyleCounts]:
    """Each player's counts from a PHH hand, replayed by the engine."""
    hand = replay(history)
    return hand_counts(hand.events, hand.player_count)
