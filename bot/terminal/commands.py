"""What the terminal player types, read into commands: pure functions, checked against what is
legal now, so a typo is refused with a one-line help and never reaches the table.

Hold'em: ``f``/``fold``, ``c``/``call``/``check``, ``r 100``/``raise 100`` (raise *to* 100, as
the table shows bets), ``a``/``all-in``. Blackjack: ``h``/``hit``, ``s``/``stand``,
``d``/``double``, ``p``/``split``, ``u``/``surrender`` and, when insurance is offered,
``i``/``insure``, ``e``/``even money``, ``n``/``no``. Both: ``q`` leaves, ``?`` helps, an empty
line shows the table. Case and surrounding spaces never matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.holdem.events import Offer
from bot.numbers import NumberError, quote, read_whole
from engine.blackjack import Action as BlackjackAction
from engine.blackjack import Rules, Surrender
from engine.blackjack.rules import DoubleRule
from engine.holdem import Action as HoldemAction
from engine.holdem import Call, Check, Fold, RaiseTo

QUIT_WORDS = frozenset({"q", "quit", "exit", "leave"})
HELP_WORDS = frozenset({"?", "help"})
HOLDEM_HELP = (
    "Type f (fold), c (check or call), r 100 (raise to 100), a (all-in), "
    "rebuy [chips], q (leave); Enter shows the table."
)
BLACKJACK_HELP = (
    "Type h (hit), s (stand), d (double), p (split), u (surrender), "
    "i/e/n (insurance, even money, no), hint, q (leave); Enter shows the table."
)
"""The help under the ``casino`` rules; :func:`blackjack_help` words it for any rules."""
_FOLD = frozenset({"f", "fold"})
_CALL = frozenset({"c", "call", "check", "k", "x"})
_RAISE = frozenset({"r", "raise", "b", "bet"})
_ALL_IN = frozenset({"a", "all-in", "allin", "all", "all in", "shove"})
_REBUY = frozenset({"rebuy", "buy", "add"})
_BACK = frozenset({"back", "sit in"})
_BLACKJACK_WORDS: dict[str, BlackjackAction] = {
    "h": BlackjackAction.HIT,
    "hit": BlackjackAction.HIT,
    "s": BlackjackAction.STAND,
    "stand": BlackjackAction.STAND,
    "d": BlackjackAction.DOUBLE,
    "double": BlackjackAction.DOUBLE,
    "p": BlackjackAction.SPLIT,
    "split": BlackjackAction.SPLIT,
    "u": BlackjackAction.SURRENDER,
    "surrender": BlackjackAction.SURRENDER,
    "i": BlackjackAction.INSURE,
    "insure": BlackjackAction.INSURE,
    "insurance": BlackjackAction.INSURE,
    "e": BlackjackAction.EVEN_MONEY,
    "even": BlackjackAction.EVEN_MONEY,
    "even money": BlackjackAction.EVEN_MONEY,
    "n": BlackjackAction.NO_INSURANCE,
    "no": BlackjackAction.NO_INSURANCE,
}
_YES = frozenset({"y", "yes"})
BLACKJACK_KEYS: dict[BlackjackAction, str] = {
    BlackjackAction.HIT: "h",
    BlackjackAction.STAND: "s",
    BlackjackAction.DOUBLE: "d",
    BlackjackAction.SPLIT: "p",
    BlackjackAction.SURRENDER: "u",
    BlackjackAction.INSURE: "i",
    BlackjackAction.EVEN_MONEY: "e",
    BlackjackAction.NO_INSURANCE: "n",
}
"""The key that plays each action, as the prompt shows it."""


class InputError(ValueError):
    """Input that means nothing now; the message says what would work."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the table, cashing out."""


@dataclass(frozen=True, slots=True)
class ShowHelp:
    """Print the one-line help."""


@dataclass(frozen=True, slots=True)
class ShowTable:
    """Draw the table again."""


@dataclass(frozen=True, slots=True)
class Rebuy:
    """Add chips to the seat (``None``: up to the maximum buy-in)."""

    amount: int | None


@dataclass(frozen=True, slots=True)
class Back:
    """Be dealt in again after sitting out."""


@dataclass(frozen=True, slots=True)
class PlayHoldem:
    """A Hold'em action, legal when it was read."""

    action: HoldemAction


@dataclass(frozen=True, slots=True)
class PlayBlackjack:
    """A Blackjack decision, legal when it was read."""

    action: BlackjackAction


@dataclass(frozen=True, slots=True)
class Bet:
    """Bet on the next Blackjack round (``None``: the default bet)."""

    amount: int | None


@dataclass(frozen=True, slots=True)
class Hint:
    """Ask basic strategy what to do."""


HoldemCommand = Quit | ShowHelp | ShowTable | Rebuy | Back | PlayHoldem
BlackjackCommand = Quit | ShowHelp | ShowTable | Hint | Bet | PlayBlackjack


def blackjack_help(rules: Rules) -> str:
    """The in-round help, listing only what ``rules`` allow."""
    parts = ["h (hit)", "s (stand)"]
    if rules.double is not DoubleRule.NONE:
        parts.append("d (double)")
    if rules.max_hands > 1:
        parts.append("p (split)")
    if rules.surrender is not Surrender.NONE:
        parts.append("u (surrender)")
    if rules.insurance:
        parts.append("i/e/n (insurance, even money, no)")
    return f"Type {', '.join(parts)}, hint, q (leave); Enter shows the table."


