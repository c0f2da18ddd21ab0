"""The ``smart`` strategy: it prices every legal option in chips and plays the best one.

**Equity.** Each decision starts from the seat's equity (share of the pot) against the live
opponents: before the flop from the shipped table (equity against k random hands), scaled for
each opponent who raised or called by the table's heads-up equity against the range that action
suggests; after it from ``reading.estimate_equity`` against opponent models, whose ranges are
narrowed by how each opponent entered the pot and weighted by what their bets (by size, the river
most) and calls on this board say (Monte Carlo on the flop, exact on the turn and river
heads-up when cheap).

**Reads.** Each opponent's public statistics (VPIP, raise and 3-bet rates, folds to small and big
bets and raises, postflop aggression, how wide the hands they showed down were) are blended with
priors into ``Tendencies``; a player who shows down any two cards is *careless* (their bets and
folds say nothing), so a maniac's bet means little and a rock's a lot. Against players whose
estimated ranges are wide (what they enter with and show down) it plays more hands before the
flop (``_LOOSE_FIELD``: it isolates the loose players rather than leave their chips to the
others); against careless ones it expects to realize nearly all its equity (they neither bluff
it off a hand nor fold the hands that would pay it), bets and raises whenever the prices say so
(no bets to keep balanced: their calls do not read them) and moves all-in over their bets.

**Prices.** Fold is 0. Check and call are worth the equity the hand gets to realize (less out of
position, less for weak hands against opponents who keep betting, more against careless folders who
give up later; implied odds on the flop and turn) times the pot, with the chips of players still to
act who are expected to call, and the risk that one of them raises. Each raise size (fractions of
the pot after the flop, multiples of the bet before it, the minimum, and all-in when it is a size
people use: at most about twice the pot after the flop, or before it when short-stacked, over a
raise of at most four times, or over a careless raiser) is worth: everyone folds (the pot),
somebody re-raises (call all-in or give up: before the flop with the equity against the range that
player re-raises with, any two cards for a maniac), or it is called (equity against the likelier,
stronger calling hands, and the chips they add). Raises that would leave less than a third of the
stack behind go all-in. This one calculation does the work of pot odds, implied odds, position,
stack-to-pot ratio, bluffs (when folds pay), value bets sized to what callers pay, slow-plays
(checking into players who bet) and the stack relative to the table average (the big stack's bets
are feared a little more). It never open-limps except from the small blind, so it looks like poker
to the people at the table.

**Looks like poker.** Sizes are the ones people use (``raise_sizes``): opens of 2.5-3 bb plus
one per limper, 3-bets of 3x in position and 4x out of it, 4-bets of 2.2-2.5x, then only all-in;
postflop bets of 1/3, 1/2, 2/3 and a pot (1.5 pots on the turn and river), raises of 2.5-3x, and
all-in at a small stack-to-pot ratio; never a string of minimum raises. Re-raises before the flop
come from ranges by level (``RERAISE_RANGES``: value hands plus ace-blocker bluffs), and a hand
in that range re-raises or folds; after the flop a hand bets or raises only with value or as the
level's share of continuation bets, stabs and bluff raises (``POSTFLOP_STYLE``), so its bets
carry information as people's do. Each seat's ``Personality`` makes it a little looser or
tighter and more or less aggressive within its level; ``HUMAN_RANGES`` says where each level
lands in self-play.

**Difficulty** changes the samples, the noise on the equity, how far it narrows ranges, how fast
it trusts what it observes, and how often it picks a near-best option instead of the best:
``easy`` plays its cards against random hands with a rough estimate and no reads; ``hard`` reads
and exploits fully. See ``SETTINGS``.

**The hard level plays from ranges**, as a solid regular does: it opens from position charts
(``OPEN_RANGES``: raise or fold, narrower over limpers; from the button and the small blind
wider against blinds seen folding to opens more than the priors expect, as far as their folds
pay, up to any two cards against clear over-folders, ``_steals``), re-raises from
``RERAISE_RANGES`` and, at three or more players, calls a re-raise only from ``FLAT_RERAISE``,
weighs every call after the flop by its equity against each opponent's range as the table's
statistics and the hand's action narrow it, with pot and implied odds, bets thinner for value
than ``normal`` (its opponents call too much to be bluffed often), and on the river bluffs its
air at a balanced rate, mostly with hands that block the calls (``_RIVER_BLUFF``). Heads-up,
where ranges are wide and every pot is a duel, it drops those frequencies and bets and raises
whenever its prices say so.

**Heads-up is not loose.** A heads-up regular plays most hands and shows down hands near the
middle of the range; judged by 6-max habits it would look careless, its bets and re-raises
would be read as a maniac's. So looseness and carelessness are judged against a regular at the
same table size (``engine.bots.usual``, recorded with each hand in the table statistics).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from engine.bots.personality import NEUTRAL, Personality
from engine.bots.preflop import preflop_table
from engine.bots.reading import OpponentModel, estimate_equity
from engine.bots.stats import PlayerStats
from engine.bots.strategy import CALL, CHECK, FOLD
from engine.bots.usual import FULL
from engine.bots.view import SeatView
from engine.holdem.actions import Action, ActionKind, RaiseTo
from engine.holdem.streets import Street


class Difficulty(StrEnum):
    """How well a ``smart`` bot plays."""

    EASY = "easy"
    """Rough equity against random hands, noisy judgement, no reads."""
    NORMAL = "normal"
    """Decent estimates and partial reads of ranges and tendencies."""
    HARD = "hard"
    """Precise estimates, full hand reading and exploitation of observed tendencies."""


@dataclass(frozen=True, slots=True)
class SmartSettings:
    """The knobs a difficulty turns.

    ``samples``: heads-up Monte Carlo samples (fewer per opponent multiway); ``exact_budget``:
    hand evaluations an exact turn enumeration may take; ``noise``: standard deviation added to
    every equity estimate; ``reading``: 0 treats opponents as random hands, 1 narrows their
    ranges fully; ``exploit``: 0 uses priors only, 1 trusts the observed statistics; ``mix``:
    how often it picks another option whose expected value is within ``margin`` pots of the
    best one.
    """

    samples: int
    exact_budget: int
    noise: float
    reading: float
    exploit: float
    mix: float
    margin: float


SETTINGS: Mapping[Difficulty, SmartSettings] = {
    Difficulty.EASY: SmartSettings(
        samples=150, exact_budget=0, noise=0.09, reading=0.0, exploit=0.0, mix=0.3, margin=0.15
    ),
    Difficulty.NORMAL: SmartSettings(
        samples=400,
        exact_budget=6_000,
        noise=0.035,
        reading=0.8,
        exploit=0.8,
        mix=0.12,
        margin=0.03,
    ),
    Difficulty.HARD: SmartSettings(
        samples=900,
        exact_budget=15_000,
        noise=0.0,
        reading=1.0,
        exploit=1.0,
        mix=0.05,
        margin=0.02,
    ),
}

HUMAN_RANGES: Mapping[Difficulty, Mapping[str, tuple[float, float]]] = {
    Difficulty.EASY: {
        "vpip": (35.0, 60.0),
        "pfr": (10.0, 24.0),
        "three_bet": (1.0, 6.0),
        "af": (0.7, 1.6),
        "wtsd": (40.0, 85.0),
    },
    Difficulty.NORMAL: {
        "vpip": (20.0, 30.0),
        "pfr": (15.0, 25.0),
        "three_bet": (5.0, 10.0),
        "af": (2.0, 4.0),
        "wtsd": (22.0, 32.0),
    },
    Difficulty.HARD: {
        "vpip": (20.0, 30.0),
        "pfr": (16.0, 25.0),
        "three_bet": (4.0, 10.0),
        "af": (1.8, 4.0),
        "wtsd": (17.0, 30.0),
    },
}
"""Where each level's table averages land in 6-max self-play with 100 bb stacks (VPIP, PFR,
3-bet and WTSD in percent, AF a ratio; definitions in ``engine.holdem.stats``). The normal
level's ranges are those of issue 16, which match the usual published profile of a
tight-aggressive 6-max regular (PokerTracker/Hold'em Manager population guides: VPIP about
20-28, PFR 16-23, 3-bet 6-9%, AF 2-4, WTSD 24-30); ``hard`` is a solid regular who may give
up more without a hand (its full reads make it fold more: WTSD 17.8 in self-play before it
learned to steal, 19.2 now) and widens its button and small-blind opens against blinds who
defend too little (``SmartStrategy._steals``: VPIP 29.1 in self-play, at the loose end of a
regular's); ``easy``
is a loose, passive recreational player (a calling station: VPIP 35+, AF under 1.6, to
showdown far more often). The normal level's AF measures 2.15 (seed 2024, 3,000 hands; 1.82
before it raised its strong hands for value, ``PostflopStyle.value_raise``, and folded more
marginal calls). Checked by the slow tests."""

# Priors for opponents' tendencies, and how many observations they are worth.
_PRIOR_VPIP, _PRIOR_PFR, _PRIOR_3BET = 0.35, 0.16, 0.05
_PRIOR_AGGRESSION = 0.35
_PRIOR_FOLD_SMALL_BET, _PRIOR_FOLD_BIG_BET = 0.3, 0.5
_PRIOR_FOLD_SMALL_RAISE, _PRIOR_FOLD_BIG_RAISE = 0.45, 0.65
_SMALL_SHARE, _BIG_SHARE = 0.2, 0.4
"""Typical shares of the pot a call costs facing a small and a big bet."""
_PRIOR_INFORMATIVE = 0.7
"""How much an unknown player's folds and bets follow their cards (1: perfectly)."""
_HANDS_WEIGHT, _ACTIONS_WEIGHT = 12.0, 12.0

