"""Tournament structures: levels and breaks, stacks, late registration, rebuys, add-ons and
re-entry; the four presets; and custom structures read from TOML (format in docs/tournaments.md).

A structure is a schedule of steps, each a ``Level`` (blinds, an ante, and a duration in minutes
or in hands) or a ``Break`` (minutes; the break that offers the add-on says so). Levels are
numbered from 1 and breaks are not counted, so "late registration to the end of level 4" means
what a player reading the schedule thinks it means. After the last level the blinds stay where
they are. Every refusal is a ``StructureError`` naming the one thing wrong.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.holdem.stakes import Stakes
from engine.tournament.errors import StructureError


class AnteKind(StrEnum):
    """Who pays a level's ante."""

    BIG_BLIND = "big_blind"
    """The big blind pays one ante for the whole table (dead money; the blind comes first when
    the big blind is short)."""
    EVERY_PLAYER = "every_player"
    """Every player dealt in pays the ante."""


class Clock(StrEnum):
    """What a structure's level durations count."""

    MINUTES = "minutes"
    HANDS = "hands"


@dataclass(frozen=True, slots=True)
class Level:
    """One level: the blinds, the ante (0 for none) and how long it lasts: ``minutes`` or
    ``hands`` (exactly one of them)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: int | None = None
    hands: int | None = None

    @property
    def duration(self) -> int:
        """The minutes or hands the level lasts."""
        value = self.minutes if self.minutes is not None else self.hands
        assert value is not None
        return value

    def label(self, ante_kind: AnteKind) -> str:
        """``100/200 ante 200 (BB)``: the blinds and ante as a player reads them."""
        text = f"{self.small_blind:,}/{self.big_blind:,}"
        if self.ante:
            text += f" ante {self.ante:,}" + (" (BB)" if ante_kind is AnteKind.BIG_BLIND else "")
        return text

    def stakes(self, stacks_in_order: tuple[int, ...], ante_kind: AnteKind) -> Stakes:
        """The forced bets of a hand at this level, for players in PHH order with these stacks.

        A big-blind ante is passed to the engine as the big blind's own ante with trimming off
        (dead money, as the rule says); a big blind too short for blind and ante pays the blind
        first, so the ante is cut to what is left after the blind.
        """
        players = len(stacks_in_order)
        if ante_kind is AnteKind.EVERY_PLAYER or not self.ante:
            return Stakes.standard(players, self.small_blind, self.big_blind, self.ante)
        big_blind_player = 0 if players == 2 else 1
        stack = stacks_in_order[big_blind_player]
        ante = max(0, min(self.ante, stack - self.big_blind))
        antes = [0] * players
        antes[1] = ante  # Stakes positions: 0 small blind, 1 big blind, heads-up included
        blinds = (self.small_blind, self.big_blind) + (0,) * (players - 2)
        return Stakes(tuple(antes), blinds, self.big_blind, ante_trimming=False)


@dataclass(frozen=True, slots=True)
class Break:
    """A pause between levels; ``add_on`` marks the break at which add-ons are sold."""

    minutes: int
    add_on: bool = False


Step = Level | Break


@dataclass(frozen=True, slots=True)
class Structure:
    """Everything about a tournament's chips and clock. Build with ``Structure.build`` (or read
    one with ``parse_structure``/``preset``), which checks it.

    ``late_registration_levels``: registration (and re-entry) stays open to the end of that
    level; 0 closes it at the start. ``re_entries``: how many times a busted player may enter
    again during late registration. ``rebuy_levels``: rebuys are sold to the end of that level
    (0: no rebuys), at most ``rebuy_limit`` per entry, each for ``rebuy_chips``, to a player whose
    stack is at or below the starting stack (busted included). ``add_on_chips``: sold once per
    entry during the break marked ``add_on`` (0: no add-on). Rebuys and add-ons cost one buy-in.
    """

    name: str
    starting_stack: int
    steps: tuple[Step, ...]
    ante_kind: AnteKind = AnteKind.BIG_BLIND
    late_registration_levels: int = 0
    re_entries: int = 0
    rebuy_levels: int = 0
    rebuy_limit: int = 0
    rebuy_chips: int = 0
    add_on_chips: int = 0

    def __post_init__(self) -> None:
        _check(self)

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels alone, in order (level ``n`` is ``levels[n - 1]``)."""
        return tuple(step for step in self.steps if isinstance(step, Level))

    @property
    def clock(self) -> Clock:
        """Whether levels last minutes or hands."""
        return Clock.MINUTES if self.levels[0].minutes is not None else Clock.HANDS

    @property
    def has_rebuys(self) -> bool:
        """Whether rebuys are sold at all."""
        return self.rebuy_levels > 0

    def level_number(self, step_index: int) -> int:
        """The number (from 1) of the level at or last before step ``step_index``."""
        return sum(1 for step in self.steps[: step_index + 1] if isinstance(step, Level))

    def with_rebuys(self) -> Structure:
        """This structure with rebuys for its first six levels (at most 2 per entry, each a
        starting stack) and an add-on of 1.5 starting stacks at a break after the rebuy period
        (one is added if the schedule has none there). Structures with rebuys come back as
        they are."""
        if self.has_rebuys:
            return self
        period = min(6, len(self.levels))
        steps = list(self.steps)
        position = _index_after_level(steps, period)
        if position < len(steps) and isinstance(steps[position], Break):
            existing = steps[position]
            assert isinstance(existing, Break)
            steps[position] = Break(existing.minutes, add_on=True)
        else:
            steps.insert(position, Break(5, add_on=True))
        return replace(
            self,
            steps=tuple(steps),
            rebuy_levels=period,
            rebuy_limit=2,
            rebuy_chips=self.starting_stack,
            add_on_chips=self.starting_stack * 3 // 2,
        )

    def to_mapping(self) -> dict[str, Any]:
        """The structure as the TOML format's table (``parse_structure`` reads it back)."""
        table: dict[str, Any] = {
            "name": self.name,
            "starting_stack": self.starting_stack,
            "ante": self.ante_kind.value,
            "late_registration_levels": self.late_registration_levels,
            "re_entries": self.re_entries,
            "rebuy_levels": self.rebuy_levels,
            "rebuy_limit": self.rebuy_limit,
            "rebuy_chips": self.rebuy_chips,
            "add_on_chips": self.add_on_chips,
        }
        levels: list[dict[str, Any]] = []
        for step in self.steps:
            if isinstance(step, Break):
                levels.append({"break_minutes": step.minutes, "add_on": step.add_on})
                continue
            row: dict[str, Any] = {"small_blind": step.small_blind, "big_blind": step.big_blind}
            row["ante"] = step.ante
            row[self.clock.value] = step.duration
            levels.append(row)
        table["levels"] = levels
        return table


