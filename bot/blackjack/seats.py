"""Who plays a Blackjack round: the table's settings, the round's bettors (members and the house's
bot players), where the bots sit and what they bet. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.blackjack.errors import BetRefused
from bot.blackjack.events import Player
from bot.blackjack.grading import Grade
from bot.tables.limits import BLACKJACK_MAX_SEATS
from engine.blackjack import Rules
from storage import bot_player_id

BOT_NAMES = ("Ada", "Turing", "Hopper", "Knuth", "Lovelace", "Shannon", "Dijkstra")
"""A bot's name by seat (so a seat's bot keeps its name from round to round)."""
BOT_THINK_SECONDS = 1.5
"""How long a bot player "thinks" before each decision, so the table keeps a human pace."""


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