_IMPLIED = {Street.PREFLOP: 0.08, Street.FLOP: 0.12, Street.TURN: 0.06, Street.RIVER: 0.0}
"""Share of the chips behind (capped by the pot) a call may expect to win later, per unit of
equity, on each street."""

_REALIZE = {
    Street.PREFLOP: {False: 0.75, True: 0.88},
    Street.FLOP: {False: 0.82, True: 0.92},
    Street.TURN: {False: 0.93, True: 0.99},
    Street.RIVER: {False: 1.0, True: 1.0},
}
"""How much of its equity a hand that checks or calls gets to realize, out of / in position."""

_FUTURE = {Street.PREFLOP: 0.8, Street.FLOP: 0.65, Street.TURN: 0.4, Street.RIVER: 0.0}
"""How much later betting is left on each street, for the pots careless folders give up."""

_SHORT_STACK_BB = 25
"""At or below this many big blinds, moving all-in before the flop is a normal play."""

_CARELESS = 0.4
"""Below this ``informative``, a player's calls and folds hardly follow their cards: bet into
them whenever the prices say so."""

_WILD = 0.25
"""Below this ``informative``, a player's raises say nothing about their cards."""

_PRESSURE = 0.6
"""How much of a weak hand's equity later bets from aggressive opponents take away."""


