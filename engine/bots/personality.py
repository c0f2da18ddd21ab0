"""A bot seat's personality (looser or tighter, more or less aggressive, a name) and its think time.

A ``Personality`` is drawn deterministically from a difficulty and a seed (a seat's stable key,
such as its bot name), so the same seat plays the same way after a restart; ``text`` writes it as
a short string a host can store with the seat, and ``Personality.parse`` reads it back.

- ``looseness`` is added to the equity a smart bot believes it has before the flop: positive
  plays more hands, negative fewer.
- ``aggression`` is added, as a share of the pot, to the value of every bet and raise: positive
  bets and raises more, negative checks and calls more.

Each level draws both uniformly from its own range (``RANGES``), chosen so that a table of the
level's bots stays within the level's human ranges (see ``engine.bots.smart``) while two seats
of one level still differ visibly.

``think_time`` is how long a bot seems to think before an action, from what the decision was:
trash folds are almost instant, checks quick, big decisions (a large share of the stack, or
all-in) long, within the table's bot delay setting.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.bots.errors import BotError
from engine.bots.view import SeatView
from engine.holdem.actions import Action, ActionKind, Call, Check, Fold, RaiseTo
from engine.holdem.streets import Street

NAMES: tuple[str, ...] = (
    "Ada", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
    "Max", "Ned", "Oli", "Pam", "Quin", "Rex", "Sal", "Tess", "Uma", "Vic", "Wes", "Zoe",
)  # fmt: skip
"""Short first names bots take."""


class PersonalityError(BotError):
    """A stored personality string that cannot be read."""


@dataclass(frozen=True, slots=True)
class Range:
    """The interval a level draws one trait from."""

    low: float
    high: float

    def draw(self, rng: random.Random) -> float:
        return round(self.low + (self.high - self.low) * rng.random(), 3)


@dataclass(frozen=True, slots=True)
class Traits:
    """A level's ranges for both traits."""

    looseness: Range
    aggression: Range


RANGES: Mapping[str, Traits] = {
    "easy": Traits(Range(-0.03, 0.0), Range(-0.12, -0.06)),
    "normal": Traits(Range(-0.06, -0.035), Range(0.03, 0.08)),
    "hard": Traits(Range(-0.02, 0.01), Range(0.0, 0.03)),
}
"""Per difficulty: the looseness (preflop equity) and aggression (pot share) ranges."""

_TEXT = re.compile(r"([A-Za-z][A-Za-z0-9 ._'-]{0,39})/([+-]\d\.\d{3})/([+-]\d\.\d{3})")
"""A name (a letter, then up to 39 letters, digits, spaces or ``._'-``), looseness, aggression."""


@dataclass(frozen=True, slots=True)
class Personality:
    """How one bot seat deviates from its level's average, and its name."""

    name: str = ""
    looseness: float = 0.0
    aggression: float = 0.0

    @classmethod
    def draw(cls, level: str, seed: str | int, *, name: str | None = None) -> Personality:
        """The personality of a seat of ``level`` (``easy``, ``normal``, ``hard``) keyed by
        ``seed``: the same arguments always give the same personality. ``name`` names it
        (a host's bot name); otherwise a name is drawn from ``NAMES``."""
        traits = RANGES.get(str(level))
        if traits is None:
            raise PersonalityError(f"no personalities for level {level!r}")
        rng = random.Random(f"felt-personality:{level}:{seed}")
        drawn = NAMES[int(rng.random() * len(NAMES))]
        return cls(name or drawn, traits.looseness.draw(rng), traits.aggression.draw(rng))

    @property
    def text(self) -> str:
        """The short string a host stores: ``Ada/+0.012/-0.030``."""
        return f"{self.name or 'Bot'}/{self.looseness:+.3f}/{self.aggression:+.3f}"

    @classmethod
    def parse(cls, text: str) -> Personality:
        """Read ``text`` back; ``PersonalityError`` if it is not one."""
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise PersonalityError(f"not a bot personality: {text!r} (e.g. Ada/+0.012/-0.030)")
        return cls(match.group(1), float(match.group(2)), float(match.group(3)))


NEUTRAL = Personality()
"""The level's average player."""


@dataclass(frozen=True, slots=True)
class DecisionFacts:
    """What ``think_time`` needs to know about one decision."""

    street: Street
    kind: ActionKind
    cost: int
    """Chips the action puts in."""
    pot: int
    """The pot before the action."""
    stack: int
    """The chips the seat had behind before the action."""
    facing_bet: bool
    all_in: bool = False
    """The action moves all in, or calls a player who is all in."""

    @classmethod
    def of(cls, view: SeatView, action: Action) -> DecisionFacts:
        """The facts of ``action`` taken by the seat that sees ``view``."""
        stack, to_call = view.stack, view.to_call
        match action:
            case Fold():
                kind, cost = ActionKind.FOLD, 0
            case Check():
                kind, cost = ActionKind.CHECK, 0
            case Call():
                kind, cost = ActionKind.CALL, min(stack, to_call)
            case RaiseTo(amount=amount):
                kind = ActionKind.BET if view.legal.is_bet else ActionKind.RAISE
                cost = min(stack, amount - view.bets[view.seat])
            case _:
                kind, cost = ActionKind.CHECK, 0
        raiser = view.aggressor()
        # Calling a player who is all in risks the hand as much as moving in does.
        called_all_in = kind is ActionKind.CALL and raiser is not None and view.stacks[raiser] == 0
        moved_in = kind is not ActionKind.FOLD and stack > 0 and cost >= stack
        all_in = moved_in or called_all_in
        return cls(view.street, kind, cost, view.pot_total, stack, to_call > 0, all_in)


_STREET_BASE = {Street.PREFLOP: 0.3, Street.FLOP: 0.4, Street.TURN: 0.5, Street.RIVER: 0.6}
"""The share of the table's delay a routine decision takes, by street."""


def think_time(facts: DecisionFacts, delay: float, jitter: float = 0.5) -> float:
    """Seconds a bot seems to think, from 0 to ``delay`` (the table's bot delay setting).

    Folding before the flop with nothing in the pot is nearly instant, checks are quick, and a
    decision weighs more as it puts more of the stack at risk: all-in (made or called) takes the
    whole delay. ``jitter`` in [0, 1) (drawn by the caller) spreads times by +-25%."""
    if delay <= 0:
        return 0.0
    if facts.all_in:
        return round(delay, 3)
    if facts.kind is ActionKind.FOLD and facts.street is Street.PREFLOP:
        share = 0.1
    elif facts.kind is ActionKind.CHECK and not facts.facing_bet:
        share = 0.2 + 0.1 * facts.street
    else:
        share = _STREET_BASE[facts.street]
    if facts.stack > 0 and facts.kind is not ActionKind.FOLD:
        share += 0.7 * min(1.0, facts.cost / facts.stack)
    elif facts.kind is ActionKind.FOLD and facts.facing_bet and facts.pot > 0:
        # A fold to a big bet is a hard decision too.
        share += 0.3 * min(1.0, facts.pot / max(1, facts.stack))
    spread = 0.75 + 0.5 * min(max(jitter, 0.0), 1.0)
    return round(min(delay, delay * share * spread), 3)