def _index_after_level(steps: list[Step], number: int) -> int:
    seen = 0
    for index, step in enumerate(steps):
        if isinstance(step, Level):
            seen += 1
            if seen == number:
                return index + 1
    return len(steps)


def _whole(value: object, what: str, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise StructureError(f"{what} must be a whole number >= {low}, not {value!r}")
    return value


def _check(structure: Structure) -> None:
    """Refuse a structure that cannot be played, naming the first thing wrong."""
    if not structure.name.strip():
        raise StructureError("a structure needs a name")
    _whole(structure.starting_stack, "starting_stack", 1)
    levels = structure.levels
    if not levels:
        raise StructureError("a structure needs at least one level")
    _check_steps(structure.steps)
    if len({level.minutes is None for level in levels}) != 1:
        raise StructureError("levels must all last minutes or all last hands, not a mix")
    if structure.starting_stack <= levels[0].big_blind:
        raise StructureError(
            f"starting_stack ({structure.starting_stack}) must be more than the first big "
            f"blind ({levels[0].big_blind})"
        )
    count = len(levels)
    late = _whole(structure.late_registration_levels, "late_registration_levels", 0)
    if late > count:
        raise StructureError(f"late_registration_levels ({late}) is past the last level ({count})")
    if _whole(structure.re_entries, "re_entries", 0) and not late:
        raise StructureError("re_entries need late registration (late_registration_levels >= 1)")
    _check_rebuys(structure, count)


def _check_steps(steps: tuple[Step, ...]) -> None:
    previous: Step | None = None
    big_blind = 0
    for number, step in enumerate(steps, start=1):
        if isinstance(step, Break):
            _whole(step.minutes, f"step {number}: break_minutes", 1)
            if previous is None or isinstance(previous, Break):
                raise StructureError(f"step {number}: a break must follow a level")
        else:
            _check_level(step, number)
            if step.big_blind < big_blind:
                raise StructureError(
                    f"step {number}: the big blind ({step.big_blind}) is lower than the "
                    f"level before ({big_blind})"
                )
            big_blind = step.big_blind
        previous = step


def _check_level(level: Level, number: int) -> None:
    where = f"step {number}"
    small = _whole(level.small_blind, f"{where}: small_blind", 1)
    big = _whole(level.big_blind, f"{where}: big_blind", 1)
    if small > big:
        raise StructureError(f"{where}: the small blind ({small}) exceeds the big blind ({big})")
    _whole(level.ante, f"{where}: ante", 0)
    if (level.minutes is None) == (level.hands is None):
        raise StructureError(f"{where}: a level lasts either minutes or hands (exactly one)")
    _whole(level.duration, f"{where}: {'minutes' if level.minutes is not None else 'hands'}", 1)


def _check_rebuys(structure: Structure, count: int) -> None:
    period = _whole(structure.rebuy_levels, "rebuy_levels", 0)
    limit = _whole(structure.rebuy_limit, "rebuy_limit", 0)
    chips = _whole(structure.rebuy_chips, "rebuy_chips", 0)
    if period > count:
        raise StructureError(f"rebuy_levels ({period}) is past the last level ({count})")
    if period and (limit < 1 or chips < 1):
        raise StructureError("rebuys need rebuy_limit >= 1 and rebuy_chips >= 1")
    if not period and (limit or chips):
        raise StructureError("rebuy_limit and rebuy_chips need rebuy_levels >= 1")
    add_on_breaks = sum(1 for s in structure.steps if isinstance(s, Break) and s.add_on)
    add_on = _whole(structure.add_on_chips, "add_on_chips", 0)
    if add_on and add_on_breaks != 1:
        raise StructureError("add_on_chips needs exactly one break with add_on = true")
    if not add_on and add_on_breaks:
        raise StructureError("a break offers an add-on but add_on_chips is 0")


# ------------------------------------------------------------------------------- TOML

_TOP_KEYS = frozenset(Structure.__dataclass_fields__) - {"steps", "ante_kind"} | {"ante", "levels"}
_LEVEL_KEYS = frozenset({"small_blind", "big_blind", "ante", "minutes", "hands"})
_BREAK_KEYS = frozenset({"break_minutes", "add_on"})


def parse_structure(source: str | Mapping[str, Any]) -> Structure:
    """A structure from TOML text (or its parsed table); unknown keys are refused, so a typo
    is never silently ignored."""
    if isinstance(source, str):
        try:
            table: Mapping[str, Any] = tomllib.loads(source)
        except tomllib.TOMLDecodeError as error:
            raise StructureError(f"not valid TOML: {error}") from None
    else:
        table = source
    unknown = sorted(set(table) - _TOP_KEYS)
    if unknown:
        raise StructureError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})")
    rows = table.get("levels")
    if not isinstance(rows, list) or not rows:
        raise StructureError("a structure needs a [[levels]] list with at least one level")
    steps = tuple(_step(row, number) for number, row in enumerate(rows, start=1))
    try:
        ante_kind = AnteKind(table.get("ante", AnteKind.BIG_BLIND.value))
    except ValueError:
        choices = ", ".join(kind.value for kind in AnteKind)
        raise StructureError(f"ante must be one of {choices}, not {table['ante']!r}") from None
    name = table.get("name", "custom")
    if not isinstance(name, str):
        raise StructureError(f"name must be text, not {name!r}")
    numbers = {
        key: table.get(key, 0) for key in _TOP_KEYS - {"name", "ante", "levels", "starting_stack"}
    }
    if "starting_stack" not in table:
        raise StructureError("a structure needs a starting_stack")
    return Structure(name, table["starting_stack"], steps, ante_kind, **numbers)


