"""Blackjack table rules: the validated ``Rules`` set, its presets and ``name=value`` overrides.

The option names are the ones config files and ``felt sim blackjack --rule`` use: ``decks``,
``h17``, ``blackjack_pays``, ``double``, ``das``, ``max_hands``, ``resplit_aces``,
``hit_split_aces``, ``peek``, ``surrender``, ``insurance``, ``penetration``,
``reshuffle_every_round``, ``ties``, and the side bets ``side_21_3`` (``off``, ``classic``,
``five_tier``) and ``perfect_pairs`` (``off``, ``on``).

Chips are whole numbers, so some payouts can have a fraction of a chip. The rule, in one place
(``Rules.blackjack_payout``, ``Rules.insurance_stake``, ``Rules.surrender_refund``): **the house
never pays a fraction of a chip; a fractional amount owed to the player is rounded down.** A
natural at 3:2 on a bet of 5 pays 7 (not 7.5); surrendering a bet of 5 returns 2; insurance on a
bet of 5 is 2 chips. Rounding down is what casinos do without change, and it is the only choice a
player cannot farm: rounding up would pay a 1-chip natural 2:1 and make a 1-chip surrender free.
Bets that are multiples of ``Rules.bet_unit`` (2 at 3:2 and 1:1, 10 at 6:5) are paid exactly, and a
table may suggest or require them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.blackjack.errors import BadRuleValueError, UnknownRuleError
from engine.blackjack.sidebets import TwentyOneThreePaytable


class BlackjackPays(StrEnum):
    """What a player's natural (a two-card 21 not after a split) pays."""

    THREE_TO_TWO = "3:2"
    """The traditional payout: a bet of 10 wins 15."""
    SIX_TO_FIVE = "6:5"
    """The short payout: a bet of 10 wins 12. Costs the player about 1.4% of each bet."""
    EVEN = "1:1"
    """A natural wins like any other hand (the ``classic`` exercise's rule)."""

    @property
    def ratio(self) -> tuple[int, int]:
        """The payout as ``(numerator, denominator)``: ``(3, 2)`` for 3:2."""
        left, right = self.value.split(":")
        return int(left), int(right)


class DoubleRule(StrEnum):
    """Which first two cards may be doubled."""

    ANY = "any"
    """Any two cards, soft or hard."""
    NINE_TO_ELEVEN = "9-11"
    """Hard 9, 10 and 11 only (no soft doubles)."""
    TEN_TO_ELEVEN = "10-11"
    """Hard 10 and 11 only (no soft doubles)."""
    NONE = "none"
    """No doubling at all."""


class Surrender(StrEnum):
    """Whether a player may give up half the bet instead of playing the hand."""

    NONE = "none"
    """No surrender."""
    LATE = "late"
    """On the first two cards, not after a split, once the dealer has no blackjack."""