def bet_help(default: int, low: int, high: int) -> str:
    """The help at the bet prompt (where Enter places the usual bet)."""
    return (
        f"Enter bets {default:,}, or type an amount from {low:,} to {high:,} "
        "(bet 100 works too); q leaves."
    )


def parse_chips(text: str) -> int:
    """A whole number of chips (``bot.numbers``: ``1,000`` and ``1_000`` allowed), not negative;
    ``InputError`` otherwise."""
    try:
        amount = read_whole(text, what="An amount of chips")
    except NumberError:
        raise InputError(f"{quote(text.strip())} is not a whole number of chips.") from None
    if amount < 0:
        raise InputError(f"An amount of chips cannot be negative, not {quote(text.strip())}.")
    return amount


def _looks_like_a_number(text: str) -> bool:
    """Whether the player meant a number (so a bad one is refused as a number, not a command):
    it starts with a digit of any script, or a minus sign."""
    return bool(text) and (text[0].isdigit() or text[0] in "-+" or text[0].isnumeric())


def _words(text: str) -> tuple[str, str]:
    cleaned = " ".join(text.lower().split())
    word, _, rest = cleaned.partition(" ")
    return word, rest


def _common(text: str) -> Quit | ShowHelp | ShowTable | None:
    cleaned = " ".join(text.lower().split())
    if not cleaned:
        return ShowTable()
    if cleaned in QUIT_WORDS:
        return Quit()
    if cleaned in HELP_WORDS:
        return ShowHelp()
    return None


def parse_holdem(text: str, legal: Offer | None) -> HoldemCommand:
    """Read a Hold'em line; ``legal`` is what the player may do now (``None``: not their turn)."""
    common = _common(text)
    if common is not None:
        return common
    cleaned = " ".join(text.lower().split())
    word, rest = _words(text)
    if word in _REBUY:
        return Rebuy(parse_chips(rest) if rest else None)
    if cleaned in _BACK:
        return Back()
    if cleaned in _FOLD:
        kind = "fold"
    elif cleaned in _CALL:
        kind = "call"
    elif cleaned in _ALL_IN:
        kind = "all-in"
    elif word in _RAISE:
        kind = "raise"
    else:
        raise InputError(f"Unknown command {quote(text.strip())}. {HOLDEM_HELP}")
    if legal is None:
        raise InputError("It is not your turn yet (q leaves).")
    if kind == "fold":
        if not legal.can_fold:
            raise InputError("There is no bet to fold to: c checks for free.")
        return PlayHoldem(Fold())
    if kind == "call":
        return PlayHoldem(Check() if legal.can_check else Call())
    if kind == "all-in":
        if legal.max_raise_to is not None:
            return PlayHoldem(RaiseTo(legal.max_raise_to))
        return PlayHoldem(Call())  # raising is closed: calling is as far as you can go
    if legal.min_raise_to is None or legal.max_raise_to is None:
        raise InputError("You cannot raise now: f (fold) or c (call).")
    bounds = f"between {legal.min_raise_to:,} and {legal.max_raise_to:,}"
    verb = "Bet" if legal.is_bet else "Raise"
    if not rest:
        raise InputError(f"{verb} how much? r {legal.min_raise_to} (to {bounds}).")
    amount = parse_chips(rest)
    if not legal.min_raise_to <= amount <= legal.max_raise_to:
        raise InputError(f"{verb} to {bounds} (r {legal.min_raise_to}); a is all-in.")
    return PlayHoldem(RaiseTo(amount))


def parse_blackjack(
    text: str,
    legal: frozenset[BlackjackAction],
    *,
    rules: Rules | None = None,
    betting: str = "",
) -> BlackjackCommand:
    """Read a Blackjack line; ``legal`` is what the player may do now (empty: no decision).

    ``rules`` words the help for the table's rules; ``betting`` is the bet prompt's help when
    the player is between rounds (a wrong entry there is answered with it).
    """
    common = _common(text)
    if common is not None:
        return common
    cleaned = " ".join(text.lower().split())
    word, rest = _words(text)
    if cleaned == "hint":
        return Hint()
    if word == "bet" or _looks_like_a_number(cleaned):
        if legal:
            raise InputError("Finish this round first.")
        amount = rest if word == "bet" else cleaned
        return Bet(parse_chips(amount) if amount else None)
    action = _BLACKJACK_WORDS.get(cleaned)
    if action is None and cleaned in _YES:
        action = (
            BlackjackAction.INSURE
            if BlackjackAction.INSURE in legal
            else BlackjackAction.EVEN_MONEY
        )
    if action is None:
        help_text = betting or (blackjack_help(rules) if rules is not None else BLACKJACK_HELP)
        raise InputError(f"Unknown command {quote(text.strip())}. {help_text}")
    if not legal:
        raise InputError(f"There is no decision to make now. {betting or 'Type a bet, or q.'}")
    if action not in legal:
        raise InputError(f"{action.label} is not possible now: {blackjack_choices(legal)}.")
    return PlayBlackjack(action)


def blackjack_choices(legal: frozenset[BlackjackAction]) -> str:
    """``"h hit · s stand · d double down"`` for the actions in ``legal``, in a fixed order."""
    return " · ".join(
        f"{key} {action.label.lower()}" for action, key in BLACKJACK_KEYS.items() if action in legal
    )
