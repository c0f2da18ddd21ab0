"""What a player can do: actions are small values; ``LegalActions`` says which are allowed now."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.errors import ActionNotAllowedError, EngineError, MalformedInputError
from engine.holdem.errors import HandCompleteError, RaiseAmountError
from engine.values import quick_init


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand."""


@dataclass(frozen=True, slots=True)
class Check:
    """Pass when there is nothing to call."""


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet (or go all-in for less)."""


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Bet or raise so that this street's bet totals ``amount`` ("to", as in PHH)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Show:
    """Show the hole cards at showdown (only asked for in manual showdowns, i.e. replays)."""


@dataclass(frozen=True, slots=True)
class Muck:
    """Throw the hole cards away unseen at showdown, giving up every pot."""


@dataclass(frozen=True, slots=True)
class ChooseRunCount:
    """Say how many times to run the rest of the board when everyone is all in before the river.

    ``count`` 1 declines; the board runs ``count`` times only if every player asked chooses the
    same ``count`` (PokerKit's consensus), else once.
    """

    count: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """After the hand, show hole cards nobody has seen: ``cards`` are indices (0, 1) into the
    player's two hole cards, so one or both can be shown."""

    cards: tuple[int, ...] = (0, 1)


@dataclass(frozen=True, slots=True)
class RabbitHunt:
    """After a hand that ended before the river, see the board cards that would have come."""


Action = Fold | Check | Call | RaiseTo | Show | Muck | ChooseRunCount
"""What ``Hand.turn`` allows: the actions taken in turn (betting, showdown, run count)."""

AfterHandAction = Reveal | RabbitHunt
"""What any player may do once the hand is complete; ``Hand.after_hand`` says which."""


class ActionKind(Enum):
    """What an action did, as events report it."""

    FOLD = "fold"
    """Gave up the hand."""
    CHECK = "check"
    """Passed with nothing to call."""
    CALL = "call"
    """Matched the bet (possibly all-in for less)."""
    BET = "bet"
    """Opened the betting on a street."""
    RAISE = "raise"
    """Raised an existing bet."""


@quick_init  # built at every action: see engine.values
@dataclass(frozen=True, slots=True)
class LegalActions:
    """The choices of the player to act: the one source of what ``Hand.act`` accepts.

    ``call_amount`` is how many more chips a call puts in (``None`` when checking is possible).
    ``min_raise_to``/``max_raise_to`` bound a bet or raise "to" amount (``None`` when raising is
    not allowed); ``max_raise_to`` is the all-in amount. ``bet_so_far`` is the player's bet on
    this street, and ``is_bet`` tells whether a raise would be the street's opening bet.
    ``at_showdown`` marks a manual showdown, where the player may only show or (``can_muck``)
    muck.
    """

    player: int
    can_fold: bool
    can_check: bool
    call_amount: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    bet_so_far: int
    is_bet: bool
    at_showdown: bool = False
    can_muck: bool = False
    max_run_count: int = 0
    """Above 0 while players choose how many times to run the board: counts 1..this allowed."""

    @property
    def can_call(self) -> bool:
        """Whether calling is possible (there is a bet to match)."""
        return self.call_amount is not None

    @property
    def can_raise(self) -> bool:
        """Whether betting or raising is possible."""
        return self.min_raise_to is not None

    def allows(self, action: Action | AfterHandAction) -> bool:
        """Whether ``action`` is legal now."""
        return self.refusal(action) is None

    def verify(self, action: Action | AfterHandAction) -> None:
        """Raise the error ``Hand.act`` gives ``action``, or return if it is legal now."""
        error = self.refusal(action)
        if error is not None:
            raise error

    def refusal(self, action: Action | AfterHandAction) -> EngineError | None:
        """Why ``action`` is not legal now (an error fit to show the player), or ``None``."""
        if self.at_showdown:
            return self._showdown_refusal(action)
        if self.max_run_count:
            return self._run_count_refusal(action)
        # The usual actions by exact type first: this runs for every action of every hand, and
        # a type test is cheaper than a pattern match (bench/holdem_engine.py).
        kind = type(action)
        if kind is Call and self.call_amount is not None:
            return None
        if kind is Check and self.can_check:
            return None
        match action:
            case Fold():
                if not self.can_fold:
                    return ActionNotAllowedError("there is no bet to fold to: check instead")
            case Check():
                if not self.can_check:
                    return ActionNotAllowedError(f"you must call {self.call_amount} or fold")
            case Call():
                if self.call_amount is None:
                    return ActionNotAllowedError("there is nothing to call: check instead")
            case RaiseTo(amount=amount):
                return self._raise_refusal(amount)
            case Show() | Muck():
                return ActionNotAllowedError("showing or mucking happens only at showdown")
            case ChooseRunCount():
                return ActionNotAllowedError("the run count is chosen only when all are all in")
            case _:
                return _other_refusal(action)
        return None

    def _raise_refusal(self, amount: object) -> EngineError | None:
        if not isinstance(amount, int) or isinstance(amount, bool):
            return MalformedInputError(f"a raise amount must be a whole number: {amount!r}")
        low, high = self.min_raise_to, self.max_raise_to
        if low is None or high is None:
            return ActionNotAllowedError("you cannot bet or raise now")
        if low <= amount <= high:
            return None
        word = "bet" if self.is_bet else "raise"
        allowed = f"only all-in for {high}" if low == high else f"from {low} to {high}"
        return RaiseAmountError(f"you can {word} to {allowed}, not {amount}")

    def _showdown_refusal(self, action: Action | AfterHandAction) -> EngineError | None:
        match action:
            case Show():
                return None
            case Muck():
                if self.can_muck:
                    return None
                return ActionNotAllowedError("the last player in a pot cannot muck")
            case Fold() | Check() | Call() | RaiseTo() | ChooseRunCount():
                return ActionNotAllowedError("at showdown you can only show or muck")
            case _:
                return _other_refusal(action)

    def _run_count_refusal(self, action: Action | AfterHandAction) -> EngineError | None:
        match action:
            case ChooseRunCount(count=count):
                if not isinstance(count, int) or isinstance(count, bool):
                    return MalformedInputError(f"a run count must be a whole number: {count!r}")
                if 1 <= count <= self.max_run_count:
                    return None
                return ActionNotAllowedError(
                    f"you can run the board 1 to {self.max_run_count} times, not {count}"
                )
            case Fold() | Check() | Call() | RaiseTo() | Show() | Muck():
                return ActionNotAllowedError("everyone is all in: choose how many times to run it")
            case _:
                return _other_refusal(action)


def _other_refusal(action: object) -> EngineError:
    if isinstance(action, Reveal | RabbitHunt):
        return ActionNotAllowedError("showing cards or rabbit hunting waits for the hand's end")
    return MalformedInputError(f"{action!r} is not a Hold'em action")


@dataclass(frozen=True, slots=True)
class AfterHandChoices:
    """What ``player`` may do once the hand is complete: the one source of what ``Hand.act``
    accepts then. ``revealable`` are the indices of hole cards nobody has seen yet (empty for a
    player whose hand was shown); ``can_rabbit_hunt`` whether the cards that would have come may
    be seen (the table allows it, the hand ended before the river, and nobody has looked yet).
    """

    player: int
    revealable: tuple[int, ...]
    can_rabbit_hunt: bool

    def allows(self, action: object) -> bool:
        """Whether ``action`` is allowed now."""
        return self.refusal(action) is None

    def verify(self, action: object) -> None:
        """Raise the error ``Hand.act`` gives ``action``, or return if it is allowed now."""
        error = self.refusal(action)
        if error is not None:
            raise error

    def refusal(self, action: object) -> EngineError | None:
        """Why ``action`` is not allowed now (fit to show the player), or ``None``."""
        match action:
            case Reveal(cards=cards):
                if (
                    not isinstance(cards, tuple)
                    or not cards
                    or not all(
                        isinstance(i, int) and not isinstance(i, bool) and i in (0, 1)
                        for i in cards
                    )
                    or len(set(cards)) != len(cards)
                ):
                    return MalformedInputError(f"reveal hole cards 0 and/or 1, not {cards!r}")
                if not self.revealable:
                    return ActionNotAllowedError("your cards are already face up")
                if not set(cards) <= set(self.revealable):
                    return ActionNotAllowedError("that card is already face up")
                return None
            case RabbitHunt():
                if not self.can_rabbit_hunt:
                    return ActionNotAllowedError("there are no cards to rabbit hunt")
                return None
            case Fold() | Check() | Call() | RaiseTo() | Show() | Muck() | ChooseRunCount():
                return HandCompleteError("the hand is over")
            case _:
                return MalformedInputError(f"{action!r} is not a Hold'em action")
