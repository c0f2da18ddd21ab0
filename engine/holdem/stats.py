"""Standard poker statistics counted from hands' events or PHH, with their definitions.

The definitions are the ones the common trackers (PokerTracker 4, Hold'em Manager) use; where they
leave a choice, the choice is written down here so every number Felt shows means one thing.
Every statistic is a count (or a ratio of two counts) over the hands a player was dealt:

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
- **Fold to 3-bet %**: folds over chances, where a chance is the opener's (the first preflop
  raiser's) first decision facing exactly two raises (his open and a 3-bet). An opener who was
  all in on his open, or who faces a 4-bet before he acts again, has no chance.
- **C-bet %** (continuation bet): c-bets over chances. The preflop aggressor is the player who
  made the last preflop raise; his chance is his first flop decision when nobody has bet the
  flop before him, and the c-bet is a bet then. A preflop aggressor who is all in before the flop
  never decides on it, so it is no chance; a flop bet by another player first (a donk bet) takes
  the chance away. A hand without a preflop raise has no c-bet.
- **Fold to c-bet %**: folds over chances, where a chance is a player's first decision facing the
  c-bet while it is the only bet on the flop (a raise after the c-bet ends the chances).
- **AF** (aggression factor): (bets + raises) / calls after the flop, over all postflop streets;
  undefined (``None``) with no postflop calls.
- **Aggression frequency** (AFq): (bets + raises) / (bets + raises + calls + folds) after the
  flop, in percent; checks are not counted.
- **WTSD** (went to showdown): showdowns over hands in which the player saw the flop (was not
  folded when the flop came, all-in players included). A showdown is a hand that ends with two
  or more players not folded; each of them went to showdown, whether they showed or mucked.
- **W$SD** (won money at showdown): showdowns in which the player won any part of a pot, split
  pots included, over showdowns.
- **Won without showdown**: hands the player won because every other player folded (walks and
  uncalled bets on any street), over hands dealt. ``hands_won`` counts hands in which the player
  won any part of any pot, showdown or not.
- **Net chips**: the player's final stack minus his starting stack, summed over hands.
- **bb/100** (big blinds won per 100 hands): ``net_bb_hundredths / hands``, where each hand adds
  its net in hundredths of that hand's big blind (``100 * net / big blind``, rounded half away
  from zero to a whole number), so tables of different stakes add up. The big blind is the
  big blind's post (never a straddle: trackers measure a straddled hand in the table's big
  blind); in a bomb pot, which posts no blinds, the hand's minimum bet.
- **Biggest pot won**: the largest pot (main or side, its whole amount) in which the player won a
  share, over all hands. A pot split between the runs of a board run twice, or between a double
  board's boards, counts whole.
- **Home games**: a straddle is a forced bet like the blinds, never voluntary (a straddler who
  checks his option has no VPIP, and raising over a straddle is an open-raise); a bomb pot has no
  preflop, so it gives nobody a VPIP, PFR or 3-bet chance, everyone in it saw the flop, and it
  has no c-bet (no preflop aggressor).
- **Raises in a hand**: a player's own bets and raises on all streets; ``max_raises_in_a_hand``
  is the most of them in any one hand. ``preflop_raises`` of a hand counts every player's preflop
  bets and raises together (an open-raise counts one; the big blind's post does not).

Counts are integers, so ``StyleCounts`` add up hand by hand (``+``; the two maxima keep the
larger): keep a running total and add each settled hand's counts, never re-read old hands.
``HandTally`` counts one hand event by event; ``hand_counts`` does a whole hand; ``hand_stats``
takes a finished ``Hand`` (its big blind included); ``counts_from_phh`` replays a PHH hand first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from engine.holdem.actions import ActionKind
from engine.holdem.events import BoardDealt, Event, HandEnded, PlayerActed, PotAwarded
from engine.holdem.hand import Hand
from engine.holdem.phh import HandHistory, replay
from engine.holdem.stakes import Stakes
from engine.holdem.streets import Street
from engine.ratios import Ratio

_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)
_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)

MAXIMA = frozenset({"max_raises_in_a_hand", "biggest_pot"})
"""The counts that keep the larger value when added; every other count is a sum."""


def _pct(count: int, total: int) -> float | None:
    return 100.0 * count / total if total else None


def bb_hundredths(net: int, big_blind: int) -> int:
    """``100 * net / big_blind`` rounded half away from zero (``bb/100``'s per-hand input).

    >>> bb_hundredths(3, 2), bb_hundredths(-1, 200), bb_hundredths(1, 200), bb_hundredths(-3, 600)
    (150, -1, 1, -1)
    """
    if big_blind < 1:
        raise ValueError("the big blind must be at least 1 chip")
    magnitude = (200 * abs(net) + big_blind) // (2 * big_blind)
    return magnitude if net >= 0 else -magnitude


@dataclass(frozen=True, slots=True)
class StyleCounts:
    """One player's counts over some hands; the percentages are properties (``None`` when
    there was no chance to measure them)."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    fold_to_three_bet_chances: int = 0
    folds_to_three_bet: int = 0
    cbet_chances: int = 0
    cbets: int = 0
    fold_to_cbet_chances: int = 0
    folds_to_cbet: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    postflop_folds: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    hands_won: int = 0
    won_without_showdown: int = 0
    net: int = 0
    net_bb_hundredths: int = 0
    biggest_pot: int = 0
    max_raises_in_a_hand: int = 0

    def __add__(self, other: StyleCounts) -> StyleCounts:
        values = {
            f.name: (
                max(getattr(self, f.name), getattr(other, f.name))
                if f.name in MAXIMA
                else getattr(self, f.name) + getattr(other, f.name)
            )
            for f in fields(StyleCounts)
        }
        return StyleCounts(**values)

    @property
    def vpip_pct(self) -> float | None:
        return RATIO["vpip"].of(self)

    @property
    def pfr_pct(self) -> float | None:
        return RATIO["pfr"].of(self)

    @property
    def three_bet_pct(self) -> float | None:
        return RATIO["three_bet"].of(self)

    @property
    def fold_to_three_bet_pct(self) -> float | None:
        return RATIO["fold_to_three_bet"].of(self)

    @property
    def cbet_pct(self) -> float | None:
        return RATIO["cbet"].of(self)

    @property
    def fold_to_cbet_pct(self) -> float | None:
        return RATIO["fold_to_cbet"].of(self)

    @property
    def af(self) -> float | None:
        return RATIO["af"].of(self)

    @property
    def afq_pct(self) -> float | None:
        return RATIO["afq"].of(self)

    @property
    def wtsd_pct(self) -> float | None:
        return RATIO["wtsd"].of(self)

    @property
    def wsd_pct(self) -> float | None:
        return RATIO["wsd"].of(self)

    @property
    def won_without_showdown_pct(self) -> float | None:
        return RATIO["won_without_showdown"].of(self)

    @property
    def bb_per_100(self) -> float | None:
        return RATIO["bb_per_100"].of(self)


