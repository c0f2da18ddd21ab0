"""Every number a person types into Felt, read one way, and what a message may echo of it.

:func:`read_whole` is the one parser behind the terminal prompts, every ``felt`` option that
takes a number, and the Discord raise modal. It accepts exactly this (ASCII only):

- optional spaces around the number, and an optional ``-`` (so ``-10`` is "too small", not
  "unknown");
- ``0``-``9`` digits, either all together (``1000``) or in groups of three after the first
  group, separated by one of ``,`` ``_`` ``'`` or a space, the same one throughout
  (``1,000``, ``1_000_000``, ``1 000``);
- with ``suffixes=True`` only (simulation counts): a ``k`` (thousand) or ``m`` (million) suffix
  (``250k``, ``5M``) or a power of ten ``e0``-``e9`` (``1e6``).

:func:`read_decimal` is the one grammar for the few inputs that may have a fraction (stacks in
big blinds and prizes in percent for ``felt icm``): plain digits with an optional ``.`` part, no
sign, separators or exponents.

Anything else (``²``, ``١٢``, ``12.5``, ``1,00``, a 10,000-digit line) raises
:class:`NumberError`, whose message is one line fit to show, quoting at most
:data:`QUOTE_LIMIT` characters of what was typed. Python's own ``int()`` is never handed
anything this grammar did not accept, so its Unicode digits and its 4,300-digit limit cannot
surface as a traceback.
"""

from __future__ import annotations

import re

QUOTE_LIMIT = 100
"""At most this many characters of what someone typed are echoed back in a message."""

MAX_NUMBER_LENGTH = 40
"""Longer input is refused before it is read: no number Felt takes needs more than 26 characters
(a 64-bit seed with separators)."""

_NUMBER = re.compile(
    r"\s*(?P<sign>-)?"
    r"(?P<digits>[0-9]{1,3}(?P<sep>[,_' ])[0-9]{3}(?:(?P=sep)[0-9]{3})*|[0-9]+)"
    r"(?:(?P<suffix>[km])|e(?P<power>[0-9]))?\s*",
    re.ASCII | re.IGNORECASE,
)
_DECIMAL = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*", re.ASCII)
_MULTIPLIERS = {"k": 1_000, "m": 1_000_000}
FORMAT_HELP = "digits, such as 1000 or 1,000"


class NumberError(ValueError):
    """Text that is not a number Felt accepts there; the message is one line fit to show."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` in quotes for a message, cut to ``limit`` characters (saying how long it was).

    >>> quote("abc")
    "'abc'"
    >>> quote("x" * 500, limit=3)
    "'xxx…' (500 characters)"
    """
    whole = repr(text)
    if len(whole) <= limit + 2:  # escapes (\x1f) count: what is shown stays short
        return whole
    shown = repr(text[:limit])
    mark, body = shown[0], shown[1:-1][:limit]
    return f"{mark}{body}…{mark} ({len(text):,} characters)"


def read_whole(text: str, *, what: str = "a number", suffixes: bool = False) -> int:
    """The whole number ``text`` spells in the grammar above, or :class:`NumberError`.

    >>> read_whole(" 1,000 ")
    1000
    >>> read_whole("-10")
    -10
    >>> read_whole("5M", suffixes=True)
    5000000
    """
    if len(text) > MAX_NUMBER_LENGTH:
        raise NumberError(f"{what} must be a whole number, not {quote(text)}")
    match = _NUMBER.fullmatch(text)
    if match is None or (not suffixes and (match["suffix"] or match["power"])):
        raise NumberError(f"{what} must be a whole number ({FORMAT_HELP}), not {quote(text)}")
    value = int(re.sub(r"[^0-9]", "", match["digits"]))
    if match["suffix"]:
        value *= _MULTIPLIERS[match["suffix"].lower()]
    elif match["power"]:
        value *= 10 ** int(match["power"])
    return -value if match["sign"] else value


def parse_whole(
    text: str, *, what: str, low: int, high: int | None = None, suffixes: bool = False
) -> int:
    """A whole number from ``low`` to ``high`` (no upper bound when ``None``), or
    :class:`NumberError` saying the range: ``--bet must be a whole number from 10 to 500,
    not '5'``."""
    span = f"from {low:,} to {high:,}" if high is not None else f"of at least {low:,}"
    refusal = NumberError(f"{what} must be a whole number {span}, not {quote(text.strip())}")
    try:
        value = read_whole(text, what=what, suffixes=suffixes)
    except NumberError:
        raise refusal from None
    if value < low or (high is not None and value > high):
        raise refusal
    return value


def read_decimal(text: str, *, what: str = "a number") -> float:
    """A number of at least 0 with an optional decimal part, or :class:`NumberError`.

    >>> read_decimal(" 12.5 ")
    12.5
    >>> read_decimal(".5")
    0.5
    """
    match = _DECIMAL.fullmatch(text) if len(text) <= MAX_NUMBER_LENGTH else None
    if match is None:
        raise NumberError(f"{what} must be a number like 1500 or 12.5, not {quote(text)}")
    return float(match[1])
