"""Who plays a Blackjack round: the table's settings, the round's bettors (members and the house's
bot players), where the bots sit and what they bet. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from bot.blackjack.errors import BetRefused
from bot.blackjack.events import Player
from bot.blackjack.grading import Grade
from bot.tables.limits import BLACKJACK_MAX_BOT_SPREAD, BLACKJACK_MAX_SEATS
from engine.blackjack import Rules
from engine.blackjack.counting import BetRamp
from storage import BetReason, bot_player_id

BOT_NAMES = ("Ada", "Turing", "Hopper", "Knuth", "Lovelace", "Shannon", "Dijkstra")
"""A bot's name by seat (so a seat's bot keeps its name from round to round)."""
BOT_THINK_SECONDS = 1.5
"""How long a bot player "thinks" before each decision, so the table keeps a human pace."""


class BotStrategy(StrEnum):
    """How a table's house bots play."""

    BASIC = "basic"
    """Basic strategy for the table's rules, at the table's minimum bet."""
    HILO = "hilo"
    """Hi-Lo counting: the index plays (Illustrious 18, Fab 4) at the table's public true count,
    and a bet ramp by it (``bot_spread``)."""

    @property
    def label(self) -> str:
        return "basic strategy" if self is BotStrategy.BASIC else "Hi-Lo counting"


class BotSettingsError(ValueError):
    """A bot strategy and spread that do not go together."""


@dataclass(frozen=True, slots=True)
class BlackjackSettings:
    """How a Blackjack table plays."""

    rules: Rules
    min_bet: int = 10
    max_bet: int = 500
    betting_seconds: float = 12.0
    turn_seconds: float = 30.0
    hints: bool = True
    bot_seats: int = 0
    """House-funded bot players dealt in with the members (in the seats members leave free)."""
    bot_delay_seconds: float = BOT_THINK_SECONDS
    max_side_bet: int = 100
    """Each side bet the rules offer (``rules.side_21_3``, ``rules.perfect_pairs``) is 1 to
    this many chips."""
    bot_strategy: BotStrategy = BotStrategy.BASIC
    bot_spread: int = 1
    """A counting bot bets 1 to this many table minimums by the true count (``BetRamp``); above
    1 it needs ``bot_strategy`` hilo (basic-strategy bots have no count to bet by)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "bot_strategy", BotStrategy(self.bot_strategy))
        check_bot_spread(self.bot_strategy, self.bot_spread)

    @property
    def bot_ramp(self) -> BetRamp:
        """The counting bots' bet ramp, in table minimum bets."""
        return BetRamp(1, self.bot_spread)

    def bot_bet(self, true_count: float) -> int:
        """A counting bot's bet at ``true_count``: its ramp's units of the minimum bet, within
        the table's limits."""
        return min(self.max_bet, self.min_bet * self.bot_ramp.units(true_count))

    def describe_bots(self) -> str:
        """``"2, Hi-Lo counting, betting 1-8 minimum bets by the true count"``; ``""`` without
        bots."""
        if not self.bot_seats:
            return ""
        text = f"{self.bot_seats}, {self.bot_strategy.label}"
        if self.bot_spread > 1:
            text += f", betting 1-{self.bot_spread} minimum bets by the true count"
        return text


def check_bot_spread(strategy: str, spread: object) -> None:
    """Refuse a spread outside 1-``BLACKJACK_MAX_BOT_SPREAD``, or one above 1 for bots that
    do not count (it would be accepted and ignored)."""
    if isinstance(spread, bool) or not isinstance(spread, int):
        raise BotSettingsError("bot_spread must be a whole number")
    if not 1 <= spread <= BLACKJACK_MAX_BOT_SPREAD:
        raise BotSettingsError(f"bot_spread must be 1 to {BLACKJACK_MAX_BOT_SPREAD}")
    if spread > 1 and strategy != BotStrategy.HILO:
        raise BotSettingsError("bot_spread above 1 needs bot_strategy = hilo (basic bots bet flat)")


@dataclass(slots=True)
class Bettor:
    """A player in the current round: a member, or a bot (negative ``user_id``)."""

    seat: int
    user_id: int
    name: str
    bet: int
    leaving: bool = False
    """Left mid-round: every decision of theirs is taken at once (stand, no insurance)."""
    bot: bool = False
    grades: list[Grade] = field(default_factory=list)
    """The member's decisions this round, graded against basic strategy."""
    side_bets: dict[BetReason, int] = field(default_factory=dict)
    """Side bets placed with the opening bet (21+3, Perfect Pairs)."""

    @property
    def player(self) -> Player:
        """The bettor as the table shows it."""
        return Player(self.seat, self.user_id, self.name, self.bet, self.bot)


def check_bet(amount: object, settings: BlackjackSettings) -> int:
    """``amount`` as a bet at a table with ``settings``, or :class:`BetRefused`."""
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise BetRefused("A bet must be a whole number of chips.")
    if not settings.min_bet <= amount <= settings.max_bet:
        raise BetRefused(
            f"Bets at this table are {settings.min_bet:,} to {settings.max_bet:,} chips."
        )
    return amount


SIDE_BET_NAMES = {BetReason.SIDE_21_3: "21+3", BetReason.PERFECT_PAIRS: "Perfect Pairs"}


def offered_side_bets(rules: Rules) -> tuple[BetReason, ...]:
    """The side bets a table with ``rules`` offers."""
    offered = []
    if rules.side_21_3 is not None:
        offered.append(BetReason.SIDE_21_3)
    if rules.perfect_pairs:
        offered.append(BetReason.PERFECT_PAIRS)
    return tuple(offered)


def check_side_bets(
    side_bets: Mapping[BetReason, int], settings: BlackjackSettings
) -> dict[BetReason, int]:
    """The side bets to place (amounts of 0 left out), or :class:`BetRefused`: each must be on
    offer at this table and 1 to ``max_side_bet`` chips."""
    offered = offered_side_bets(settings.rules)
    placed: dict[BetReason, int] = {}
    for reason, amount in side_bets.items():
        if amount == 0:
            continue
        name = SIDE_BET_NAMES.get(reason, str(reason))
        if reason not in offered:
            raise BetRefused(f"This table has no {name} side bet.")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BetRefused(f"A {name} bet must be a whole number of chips.")
        if not 1 <= amount <= settings.max_side_bet:
            raise BetRefused(f"{name} bets at this table are 1 to {settings.max_side_bet:,} chips.")
        placed[reason] = amount
    return placed


def bot_name(seat: int) -> str:
    """The name of the bot at ``seat``: clearly a bot."""
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} Bot"


def bot_bettors(taken: set[int], wanted: int, bet: int) -> list[Bettor]:
    """Up to ``wanted`` bots in the highest seats members left free (members fill from seat 0,
    so a member who bets for the next round always finds a seat a bot would have taken)."""
    free = [seat for seat in range(BLACKJACK_MAX_SEATS - 1, -1, -1) if seat not in taken]
    return [
        Bettor(seat, bot_player_id(seat), bot_name(seat), bet, bot=True)
        for seat in free[: max(0, wanted)]
    ]