def _step(row: object, number: int) -> Step:
    if not isinstance(row, Mapping):
        raise StructureError(f"step {number} must be a table of keys, not {row!r}")
    if "break_minutes" in row:
        unknown = sorted(set(row) - _BREAK_KEYS)
        if unknown:
            raise StructureError(f"step {number}: unknown break key {unknown[0]!r}")
        add_on = row.get("add_on", False)
        if not isinstance(add_on, bool):
            raise StructureError(f"step {number}: add_on must be true or false")
        return Break(row["break_minutes"], add_on)
    unknown = sorted(set(row) - _LEVEL_KEYS)
    if unknown:
        raise StructureError(f"step {number}: unknown level key {unknown[0]!r}")
    for key in ("small_blind", "big_blind"):
        if key not in row:
            raise StructureError(f"step {number}: a level needs {key}")
    return Level(
        row["small_blind"],
        row["big_blind"],
        row.get("ante", 0),
        row.get("minutes"),
        row.get("hands"),
    )


# ------------------------------------------------------------------------------- presets

LADDER: tuple[tuple[int, int], ...] = (
    (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400),
    (300, 600), (400, 800), (500, 1_000), (600, 1_200), (800, 1_600), (1_000, 2_000),
    (1_500, 3_000), (2_000, 4_000), (3_000, 6_000), (4_000, 8_000), (5_000, 10_000),
    (6_000, 12_000), (8_000, 16_000), (10_000, 20_000), (15_000, 30_000), (20_000, 40_000),
    (30_000, 60_000), (40_000, 80_000), (50_000, 100_000), (60_000, 120_000),
    (80_000, 160_000), (100_000, 200_000),
)  # fmt: skip
"""The blinds every preset climbs; a big-blind ante equal to the big blind from 50/100 on."""
ANTE_FROM_BIG_BLIND = 100


