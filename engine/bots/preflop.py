"""The preflop equity table shipped with Felt, and the 169 starting-hand classes it is keyed by.

``preflop_equity.json`` (next to this module, built by ``build_preflop_table.py``) holds, for each
class such as ``AKs``, its equity against 1 to 9 random hands and heads-up against the top
fraction of hands (a tight raiser's range). ``PreflopTable`` answers from it in constant time,
and orders the 1,326 two-card combos strongest first so bots can model opponents' ranges.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.cards import DECK, Card
from engine.errors import EngineError

TABLE_FILE = "preflop_equity.json"
MAX_OPPONENTS = 9
"""The table covers 1 to 9 opponents: Felt's tables seat at most ten."""

RANGE_FRACTIONS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
"""Top fractions of all combos for which the table holds heads-up equity."""

STRENGTH_OPPONENTS = 5
"""Classes are ordered by their average equity relative to a fair share against 1 to this
many random hands: heads-up equity alone overrates offsuit high cards for a 6-max table."""

_RANK_CHARS = "23456789TJQKA"
COMBOS = 1326


class PreflopTableError(EngineError):
    """The shipped preflop table is missing or malformed (a packaging error)."""


def class_name(first: Card, second: Card) -> str:
    """The starting-hand class of two cards: ``"AA"``, ``"AKs"`` or ``"T9o"``."""
    high, low = (first, second) if first >> 2 >= second >> 2 else (second, first)
    h, lo = _RANK_CHARS[high >> 2], _RANK_CHARS[low >> 2]
    if h == lo:
        return h + lo
    return h + lo + ("s" if high & 3 == low & 3 else "o")


def all_classes() -> tuple[str, ...]:
    """The 169 classes: pairs, then suited, then offsuit hands, high ranks first."""
    pairs = [r + r for r in reversed(_RANK_CHARS)]
    suited: list[str] = []
    offsuit: list[str] = []
    for i in range(12, -1, -1):
        for j in range(i - 1, -1, -1):
            suited.append(_RANK_CHARS[i] + _RANK_CHARS[j] + "s")
            offsuit.append(_RANK_CHARS[i] + _RANK_CHARS[j] + "o")
    return (*pairs, *suited, *offsuit)


def class_combos(name: str) -> tuple[tuple[Card, Card], ...]:
    """Every two-card combo of a class: 6 for a pair, 4 suited, 12 offsuit."""
    if len(name) not in (2, 3) or name[0] not in _RANK_CHARS or name[1] not in _RANK_CHARS:
        raise PreflopTableError(f"{name!r} is not a starting-hand class")
    high, low = _RANK_CHARS.index(name[0]), _RANK_CHARS.index(name[1])
    combos: list[tuple[Card, Card]] = []
    for s1 in range(4):
        for s2 in range(4):
            a, b = DECK[high * 4 + s1], DECK[low * 4 + s2]
            if a == b or (high == low and s1 >= s2):
                continue
            if high != low and (s1 == s2) != name.endswith("s"):
                continue
            combos.append((a, b))
    return tuple(combos)


def representative(name: str) -> tuple[Card, Card]:
    """One combo of the class (its equity against random hands is the class's)."""
    return class_combos(name)[0]


@dataclass(frozen=True, slots=True)
class PreflopTable:
    """Preflop equities by class, and the combos ordered strongest first.

    ``vs_random[i][k - 1]`` is class ``classes[i]``'s equity (share of the pot) against ``k``
    random hands; ``vs_range[i][j]`` its heads-up equity against a hand drawn from the strongest
    ``RANGE_FRACTIONS[j]`` of combos. ``order`` lists class indices strongest first.
    """

    classes: tuple[str, ...]
    vs_random: tuple[tuple[float, ...], ...]
    vs_range: tuple[tuple[float, ...], ...]
    order: tuple[int, ...]
    samples: int
    seed: int

    def index_of(self, first: Card, second: Card) -> int:
        """The class index of two hole cards."""
        return _class_index()[first * 52 + second]

    def equity_vs_random(self, first: Card, second: Card, opponents: int) -> float:
        """Equity against ``opponents`` random hands (beyond 9, scaled from 9 by fair shares)."""
        row = self.vs_random[self.index_of(first, second)]
        if opponents <= 0:
            return 1.0
        if opponents <= MAX_OPPONENTS:
            return row[opponents - 1]
        return row[-1] * (MAX_OPPONENTS + 1) / (opponents + 1)

    def equity_vs_range(self, first: Card, second: Card, fraction: float) -> float:
        """Heads-up equity against the strongest ``fraction`` of hands, interpolated."""
        row = self.vs_range[self.index_of(first, second)]
        fraction = min(1.0, max(RANGE_FRACTIONS[0], fraction))
        for j in range(1, len(RANGE_FRACTIONS)):
            if fraction <= RANGE_FRACTIONS[j]:
                lo, hi = RANGE_FRACTIONS[j - 1], RANGE_FRACTIONS[j]
                t = (fraction - lo) / (hi - lo)
                return row[j - 1] + t * (row[j] - row[j - 1])
        return row[-1]  # pragma: no cover - fraction is clamped to 1.0

    def percentile(self, first: Card, second: Card) -> float:
        """Where the hand ranks among all 1,326 combos: near 0 for aces, near 1 for 32o (the
        middle of its class's band)."""
        return _percentiles(self)[self.index_of(first, second)]

    def ordered_combos(self) -> tuple[tuple[Card, Card], ...]:
        """All 1,326 combos, strongest class first."""
        return _ordered_combos(self)

    def top_combos(self, fraction: float) -> tuple[tuple[Card, Card], ...]:
        """The strongest ``fraction`` of combos (at least one class's worth)."""
        ordered = _ordered_combos(self)
        count = max(1, min(COMBOS, round(fraction * COMBOS)))
        return ordered[:count]


