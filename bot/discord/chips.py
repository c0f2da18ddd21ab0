"""Chip amounts in Discord: checking what a member typed, and writing amounts for people."""

from __future__ import annotations

from bot.discord.errors import Refusal
from storage import MAX_CHIPS


class InvalidChipAmount(Refusal):
    """An amount option that is not a whole number in range (a modified client can send one)."""


def checked_amount(value: object, *, what: str = "amount", allow_zero: bool = False) -> int:
    """``value`` as a chip amount, or a refusal: discord.py does not re-check option ranges."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidChipAmount(f"The {what} must be a whole number of chips.")
    lowest = 0 if allow_zero else 1
    if value < lowest:
        raise InvalidChipAmount(
            f"The {what} must be at least {lowest} chip{'' if lowest else 's'}."
        )
    if value > MAX_CHIPS:
        raise InvalidChipAmount(f"The {what} cannot be more than {MAX_CHIPS:,} chips.")
    return value


def chips(amount: int) -> str:
    """``1 chip``, ``1,250 chips``."""
    return f"{amount:,} chip" + ("" if abs(amount) == 1 else "s")


def signed(amount: int) -> str:
    """``+1,250``, ``-300``, ``0``: a result, not a balance."""
    return f"{amount:+,}" if amount else "0"