class Format(StrEnum):
    """A Sit & Go (one table, starts when full) or a multi-table tournament."""

    SIT_AND_GO = "sng"
    MULTI_TABLE = "mtt"


@dataclass(frozen=True, slots=True)
class _Preset:
    starting_stack: int
    minutes: int
    first_rung: int
    late_registration_levels: int
    break_every: int = 6
    break_minutes: int = 5


_PRESETS: Mapping[str, _Preset] = {
    "hyper": _Preset(500, 3, 0, 3, break_every=10),
    "turbo": _Preset(1_500, 5, 0, 4, break_every=8),
    "regular": _Preset(3_000, 10, 0, 6),
    "deepstack": _Preset(10_000, 15, 2, 8),
}
PRESET_NAMES: tuple[str, ...] = tuple(_PRESETS)


def preset(name: str, kind: Format = Format.SIT_AND_GO) -> Structure:
    """A preset structure. Sit & Go presets have no breaks, late registration or re-entry;
    multi-table ones break every few levels and allow late registration and one re-entry.
    Neither has rebuys (``Structure.with_rebuys`` adds them)."""
    try:
        shape = _PRESETS[name.strip().lower()]
    except KeyError:
        raise StructureError(
            f"unknown preset {name!r} (choose from {', '.join(PRESET_NAMES)})"
        ) from None
    steps: list[Step] = []
    rungs = LADDER[shape.first_rung :]
    for number, (small, big) in enumerate(rungs, start=1):
        ante = big if big >= ANTE_FROM_BIG_BLIND else 0
        steps.append(Level(small, big, ante, minutes=shape.minutes))
        if kind is Format.MULTI_TABLE and number % shape.break_every == 0 and number < len(rungs):
            steps.append(Break(shape.break_minutes))
    late = shape.late_registration_levels if kind is Format.MULTI_TABLE else 0
    return Structure(
        f"{name.strip().lower()} {kind.value}",
        shape.starting_stack,
        tuple(steps),
        AnteKind.BIG_BLIND,
        late_registration_levels=late,
        re_entries=1 if late else 0,
    )