RATIOS: tuple[Ratio, ...] = (
    Ratio("bb_per_100", "bb/100", ("net_bb_hundredths",), ("hands",), scale=1),
    Ratio("vpip", "VPIP", ("vpip",), ("hands",)),
    Ratio("pfr", "PFR", ("pfr",), ("hands",)),
    Ratio("three_bet", "3-bet", ("three_bets",), ("three_bet_chances",)),
    Ratio(
        "fold_to_three_bet",
        "Fold to 3-bet",
        ("folds_to_three_bet",),
        ("fold_to_three_bet_chances",),
    ),
    Ratio("cbet", "C-bet", ("cbets",), ("cbet_chances",)),
    Ratio("fold_to_cbet", "Fold to c-bet", ("folds_to_cbet",), ("fold_to_cbet_chances",)),
    Ratio("af", "AF", ("postflop_aggressive",), ("postflop_calls",), scale=1),
    Ratio(
        "afq",
        "Aggression freq.",
        ("postflop_aggressive",),
        ("postflop_aggressive", "postflop_calls", "postflop_folds"),
    ),
    Ratio("wtsd", "WTSD", ("showdowns",), ("saw_flop",)),
    Ratio("wsd", "W$SD", ("showdowns_won",), ("showdowns",)),
    Ratio("won_without_showdown", "Won w/o showdown", ("won_without_showdown",), ("hands",)),
)
"""Every ratio statistic of the definitions above, in the order /stats shows them."""

