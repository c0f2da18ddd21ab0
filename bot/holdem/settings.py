"""A Hold'em table's settings: validated, stored with the table as JSON, built from config."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from bot.holdem.errors import TableSettingsError
from bot.holdem.home_options import check_options, home_game
from bot.tables.limits import (
    DEFAULT_BUY_IN_BIG_BLINDS,
    HOLDEM_MAX_SEATS,
    HOLDEM_MIN_SEATS,
    MAX_BLIND,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
)
from engine.holdem.options import HomeGameOptions

__all__ = [
    "MAX_BLIND",
    "MAX_SEATS",
    "MAX_TURN_SECONDS",
    "MIN_SEATS",
    "MIN_TURN_SECONDS",
    "HoldemSettings",
]

MIN_SEATS, MAX_SEATS = HOLDEM_MIN_SEATS, HOLDEM_MAX_SEATS
"""Kept under these names for the fronts and the CLI (the limits live in ``bot.tables.limits``)."""


@dataclass(frozen=True, slots=True)
class HoldemSettings:
    """How a table plays. Every field has a default; ``validated`` refuses nonsense."""

    small_blind: int = 5
    big_blind: int = 10
    ante: int = 0
    min_buy_in: int = 200
    max_buy_in: int = 1000
    seats: int = 6
    bots: int = 5
    """The most bot players seated at once; they fill empty chairs (0: no bots)."""
    bot_strategy: str = "smart"
    """Strategy of the bots seated here (a name from engine.bots; "mixed" varies them)."""
    bot_delay_seconds: float = 1.5
    turn_seconds: int = 30
    max_sit_out_hands: int = 10
    between_hands_seconds: float = 4.0
    """The pause after a hand's result before the next hand is dealt."""
    # Home-game options: each field is a row of ``bot.holdem.home_options.OPTIONS``, which
    # checks, parses and describes them; they apply from the next hand dealt.
    straddle: str = "off"
    """``off``, ``utg`` or ``button`` (``engine.holdem.StraddleKind``): posted every hand."""
    max_straddles: int = 1
    run_it_max: int = 1
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    double_board: bool = False
    seven_deuce_bounty: int = 0
    rabbit_hunt: bool = False
    # Home-game flow (bot.holdem.timebank, bot.holdem.away, bot.holdem.rail): rows of OPTIONS too.
    time_bank: int = 0
    """Seconds each member may take beyond their turn timer, over the session (0: none)."""
    time_bank_refill: int = 0
    """Seconds added to every seated member's bank (up to ``time_bank``) each refill."""
    time_bank_every: int = 10
    """A refill every this many hands."""
    away_after: int = 2
    """Turns in a row a member lets time out before they are put away (sit out)."""
    rail_delay: int = 0
    """Hands a watcher's DM of the hole cards lags the game by (0: the rail is off)."""

    @property
    def default_buy_in(self) -> int:
        """100 big blinds, within the table's limits."""
        return min(
            self.max_buy_in, max(self.min_buy_in, DEFAULT_BUY_IN_BIG_BLINDS * self.big_blind)
        )

    def validated(self) -> HoldemSettings:
        """These settings, or a ``TableSettingsError`` naming the first problem."""
        if not 1 <= self.small_blind <= MAX_BLIND:
            raise TableSettingsError("The small blind must be at least 1 chip.")
        if not self.small_blind <= self.big_blind <= MAX_BLIND:
            raise TableSettingsError("The big blind must be at least the small blind.")
        if not 0 <= self.ante <= self.big_blind:
            raise TableSettingsError("The ante must be between 0 and the big blind.")
        if self.min_buy_in < self.big_blind:
            raise TableSettingsError(
                f"The minimum buy-in must be at least the big blind ({self.big_blind})."
            )
        if self.max_buy_in < self.min_buy_in:
            raise TableSettingsError("The maximum buy-in must be at least the minimum buy-in.")
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise TableSettingsError(f"A table has {MIN_SEATS} to {MAX_SEATS} seats.")
        if not 0 <= self.bots <= self.seats - 1:
            raise TableSettingsError(f"Bots must be between 0 and {self.seats - 1}.")
        if not MIN_TURN_SECONDS <= self.turn_seconds <= MAX_TURN_SECONDS:
            raise TableSettingsError(
                f"Turn time must be {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds."
            )
        if not 0 <= self.bot_delay_seconds <= 30 or not 0 <= self.between_hands_seconds <= 60:
            raise TableSettingsError("Bot and between-hand delays must be 0 to 30/60 seconds.")
        if self.max_sit_out_hands < 1:
            raise TableSettingsError("Players must be allowed to sit out at least one hand.")
        check_options(self)
        return self

    @property
    def home_game(self) -> HomeGameOptions:
        """The engine's home-game options of these settings."""
        return home_game(self)

    def with_changes(self, **changes: Any) -> HoldemSettings:
        """A validated copy with some fields replaced (``None`` values are ignored)."""
        given = {name: value for name, value in changes.items() if value is not None}
        return replace(self, **given).validated()

    def to_json(self) -> dict[str, Any]:
        """The settings as stored with the table."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HoldemSettings:
        """Settings stored by ``to_json`` (unknown keys from older versions are ignored)."""
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})