def _entered(view: SeatView) -> list[int]:
    """Live opponents who have put chips in voluntarily before the flop (called or raised)."""
    return [
        i
        for i in view.opponents
        if any(
            a.player == i
            and a.street is Street.PREFLOP
            and a.kind in (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
            for a in view.history
        )
    ]


def _bet_sizes(view: SeatView) -> list[float]:
    """For each action of the hand, the raise (or bet) it made as a share of the pot before
    it; 0 for checks, calls and folds."""
    stakes = view.stakes
    pot = sum(
        min(stakes.blind_of(i) + stakes.ante_of(i), view.starting_stacks[i])
        for i in range(view.players)
    )
    street = Street.PREFLOP
    current = stakes.big_blind
    sizes = []
    for action in view.history:
        if action.street is not street:
            street, current = action.street, 0
        if action.is_aggressive:
            sizes.append((action.bet_to - current) / max(1, pot))
            current = max(current, action.bet_to)
        else:
            sizes.append(0.0)
        pot += action.added
    return sizes


def _raises(view: SeatView) -> int:
    """Bets and raises on this street so far."""
    return sum(1 for a in view.history if a.street is view.street and a.is_aggressive)


def _playable(view: SeatView) -> bool:
    """A pair, suited or connected hole cards: hands that make hidden strong hands."""
    first, second = view.hole
    gap = abs((first >> 2) - (second >> 2))
    return gap == 0 or first & 3 == second & 3 or gap == 1


def _blocks(view: SeatView) -> bool:
    """Whether the hole cards block the hands that call a river bet: a card of the suit with
    three or more on the board (the flushes), else an ace or a card of the board's top rank
    (the nut and top-pair hands)."""
    suits = [card & 3 for card in view.board]
    flush_suits = {suit for suit in suits if suits.count(suit) >= 3}
    if flush_suits:
        return any(card & 3 in flush_suits for card in view.hole)
    top = max(card >> 2 for card in view.board)
    return any(card >> 2 in (12, top) for card in view.hole)


def _careless_bettor(view: SeatView, habits: Sequence[Tendencies]) -> bool:
    """Whether the last bet or raise of this street is a careless player's (a maniac's), whose
    bets say nothing about their cards: folding a marginal hand or raising a strong one for
    fear of it is what they profit from."""
    raiser = view.aggressor()
    return raiser is not None and habits[raiser].informative < _CARELESS


def _called_equity(equity: float, fold_all: float, informative: float) -> float:
    """Equity when called: against informative folders the hands that call are the better
    ones, so the equity against them is below the equity against the whole range."""
    if fold_all >= 0.999:
        return equity
    against_folded = equity + informative * (1.0 - equity) * 0.5
    return max(0.0, min(1.0, (equity - fold_all * against_folded) / (1.0 - fold_all)))


def _blend(count: int, total: int, prior: float, exploit: float, weight: float) -> float:
    """An observed rate shrunk to ``prior`` by ``weight / exploit`` pseudo-observations: the
    less a bot exploits, the more it takes to move it off its priors (never, at 0)."""
    if exploit <= 0.0:
        return prior
    pseudo = weight / exploit
    return (count + prior * pseudo) / (total + pseudo)


_OPEN_BB = (2.5, 3.0)
"""Open-raise sizes in big blinds (one more per limper)."""
_THREE_BET = {True: 3.0, False: 4.0}
"""3-bet sizes as multiples of the open, in position and out of it (one more per caller)."""
_FOUR_BET = (2.2, 2.5)
"""4-bet sizes as multiples of the 3-bet."""
_BET_FRACTIONS = (1 / 3, 1 / 2, 2 / 3, 1.0)
"""Postflop bets as fractions of the pot; an overbet (``_OVERBET``) is added on the turn and
river, where polarised bets are common."""
_OVERBET = 1.5
_RAISE_MULTIPLES = (2.5, 3.0)
"""Postflop raises as multiples of the bet faced."""
_SHOVE_SPR = 1.2
"""After the flop, at or below this stack-to-pot ratio a bet or raise is all-in."""
RERAISE_RANGES: Mapping[Difficulty, tuple[tuple[float, float, float], ...]] = {
    Difficulty.EASY: ((0.035, 0.0, 0.0), (0.015, 0.0, 0.0), (0.01, 0.0, 0.0)),
    Difficulty.NORMAL: ((0.06, 0.1, 0.4), (0.025, 0.03, 0.15), (0.015, 0.0, 0.0)),
    Difficulty.HARD: ((0.055, 0.12, 0.3), (0.03, 0.05, 0.25), (0.02, 0.0, 0.0)),
}
"""Per level, for the 3-bet, the 4-bet and the shove over it: the value range (the strongest
share of hands, by ``preflop.percentile``), the band below it holding an ace that may bluff,
and how often such a hand does. A solid 6-max regular 3-bets about 6-9% of chances with a
linear-plus-bluffs range and 4-bets about 2-3% of hands (PokerTracker's population averages
for winning regulars); the easy level re-raises only premiums."""


OPEN_RANGES: Mapping[int, float] = {1: 0.42, 2: 0.46, 3: 0.28, 4: 0.2, 5: 0.16, 6: 0.14, 7: 0.12}
"""The hard level's open-raising range before the flop, by the players left to act behind
(the blinds included): the strongest share of hands by ``preflop.percentile``. These are the
usual 6-max charts of winning regulars (UTG ~15%, HJ ~19%, CO ~27%, BTN ~45%, SB ~40% raise or
fold); from further out at 7-10 players a little tighter again. Heads-up the button opens
``HEADS_UP_OPEN``. From the button and the small blind, wider against blinds who fold to
opens more than the priors expect (``SmartStrategy._steals``)."""
HEADS_UP_OPEN = 0.8
_LOOSE_FIELD = 0.16
"""How much more a hand's preflop equity is worth per unit of the opponents' average range
width beyond an unknown player's (``_PRIOR_VPIP``), as a share of that equity: against a field
of players who enter with any two cards (two random players, a maniac and two callers by the
price: width about 0.9) about 9% more, which takes the normal level from about 37% to about 48%
of hands there: the hands whose equity against a random hand is over about half (in a profile of
6,000 hands at seed 1 the top 40% made +11 bb or more each, the next 10% broke even). A share
rather than an amount, so junk stays junk at a full table (its fair share there is small).
In self-play it adds little: the bots enter narrower than the prior (hard's style figures did
not move; normal's moved with the careless-player changes, see ``HUMAN_RANGES``)."""
_ISOLATE = 0.7
"""Over limpers the open range narrows to this share of it."""
_CHART_FIELD = 0.03
"""The hard level opens from its charts unless the field's ranges are wide enough to add more
than this share to its equity (``_LOOSE_FIELD``: about a third of the way to a table of
players who enter with any two cards); self-play adds nothing."""
_STEAL_BEHIND = 2
"""Steals (``SmartStrategy._steals``) come from the button and the small blind, with at most
two players left to fold, as people's do: from the cutoff or earlier the chart stands (three
or more folds rarely pay for a hand outside it, and an early-position open of any two cards
is no regular's)."""
_RIVER_BLUFF = {True: 0.45, False: 0.06}
"""How often the hard level bets its air on the river when checked to, with and without a
blocker (a card of the suit that makes the board's flush, else an ace or the board's top
rank): about one bluff for every two value bets at the sizes it uses, as a balanced river
betting range has (a pot-sized bet needs a third of bluffs; two-thirds pot, 29%)."""
FLAT_RERAISE: Mapping[str, float] = {"in": 0.07, "out": 0.05, "cold": 0.04}
"""The hard level's range for calling a 3-bet or a 4-bet (the strongest share of hands by
``preflop.percentile``, below its own re-raising range): after opening, in position or out of
it, and cold (without having raised). A 6-max regular flats a 3-bet with about the top 5-8% of
hands (the pairs and suited broadways under its 4-bets) and cold-calls one rarely. Measured
(seed 11, 12,000 duplicate 6-max hands against normal): the hands from 6 to 20% that called a
3-bet after opening lost 12-16 bb each (against -2.5 to -3 for folding them), the top 6% won.
With this range the hard seats' margin over the normal seats there went from -18.5 +/- 10.1 to
+9.7 +/- 12.1 bb/100 (the same deals). Heads-up (openers' ranges of 80%) it does not apply."""
_AIR = 0.3
"""River equity below which a hand is air: it wins only if the bet is folded to."""


@dataclass(frozen=True, slots=True)
class PostflopStyle:
    """When a level bets or raises after the flop: the heads-up equity it bets (``bet_value``;
    multiway the bar is that share against each opponent) and raises (``raise_value``) for
    value, and how often it bets anyway: as the preflop raiser on the flop (``cbet``), when
    checked to otherwise (``stab``), and raises a bet (``raise_bluff``); and how much better
    than folding a call must be (``call_margin``)."""

    bet_value: float
    raise_value: float
    cbet: float
    stab: float
    raise_bluff: float
    call_margin: float
    """The share of the pot a call must be worth more than a fold."""
    float_margin: float = 0.0
    """What a call must be worth more on the flop, on top of ``call_margin``: regulars fold
    most of their air to a flop bet (a float needs a reason) ..."""
    catch_margin: float = 0.0
    """... but call down their bluff-catchers: what a call on the river may be worth less
    than ``call_margin``."""
    value_raise: float = 0.0
    """How often a hand strong enough to raise (``raise_value``) raises a bet rather than
    calls it: regulars raise their strong hands for value far more often than they slow-play
    them, which is much of why their aggression factor is 2-4."""


POSTFLOP_STYLE: Mapping[Difficulty, PostflopStyle] = {
    Difficulty.EASY: PostflopStyle(0.65, 0.8, 0.3, 0.08, 0.02, 0.0),
    Difficulty.NORMAL: PostflopStyle(0.55, 0.62, 0.7, 0.4, 0.08, 0.035, 0.015, 0.0, 0.9),
    Difficulty.HARD: PostflopStyle(0.46, 0.62, 0.65, 0.3, 0.07, -0.03),
}
"""Continuation bets ~55-65% and raises of ~10% of bets faced are the population figures of
solid 6-max regulars in tracker databases (PokerTracker/Hold'em Manager summaries); the easy
level c-bets and bluffs about half as often. The normal level's aggression factor is in the
issue's 2-4 by calling less rather than betting more: it raises a bet with 62% equity or more
(``raise_value``) nine times in ten instead of calling (``value_raise``), and a call must be
worth 3.5% of the pot more than a fold (5% on the flop). That put its 6-max self-play at VPIP
26.8, PFR 19.8, 3-bet 6.6, AF 2.15, WTSD 25.1 (seed 2024, 3,000 hands; before: AF 1.82, WTSD
29.7). More aggressive normal styles, betting more (AF 2.24 and 2.50), made hard lose to
normal heads-up (-16.8 +/- 8.2 bb/100 over the slow test's 20,000 duplicate hands), so they
were not kept; a normal that folds more is one hard can exploit (``SmartStrategy._steals``).

The hard level bets thin for value (a hand ahead of 46% of the range bets) because bots and
most players call too often to be bluffed but pay off thin bets. With the open charts and river
bluffs it moved hard's duplicate heads-up result against normal (seed 2024, 4,000 hands, s.e.
about 33) from -37 to +39 bb/100 (session 3, when both levels read each other heads-up as
careless players, so these frequencies did not apply there). Heads-up the hard level ignores
them and bets by the prices (see ``_may_bet_postflop``): with its style there it lost -29.9
+/- 9.4 bb/100 to normal (12,000 hands), by the prices it won +16.7 +/- 8.8 (20,000), and
with its steals +46.7 +/- 9.4 (and +30.2 +/- 9.3 at seed 7)."""
_MAX_PREFLOP_SIZED = 3
"""Sized raises before the flop: the open, the 3-bet and the 4-bet. Past that, all-in."""
_MAX_POSTFLOP_SIZED = 2
"""Sized bets and raises on a street after the flop: the bet and one raise. Past that, all-in."""


def raise_sizes(view: SeatView) -> list[float] | None:
    """The "to" amounts a person would pick here, or None when the only raise people make is
    all-in (past the 4-bet, past a re-raise after the flop, or with a small stack-to-pot
    ratio). Opens of 2.5-3 bb plus one per limper; 3-bets of 3x the open in position and 4x
    out of it, plus one open per caller; 4-bets of 2.2-2.5x; postflop bets of 1/3, 1/2, 2/3
    and the whole pot (and 1.5 pots on the turn and river); postflop raises of 2.5-3x."""
    bb = view.big_blind
    raises = _raises(view)
    if view.street is Street.PREFLOP:
        if raises >= _MAX_PREFLOP_SIZED:
            return None
        if raises == 0:
            limpers = len(_entered(view))
            return [bb * (size + limpers) for size in _OPEN_BB]
        opened = view.current_bet
        if raises == 1:
            raiser = view.aggressor()
            in_position = raiser is not None and raiser < view.seat
            callers = sum(
                1
                for a in view.street_actions()
                if a.kind is ActionKind.CALL and a.player != view.seat
            )
            return [opened * (_THREE_BET[in_position] + callers)]
        return [opened * multiple for multiple in _FOUR_BET]
    pot = view.pot_total
    if view.effective_stack <= _SHOVE_SPR * (pot + view.to_call) or raises >= _MAX_POSTFLOP_SIZED:
        return None
    if view.legal.is_bet:
        fractions = _BET_FRACTIONS + ((_OVERBET,) if view.street >= Street.TURN else ())
        return [view.bets[view.seat] + f * pot for f in fractions]
    return [view.current_bet * multiple for multiple in _RAISE_MULTIPLES]


@dataclass(frozen=True, slots=True)
class Tendencies:
    """What the bot believes about one opponent's habits.

    Fold rates are kept for small and big bets (see ``stats.BIG_BET``) before and after the
    flop: a player who folds by the price folds far more often to big bets, a careless one as
    often whatever the size.
    """

    vpip: float
    pfr: float
    three_bet: float
    fold_to_small_raise: float
    fold_to_big_raise: float
    aggression: float
    fold_to_small_bet: float
    fold_to_big_bet: float
    shown_width: float
    """How wide the hands they showed down were (0 nothing seen or tight ... 1 any two cards),
    already scaled by how many they showed: the floor of their ranges."""
    loose_width: float = 0.0
    """The same, judged against a regular at the same table sizes (``engine.bots.usual``), as
    if at 6-max: a heads-up regular's showdowns are as wide as a 6-max loose player's, but say
    as much about their play as a 6-max regular's do."""
    full_vpip: float = _PRIOR_VPIP
    """Their VPIP as it would be at 6-max: less what a regular plays more at their tables."""

    @property
    def fold_to_bet(self) -> float:
        """Their fold rate facing a bet after the flop, whatever its size."""
        return (self.fold_to_small_bet + self.fold_to_big_bet) / 2

    @property
    def informative(self) -> float:
        """How much their folds and bets follow their cards: less for one who shows down any
        two cards."""
        return _PRIOR_INFORMATIVE * (1.0 - self.loose_width)

    @property
    def reraise_preflop(self) -> float:
        """The chance they re-raise a raise before the flop."""
        return min(0.95, 1.2 * self.three_bet)

    @property
    def reraise(self) -> float:
        """The chance they raise a bet after the flop."""
        return min(0.95, 0.8 * self.aggression * (1.0 - self.fold_to_bet))

    def raise_chance(self, preflop: bool, opened: bool) -> float:
        """The chance they raise when the action reaches them: before the flop, their
        open-raise rate in an unraised pot or their re-raise rate; after it, their raise rate
        facing a bet (``opened``) or their betting rate."""
        if preflop:
            return self.reraise_preflop if opened else min(0.95, self.pfr)
        return self.reraise if opened else self.bet_chance

    @property
    def bet_chance(self) -> float:
        """The chance they bet when checked to."""
        return min(0.95, 1.2 * self.aggression)

    def fold_chance(self, preflop: bool, share: float) -> float:
        """The chance they fold when calling costs ``share`` of the pot they see: the small-
        and big-bet rates, interpolated (and a little extrapolated) by the size."""
        small, big = (
            (self.fold_to_small_raise, self.fold_to_big_raise)
            if preflop
            else (self.fold_to_small_bet, self.fold_to_big_bet)
        )
        t = (min(max(share, 0.05), 0.6) - _SMALL_SHARE) / (_BIG_SHARE - _SMALL_SHARE)
        return min(0.95, max(0.0, small + t * (big - small)))

    @classmethod
    def of(cls, stats: PlayerStats, exploit: float) -> Tendencies:
        hands = stats.hands
        shown_width = loose_width = 0.0
        if stats.shown:
            mean = stats.shown_percentile_sum / stats.shown
            confidence = stats.shown / (stats.shown + 4 / exploit) if exploit > 0 else 0.0
            shown_width = confidence * _width(mean)
            # Stretch the span from a regular's showdowns at their tables to any two cards
            # (percentile 0.5) onto the same span at 6-max.
            regular = FULL.shown + stats.wider_shown_sum / stats.shown
            at_full = 0.5 - (0.5 - mean) * (0.5 - FULL.shown) / max(0.05, 0.5 - regular)
            loose_width = confidence * _width(at_full)
        wider = stats.wider_vpip_sum / hands if hands else 0.0

        def rate(count: int, total: int, prior: float, weight: float = _ACTIONS_WEIGHT) -> float:
            return _blend(count, total, prior, exploit, weight)

        return cls(
            vpip=rate(stats.vpip, hands, _PRIOR_VPIP, _HANDS_WEIGHT),
            pfr=rate(stats.pfr, hands, _PRIOR_PFR, _HANDS_WEIGHT),
            three_bet=rate(stats.three_bets, hands, _PRIOR_3BET, _HANDS_WEIGHT),
            fold_to_small_raise=rate(
                stats.folded_to_raises - stats.folded_to_big_raises,
                stats.faced_raises - stats.faced_big_raises,
                _PRIOR_FOLD_SMALL_RAISE,
            ),
            fold_to_big_raise=rate(
                stats.folded_to_big_raises, stats.faced_big_raises, _PRIOR_FOLD_BIG_RAISE
            ),
            aggression=rate(stats.aggressive, stats.postflop_actions, _PRIOR_AGGRESSION),
            fold_to_small_bet=rate(
                stats.folded_to_bets - stats.folded_to_big_bets,
                stats.faced_bets - stats.faced_big_bets,
                _PRIOR_FOLD_SMALL_BET,
            ),
            fold_to_big_bet=rate(
                stats.folded_to_big_bets, stats.faced_big_bets, _PRIOR_FOLD_BIG_BET
            ),
            shown_width=shown_width,
            loose_width=loose_width,
            full_vpip=rate(stats.vpip, hands, _PRIOR_VPIP, _HANDS_WEIGHT) - wider,
        )


_UNKNOWN = Tendencies.of(PlayerStats(), 0.0)
"""A player nothing is known of: the priors."""


def _width(mean: float) -> float:
    """How wide a range is (0 the premiums ... 1 any two cards) whose hands shown down have
    this mean preflop percentile (a range's showdowns lean to its stronger hands)."""
    return min(1.0, max(0.0, 2.2 * mean - 0.1))


@dataclass(slots=True)
class _Spot:
    """The facts one decision weighs, worked out once: the equity (with its noise), position,
    and the opponents' habits; ``SmartStrategy`` prices each option from them."""

    strategy: SmartStrategy
    view: SeatView
    habits: list[Tendencies]
    preflop: bool
    equity: float
    shift: float
    realize: float
    responders: list[int]
    behind: tuple[int, ...]
    informative: float
    careless: float
    pressure: float
    reraises: list[float]
    cover: int
    preflop_equity: dict[int, float]

    @classmethod
    def of(
        cls,
        strategy: SmartStrategy,
        view: SeatView,
        habits: list[Tendencies],
        raw: float,
        equity: float,
    ) -> _Spot:
        """The spot for ``view``, whose equity is ``raw`` before noise and ``equity`` after."""
        opponents = view.opponents
        preflop = view.street is Street.PREFLOP
        responders = [i for i in opponents if view.stacks[i] > 0] or list(opponents)
        # Against players who fold whatever they hold, a hand that stays in also wins the pots
        # they give up on later streets (when every one of them gives up).
        # (Maniacs, who bet themselves rather than face our bets, give little of that.)
        careless = sum(
            (1.0 - habits[i].informative) * habits[i].fold_to_bet * (1.0 - habits[i].aggression)
            for i in responders
        ) / len(responders)
        # Against players who bet at every chance, a weak hand that calls now meets more bets
        # later and is often forced out: it realizes less of its equity than a strong one.
        # (Not a careless bettor's: their bets do not follow their cards, so they do not force
        # out a hand that is ahead of their range, which calls down.)
        pressure = sum(
            habits[i].bet_chance * min(1.0, habits[i].informative / _CARELESS) for i in responders
        ) / len(responders)
        # Equity is realized less out of position, by being bluffed off it or not paid with it:
        # against careless players, who show down any two cards, nearly all of it is.
        informative = sum(habits[i].informative for i in responders) / len(responders)
        unrealized = 1.0 - _REALIZE[view.street][view.acts_last]
        return cls(
            strategy=strategy,
            view=view,
            habits=habits,
            preflop=preflop,
            equity=equity,
            shift=equity - raw,
            realize=1.0 - unrealized * min(1.0, informative / _CARELESS),
            responders=responders,
            behind=view.yet_to_act(),
            informative=informative,
            careless=careless,
            pressure=pressure,
            reraises=[
                1.0 - (habits[i].reraise_preflop if preflop else habits[i].reraise)
                for i in responders
            ],
            cover=max(view.stacks[i] + view.bets[i] for i in opponents),
            preflop_equity={},
        )

    def realized(self, share: float, hands: float) -> float:
        """The part of ``share`` a hand realizes against ``hands`` opponents."""
        street = self.view.street
        future = _FUTURE[street] * float(self.careless ** max(1.0, hands))
        squeezed = 1.0 - _PRESSURE * _FUTURE[street] * self.pressure * (1.0 - share)
        return share * self.realize * squeezed + future * (1.0 - share)

    def equity_against(self, hands: float) -> float:
        """Equity against ``hands`` of the opponents (fractions interpolate): from the table
        before the flop; after it, scaled from the equity against every live hand as if each
        opponent were beaten independently."""
        opponents = len(self.view.opponents)
        if not self.preflop:
            return float(self.equity ** (min(hands, opponents) / opponents))
        cache = self.preflop_equity
        low = max(1, math.floor(hands))
        for count in (low, low + 1):
            if count not in cache:
                cache[count] = self.strategy._preflop_equity(self.view, self.habits, count)
        part = min(1.0, max(0.0, hands - low))
        mixed = (1 - part) * cache[low] + part * cache[low + 1]
        return min(1.0, max(0.0, mixed + self.shift))


class SmartStrategy:
    """Equity, odds, position, reads and sizing; see the module docstring."""

    name: ClassVar[str] = "smart"
    __slots__ = ("difficulty", "personality", "settings")

    def __init__(
        self,
        difficulty: Difficulty = Difficulty.NORMAL,
        settings: SmartSettings | None = None,
        personality: Personality = NEUTRAL,
    ) -> None:
        self.difficulty = difficulty
        self.settings = settings if settings is not None else SETTINGS[difficulty]
        self.personality = personality

    def __repr__(self) -> str:
        if self.personality == NEUTRAL:
            return f"SmartStrategy({self.difficulty.value!r})"
        return f"SmartStrategy({self.difficulty.value!r}, {self.personality.text!r})"

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        tendencies = [Tendencies.of(stats, self.settings.exploit) for stats in view.stats]
        return self._choose(view, rng, tendencies)

    # ------------------------------------------------------------------ opponent ranges

    def _preflop_fraction(self, view: SeatView, player: int, habits: Tendencies) -> float:
        """The strongest fraction of hands ``player`` is likely to hold from how they entered."""
        raises_before = 0
        fraction = 1.0
        for action in view.history:
            if action.street is not Street.PREFLOP:
                break
            if action.player == player:
                if action.is_aggressive:
                    if raises_before == 0:
                        fraction = habits.pfr
                    elif raises_before == 1:
                        fraction = min(fraction, habits.three_bet + 0.02)
                    elif raises_before == 2:
                        fraction = min(fraction, (habits.three_bet + 0.02) * 0.5)
                    else:
                        fraction = min(fraction, (habits.three_bet + 0.02) * 0.25)
                elif action.kind is ActionKind.CALL:
                    fraction = min(fraction, habits.vpip)
            if action.is_aggressive:
                raises_before += 1
        fraction = max(fraction, habits.shown_width)
        reading = self.settings.reading
        # Past the 4-bet a regular's range is the premiums only; the full read sees that.
        floor = 0.015 if reading >= 1.0 else 0.03
        return max(floor, min(1.0, 1.0 - reading * (1.0 - fraction)))

    def _model(self, view: SeatView, player: int, habits: Tendencies) -> OpponentModel:
        fraction = self._preflop_fraction(view, player, habits)
        reading = self.settings.reading
        if reading == 0.0:
            return OpponentModel(player, fraction)
        bets = 0.0
        calls = 0
        for action, size in zip(view.history, _bet_sizes(view), strict=True):
            if action.player == player and action.street is not Street.PREFLOP:
                if action.is_aggressive:
                    # A half-pot bet counts once; a pot-sized one half again; a min-bet half;
                    # river bets, with no card to come, say half as much again.
                    weight = min(2.0, max(0.5, 0.5 + size))
                    bets += weight * (1.5 if action.street is Street.RIVER else 1.0)
                elif action.kind is ActionKind.CALL:
                    calls += 1
        if not bets and not calls:
            return OpponentModel(player, fraction)
        # Bets say little from a player who bets everything or shows down any two cards.
        # (People bet far more often with what they hit than without: even a player who bets
        # half the time is telling something, so aggression and wide showdowns only halve it.)
        # A careless player's bets (a maniac's) say next to nothing, though.
        info = (
            reading * (1.0 - 0.5 * habits.aggression) * (1.0 - 0.5 * habits.loose_width)
            if habits.informative >= _CARELESS
            else reading * (1.0 - habits.aggression) * (1.0 - habits.loose_width)
        )
        top = (1.0 - 0.3 * info) ** bets
        weak = (1.0 - 0.85 * info) ** bets
        air = max(0.02, (1.0 - 0.97 * info) ** bets)
        if calls:
            caller_info = reading * habits.fold_to_bet * (1.0 - habits.loose_width)
            weak *= 1.0 - 0.3 * caller_info
            air *= 1.0 - 0.6 * caller_info
        return OpponentModel(player, fraction, 1.0, top, weak, max(0.02, air))

    def _reraise_fraction(self, habits: Tendencies) -> float:
        """The strongest fraction of hands a player re-raises with before the flop: their
        re-raise rate, widened to how much looser than a regular's their showdowns are (a
        maniac re-raises any two cards; a heads-up regular, who shows down wide hands because
        it opens them, does not)."""
        fraction = max(habits.three_bet + 0.02, habits.loose_width)
        return max(0.03, min(1.0, 1.0 - self.settings.reading * (1.0 - fraction)))

    # ------------------------------------------------------------------ equity

    def _equity_if_reraised(
        self,
        view: SeatView,
        habits: list[Tendencies],
        raisers: Sequence[int],
        chances: Sequence[float],
    ) -> float | None:
        """Heads-up equity before the flop against whoever of ``raisers`` re-raises (each
        with the given chance), from the range they re-raise with; None if nobody would."""
        total = sum(chances)
        if total <= 0.0:
            return None
        table = preflop_table()
        first, second = view.hole
        return (
            sum(
                chance * table.equity_vs_range(first, second, self._reraise_fraction(habits[i]))
                for i, chance in zip(raisers, chances, strict=True)
            )
            / total
        )

    def _preflop_equity(
        self, view: SeatView, habits: list[Tendencies], contest: int | None = None
    ) -> float:
        """Table equity against ``contest`` opponents (by default the players in and a quarter
        of those still to act), scaled for each opponent in by their likely range."""
        table = preflop_table()
        first, second = view.hole
        entered = _entered(view)
        if contest is None:
            contest = max(1, len(entered) + math.ceil(0.25 * len(view.yet_to_act())))
        equity = table.equity_vs_random(first, second, contest)
        baseline = table.equity_vs_range(first, second, 1.0)
        for player in entered:
            fraction = self._preflop_fraction(view, player, habits[player])
            if fraction < 1.0 and baseline > 0:
                equity *= table.equity_vs_range(first, second, fraction) / baseline
        return min(1.0, equity)

    def _postflop_equity(
        self, view: SeatView, rng: random.Random, habits: list[Tendencies]
    ) -> float:
        settings = self.settings
        models = [self._model(view, player, habits[player]) for player in view.opponents]
        return estimate_equity(
            view.hole,
            view.board,
            models,
            samples=settings.samples,
            exact_budget=settings.exact_budget,
            rng=rng,
        )

    # ------------------------------------------------------------------ choosing

    def _choose(self, view: SeatView, rng: random.Random, habits: list[Tendencies]) -> Action:
        preflop = view.street is Street.PREFLOP
        raw = (
            self._preflop_equity(view, habits)
            if preflop
            else self._postflop_equity(view, rng, habits)
        )
        believed = self._noisy(raw, rng)
        if preflop:
            believed *= 1.0 + self._isolation(view, habits)
            believed = min(1.0, max(0.0, believed + self.personality.looseness))
        spot = _Spot.of(self, view, habits, raw, believed)
        legal = view.legal
        if preflop and self.difficulty is Difficulty.HARD and self._opens_from_chart(view, habits):
            # A regular opens from a chart by position: raise the hands in it, fold the rest.
            if not self._in_open_range(view, habits):
                return FOLD
            return self._pick(self._raise_options(spot), view.pot_total, rng)
        allowed = legal.can_raise and (
            self._in_reraise_range(view, rng)
            if preflop
            else self._may_bet_postflop(view, habits, raw, rng)
        )
        if preflop and not allowed and not legal.can_check and not self._flats(view):
            return FOLD
        options: list[tuple[float, Action]] = []
        if legal.can_check:
            options.append((self._check_value(spot), CHECK))
        elif (
            preflop
            and legal.can_raise
            and (
                (_raises(view) == 0 and view.seat != 0 and view.players > 2)
                or (allowed and _raises(view) >= 1 and not self._facing_wild(view))
            )
        ):
            # Nobody open-limps from the later seats (the small blind may complete, and
            # heads-up the button may), and a hand in the re-raising range re-raises or folds:
            # a range that flats too would make the re-raises rarer than people's.
            options.append((0.0, FOLD))
        else:
            # After the flop people fold the marginal calls: calling must beat folding by a
            # part of the pot (less at the passive easy level). Not against a careless bettor
            # (a maniac), whose bets say nothing: there the prices decide, as they do when
            # every opponent is careless.
            careless = all(
                habits[i].informative < _CARELESS for i in view.opponents
            ) or _careless_bettor(view, habits)
            style = POSTFLOP_STYLE[self.difficulty]
            margin = style.call_margin + (
                style.float_margin
                if view.street is Street.FLOP
                else -style.catch_margin
                if view.street is Street.RIVER
                else 0.0
            )
            margin = 0.0 if preflop or careless else margin
            options.append((0.0, FOLD))
            options.append((self._call_value(spot) - margin * view.pot_total, CALL))
        if allowed:
            if self._raises_for_value(view, habits, raw, rng):
                options = [option for option in options if option[1] != CALL]
            options.extend(self._raise_options(spot))
        return self._pick(options, view.pot_total, rng)

    def _raises_for_value(
        self, view: SeatView, habits: list[Tendencies], equity: float, rng: random.Random
    ) -> bool:
        """Whether this hand, facing a bet after the flop with the equity to raise it for
        value, raises rather than calls (``PostflopStyle.value_raise``): the prices alone often
        prefer calling a strong hand (the hands that call a raise are stronger), a slow-play
        people make now and then, not as a rule. Against a careless bettor (a maniac) the
        prices decide: letting them keep betting is how their chips come in."""
        style = POSTFLOP_STYLE[self.difficulty]
        if style.value_raise <= 0.0 or view.street is Street.PREFLOP or view.legal.is_bet:
            return False
        if _careless_bettor(view, habits):
            return False
        return equity >= style.raise_value and rng.random() < style.value_raise

    def _opens_from_chart(self, view: SeatView, habits: list[Tendencies]) -> bool:
        """Whether this is an open (nobody has raised, and checking is not free) that the hard
        level plays from ``OPEN_RANGES``. The charts are for a table of regulars: against a
        loose field (``_CHART_FIELD``) the prices decide, as they do for a maniac's raises."""
        legal = view.legal
        if self._isolation(view, habits) > _CHART_FIELD:
            return False
        return legal.can_raise and not legal.can_check and _raises(view) == 0

    def _isolation(self, view: SeatView, habits: list[Tendencies]) -> float:
        """The share added to a hand's equity before the flop against loose players: against
        opponents whose ranges (``_preflop_fraction``: what they enter with, widened to what
        they show down) are wider than an unknown player's, more hands are ahead of theirs and
        worth playing, and a bot that folds them leaves their chips to the looser players at
        the table (people call this isolating the weak players)."""
        widths = [max(habits[i].full_vpip, habits[i].loose_width) for i in view.opponents]
        excess = sum(max(0.0, width - _PRIOR_VPIP) for width in widths) / max(1, len(widths))
        return _LOOSE_FIELD * excess

    def _in_open_range(self, view: SeatView, habits: list[Tendencies]) -> bool:
        """Whether the hand is in the open-raising range for this position (wider or narrower
        by the seat's looseness, narrower over limpers)."""
        if view.players == 2:
            fraction = HEADS_UP_OPEN
        else:
            behind = len(view.yet_to_act())
            fraction = OPEN_RANGES.get(behind, min(OPEN_RANGES.values()))
        if _entered(view):
            fraction *= _ISOLATE
        fraction *= 1.0 + 5.0 * self.personality.looseness + 2.5 * self._isolation(view, habits)
        first, second = view.hole
        percentile = preflop_table().percentile(first, second)
        return percentile <= fraction or self._steals(view, habits, percentile, fraction)

    def _steals(
        self, view: SeatView, habits: list[Tendencies], percentile: float, chart: float
    ) -> bool:
        """Whether an open outside the chart pays by the folds (a steal), as a regular widens
        the button's and the small blind's opens against blinds who defend too little.

        An open risks ``risk`` to win the ``pot`` when everyone folds (the chance from their
        recorded folds to raises); when called, a hand is taken to lose a share of its open
        that grows with its ``percentile``: all of it for the weakest hand, and at the chart's
        edge (``chart``) the share at which the chart's last hand breaks even against players
        who fold as the priors expect (which is what a chart is for). So against such players
        the chart stands, a player who folds more widens it by as much as his folds pay for,
        and a clear over-folder is stolen from with any two cards."""
        behind = view.yet_to_act()
        if _entered(view) or len(behind) > _STEAL_BEHIND:
            return False
        target = view.big_blind * _OPEN_BB[0]
        risk = target - view.bets[view.seat]
        pot = view.pot_total
        share = (target - view.current_bet) / max(1, pot + risk)
        folds = math.prod(min(0.95, habits[i].fold_chance(True, share)) for i in behind)
        usual = _UNKNOWN.fold_chance(True, share) ** len(behind)
        edge = min(1.0, usual * pot / max(1e-9, (1.0 - usual) * risk))
        lost = edge + (1.0 - edge) * max(0.0, percentile - chart) / max(1e-9, 1.0 - chart)
        return folds * pot > (1.0 - folds) * risk * min(1.0, lost)

    def _in_reraise_range(self, view: SeatView, rng: random.Random) -> bool:
        """Whether the hand is in this seat's range for the next preflop raise: any hand may
        open (the prices decide), but 3-bets, 4-bets and shoves come from ranges, as a
        regular's do: the value hands of ``RERAISE_RANGES`` and, at the level's bluff rate,
        the ace-blocker hands just below them."""
        raises = _raises(view)
        if raises == 0 or self._facing_wild(view):
            return True
        ranges = RERAISE_RANGES[self.difficulty]
        value, bluffs, rate = ranges[min(raises, len(ranges)) - 1]
        first, second = view.hole
        percentile = preflop_table().percentile(first, second)
        if percentile <= value:
            return True
        has_ace = first >> 2 == 12 or second >> 2 == 12
        return has_ace and percentile <= value + bluffs and rng.random() < rate

    def _may_bet_postflop(
        self, view: SeatView, habits: list[Tendencies], equity: float, rng: random.Random
    ) -> bool:
        """Whether this hand bets or raises at all here (the prices then pick the size): with
        value (equity over the level's bar, higher to raise than to bet), or as the level's
        share of bluffs: continuation bets by the preflop raiser on the flop, stabs otherwise,
        and rare raises. Without this gate a bot that finds every small bet profitable bets
        every flop, so its bets say nothing and everyone calls down."""
        style = POSTFLOP_STYLE[self.difficulty]
        bluff = rng.random()
        if self.difficulty is Difficulty.HARD and view.players == 2:
            # Heads-up every pot is two wide ranges and regulars bet and raise far more often
            # than at 6-max: the hard level drops the 6-max frequencies and bets whenever the
            # prices say so (its reads and prices are what make it the stronger player).
            return True
        if all(habits[i].informative < _CARELESS for i in view.opponents):
            # Careless players' calls and folds do not follow their cards, so bets carry no
            # information to protect: the prices decide.
            return True
        if not view.legal.is_bet:
            return equity >= style.raise_value or bluff < style.raise_bluff
        value_bar = style.bet_value ** (1.0 / max(1, len(view.opponents)))
        if equity >= value_bar:
            return True
        if self.difficulty is Difficulty.HARD and view.street is Street.RIVER:
            # Balanced river bluffs, from the hands that block the calls, heads-up: a bluff
            # into several players needs every one of them to fold, so a regular rarely
            # bluffs a multiway river (the stab rate of the other streets, halved per player).
            if len(view.opponents) > 1:
                return equity < _AIR and bluff < style.stab / 2 ** len(view.opponents)
            return equity < _AIR and bluff < _RIVER_BLUFF[_blocks(view)]
        if view.street is Street.FLOP and view.preflop_raiser() == view.seat:
            return bluff < style.cbet
        return bluff < style.stab

    def _flats(self, view: SeatView) -> bool:
        """Whether the hard level may call a 3-bet or a 4-bet with this hand (the prices then
        decide): at three or more players only from ``FLAT_RERAISE``, as a regular flats
        re-raises only with hands that play well in a big pot. Other levels, heads-up play, the
        other spots and a maniac's raises: yes."""
        if self.difficulty is not Difficulty.HARD or view.players == 2 or self._facing_wild(view):
            # Heads-up the button opens most hands and the ranges are far wider: prices decide.
            return True
        if _raises(view) not in (2, 3):
            return True
        raiser = view.aggressor()
        opened = any(a.player == view.seat and a.is_aggressive for a in view.history)
        key = "cold" if not opened else "in" if raiser is not None and raiser < view.seat else "out"
        first, second = view.hole
        return preflop_table().percentile(first, second) <= FLAT_RERAISE[key]

    def _facing_wild(self, view: SeatView) -> bool:
        """Whether the last raiser is someone whose raises say nothing (a maniac): ranges are
        for players whose raises mean something."""
        raiser = view.aggressor()
        if raiser is None:
            return False
        habits = Tendencies.of(view.stats[raiser], self.settings.exploit)
        return habits.informative < _WILD

    def _check_value(self, spot: _Spot) -> float:
        """Checking: if someone bets behind us we call (or fold, whichever is worth more)."""
        view, equity, pot = spot.view, spot.equity, spot.view.pot_total
        bet_chance = 0.0
        if not spot.preflop and spot.behind:
            bet_chance = 1.0 - math.prod(1.0 - spot.habits[i].bet_chance for i in spot.behind)
        facing = 0.66 * pot
        checked = spot.realized(equity, len(view.opponents)) * pot
        called = max(0.0, 0.85 * spot.realized(equity, 1) * (pot + 2 * facing) - facing)
        return (1 - bet_chance) * checked + bet_chance * called

    def _call_value(self, spot: _Spot) -> float:
        """Calling: the pot with the chips of the players behind who join, less the risk that
        one of them raises (then we fold what we put in, or call all-in)."""
        view, habits, preflop, behind = spot.view, spot.habits, spot.preflop, spot.behind
        equity, pot, to_call = spot.equity, view.pot_total, view.to_call
        implied = 0.0
        if view.street is not Street.RIVER and view.effective_stack > to_call:
            cap = pot if not preflop else 10 * to_call
            implied = _IMPLIED[view.street] * equity * min(view.effective_stack - to_call, cap)
            if preflop and not _playable(view):
                implied = 0.0
        # Players still to act may call too: their chips join the pot, and the equity is
        # against the hands expected to stay.
        current_share = to_call / max(1, pot + to_call)
        stay = [1.0 - min(0.95, habits[i].fold_chance(preflop, current_share)) for i in behind]
        joining = sum(
            chance * (min(view.current_bet, view.stacks[i] + view.bets[i]) - view.bets[i])
            for i, chance in zip(behind, stay, strict=True)
        )
        facing_hands = len(view.opponents) - len(behind) + sum(stay)
        against = spot.equity_against(max(1.0, facing_hands))
        all_in = to_call >= view.stack
        share = against if all_in else spot.realized(against, facing_hands)
        flat = share * (pot + to_call + joining) - to_call + implied
        raised = 0.0
        if behind and not all_in:
            opened = view.current_bet > view.big_blind or not preflop
            raised = 1.0 - math.prod(1.0 - habits[i].raise_chance(preflop, opened) for i in behind)
        remaining = view.effective_stack
        raised_equity = against * (1.0 - 0.3 * spot.informative)
        if preflop and raised > 0.0:
            chances = [habits[i].raise_chance(preflop, opened) for i in behind]
            heads_up = self._equity_if_reraised(view, habits, behind, chances)
            if heads_up is not None:
                raised_equity = min(1.0, max(0.0, heads_up + spot.shift))
        facing_raise = raised_equity * (pot + 2 * remaining) - remaining
        if_raised = max(-to_call, facing_raise)
        return (1 - raised) * flat + raised * if_raised

    def _raise_options(self, spot: _Spot) -> list[tuple[float, Action]]:
        """Each raise size, worth: everyone folds, somebody re-raises, or it is called."""
        view, habits, responders = spot.view, spot.habits, spot.responders
        stack_ratio = (view.stack + view.bets[view.seat]) / max(1.0, view.average_stack)
        # The big stack's bets are feared a little more.
        feared = 1.1 if stack_ratio > 1.3 else 1.0
        # A player who bet or raised this hand shows strength in proportion to how much
        # their actions follow their cards: they fold less to a raise (this street most).
        shown = {
            i: (1.0 - 0.75 * habits[i].informative)
            if any(a.player == i and a.is_aggressive for a in view.street_actions())
            else (1.0 - 0.3 * habits[i].informative)
            if any(a.player == i and a.is_aggressive for a in view.history)
            else 1.0
            for i in responders
        }
        raiser = view.aggressor()
        wild = raiser is not None and habits[raiser].informative < _WILD
        # Before the flop a re-raise comes from one player, whose re-raising range we know
        # (a maniac's is any two cards); after it, from the hands that would call, stronger.
        reraise_equity = None
        if spot.preflop:
            reraise_equity = self._equity_if_reraised(
                view, habits, responders, [habits[i].reraise_preflop for i in responders]
            )
        options: list[tuple[float, Action]] = []
        for target in self._raise_targets(view, wild):
            extra = target - view.bets[view.seat]
            their_call = max(0, target - view.current_bet)
            share_of_pot = their_call / max(1, view.pot_total + extra)
            each_folds = [
                min(0.95, feared * habits[i].fold_chance(spot.preflop, share_of_pot)) * shown[i]
                for i in responders
            ]
            value = self._raise_value(spot, target, each_folds, reraise_equity)
            value += self.personality.aggression * view.pot_total
            options.append((value, RaiseTo(target)))
        return options

    def _raise_value(
        self, spot: _Spot, target: int, each_folds: list[float], reraise_equity: float | None
    ) -> float:
        view, informative, pot = spot.view, spot.informative, spot.view.pot_total
        extra = target - view.bets[view.seat]
        fold_all = math.prod(each_folds)
        # Expected callers when somebody calls; the equity is against that many hands
        # (after the flop, scaled from the equity against every live hand as if each
        # opponent were beaten independently).
        callers = max(1.0, sum(1.0 - f for f in each_folds) / max(1e-9, 1.0 - fold_all))
        against = spot.equity_against(callers)
        if_called = _called_equity(against, fold_all, informative)
        # A raise that leaves chips behind may be raised again; assume the re-raise is
        # all-in and that we then call if that pays, else fold.
        covered = target >= spot.cover
        shoved = covered or target >= view.stack + view.bets[view.seat]
        reraised = 0.0 if covered else 1.0 - math.prod(spot.reraises)
        share = if_called if shoved else spot.realized(if_called, callers)
        # Each responder who calls puts in what matching the raise costs them.
        added = sum(
            (1.0 - f) * (min(target, view.stacks[i] + view.bets[i]) - view.bets[i])
            for i, f in zip(spot.responders, each_folds, strict=True)
        ) / max(1e-9, 1.0 - fold_all)
        called = share * (pot + extra + added) - extra
        behind_me = view.effective_stack
        against_reraise = (
            if_called * (1.0 - 0.3 * informative)
            if reraise_equity is None
            else min(1.0, max(0.0, reraise_equity + spot.shift))
        )
        if_reraised = max(-extra, against_reraise * (pot + 2 * behind_me) - behind_me)
        return fold_all * pot + (1 - fold_all) * (reraised * if_reraised + (1 - reraised) * called)

    def _raise_targets(self, view: SeatView, wild_raiser: bool = False) -> list[int]:
        """Candidate "to" amounts, in the sizes people use (see ``raise_sizes``), and all-in
        where moving in is normal; sizes that would leave under a third of the stack become
        all-in (commit or do not bother). Never the bare minimum unless nothing else is legal,
        so two bots cannot climb in minimum steps."""
        legal = view.legal
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        low, high = legal.min_raise_to, legal.max_raise_to
        seat = view.seat
        # Raising beyond what the biggest live opponent can match only risks an uncalled bet.
        cover = max(view.stacks[i] + view.bets[i] for i in view.opponents)
        high = max(low, min(high, cover))
        total = view.stack + view.bets[seat]
        wanted = raise_sizes(view)
        if wanted is None:
            return [high]  # past the 4-bet, or the stack is small against the pot: shove
        targets: set[int] = set()
        for amount in wanted:
            clamped = min(high, max(low, round(amount)))
            targets.add(high if clamped >= total * 0.67 else clamped)
        bb = view.big_blind
        # All-in only when it is a size people would use: after the flop up to about twice the
        # pot; before it, short-stacked or over a raise it is at most four times. (Shoving a
        # hundred big blinds into a small pot may pay against bots, but nobody plays so.)
        if view.street is Street.PREFLOP:
            # Moving in over the raise of a player who raises any two cards is normal too.
            sensible = high <= max(4 * view.current_bet, _SHORT_STACK_BB * bb) or wild_raiser
        else:
            # Moving in over a careless bettor is normal at any size: they call or fold by
            # the size, not by their cards.
            pot = view.pot_total + view.to_call
            sensible = high - view.bets[seat] <= 2.2 * pot or wild_raiser
        if sensible or high == low:
            targets.add(high)
        return sorted(targets)

    def _pick(self, options: list[tuple[float, Action]], pot: int, rng: random.Random) -> Action:
        """The best option; now and then another within a small margin of it, so the bot is
        not a lookup table (and its bluffs and slow-plays are not fixed)."""
        options.sort(key=lambda option: option[0], reverse=True)
        best_value, best = options[0]
        margin = self.settings.margin * max(pot, 1)
        close = [action for value, action in options[1:] if value >= best_value - margin]
        if close and rng.random() < self.settings.mix:
            return close[int(rng.random() * len(close))]
        return best

    def _noisy(self, equity: float, rng: random.Random) -> float:
        noise = self.settings.noise
        if noise <= 0.0:
            return equity
        return min(1.0, max(0.0, equity + rng.gauss(0.0, noise)))
