"""quick_init: the same frozen values as the dataclass's own __init__, built faster."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from engine.holdem.actions import LegalActions
from engine.values import quick_init


@dataclass(frozen=True, slots=True)
class _Plain:
    player: int
    cards: tuple[int, ...]
    note: str = "none"


@quick_init
@dataclass(frozen=True, slots=True)
class _Quick:
    player: int
    cards: tuple[int, ...]
    note: str = "none"


def test_values_quick_init_builds_the_same_value_as_the_dataclass() -> None:
    for args, kwargs in (
        ((1, (2, 3)), {}),
        ((1,), {"cards": (4,), "note": "x"}),
        ((), {"player": 0, "cards": ()}),
    ):
        plain, quick = _Plain(*args, **kwargs), _Quick(*args, **kwargs)
        assert dataclasses.astuple(plain) == dataclasses.astuple(quick)
        assert repr(quick) == repr(plain).replace("_Plain", "_Quick")
    assert _Quick(1, (2,)) == _Quick(1, (2,))
    assert hash(_Quick(1, (2,))) == hash(_Quick(1, (2,)))
    assert dataclasses.replace(_Quick(1, (2,)), note="y") == _Quick(1, (2,), "y")
    assert pickle.loads(pickle.dumps(_Quick(5, (6,)))) == _Quick(5, (6,))


def test_values_quick_init_values_stay_frozen() -> None:
    value = _Quick(1, (2,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.player = 2  # type: ignore[misc]
    assert value.player == 1


def test_values_quick_init_keeps_missing_arguments_an_error() -> None:
    with pytest.raises(TypeError):
        _Quick(1)  # type: ignore[call-arg]


def test_values_legal_actions_take_keywords_as_before() -> None:
    legal = LegalActions(
        player=2, can_fold=True, can_check=False, call_amount=4, min_raise_to=8,
        max_raise_to=100, bet_so_far=0, is_bet=False,
    )  # fmt: skip
    assert (legal.at_showdown, legal.can_muck, legal.max_run_count) == (False, False, 0)
    assert legal.can_call and legal.can_raise


def test_values_quick_init_refuses_what_it_cannot_copy() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class NotFrozen:
        a: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    for cls in (NoSlots, NotFrozen, Checked, Factory):
        with pytest.raises(TypeError):
            quick_init(cls)


@dataclass(frozen=True, slots=True)
class _PlainWide:
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int
    h: tuple[int, ...] = ()
    i: str = "i"


@quick_init
@dataclass(frozen=True, slots=True)
class _QuickWide:
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int
    h: tuple[int, ...] = ()
    i: str = "i"


def test_values_quick_init_wide_class_builds_the_same_value_of_its_own_class() -> None:
    pairs = (
        (_PlainWide(1, 2, 3, 4, 5, 6, 7), _QuickWide(1, 2, 3, 4, 5, 6, 7)),
        (_PlainWide(1, 2, 3, 4, 5, 6, 7, (8,), "x"), _QuickWide(1, 2, 3, 4, 5, 6, 7, (8,), "x")),
        (_PlainWide(1, 2, 3, 4, 5, 6, g=7, i="y"), _QuickWide(1, 2, 3, 4, 5, 6, g=7, i="y")),
    )
    for plain, quick in pairs:
        assert type(quick) is _QuickWide
        assert dataclasses.astuple(plain) == dataclasses.astuple(quick)
        assert repr(quick) == repr(plain).replace("_PlainWide", "_QuickWide")
    value = _QuickWide(1, 2, 3, 4, 5, 6, 7)
    assert value == _QuickWide(1, 2, 3, 4, 5, 6, 7) and hash(value) == hash(
        _QuickWide(*range(1, 8))
    )
    assert pickle.loads(pickle.dumps(value)) == value
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.a = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del value.b
    assert (value.a, value.b) == (1, 2)


def test_values_quick_init_wide_class_builds_a_subclass_instance_of_the_subclass() -> None:
    class Wider(_QuickWide):
        __slots__ = ("extra",)

    value = Wider(1, 2, 3, 4, 5, 6, 7)
    assert type(value) is Wider
    assert dataclasses.astuple(value) == (1, 2, 3, 4, 5, 6, 7, (), "i")
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.a = 9  # type: ignore[misc]


def test_values_legal_actions_are_legal_actions_after_quick_init() -> None:
    legal = LegalActions(1, True, False, 2, 4, 200, 0, False)
    assert type(legal) is LegalActions
    with pytest.raises(dataclasses.FrozenInstanceError):
        legal.player = 2  # type: ignore[misc]
