"""What a Blackjack table host tells its front. Everything here is public: the dealer's hole
card stays out of every snapshot until the dealer plays (the engine's view hides it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from bot.tables.events import Notice
from engine.blackjack import Action, Rules, Shoe
from engine.blackjack.views import RoundView
from storage import BetReason


class TablePhase(Enum):
    """Where the table stands."""

    IDLE = "idle"
    """No round: the next /blackjack deal opens the betting."""
    BETTING = "betting"
    """Bets are being placed (already in escrow); the cards come when the window closes."""
    PLAYING = "playing"
    """Cards are out: insurance, players' turns, then the dealer."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player in the current round: a member, or a house bot (negative ``user_id``)."""

    seat: int
    user_id: int
    name: str
    bet: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class ShoeState:
    """The shoe as anyone at the table can see it: public information a card counter uses."""

    decks: int
    size: int
    cards_left: int
    """Cards not dealt since the last shuffle."""
    continuous: bool
    """Reshuffled before every round (a continuous shuffler): nothing to count."""
    shuffled_round: int | None = None
    """The round dealt first from the current shuffle (None before the first deal)."""
    shuffled_at: float | None = None
    """When that was (Unix seconds)."""

    @property
    def discards(self) -> int:
        """Cards dealt since the last shuffle (in the discard tray or on the table)."""
        return self.size - self.cards_left

    @classmethod
    def of(cls, shoe: Shoe, rules: Rules, shuffled: tuple[int, float] | None) -> ShoeState:
        """The state of ``shoe`` (dealt under ``rules``), last shuffled before the round and at
        the time in ``shuffled``."""
        round_id, when = shuffled if shuffled is not None else (None, None)
        return cls(
            rules.decks, shoe.size, shoe.cards_left, rules.reshuffle_every_round, round_id, when
        )


@dataclass(frozen=True, slots=True)
class BlackjackSnapshot:
    """The table as everyone may see it."""

    table_name: str
    phase: TablePhase
    round_id: int | None
    round_number: int
    players: tuple[Player, ...]
    view: RoundView | None
    """The engine's public view once cards are dealt (hole card hidden until the dealer plays)."""
    deadline: float | None
    """When the betting window closes or the player to act times out (Unix seconds)."""
    to_act_user: int | None
    legal: frozenset[Action]
    step: int
    """Decisions applied so far this round; buttons carry it so stale clicks are refused."""
    min_bet: int
    max_bet: int
    offers: Mapping[int, frozenset[Action]] = field(default_factory=dict)
    """What each member may decide now, by user id: one player's hand during the players'
    turns, every pending player's insurance choices while insurance is offered."""
    shoe: ShoeState | None = None

    def player(self, user_id: int) -> Player | None:
        """The member's place in this round, if they bet."""
        return next((p for p in self.players if p.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class TableChanged:
    """Redraw the table (fronts coalesce these)."""

    snapshot: BlackjackSnapshot


@dataclass(frozen=True, slots=True)
class BettingOpened:
    """A round opened for bets; it deals at ``deadline`` or when someone presses Deal now."""

    round_id: int
    deadline: float


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """A member's bet (and side bets) went into escrow."""

    user_id: int
    name: str
    amount: int
    side_bets: Mapping[BetReason, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A member must decide (a hand's play, or insurance)."""

    round_id: int
    step: int
    user_id: int
    seat: int
    hand: int
    legal: frozenset[Action]
    deadline: float


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A decision was applied (``text`` reads well in a channel)."""

    user_id: int
    name: str
    action: Action
    automatic: bool
    text: str


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's result for the round."""

    user_id: int
    name: str
    staked: int
    payout: int
    net: int
    lines: tuple[str, ...]
    """One line per hand (and insurance): ``"Hand 1: 20 beats 19, +50"``."""
    grades: tuple[str, ...] = ()
    """A member's decisions graded against basic strategy: ``"Hit: correct"``."""
    bot: bool = False


@dataclass(frozen=True, slots=True)
class ShoeReshuffled:
    """The shoe was shuffled before ``round_id`` was dealt (the running count starts again)."""

    round_id: int
    shoe: ShoeState


@dataclass(frozen=True, slots=True)
class RoundFinished:
    """The round is settled in storage."""

    round_id: int
    results: tuple[PlayerResult, ...]
    snapshot: BlackjackSnapshot


@dataclass(frozen=True, slots=True)
class RoundRefunded:
    """A round was cancelled and every bet returned (or, if storage could not even refund it,
    ``held``: its chips stay in the round's escrow until recovery refunds it at the next start)."""

    round_id: int
    reason: str
    held: bool = False


TableEvent = (
    TableChanged
    | BettingOpened
    | BetPlaced
    | TurnStarted
    | ActionTaken
    | RoundFinished
    | RoundRefunded
    | ShoeReshuffled
    | Notice
)