RATIO = {ratio.key: ratio for ratio in RATIOS}

NO_COUNTS = StyleCounts()


def total(counts: Iterable[StyleCounts]) -> StyleCounts:
    """The sum of ``counts``."""
    result = NO_COUNTS
    for part in counts:
        result = result + part
    return result


class HandTally:
    """One hand's counts, filled event by event (in the hand's PHH player order).

    ``big_blind`` is what ``net_bb_hundredths`` is measured in; without it (the bots' simulator
    counts style only) that count stays 0.
    """

    def __init__(self, players: int, big_blind: int | None = None) -> None:
        self.players = players
        self.big_blind = big_blind
        self.street = Street.PREFLOP
        self.preflop_raises = 0
        """Every player's preflop bets and raises so far, together."""
        self._opener: int | None = None
        self._aggressor: int | None = None
        self._flop_bets = 0
        self._cbet_made = False
        self._acted_on_flop = [False] * players
        self._folded = [False] * players
        self._flags: dict[str, list[int]] = {
            name: [0] * players
            for name in (
                "vpip",
                "pfr",
                "three_bet_chances",
                "three_bets",
                "fold_to_three_bet_chances",
                "folds_to_three_bet",
                "cbet_chances",
                "cbets",
                "fold_to_cbet_chances",
                "folds_to_cbet",
                "postflop_aggressive",
                "postflop_calls",
                "postflop_folds",
                "saw_flop",
                "max_raises_in_a_hand",
            )
        }
        self._won = [0] * players
        self._biggest_pot = [0] * players
        self._pot_amounts: dict[int, int] = {}
        self._pots_won: list[set[int]] = [set() for _ in range(players)]
        self._net: tuple[int, ...] | None = None

    def add(self, event: Event) -> None:
        """Count one event (private and chip-only events change nothing)."""
        match event:
            case BoardDealt(street=street):
                if street is Street.FLOP:
                    self._flags["saw_flop"] = [int(not folded) for folded in self._folded]
                self.street = street
            case PlayerActed(player=p, kind=kind):
                self._acted(p, kind)
            case PotAwarded(pot=pot, amount=amount, shares=shares):
                # Several boards or runs award each pot in parts: the pot is all its parts.
                whole = self._pot_amounts.get(pot, 0) + amount
                self._pot_amounts[pot] = whole
                for p, share in shares:
                    if share > 0:
                        self._won[p] = 1
                        self._pots_won[p].add(pot)
                for p in range(self.players):
                    if pot in self._pots_won[p]:
                        self._biggest_pot[p] = max(self._biggest_pot[p], whole)
            case HandEnded(net=net):
                self._net = net
            case _:
                pass

    def _acted(self, p: int, kind: ActionKind) -> None:
        flags = self._flags
        aggressive = kind in _AGGRESSIVE
        flags["max_raises_in_a_hand"][p] += aggressive
        if kind is ActionKind.FOLD:
            self._folded[p] = True
        if self.street is Street.PREFLOP:
            self._preflop(p, kind, aggressive)
            return
        flags["postflop_aggressive"][p] += aggressive
        flags["postflop_calls"][p] += kind is ActionKind.CALL
        flags["postflop_folds"][p] += kind is ActionKind.FOLD
        if self.street is Street.FLOP:
            self._flop(p, kind, aggressive)

    def _preflop(self, p: int, kind: ActionKind, aggressive: bool) -> None:
        flags = self._flags
        if self.preflop_raises == 1 and not flags["three_bet_chances"][p]:
            flags["three_bet_chances"][p] = 1
            flags["three_bets"][p] = int(aggressive)
        if (
            self.preflop_raises == 2
            and p == self._opener
            and not flags["fold_to_three_bet_chances"][p]
        ):
            flags["fold_to_three_bet_chances"][p] = 1
            flags["folds_to_three_bet"][p] = int(kind is ActionKind.FOLD)
        flags["vpip"][p] |= kind in _VOLUNTARY
        flags["pfr"][p] |= aggressive
        if aggressive:
            if self.preflop_raises == 0:
                self._opener = p
            self._aggressor = p
        self.preflop_raises += aggressive

    def _flop(self, p: int, kind: ActionKind, aggressive: bool) -> None:
        flags = self._flags
        first_decision = not self._acted_on_flop[p]
        self._acted_on_flop[p] = True
        if p == self._aggressor and first_decision and self._flop_bets == 0:
            flags["cbet_chances"][p] = 1
            flags["cbets"][p] = int(aggressive)
            self._cbet_made = aggressive
        elif self._cbet_made and self._flop_bets == 1 and not flags["fold_to_cbet_chances"][p]:
            flags["fold_to_cbet_chances"][p] = 1
            flags["folds_to_cbet"][p] = int(kind is ActionKind.FOLD)
        self._flop_bets += aggressive

    @property
    def showdown(self) -> bool:
        """Whether the hand ended with two or more players not folded."""
        return self._net is not None and self._folded.count(False) >= 2

    def counts(self) -> list[StyleCounts]:
        """Each player's counts for this hand (showdowns and results once ``HandEnded`` was
        added)."""
        showdown = self.showdown
        net = self._net or (0,) * self.players
        result = []
        for p in range(self.players):
            in_showdown = showdown and not self._folded[p]
            bb = 0 if self.big_blind is None else bb_hundredths(net[p], self.big_blind)
            result.append(
                StyleCounts(
                    hands=1,
                    **{name: values[p] for name, values in self._flags.items()},
                    showdowns=int(in_showdown),
                    showdowns_won=int(in_showdown and self._won[p] == 1),
                    hands_won=self._won[p],
                    won_without_showdown=int(self._won[p] == 1 and not showdown),
                    net=net[p],
                    net_bb_hundredths=bb,
                    biggest_pot=self._biggest_pot[p],
                )
            )
        return result


