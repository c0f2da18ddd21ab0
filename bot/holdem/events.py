"""What a Hold'em table host tells its front (Discord or terminal): snapshots and happenings.

Only ``HoleCards`` (the hand in play) and ``RailCards`` (a settled hand, for the rail) carry hidden
cards, and each names the one member who may see it; every other event and every snapshot holds
face-up cards only, so a front cannot leak a hand by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.holdem.home_events import (
    AfterHandOffer,
    BountyCollected,
    CardsRevealed,
    RabbitHuntDealt,
    RunCountAsk,
)
from bot.holdem.kinds import SeatStatus, Stage
from bot.holdem.ledger import SettleUp
from bot.holdem.rail import RailCards
from bot.tables.events import Notice
from engine.cards import Card
from engine.holdem import Action, ActionKind, Call, Check, Fold, LegalActions, RaiseTo


class TableLifecycle(Enum):
    """The table's lifecycle."""

    OPEN = "open"
    STOPPING = "stopping"
    """Stop was asked: the current hand finishes, then everyone is cashed out."""
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Offer:
    """What the seat to act may do now, by seat number (never an engine player index)."""

    seat_no: int
    can_fold: bool
    can_check: bool
    call_amount: int | None
    """More chips a call puts in; None when checking is possible."""
    min_raise_to: int | None
    max_raise_to: int | None
    """Bounds of a bet or raise "to" amount (the maximum is all-in); None when not allowed."""
    bet_so_far: int
    is_bet: bool
    """Whether a raise would be the street's opening bet."""

    @classmethod
    def of(cls, legal: LegalActions, seat_no: int) -> Offer:
        """The engine's legal actions, told by seat."""
        return cls(
            seat_no,
            legal.can_fold,
            legal.can_check,
            legal.call_amount,
            legal.min_raise_to,
            legal.max_raise_to,
            legal.bet_so_far,
            legal.is_bet,
        )

    @property
    def can_call(self) -> bool:
        return self.call_amount is not None

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is on offer."""
        match action:
            case Fold():
                return self.can_fold
            case Check():
                return self.can_check
            case Call():
                return self.can_call
            case RaiseTo(amount=amount):
                low, high = self.min_raise_to, self.max_raise_to
                return low is not None and high is not None and low <= amount <= high
        return False


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One occupied seat as everyone may see it."""

    seat_no: int
    name: str
    user_id: int | None
    is_bot: bool
    stack: int
    bet: int
    status: SeatStatus
    is_button: bool
    is_to_act: bool
    is_small_blind: bool = False
    is_big_blind: bool = False
    shown_cards: tuple[Card, ...] = ()
    """Cards turned face up at showdown; never hidden hole cards."""
    description: str = ""
    last_action: str = ""
    """The seat's last action on this street: ``"Raise to 40"``."""
    won: int = 0
    """Chips won from the pots, once the hand is over."""


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The whole table as everyone may see it, for the table message or screen."""

    table_id: int
    name: str
    status: TableLifecycle
    seat_count: int
    small_blind: int
    big_blind: int
    ante: int
    hand_id: int | None
    street: Stage
    """The stage of the hand, or what the table waits for between hands."""
    board: tuple[Card, ...]
    pots: tuple[int, ...]
    """Main pot then side pots, this street's bets not included."""
    total_pot: int
    """Everything in the middle, this street's bets included."""
    to_act_seat: int | None
    deadline: float | None
    """When the player to act times out (Unix seconds), for a live countdown."""
    legal: Offer | None
    """What the seat to act may do."""
    action_count: int
    seats: tuple[SeatSnapshot, ...]
    next_hand_at: float | None = None
    """When the next hand is dealt (Unix seconds), while the table pauses between hands."""
    options: str = ""
    """The table's home-game options in a few words ("" for a plain table)."""
    time_bank: bool = False
    """The player to act is on their time bank: ``deadline`` is when it runs out."""
    rail: tuple[str, ...] = ()
    """Who is watching on the rail (everyone may see it)."""
    run_boards: tuple[tuple[Card, ...], ...] = ()
    """Every board of a hand run more than once or on a double board (else empty)."""
    run_count_ask: RunCountAsk | None = None
    """While the players all in choose how many times to run the board."""
    after_hand: AfterHandOffer | None = None
    """Between hands: the rabbit hunt and show buttons of the hand just finished."""

    def seat(self, seat_no: int) -> SeatSnapshot | None:
        """The snapshot of one seat, if occupied."""
        for seat in self.seats:
            if seat.seat_no == seat_no:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class TableChanged:
    """The table looks different: redraw it (fronts coalesce these)."""

    snapshot: TableSnapshot


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A hand was dealt (its starting stacks are already durable in storage)."""

    hand_id: int
    button_seat: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HoleCards:
    """PRIVATE: a member's hole cards, for that member's eyes only (DM or ephemeral)."""

    hand_id: int
    seat_no: int
    user_id: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A player folded, checked, called, bet or raised (``text`` reads well in a channel)."""

    hand_id: int
    seat_no: int
    name: str
    kind: ActionKind
    bet_to: int
    all_in: bool
    automatic: bool
    text: str