class Ties(StrEnum):
    """What equal totals do (two naturals always push)."""

    PUSH = "push"
    """Equal totals push: the bet is returned."""
    LOSE = "lose"
    """Equal totals lose (the ``classic`` exercise's rule); a natural against a natural still
    pushes."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A validated Blackjack rule set; the defaults are the ``casino`` preset.

    Build variants with ``dataclasses.replace`` or ``with_overrides(["decks=1", "h17=true"])``;
    a bad value raises ``BadRuleValueError`` with a message fit to show a user.
    """

    decks: int = 6
    """Number of 52-card decks in the shoe, 1 to 8."""
    h17: bool = False
    """The dealer hits soft 17 (otherwise stands on all 17s)."""
    blackjack_pays: BlackjackPays = BlackjackPays.THREE_TO_TWO
    """What a natural pays."""
    double: DoubleRule = DoubleRule.ANY
    """Which two-card hands may double."""
    das: bool = True
    """Double after split allowed."""
    max_hands: int = 4
    """Most hands a seat may split into, 1 (no splitting) to 4."""
    resplit_aces: bool = False
    """Split aces may be split again (up to ``max_hands``)."""
    hit_split_aces: bool = False
    """Split aces may be played on; otherwise each gets exactly one card."""
    peek: bool = True
    """The dealer checks for blackjack under a ten or ace. False is the European no-hole-card
    game: the dealer takes a second card after the players, and a dealer blackjack then takes
    every bet on the table, doubles and splits included."""
    surrender: Surrender = Surrender.NONE
    """Late surrender."""
    insurance: bool = True
    """Insurance (and even money on a natural) offered when the dealer shows an ace."""
    penetration: float = 0.75
    """Fraction of the shoe dealt before the cut card comes out and the shoe is reshuffled."""
    reshuffle_every_round: bool = False
    """Shuffle before every round (a continuous shuffler; what exact analyses assume)."""
    ties: Ties = Ties.PUSH
    """What equal totals do."""
    side_21_3: TwentyOneThreePaytable | None = None
    """The 21+3 side bet and its pay table, or ``None`` (``off``) when the table has none."""
    perfect_pairs: bool = False
    """The Perfect Pairs side bet (25/12/6) is offered."""

    def __post_init__(self) -> None:
        _check_int("decks", self.decks, 1, 8)
        _check_int("max_hands", self.max_hands, 1, 4)
        for name in _BOOL_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise BadRuleValueError(f"rule {name} must be true or false")
        for name, kind in _ENUM_OPTIONS.items():
            if not isinstance(getattr(self, name), kind):
                raise BadRuleValueError(f"rule {name} must be one of {_choices(kind)}")
        if self.side_21_3 is not None and not isinstance(self.side_21_3, TwentyOneThreePaytable):
            raise BadRuleValueError(f"rule side_21_3 must be one of {_SIDE_21_3_CHOICES}")
        penetration = self.penetration
        if (
            isinstance(penetration, bool)
            or not isinstance(penetration, int | float)
            or not 0 < penetration <= 1
        ):
            raise BadRuleValueError(
                "rule penetration must be a fraction of the shoe in (0, 1], like 0.75 or 75%"
            )

    @property
    def bet_unit(self) -> int:
        """The smallest bet every payout divides exactly (natural, surrender and insurance)."""
        _, denominator = self.blackjack_pays.ratio
        return denominator * 2 // _gcd(denominator, 2)

    def blackjack_payout(self, bet: int) -> int:
        """Chips returned for a natural on ``bet``: the bet plus its winnings, rounded down."""
        numerator, denominator = self.blackjack_pays.ratio
        return bet + bet * numerator // denominator

    @staticmethod
    def insurance_stake(bet: int) -> int:
        """The insurance bet on ``bet``: half of it, rounded down (0 means none is offered)."""
        return bet // 2

    @staticmethod
    def surrender_refund(bet: int) -> int:
        """Chips returned on a surrender of ``bet``: half of it, rounded down."""
        return bet // 2

    def with_overrides(self, overrides: Iterable[str] | Mapping[str, Any]) -> Rules:
        """A copy with ``name=value`` overrides applied (strings, or a mapping of values).

        >>> CASINO.with_overrides(["decks=1", "h17=true"]).decks
        1
        """
        if isinstance(overrides, Mapping):
            pairs = [(str(name), value) for name, value in overrides.items()]
        else:
            pairs = [split_override(text) for text in overrides]
        changes: dict[str, Any] = {}
        for name, value in pairs:
            changes[rule_key(name)] = parse_rule_value(name, value)
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, str | int | float | bool]:
        """Every option under its name, as text a config file or ``--rule`` takes back (enums
        by value, a side bet that is off as ``"off"``): what ``--json`` reports print."""
        shown: dict[str, str | int | float | bool] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None:
                shown[field.name] = "off"
            elif isinstance(value, StrEnum):
                shown[field.name] = value.value
            else:
                shown[field.name] = value
        return shown

    def describe(self) -> str:
        """A one-line summary people read: ``6 decks, S17, 3:2, double any, DAS, ...``."""
        parts = [
            f"{self.decks} deck{'s' if self.decks > 1 else ''}",
            "H17" if self.h17 else "S17",
            f"blackjack pays {self.blackjack_pays.value}",
        ]
        if self.double is DoubleRule.NONE:
            parts.append("no doubling")
        else:
            parts.append(f"double {self.double.value}")
            parts.append("DAS" if self.das else "no DAS")
        if self.max_hands == 1:
            parts.append("no splitting")
        else:
            parts.append(f"split to {self.max_hands} hands")
            if self.resplit_aces:
                parts.append("resplit aces")
            if self.hit_split_aces:
                parts.append("hit split aces")
        parts.append("dealer peeks" if self.peek else "no hole card")
        if self.surrender is Surrender.LATE:
            parts.append("late surrender")
        parts.append("insurance" if self.insurance else "no insurance")
        if self.reshuffle_every_round:
            parts.append("shuffled every round")
        else:
            parts.append(f"{self.penetration:.0%} penetration")
        if self.ties is Ties.LOSE:
            parts.append("ties lose")
        if self.side_21_3 is not None:
            parts.append(f"21+3 ({self.side_21_3.value.replace('_', '-')})")
        if self.perfect_pairs:
            parts.append("Perfect Pairs")
        return ", ".join(parts)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