def hand_tally(events: Sequence[Event], players: int, big_blind: int | None = None) -> HandTally:
    """The tally of a whole hand."""
    tally = HandTally(players, big_blind)
    for event in events:
        tally.add(event)
    return tally


def hand_counts(
    events: Sequence[Event], players: int, big_blind: int | None = None
) -> list[StyleCounts]:
    """Each player's counts from one finished hand's events."""
    return hand_tally(events, players, big_blind).counts()


def hand_stats(hand: Hand) -> list[StyleCounts]:
    """Each player's counts from a finished hand, bb/100 in its big blind (``big_blind_of``)."""
    return hand_counts(hand.events, hand.player_count, big_blind_of(hand.stakes))


def big_blind_of(stakes: Stakes) -> int:
    """The big blind bb/100 counts in: the big blind's post, never a straddle; the minimum bet
    when no blind is posted (a bomb pot)."""
    blinds = stakes.blinds_or_straddles
    big = blinds[1] if len(blinds) > 1 else 0
    return big if big > 0 else stakes.min_bet


def counts_from_phh(history: HandHistory) -> list[StyleCounts]:
    """Each player's counts from a PHH hand, replayed by the engine."""
    return hand_stats(replay(history))


def counts_by_seat(
    counts: Sequence[StyleCounts], seats: Sequence[int]
) -> dict[int, dict[str, int]]:
    """Each player's counts as plain numbers by name, keyed by the seat player ``i`` sat in
    (``seats[i]``, as PHH's ``seats`` field lists them): what storage keeps per member."""
    if len(counts) != len(seats):
        raise ValueError("one seat number per player is needed")
    names = [f.name for f in fields(StyleCounts)]
    return {
        seat: {name: getattr(part, name) for name in names}
        for seat, part in zip(seats, counts, strict=True)
    }


def phh_counts_by_seat(history: HandHistory) -> dict[int, dict[str, int]]:
    """``counts_by_seat`` of a stored PHH hand (its ``seats`` field; seats 1, 2... without)."""
    seats = history.extra.get("seats") or range(1, len(history.starting_stacks) + 1)
    return counts_by_seat(counts_from_phh(history), [int(seat) for seat in seats])