@dataclass(frozen=True, slots=True)
class StreetDealt:
    """Board cards came: the flop, turn or river."""

    hand_id: int
    street: Stage
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand turned face up."""

    seat_no: int
    name: str
    cards: tuple[Card, ...]
    description: str


@dataclass(frozen=True, slots=True)
class HandsTabled:
    """Players are all-in before the river: their hands are face up, with win chances."""

    hand_id: int
    board: tuple[Card, ...]
    hands: tuple[ShownHand, ...]
    equities: tuple[tuple[int, float], ...]
    """(seat, chance to win or share, 0-1); empty when not computed."""


@dataclass(frozen=True, slots=True)
class PotResult:
    """Who won one pot, and with what."""

    pot_index: int
    amount: int
    winners: tuple[tuple[int, str, int], ...]
    """(seat, name, chips) for each winner."""
    description: str
    board: int = 0
    """With several runs or boards, which one this part of the pot was won on."""


@dataclass(frozen=True, slots=True)
class HandFinished:
    """The hand is over and settled in storage."""

    hand_id: int
    board: tuple[Card, ...]
    pots: tuple[PotResult, ...]
    shown: tuple[ShownHand, ...]
    net: tuple[tuple[int, str, int], ...]
    """(seat, name, chips won or lost) for each dealt-in seat."""
    snapshot: TableSnapshot
    """The table at the end of the hand: shown cards, descriptions and winnings on the seats."""


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A human's turn began; they time out at ``deadline`` (Unix seconds)."""

    hand_id: int
    action_count: int
    seat_no: int
    user_id: int
    deadline: float
    legal: Offer
    """What the seat may do, by seat number (as in the snapshot)."""


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A member or a bot sat down with ``buy_in`` chips."""

    seat_no: int
    name: str
    user_id: int | None
    buy_in: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A member or a bot left; ``cashed_out`` chips went back to their wallet (or the house)."""

    seat_no: int
    name: str
    user_id: int | None
    cashed_out: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    """A member is sitting out (by choice, after timeouts, or with no chips)."""

    seat_no: int
    name: str
    user_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerReturned:
    """A member who sat out will be dealt in again."""

    seat_no: int
    name: str
    user_id: int


@dataclass(frozen=True, slots=True)
class HandCancelled:
    """A hand was cancelled and every stack restored to its start."""

    hand_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class HoldemTableClosed:
    """The table is closed; every seat was cashed out."""

    reason: str
    cash_outs: tuple[tuple[str, int | None, int], ...]
    """(name, user id or None for a bot, chips returned)."""
    settle_up: SettleUp | None = None
    """The session's ledger and who pays whom (None if storage could not read it)."""


TableEvent = (
    TableChanged
    | HandDealt
    | HoleCards
    | ActionTaken
    | StreetDealt
    | HandsTabled
    | HandFinished
    | TurnStarted
    | PlayerJoined
    | PlayerLeft
    | PlayerSatOut
    | PlayerReturned
    | HandCancelled
    | HoldemTableClosed
    | RailCards
    | Notice
    | CardsRevealed
    | RabbitHuntDealt
    | BountyCollected
)
