"""JSON for stored operation results and request fingerprints.

An idempotent operation stores its result so that a replay (the same key again) returns exactly
what the first call returned. Results are frozen dataclasses of ints, strings, enums, datetimes,
tuples and int-keyed mappings; mappings are written as ``[key, value]`` pairs so int keys survive.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from collections.abc import Mapping
from datetime import date, datetime
from enum import Enum
from typing import Any, TypeVar, cast

T = TypeVar("T")

_HINTS: dict[type[Any], dict[str, Any]] = {}


def encode(value: object) -> Any:
    """A JSON-ready form of a result value."""
    kind = type(value)
    branch = _BRANCHES.get(kind)
    if branch is None:
        branch = _BRANCHES[kind] = _branch(value)
    if branch is _Branch.PLAIN:
        return value
    if branch is _Branch.SEQUENCE:
        return [
            item if type(item) is int or type(item) is str else encode(item)
            for item in value  # type: ignore[attr-defined]
        ]
    if branch is _Branch.DATACLASS:
        return {name: encode(getattr(value, name)) for name in _field_names(kind)}
    if branch is _Branch.MAPPING:
        # Sorted, so equal mappings built in another order encode (and fingerprint) the same.
        items = value.items()  # type: ignore[attr-defined]
        if all(type(k) is int for k in value):  # type: ignore[attr-defined]
            # The common case (seats, hands): the same order and text, fewer calls.
            return [[k, v if type(v) is int else encode(v)] for k, v in sorted(items, key=_int_key)]
        pairs = sorted(items, key=lambda item: (type(item[0]).__name__, repr(item[0])))
        return [[encode(k), encode(v)] for k, v in pairs]
    if branch is _Branch.ENUM:
        return value.value  # type: ignore[attr-defined]
    if branch is _Branch.TIME:
        return value.isoformat()  # type: ignore[attr-defined]
    if branch is _Branch.SET:
        return [encode(item) for item in sorted(value)]  # type: ignore[call-overload]
    raise TypeError(f"cannot encode {kind.__name__}")


def _int_key(item: tuple[int, object]) -> str:
    """The order of int keys: by their text, as every other key (so 10 sorts before 2)."""
    return repr(item[0])


class _Branch(Enum):
    """How :func:`encode` treats a type: decided once per type (every test below depends only
    on the type), so a settlement's dozens of values skip the chain of ``isinstance`` checks."""

    PLAIN = 1
    ENUM = 2
    TIME = 3
    DATACLASS = 4
    MAPPING = 5
    SEQUENCE = 6
    SET = 7
    UNSUPPORTED = 8


_BRANCHES: dict[type[Any], _Branch] = {}
_FIELDS: dict[type[Any], tuple[str, ...]] = {}


def _branch(value: object) -> _Branch:
    """The branch of ``value``'s type, tested in the order that defines the encoding."""
    if value is None or isinstance(value, bool | int | str | float):
        return _Branch.PLAIN
    if isinstance(value, Enum):
        return _Branch.ENUM
    if isinstance(value, datetime | date):
        return _Branch.TIME
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _Branch.DATACLASS
    if isinstance(value, Mapping):
        return _Branch.MAPPING
    if isinstance(value, list | tuple):
        return _Branch.SEQUENCE
    if isinstance(value, frozenset | set):
        return _Branch.SET
    return _Branch.UNSUPPORTED


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def dumps(value: object) -> str:
    """Canonical JSON text of a value (sorted keys, no spaces)."""
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(operation: str, arguments: Mapping[str, object]) -> str:
    """A digest of an operation's name and arguments, to recognise a reused idempotency key."""
    text = dumps({"operation": operation, "arguments": dict(arguments)})
    return hashlib.sha256(text.encode()).hexdigest()


def decode(kind: type[T], data: Any) -> T:
    """Rebuild a value of type ``kind`` from what :func:`encode` produced."""
    return cast(T, _decode(kind, data))


def loads(kind: type[T], text: str) -> T:
    return decode(kind, json.loads(text))


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = typing.get_type_hints(cls)
        _HINTS[cls] = hints
    return hints


def _decode(kind: Any, data: Any) -> Any:
    origin = typing.get_origin(kind)
    if kind is Any or kind is object:
        return data
    if origin is typing.Union or origin is types.UnionType:
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if data is None:
            return None
        if len(options) != 1:
            raise TypeError(f"cannot decode ambiguous union {kind}")
        return _decode(options[0], data)
    if origin is tuple:
        (item_kind, *_rest) = typing.get_args(kind)
        return tuple(_decode(item_kind, item) for item in data)
    if origin in (dict, Mapping, typing.Mapping):
        key_kind, value_kind = typing.get_args(kind)
        return {_decode(key_kind, k): _decode(value_kind, v) for k, v in data}
    if isinstance(kind, type):
        if issubclass(kind, Enum):
            return kind(data)
        if kind is datetime:
            return datetime.fromisoformat(data)
        if kind is date:
            return date.fromisoformat(data)
        if dataclasses.is_dataclass(kind):
            hints = _hints(kind)
            return kind(
                **{f.name: _decode(hints[f.name], data[f.name]) for f in dataclasses.fields(kind)}
            )
        if kind in (int, str, bool, float):
            return data
    raise TypeError(f"cannot decode {kind}")
