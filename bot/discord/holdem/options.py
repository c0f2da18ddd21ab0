"""What members type for Hold'em, checked: ``/holdem start`` options and raise amounts.

discord.py does not re-check option ranges (a modified client can send anything), so every
value is checked here and refused with a message that says what would be accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.config import HoldemConfig
from bot.discord.chips import checked_amount
from bot.discord.errors import Refusal
from bot.holdem.events import Offer
from bot.holdem.home_options import option_lines, parse_changes
from bot.holdem.settings import (
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_SEATS,
    MIN_TURN_SECONDS,
    HoldemSettings,
)
from bot.numbers import NumberError, read_whole
from bot.render.text import shorten
from storage import MAX_CHIPS

ALL_IN_WORDS = frozenset({"all", "allin", "all-in", "all in", "max", "shove"})
MIN_WORDS = frozenset({"min", "minimum"})


def table_settings(config: HoldemConfig, overrides: Mapping[str, Any] = {}) -> HoldemSettings:
    """A new table's settings from the guild's Hold'em defaults (bots fill every empty chair
    when the guild allows bots), with the cog's fixed ``overrides`` (tests: no delays)."""
    settings = HoldemSettings(
        small_blind=config.small_blind,
        big_blind=config.big_blind,
        min_buy_in=config.min_buy_in,
        max_buy_in=config.max_buy_in,
        seats=config.seats,
        bots=config.seats - 1 if config.bots else 0,
        bot_delay_seconds=config.bot_delay_seconds,
        turn_seconds=config.turn_seconds,
        max_sit_out_hands=config.max_sit_out_hands,
    )
    return replace(settings, **overrides)


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refusal(f"The {what} must be a whole number.")
    if not low <= value <= high:
        raise Refusal(f"The {what} must be from {low:,} to {high:,}.")
    return value


def start_settings(
    base: HoldemSettings,
    *,
    small_blind: int | None = None,
    big_blind: int | None = None,
    seats: int | None = None,
    bots: int | None = None,
    turn_seconds: int | None = None,
    bots_allowed: bool = True,
) -> HoldemSettings:
    """``base`` with the options of ``/holdem start`` applied, or a refusal naming the problem.

    Giving one blind sets the other (big = 2 x small). When the blinds change, the buy-in limits
    keep the guild's depth in big blinds (20 to 100 big blinds by default).
    """
    if small_blind is not None:
        small_blind = _whole(small_blind, "small blind", 1, MAX_CHIPS)
    if big_blind is not None:
        big_blind = _whole(big_blind, "big blind", 1, MAX_CHIPS)
    if small_blind is not None and big_blind is None:
        big_blind = small_blind * 2
    elif big_blind is not None and small_blind is None:
        small_blind = max(1, big_blind // 2)
    changes: dict[str, Any] = {}
    if small_blind is not None and big_blind is not None:
        if big_blind < small_blind:
            raise Refusal("The big blind must be at least the small blind.")
        changes["small_blind"] = small_blind
        changes["big_blind"] = big_blind
        if big_blind != base.big_blind:
            low = min(MAX_CHIPS, max(big_blind, base.min_buy_in * big_blind // base.big_blind))
            high = min(MAX_CHIPS, max(low, base.max_buy_in * big_blind // base.big_blind))
            changes["min_buy_in"], changes["max_buy_in"] = low, high
    chosen_seats = base.seats
    if seats is not None:
        chosen_seats = _whole(seats, "number of seats", MIN_SEATS, MAX_SEATS)
        changes["seats"] = chosen_seats
    if bots is None:
        changes["bots"] = chosen_seats - 1 if base.bots else 0
    else:
        changes["bots"] = _whole(bots, "number of bots", 0, chosen_seats - 1)
        if changes["bots"] and not bots_allowed:
            raise Refusal("Bot players are turned off on this server: use bots:0.")
    if turn_seconds is not None:
        changes["turn_seconds"] = _whole(
            turn_seconds, "turn time in seconds", MIN_TURN_SECONDS, MAX_TURN_SECONDS
        )
    return base.with_changes(**changes)


def options_view(settings: HoldemSettings, *, can_change: bool) -> str:
    """What ``/holdem options`` shows: every home-game option, its value and what it takes."""
    how = (
        "Change with `/holdem options change:name=value` (several: `straddle=utg run_it_max=2`); "
        "changes apply from the next hand."
        if can_change
        else "Only the player who opened this table or an admin can change them."
    )
    lines = "\n".join(f"- {line}" for line in option_lines(settings))
    return f"**Table options**\n{lines}\n{how}"


def with_home_options(settings: HoldemSettings, text: str | None) -> HoldemSettings:
    """``settings`` with the ``name=value`` home-game options of ``text`` (``None``: as is)."""
    if text is None:
        return settings
    return settings.with_changes(**parse_changes(text))


def buy_in_for(settings: HoldemSettings, buy_in: object | None) -> int:
    """The opener's or joiner's buy-in: given (checked against the table's limits) or the
    table's default."""
    if buy_in is None:
        return settings.default_buy_in
    amount = checked_amount(buy_in, what="buy-in")
    if not settings.min_buy_in <= amount <= settings.max_buy_in:
        raise Refusal(
            f"The buy-in at this table is {settings.min_buy_in:,} to {settings.max_buy_in:,} chips."
        )
    return amount


def raise_amount(text: str | None, legal: Offer) -> int:
    """The "raise to" total a member typed in the raise modal, or a refusal saying what fits.

    Accepts ``1200``, ``1,200``, ``1 200``, ``min``, ``all-in``/``max``.
    """
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        raise Refusal("You cannot raise now: check, call or fold.")
    verb = "bet" if legal.is_bet else "raise to"
    span = f"from {low:,} to {high:,}"
    raw = (text or "").strip().lower()
    if raw in ALL_IN_WORDS:
        return high
    if raw in MIN_WORDS:
        return low
    try:
        amount = read_whole(raw)  # the one parser of typed numbers (bot.numbers)
    except NumberError:
        shown = shorten(text or "", 20).replace("`", "'")
        raise Refusal(f"`{shown}` is not a number of chips: {verb} {span}.") from None
    if amount < 0:
        raise Refusal(f"An amount cannot be negative: {verb} {span}.")
    if amount < low:
        raise Refusal(f"That is below the minimum: {verb} {span}.")
    if amount > high:
        raise Refusal(f"That is more than your stack: {verb} {span} ({high:,} is all-in).")
    return amount
