"""The home-game table options, as one table: each option's name (the ``HoldemSettings`` field
and the word members type), its kind and range, how it reads on the table message; with the
parser of ``name=value`` changes and the checks between options.

A new option is one ``TableOption`` row in ``OPTIONS`` plus its field on ``HoldemSettings``:
the range check, the ``/holdem options`` and ``/holdem start`` wording, the terminal's flags
and the table message all read this table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from bot.holdem.errors import TableSettingsError
from bot.numbers import NumberError, read_whole
from bot.tables.limits import MAX_BLIND
from engine.holdem.options import MAX_RUN_COUNT, HomeGameOptions, StraddleKind

if TYPE_CHECKING:
    from bot.holdem.settings import HoldemSettings


class OptionKind(Enum):
    """What values an option takes."""

    SWITCH = "switch"
    """On or off (``on``/``off``, ``yes``/``no``, ``true``/``false``)."""
    WHOLE = "whole"
    """A whole number from ``low`` to ``high``."""
    CHOICE = "choice"
    """One word of ``choices``."""


@dataclass(frozen=True, slots=True)
class TableOption:
    """One table option: ``name`` is both its ``HoldemSettings`` field and what members type."""

    name: str
    label: str
    """How the table message and ``/holdem options`` name it."""
    kind: OptionKind
    help: str
    low: int = 0
    high: int = 0
    unit: str = ""
    """Said after a number on the table message (``chips``, ``hands``, ``seconds``)."""
    choices: tuple[str, ...] = ()
    terminal: bool = True
    """Whether ``felt play holdem`` offers it (the rail needs members watching: Discord only)."""

    def read(self, text: str) -> Any:
        """The value ``text`` names, or a ``TableSettingsError`` saying what is accepted."""
        word = text.strip().lower()
        match self.kind:
            case OptionKind.SWITCH:
                if word in _ON:
                    return True
                if word in _OFF:
                    return False
                raise TableSettingsError(f"`{self.name}` is on or off.")
            case OptionKind.CHOICE:
                if word not in self.choices:
                    raise TableSettingsError(f"`{self.name}` is one of {_either(self.choices)}.")
                return word
            case OptionKind.WHOLE:
                if word in _OFF and self.low == 0:
                    return 0
                try:
                    number = read_whole(word, suffixes=True)
                except NumberError:
                    raise TableSettingsError(f"`{self.name}` is {self.accepted}.") from None
                return self.checked(number)

    def checked(self, value: object) -> Any:
        """``value`` if this option accepts it, else a ``TableSettingsError``."""
        match self.kind:
            case OptionKind.SWITCH:
                if not isinstance(value, bool):
                    raise TableSettingsError(f"`{self.name}` is on or off.")
            case OptionKind.CHOICE:
                if value not in self.choices:
                    raise TableSettingsError(f"`{self.name}` is one of {_either(self.choices)}.")
            case OptionKind.WHOLE:
                whole = isinstance(value, int) and not isinstance(value, bool)
                if not whole or not self.low <= value <= self.high:  # type: ignore[operator]
                    raise TableSettingsError(f"`{self.name}` is {self.accepted}.")
        return value

    @property
    def accepted(self) -> str:
        """What this option accepts, in words."""
        match self.kind:
            case OptionKind.SWITCH:
                return "on or off"
            case OptionKind.CHOICE:
                return _either(self.choices)
            case OptionKind.WHOLE:
                off = " (0 = off)" if self.low == 0 else ""
                return f"a whole number from {self.low:,} to {self.high:,}{off}"

    def shown(self, value: Any) -> str:
        """The value as the table message says it."""
        if self.kind is OptionKind.SWITCH:
            return "on" if value else "off"
        if self.kind is OptionKind.WHOLE:
            if value == 0 and self.low == 0:
                return "off"
            return f"{value:,}{' ' + self.unit if self.unit else ''}"
        return str(value)


_ON = frozenset({"on", "yes", "true", "1", "allowed"})
_OFF = frozenset({"off", "no", "false", "0", "none"})


def _either(words: tuple[str, ...]) -> str:
    quoted = [f"`{word}`" for word in words]
    return ", ".join(quoted[:-1]) + f" or {quoted[-1]}" if len(quoted) > 1 else quoted[0]


_STRADDLES = tuple(kind.value for kind in StraddleKind)
W, S, C = OptionKind.WHOLE, OptionKind.SWITCH, OptionKind.CHOICE

OPTIONS: tuple[TableOption, ...] = (
    TableOption("straddle", "Straddle", C, "utg: under the gun", choices=_STRADDLES),
    TableOption("max_straddles", "Straddles", W, "a UTG straddle and re-straddles", 1, 8),
    TableOption("run_it_max", "Run it", W, "most runs when all in", 1, MAX_RUN_COUNT),
    TableOption("bomb_pot_every", "Bomb pot every", W, "every Nth hand", 0, 1000, "hands"),
    TableOption("bomb_pot_ante", "Bomb-pot ante", W, "from everyone", 0, MAX_BLIND, "chips"),
    TableOption("double_board", "Double board", S, "bomb pots play two boards"),
    TableOption("seven_deuce_bounty", "7-2 bounty", W, "from each", 0, MAX_BLIND, "chips"),
    TableOption("rabbit_hunt", "Rabbit hunt", S, "see the cards that would have come"),
    TableOption("time_bank", "Time bank", W, "seconds after the turn timer", 0, 600, "seconds"),
    TableOption("time_bank_refill", "Bank refill", W, "seconds added", 0, 600, "seconds"),
    TableOption("time_bank_every", "Refill every", W, "hands between refills", 1, 1000, "hands"),
    TableOption("away_after", "Away after", W, "timed-out turns in a row", 1, 10, "turns"),
    TableOption("rail_delay", "Rail delay", W, "hands the rail's DMs lag", 0, 10, "hands",
                terminal=False),
)  # fmt: skip
"""Every table option ``/holdem options`` changes, in the order it lists them."""

OPTION_BY_NAME: Mapping[str, TableOption] = {option.name: option for option in OPTIONS}

_PAIR = re.compile(r"([a-z0-9_-]+)\s*[=:]\s*([^\s;]+?)(?=[\s;]|,\s|,?$)")


def parse_changes(text: str) -> dict[str, Any]:
    """The changes ``name=value name=value`` (spaces, commas or semicolons between) names, each
    checked on its own; a ``TableSettingsError`` names the first bad one."""
    changes: dict[str, Any] = {}
    rest = text.strip()
    if not rest:
        raise TableSettingsError("Name an option to change, like `straddle=utg`.")
    position = 0
    for match in _PAIR.finditer(rest):
        between = rest[position : match.start()].strip(" ,;")
        if between:
            raise TableSettingsError(f"`{between[:30]}` is not `name=value`.")
        position = match.end()
        name = match[1].lower().replace("-", "_")
        option = OPTION_BY_NAME.get(name)
        if option is None:
            raise TableSettingsError(f"`{name[:30]}` is not a table option. {_names()}")
        if name in changes:
            raise TableSettingsError(f"`{name}` is given twice.")
        changes[name] = option.read(match[2])
    leftover = rest[position:].strip(" ,;")
    if leftover:
        raise TableSettingsError(f"`{leftover[:30]}` is not `name=value`.")
    return changes


def _names() -> str:
    return "Options: " + ", ".join(f"`{option.name}`" for option in OPTIONS) + "."


def check_options(settings: HoldemSettings) -> None:
    """Each option in range, then the rules between them; the first problem is refused."""
    for option in OPTIONS:
        option.checked(getattr(settings, option.name))
    straddle = StraddleKind(settings.straddle)
    if straddle is not StraddleKind.OFF and settings.seats < 3:
        raise TableSettingsError("Straddles need a table of at least 3 seats.")
    if straddle is StraddleKind.BUTTON and settings.max_straddles != 1:
        raise TableSettingsError("The button straddles once: `max_straddles` must be 1.")
    if settings.max_straddles > max(1, settings.seats - 2):
        raise TableSettingsError(
            f"At most {settings.seats - 2} straddles fit at {settings.seats} seats."
        )
    if settings.bomb_pot_every and settings.bomb_pot_ante < 1:
        raise TableSettingsError("Bomb pots need a `bomb_pot_ante` of at least 1 chip.")
    if settings.bomb_pot_ante > settings.max_buy_in:
        raise TableSettingsError("The bomb-pot ante cannot be more than the maximum buy-in.")
    if settings.double_board and not settings.bomb_pot_every:
        raise TableSettingsError("A double board is for bomb pots: set `bomb_pot_every` too.")


def home_game(settings: HoldemSettings) -> HomeGameOptions:
    """The engine's home-game options for these (validated) settings."""
    return HomeGameOptions(
        straddle=StraddleKind(settings.straddle),
        max_straddles=settings.max_straddles,
        run_it_max=settings.run_it_max,
        bomb_pot_every=settings.bomb_pot_every,
        bomb_pot_ante=settings.bomb_pot_ante if settings.bomb_pot_every else 0,
        bomb_pot_double_board=settings.double_board,
        seven_deuce_bounty=settings.seven_deuce_bounty,
        rabbit_hunt=settings.rabbit_hunt,
    )


def option_lines(settings: HoldemSettings) -> list[str]:
    """Every option with its value, one line each, for ``/holdem options``."""
    return [
        f"`{o.name}` = {o.shown(getattr(settings, o.name))} ({o.help}; {o.accepted})"
        for o in OPTIONS
    ]


def option_summary(settings: HoldemSettings) -> str:
    """The options that differ from a plain table, in a few words ("" when none do)."""
    plain = type(settings)()
    parts = [
        f"{o.label} {o.shown(getattr(settings, o.name))}"
        for o in OPTIONS
        if getattr(settings, o.name) != getattr(plain, o.name)
    ]
    return " · ".join(parts)


def changed_words(before: HoldemSettings, after: HoldemSettings) -> str:
    """The options ``after`` changes, as ``label value`` words."""
    return ", ".join(
        f"{o.label.lower()} {o.shown(getattr(after, o.name))}"
        for o in OPTIONS
        if getattr(before, o.name) != getattr(after, o.name)
    )


OPTIONS_TEXT_LIMIT = 300
"""The longest ``name=value`` text a command takes: every option fits, with room."""
