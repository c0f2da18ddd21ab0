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
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        # Sorted, so equal mappings built in another order encode (and fingerprint) the same.
        pairs = sorted(value.items(), key=lambda item: (type(item[0]).__name__, repr(item[0])))
        return [[encode(k), encode(v)] for k, v in pairs]
    if isinstance(value, list | tuple | frozenset | set):
        items = sorted(value) if isinstance(value, frozenset | set) else value
        return [encode(item) for item in items]
    raise TypeError(f"cannot encode {type(value).__name__}")


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