@cache
def _class_index() -> tuple[int, ...]:
    names = {name: i for i, name in enumerate(all_classes())}
    index = [0] * (52 * 52)
    for a in DECK:
        for b in DECK:
            if a != b:
                index[a * 52 + b] = names[class_name(a, b)]
    return tuple(index)


@cache
def _ordered_combos(table: PreflopTable) -> tuple[tuple[Card, Card], ...]:
    return tuple(combo for i in table.order for combo in class_combos(table.classes[i]))


@cache
def _percentiles(table: PreflopTable) -> tuple[float, ...]:
    out = [0.0] * len(table.classes)
    seen = 0
    for i in table.order:
        size = len(class_combos(table.classes[i]))
        out[i] = (seen + size / 2) / COMBOS
        seen += size
    return tuple(out)


def strength_order(classes: Sequence[str], vs_random: Sequence[Sequence[float]]) -> list[int]:
    """Class indices strongest first, by mean equity relative to a fair share against 1 to
    ``STRENGTH_OPPONENTS`` random hands (ties by name, so the order is stable)."""

    def score(i: int) -> float:
        row = vs_random[i]
        return sum(row[k - 1] * (k + 1) for k in range(1, STRENGTH_OPPONENTS + 1))

    return sorted(range(len(classes)), key=lambda i: (-score(i), classes[i]))


def table_from_json(document: Mapping[str, object]) -> PreflopTable:
    """Check and convert the JSON document ``build_preflop_table`` writes."""
    classes = tuple(str(name) for name in _list(document, "classes"))
    vs_random = tuple(_numbers(row) for row in _list(document, "vs_random"))
    vs_range = tuple(_numbers(row) for row in _list(document, "vs_range"))
    fractions = _numbers(_list(document, "range_fractions"))
    samples, seed = document.get("samples"), document.get("seed")
    if not isinstance(samples, int) or not isinstance(seed, int):
        raise PreflopTableError("the preflop table must record its samples and seed")
    if classes != all_classes():
        raise PreflopTableError("the preflop table does not list the 169 classes in order")
    if fractions != RANGE_FRACTIONS:
        raise PreflopTableError("the preflop table's range fractions are not this version's")
    if any(len(row) != MAX_OPPONENTS for row in vs_random) or len(vs_random) != len(classes):
        raise PreflopTableError("the preflop table's vs_random rows have the wrong shape")
    if any(len(row) != len(fractions) for row in vs_range) or len(vs_range) != len(classes):
        raise PreflopTableError("the preflop table's vs_range rows have the wrong shape")
    if any(not 0.0 <= x <= 1.0 for row in (*vs_random, *vs_range) for x in row):
        raise PreflopTableError("the preflop table holds an equity outside 0..1")
    order = tuple(strength_order(classes, vs_random))
    return PreflopTable(classes, vs_random, vs_range, order, samples, seed)


def _list(document: Mapping[str, object], key: str) -> list[object]:
    value = document.get(key)
    if not isinstance(value, list):
        raise PreflopTableError(f"the preflop table's {key!r} is missing or not a list")
    return value


def _numbers(row: object) -> tuple[float, ...]:
    if not isinstance(row, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in row
    ):
        raise PreflopTableError("the preflop table holds a row that is not a list of numbers")
    return tuple(float(x) for x in row)


@cache
def preflop_table() -> PreflopTable:
    """The shipped table, loaded once (it is immutable, so threads may share it)."""
    try:
        text = resources.files("engine.bots").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    except OSError as error:
        raise PreflopTableError(f"the preflop table {TABLE_FILE} is missing: {error}") from None
    document = json.loads(text)
    if not isinstance(document, dict):
        raise PreflopTableError("the preflop table is not a JSON object")
    return table_from_json(document)
