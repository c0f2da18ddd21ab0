"""How one value of the config file is checked and described: its type, its range, the words it
may be, and how a refusal quotes it. ``bot.config`` declares the keys; this reads each one."""

from __future__ import annotations

import difflib
import enum
import typing
from collections.abc import Mapping
from typing import Any


class ConfigError(Exception):
    """A configuration that cannot be used; the message is one line naming the key at fault."""


def meta(
    doc: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    non_empty: bool = False,
    choices: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A key's metadata: what it does, the range a number (or each list item) must lie in, and
    the values a string may take."""
    return {
        "doc": doc,
        "minimum": minimum,
        "maximum": maximum,
        "non_empty": non_empty,
        "choices": choices,
    }


def coerce(annotation: Any, value: Any, metadata: Mapping[str, Any], where: str) -> Any:
    expected = describe_type(annotation, metadata)
    origin = typing.get_origin(annotation)
    if origin is tuple:
        (item_type, _ellipsis) = typing.get_args(annotation)
        wrong = ConfigError(f"{where} must be {expected}, got {show(value)}")
        if not isinstance(value, list):
            raise wrong
        return tuple(_coerce_scalar(item_type, item, metadata, wrong) for item in value)
    return _coerce_scalar(
        annotation, value, metadata, ConfigError(f"{where} must be {expected}, got {show(value)}")
    )


def _coerce_scalar(
    annotation: Any, value: Any, metadata: Mapping[str, Any], wrong: ConfigError
) -> Any:
    result: Any
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        if not isinstance(value, str):
            raise wrong
        matches = [member for member in annotation if member.value.lower() == value.lower()]
        if not matches:
            raise wrong
        return matches[0]
    if annotation is bool:
        if not isinstance(value, bool):
            raise wrong
        return value
    if annotation is int:
        # TOML booleans are not numbers, whatever Python thinks.
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong
        result = value
    elif annotation is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise wrong
        result = float(value)
    elif annotation is str:
        if not isinstance(value, str):
            raise wrong
        if metadata.get("non_empty") and not value.strip():
            raise wrong
        choices = metadata.get("choices") or ()
        if choices and value.strip().lower() not in choices:
            raise wrong
        return value.strip().lower() if choices else value
    else:  # pragma: no cover - a schema bug, not a user error
        raise TypeError(f"unsupported config type {annotation!r}")
    minimum, maximum = metadata.get("minimum"), metadata.get("maximum")
    if (minimum is not None and result < minimum) or (maximum is not None and result > maximum):
        raise wrong
    return result


def describe_type(annotation: Any, metadata: Mapping[str, Any]) -> str:
    """The expected type in words, as the error messages and the example file say it."""
    if typing.get_origin(annotation) is tuple:
        (item_type, _ellipsis) = typing.get_args(annotation)
        plural = {int: "integers", float: "numbers", str: "strings"}[item_type]
        bounds = _range(metadata)
        return f"a list of {plural}, each {bounds}" if bounds else f"a list of {plural}"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(f'"{member.value}"' for member in annotation)
    if annotation is bool:
        return "true or false"
    if annotation is str:
        if metadata.get("choices"):
            return "one of " + ", ".join(f'"{choice}"' for choice in metadata["choices"])
        return "a non-empty string" if metadata.get("non_empty") else "a string"
    noun = {int: "an integer", float: "a number"}[annotation]
    bounds = _range(metadata)
    if bounds.startswith("at least"):
        return f"{noun} of {bounds}"
    return f"{noun} {bounds}" if bounds else noun


def _range(metadata: Mapping[str, Any]) -> str:
    minimum, maximum = metadata.get("minimum"), metadata.get("maximum")
    if minimum is not None and maximum is not None:
        return f"from {_number(minimum)} to {_number(maximum)}"
    if maximum is not None:
        return f"at most {_number(maximum)}"
    if minimum is not None:
        return f"at least {_number(minimum)}"
    return ""


def _number(value: float) -> str:
    if float(value).is_integer():
        whole = int(value)
        return f"{whole:,}" if whole >= 100_000 else str(whole)
    return str(value)


def show(value: Any) -> str:
    """A TOML value the way the user wrote it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 100 else f"{value[:100]}… ({len(value):,} characters)"
        return f'"{shown}"'
    if isinstance(value, list):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, dict):
        return "a table"
    return str(value)


def suggest(name: str, known: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    if close:
        return f" (did you mean {close[0]}?)"
    return " (known: " + ", ".join(known) + ")"