_BOOL_OPTIONS = (
    "h17",
    "das",
    "resplit_aces",
    "hit_split_aces",
    "peek",
    "insurance",
    "reshuffle_every_round",
    "perfect_pairs",
)
_ENUM_OPTIONS: dict[str, type[StrEnum]] = {
    "blackjack_pays": BlackjackPays,
    "double": DoubleRule,
    "surrender": Surrender,
    "ties": Ties,
}
_OFF = {"off", "none", "no", "false", "0"}
_SIDE_21_3_CHOICES = "off, " + ", ".join(member.value for member in TwentyOneThreePaytable)
RULE_NAMES: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Rules))
"""Every option name, in declaration order."""


def preset(name: str) -> Rules:
    """The preset called ``name`` (``casino`` or ``classic``)."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise UnknownRuleError(
            f"unknown rule preset {name!r} (choose from {', '.join(PRESETS)})"
        ) from None


def split_override(text: str) -> tuple[str, str]:
    """Split ``"name=value"`` into its parts, refusing text without an ``=``."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise BadRuleValueError(f"{text!r} is not a rule override (expected name=value)")
    return name.strip(), value.strip()


_TRUE = {"true", "yes", "on", "1", "y", "t"}
_FALSE = {"false", "no", "off", "0", "n", "f"}


def rule_key(name: str) -> str:
    """The option a name means: ``"Side-21-3"`` is ``side_21_3``; unknown names are refused."""
    key = name.strip().lower().replace("-", "_")
    if key not in RULE_NAMES:
        raise UnknownRuleError(f"unknown rule {name!r} (rules are: {', '.join(RULE_NAMES)})")
    return key


def parse_rule_value(name: str, value: Any) -> Any:
    """Turn one override's value (text or a Python value) into the option's type.

    Raises ``UnknownRuleError`` for a name ``Rules`` does not have and ``BadRuleValueError`` for
    a value it cannot take; the message names the option and the accepted values.
    """
    key = rule_key(name)
    if key in ("decks", "max_hands"):
        low, high = (1, 8) if key == "decks" else (1, 4)
        number = _parse_int(key, value)
        _check_int(key, number, low, high)
        return number
    if key in _BOOL_OPTIONS:
        return _parse_bool(key, value)
    if key == "side_21_3":
        return _parse_side_21_3(value)
    if key in _ENUM_OPTIONS:
        kind = _ENUM_OPTIONS[key]
        text = str(value.value if isinstance(value, StrEnum) else value).strip().lower()
        text = text.replace("/", ":") if key == "blackjack_pays" else text
        try:
            return kind(text)
        except ValueError:
            raise BadRuleValueError(
                f"rule {key} cannot be {value!r} (choose from {_choices(kind)})"
            ) from None
    return _parse_penetration(value)


def _parse_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise BadRuleValueError(f"rule {name} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise BadRuleValueError(f"rule {name} must be a whole number, not {value!r}") from None


def _parse_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise BadRuleValueError(f"rule {name} must be true or false, not {value!r}")


def _parse_side_21_3(value: Any) -> TwentyOneThreePaytable | None:
    if value is None or isinstance(value, TwentyOneThreePaytable):
        return value
    text = str(value).strip().lower().replace("-", "_")
    if text in _OFF:
        return None
    try:
        return TwentyOneThreePaytable(text)
    except ValueError:
        raise BadRuleValueError(
            f"rule side_21_3 cannot be {value!r} (choose from {_SIDE_21_3_CHOICES})"
        ) from None


def _parse_penetration(value: Any) -> float:
    text = str(value).strip()
    try:
        if text.endswith("%"):
            fraction = float(text[:-1]) / 100
        else:
            # A bare number is the fraction of the shoe dealt (1.5 is refused, not read as 1.5%).
            fraction = float(text)
    except ValueError:
        fraction = -1.0
    if not 0 < fraction <= 1:
        raise BadRuleValueError(
            f"rule penetration cannot be {value!r} (a fraction like 0.75 or a percentage like 75%)"
        )
    return fraction


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRuleValueError(f"rule {name} must be a whole number from {low} to {high}")


def _choices(kind: type[StrEnum]) -> str:
    return ", ".join(member.value for member in kind)


CASINO = Rules()
"""Six decks, S17, 3:2, double any two, DAS, split to 4, one card to split aces, peek, no
surrender, insurance and even money, 75% penetration."""

CLASSIC = Rules(
    decks=1,
    blackjack_pays=BlackjackPays.EVEN,
    double=DoubleRule.NONE,
    das=False,
    max_hands=1,
    insurance=False,
    reshuffle_every_round=True,
    ties=Ties.LOSE,
)
"""The original one-player exercise: one deck shuffled every round, hit and stand only, a natural
wins 1:1, two naturals push, a dealer natural wins, equal totals lose."""

PRESETS: dict[str, Rules] = {"casino": CASINO, "classic": CLASSIC}
"""Named rule sets, for config files and ``--rules``."""
