"""The values the storage layer takes and returns: enums for kinds, frozen dataclasses for records.

Chips are ``int``. Identities are Discord snowflakes (``guild_id``, ``user_id``, ``channel_id``);
table and round ids are assigned by storage, hand ids by the table host (unique per table).
Times are aware UTC datetimes. What an operation did is named as a noun (``SettledHand``,
``RefundedRound``; recovery's ``RecoveredHand``), never like the events of the engine and the
table hosts (``HandSettled``, ``RoundRefunded``), which are things that happened in a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import Enum, StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.instances import InstanceReport

MAX_CHIPS = 2**53 - 1
"""The largest amount or balance storage accepts: every JSON consumer represents it exactly."""


class Game(StrEnum):
    """A game whose results count toward stats and leaderboards."""

    HOLDEM = "holdem"
    """No-Limit Texas Hold'em at a table."""
    BLACKJACK = "blackjack"
    """Blackjack rounds."""


class AccountKind(StrEnum):
    """Where chips sit."""

    MEMBER = "member"
    """A member's wallet in one guild."""
    HOUSE = "house"
    """The guild's bank: funds bot seats, covers blackjack wins, takes blackjack losses. It is
    the only account allowed below zero: its balance is the house's result against players."""
    SEAT = "seat"
    """Chips at a poker table, for one seating session of a member or a bot; also a bot's chips
    in one blackjack round (bet accounts are members')."""
    BET = "bet"
    """One member's chips in play in one blackjack round (round escrow)."""


class LedgerKind(StrEnum):
    """Why a ledger row changed a balance."""

    STARTING_GRANT = "starting_grant"
    """Minted: a new member's first chips."""
    DAILY = "daily"
    """Minted: the daily bonus."""
    ADMIN_GRANT = "admin_grant"
    """Minted by an admin (grant, or a set that raised the balance)."""
    ADMIN_TAKE = "admin_take"
    """Burned by an admin (take, or a set that lowered the balance)."""
    TRANSFER = "transfer"
    """Member to member."""
    BUY_IN = "buy_in"
    """Wallet (or house, for a bot) to a seat."""
    REBUY = "rebuy"
    """More chips to an occupied seat."""
    CASH_OUT = "cash_out"
    """A seat back to its wallet (or the house)."""
    HAND_RESULT = "hand_result"
    """A seat's net result in a settled hand."""
    BET = "bet"
    """Wallet to round escrow, at the deal or when a bet grows (double, split, insurance)."""
    PAYOUT = "payout"
    """A settled blackjack round: escrow to wallet, the house covering the difference."""
    REFUND = "refund"
    """An unfinished blackjack round's escrow back to the wallet."""
    SEASON_RESET = "season_reset"
    """Minted or burned: a balance reset when a new season starts."""


MINT_KINDS: frozenset[LedgerKind] = frozenset(
    {
        LedgerKind.STARTING_GRANT,
        LedgerKind.DAILY,
        LedgerKind.ADMIN_GRANT,
        LedgerKind.ADMIN_TAKE,
        LedgerKind.SEASON_RESET,
    }
)
"""The only kinds that create or destroy chips; every other operation's rows sum to zero."""


class TableStatus(StrEnum):
    """A poker table's life."""

    OPEN = "open"
    CLOSED = "closed"


class HandStatus(StrEnum):
    """A Hold'em hand's life: started durably, then exactly one of settled or voided."""

    IN_PROGRESS = "in_progress"
    SETTLED = "settled"
    VOIDED = "voided"


class RoundStatus(StrEnum):
    """A blackjack round's life: bets in escrow, then exactly one of settled or refunded."""

    OPEN = "open"
    SETTLED = "settled"
    REFUNDED = "refunded"


class BetReason(StrEnum):
    """Why chips went into a blackjack round's escrow."""

    INITIAL = "initial"
    """The bet placed at the deal."""
    DOUBLE = "double"
    """Doubling down."""
    SPLIT = "split"
    """The bet for a new hand after a split."""
    INSURANCE = "insurance"
    """An insurance side bet."""
    SIDE_21_3 = "side_21_3"
    """A 21+3 side bet, placed with the opening bet."""
    PERFECT_PAIRS = "perfect_pairs"
    """A Perfect Pairs side bet, placed with the opening bet."""


SIDE_BETS = frozenset({BetReason.SIDE_21_3, BetReason.PERFECT_PAIRS})
"""The side bets placed with the opening bet (settled on the opening cards)."""
MAX_SIDE_BET_PAYOUT = 101
"""A side bet pays back at most this many times itself: the best 21+3 pay table's 100 to 1
(suited trips), stake included."""


class Metric(StrEnum):
    """What a leaderboard ranks by."""

    BALANCE = "balance"
    """Chips held: wallet, plus chips at tables and in unfinished rounds."""
    NET = "net"
    """Net winnings from games."""
    BIGGEST_POT = "biggest_pot"
    """The biggest Hold'em pot won, or the biggest blackjack round profit."""


class Period(Enum):
    """A span of time for stats and leaderboards, when not a season number."""

    ALL_TIME = "all_time"
    CURRENT_SEASON = "current_season"


SeasonSelector = int | Period
"""A season number (1, 2, ...) or a :class:`Period`."""


# --- accounts ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Account:
    """A member's chips in one guild."""

    guild_id: int
    user_id: int
    balance: int
    """Chips in the wallet, free to spend."""
    at_tables: int
    """Chips sitting at poker tables."""
    in_play: int
    """Chips in unfinished blackjack rounds."""
    daily_streak: int
    last_daily_on: date | None
    created_at: datetime

    @property
    def total(self) -> int:
        """Everything the member owns: wallet, tables and bets."""
        return self.balance + self.at_tables + self.in_play


@dataclass(frozen=True, slots=True)
class BalanceChange:
    """The outcome of an admin grant, take or set."""

    guild_id: int
    user_id: int
    delta: int
    balance: int


@dataclass(frozen=True, slots=True)
class DailyClaim:
    """A claimed daily bonus."""

    guild_id: int
    user_id: int
    amount: int
    streak: int
    """Consecutive UTC days claimed, this one included."""
    balance: int
    next_claim_at: datetime


@dataclass(frozen=True, slots=True)
class Transfer:
    """A completed member-to-member transfer."""

    guild_id: int
    sender_id: int
    recipient_id: int
    amount: int
    sender_balance: int
    recipient_balance: int


# --- poker tables --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OccupiedSeat:
    """An occupied seat: who sits there and the chips in front of them."""

    table_id: int
    seat_no: int
    stack: int
    user_id: int | None
    """The member, or None for a bot."""
    bot_name: str | None
    display_name: str | None
    joined_at: datetime
    bot_personality: str | None = None
    """A bot's personality as its host stored it when the bot sat (None for members and for
    bots seated before the schema had it)."""

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def name(self) -> str:
        """A label for exports and logs: the display name, the bot's name, or the user id."""
        if self.display_name:
            return self.display_name
        if self.bot_name is not None:
            return self.bot_name
        return str(self.user_id)


@dataclass(frozen=True, slots=True)
class TableOpened:
    """The result of opening a table."""

    table_id: int
    guild_id: int
    channel_id: int


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A poker table, its settings and who sits there now."""

    table_id: int
    guild_id: int
    channel_id: int
    name: str | None
    settings: Mapping[str, object]
    """The table host's settings, stored as given (JSON)."""
    status: TableStatus
    opened_at: datetime
    closed_at: datetime | None
    seats: tuple[OccupiedSeat, ...]
    hand_in_progress: int | None
    """The unfinished hand's id, if any."""
    last_hand_id: int | None
    """The highest hand id started at this table, if any."""

    def seat(self, seat_no: int) -> OccupiedSeat | None:
        """The occupant of a seat, or None if it is empty."""
        for seat in self.seats:
            if seat.seat_no == seat_no:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class SeatChange:
    """The outcome of a buy-in, bot seating or rebuy."""

    table_id: int
    seat_no: int
    amount: int
    stack: int
    """The seat's stack afterwards."""
    wallet_balance: int | None
    """The member's wallet afterwards; None for a bot (its chips come from the house)."""


@dataclass(frozen=True, slots=True)
class CashOut:
    """Chips that left a seat for the wallet (or the house, for a bot)."""

    table_id: int
    seat_no: int
    user_id: int | None
    bot_name: str | None
    amount: int
    wallet_balance: int | None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """Per-seat facts about a settled hand, for stats (the chips come from the final stacks)."""

    won: bool = False
    """Whether the seat won (a share of) any pot."""
    pot_won: int = 0
    """The size of the biggest pot the seat won a share of, for the "biggest pot" board."""


@dataclass(frozen=True, slots=True)
class StartedHand:
    """A hand made durable before its first action."""

    table_id: int
    hand_id: int
    stacks: Mapping[int, int]
    """Starting stack by seat number."""


@dataclass(frozen=True, slots=True)
class Bounty:
    """A 7-2 bounty: ``payer`` seat pays ``amount`` to ``winner`` seat."""

    payer: int
    winner: int
    amount: int


@dataclass(frozen=True, slots=True)
class SettledHand:
    """A settled hand: final stacks and each seat's net change."""

    table_id: int
    hand_id: int
    stacks: Mapping[int, int]
    deltas: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class VoidedHand:
    """A voided hand: every seat keeps its starting stack."""

    table_id: int
    hand_id: int
    stacks: Mapping[int, int]
    reason: str


@dataclass(frozen=True, slots=True)
class ClosedTable:
    """A closed table: the unfinished hand voided (if any) and every seat cashed out."""

    table_id: int
    voided_hand_id: int | None
    cash_outs: tuple[CashOut, ...]


@dataclass(frozen=True, slots=True)
class HandSeat:
    """One seat's part in a stored hand."""

    seat_no: int
    user_id: int | None
    bot_name: str | None
    display_name: str | None
    start_stack: int
    final_stack: int | None
    won: bool
    pot_won: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A stored Hold'em hand, with its PHH text once settled."""

    table_id: int
    hand_id: int
    guild_id: int
    channel_id: int
    status: HandStatus
    started_at: datetime
    ended_at: datetime | None
    phh: str | None
    void_reason: str | None
    seats: tuple[HandSeat, ...]


# --- blackjack -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """What one member gets back from a settled round, and facts for stats."""

    payout: int
    """Chips returned to the wallet, stakes included (0 for a loss, 2x the bet for an even-money
    win, 2.5x for a 3:2 blackjack, the bet for a push)."""
    hands_played: int = 1
    hands_won: int = 0
    blackjacks: int = 0


@dataclass(frozen=True, slots=True)
class RoundState:
    """A blackjack round with its bets in escrow."""

    round_id: int
    guild_id: int
    channel_id: int
    status: RoundStatus
    bets: Mapping[int, int]
    """Chips in escrow by member."""
    wallet_balances: Mapping[int, int]
    """Wallet balances by member after the bets moved."""


@dataclass(frozen=True, slots=True)
class SettledRound:
    """A settled blackjack round."""

    round_id: int
    payouts: Mapping[int, int]
    nets: Mapping[int, int]
    """Payout minus everything bet, by member."""
    wallet_balances: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class RefundedRound:
    """A refunded blackjack round: every bet went back."""

    round_id: int
    refunds: Mapping[int, int]
    wallet_balances: Mapping[int, int]
    reason: str


@dataclass(frozen=True, slots=True)
class RoundBet:
    """One movement of chips into a round's escrow."""

    user_id: int
    reason: BetReason
    amount: int


@dataclass(frozen=True, slots=True)
class RoundPlayer:
    """One member's part in a stored blackjack round."""

    user_id: int
    total_bet: int
    payout: int | None
    hands_played: int
    hands_won: int
    blackjacks: int
    bot_name: str | None = None
    """A bot player's name (its ``user_id`` is then negative, and its chips the house's)."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A stored blackjack round, with its cards and results once settled."""

    round_id: int
    guild_id: int
    channel_id: int
    status: RoundStatus
    opened_at: datetime
    ended_at: datetime | None
    history: str | None
    """The caller's record of the cards and results (any text, typically JSON)."""
    refund_reason: str | None
    players: tuple[RoundPlayer, ...]
    bets: tuple[RoundBet, ...]


# --- recovery ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecoveredHand:
    """A hand that recovery voided."""

    guild_id: int
    channel_id: int
    table_id: int
    hand_id: int
    stacks: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class RecoveredRound:
    """A blackjack round whose bets recovery refunded."""

    guild_id: int
    channel_id: int
    round_id: int
    refunds: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What recovery at startup put back, so the bot can tell each channel."""

    ran_at: datetime
    voided_hands: tuple[RecoveredHand, ...] = ()
    refunded_rounds: tuple[RecoveredRound, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not self.voided_hands and not self.refunded_rounds

    @property
    def channels(self) -> frozenset[tuple[int, int]]:
        """Every affected ``(guild_id, channel_id)``."""
        return frozenset(
            [(hand.guild_id, hand.channel_id) for hand in self.voided_hands]
            + [(round_.guild_id, round_.channel_id) for round_ in self.refunded_rounds]
        )

    @property
    def guilds(self) -> frozenset[int]:
        return frozenset(guild for guild, _ in self.channels)


# --- stats, leaderboards and seasons -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stats:
    """A member's results for one game (or all games) over one span."""

    guild_id: int
    user_id: int
    game: Game | None
    """None: all games together."""
    season: int | None
    """The season number, or None for all time."""
    hands_played: int = 0
    hands_won: int = 0
    rounds_played: int = 0
    blackjacks: int = 0
    net: int = 0
    biggest_pot: int = 0


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A place on a leaderboard; equal values share a rank (1, 2, 2, 4)."""

    rank: int
    user_id: int
    value: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of a leaderboard."""

    guild_id: int
    metric: Metric
    game: Game | None
    season: int | None
    """The season number, or None for all time."""
    entries: tuple[LeaderboardEntry, ...]
    total: int
    """How many members are ranked in all."""


@dataclass(frozen=True, slots=True)
class Season:
    """A guild's season."""

    guild_id: int
    number: int
    name: str
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class SeasonStarted:
    """The outcome of starting a new season."""

    previous: Season
    current: Season
    reset_to: int | None
    balances_reset: int
    """How many wallets the reset changed."""


# --- ledger, exports and checks ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One ledger row with its operation's context."""

    entry_id: int
    created_at: datetime
    guild_id: int
    account_kind: AccountKind
    user_id: int | None
    kind: LedgerKind
    delta: int
    balance_after: int
    operation: str
    key: str
    actor_id: int | None
    table_id: int | None
    hand_id: int | None
    round_id: int | None
    note: str | None


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One seating at a table (buy-in to cash-out), a row of PokerNow's session ledger."""

    player_name: str
    player_id: str
    """The member's user id, or ``bot:<name>`` for a bot."""
    session_start: datetime
    session_end: datetime | None
    buy_in: int
    """Every chip brought to the seat: the first buy-in and the rebuys."""
    rebuys: int
    """The part of ``buy_in`` that came after the first buy-in."""
    buy_out: int
    stack: int
    """Chips still at the seat (0 once it was left)."""
    net: int


@dataclass(frozen=True, slots=True)
class PlayerSession:
    """One player's whole table session: every seating of theirs added up."""

    player_name: str
    player_id: str
    buy_in: int
    """The first buy-ins of each seating (rebuys excluded)."""
    rebuys: int
    cash_out: int
    stack: int
    net: int


@dataclass(frozen=True, slots=True)
class TableSession:
    """A table from its opening to its closing (or now, if it is open), and every seating in it.

    The session is the table's life: it opens with ``/holdem start`` and ends when the table
    closes; every chip that entered a seat's escrow came from a buy-in or rebuy and left by a
    cash-out or is still there, so the nets of all lines (bots included) sum to zero.
    """

    table_id: int
    guild_id: int
    name: str | None
    opened_at: datetime
    closed_at: datetime | None
    lines: tuple[SessionLine, ...]

    def players(self) -> tuple[PlayerSession, ...]:
        """The lines added up per player, in the order each first sat down."""
        totals: dict[str, PlayerSession] = {}
        for line in self.lines:
            seen = totals.get(line.player_id)
            first_buy_in = line.buy_in - line.rebuys
            if seen is None:
                totals[line.player_id] = PlayerSession(
                    line.player_name,
                    line.player_id,
                    first_buy_in,
                    line.rebuys,
                    line.buy_out,
                    line.stack,
                    line.net,
                )
            else:
                totals[line.player_id] = PlayerSession(
                    seen.player_name,
                    seen.player_id,
                    seen.buy_in + first_buy_in,
                    seen.rebuys + line.rebuys,
                    seen.cash_out + line.buy_out,
                    seen.stack + line.stack,
                    seen.net + line.net,
                )
        return tuple(totals.values())


class ProblemKind(StrEnum):
    """What ``check`` found wrong."""

    BALANCE_MISMATCH = "balance_mismatch"
    """An account's balance differs from the sum of its ledger rows."""
    RUNNING_BALANCE = "running_balance"
    """A ledger row's balance_after differs from the running sum."""
    NEGATIVE_BALANCE = "negative_balance"
    MINT_MISMATCH = "mint_mismatch"
    """A guild's total differs from everything minted minus burned."""
    UNBALANCED_OPERATION = "unbalanced_operation"
    """A non-minting operation whose rows do not sum to zero."""
    STRAY_CHIPS = "stray_chips"
    """Chips left in a seat that was left, or in a finished round's escrow."""
    SCHEMA = "schema"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing ``check`` found wrong."""

    kind: ProblemKind
    message: str
    guild_id: int | None = None
    account_id: int | None = None


@dataclass(frozen=True, slots=True)
class GuildTotals:
    """A guild's chips: what its accounts hold and what was ever minted and burned."""

    guild_id: int
    accounts: int
    held: int
    """Sum of all its balances (the house's may be negative)."""
    minted: int
    burned: int


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The verdict of ``check``: ok when there are no problems."""

    schema_version: int
    guilds: tuple[GuildTotals, ...]
    accounts_checked: int
    ledger_rows: int
    hands_in_progress: int
    rounds_open: int
    problems: tuple[Problem, ...] = field(default=())
    instances: tuple[InstanceReport, ...] = field(default=())
    """The living instances and the latest ended ones, with what each owns now."""

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What migrating a database did."""

    path: str
    version_before: int
    version_after: int
    applied: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableMessage:
    """A table message the Discord front still manages (it may edit it again)."""

    message_id: int
    guild_id: int
    channel_id: int
    game: Game
    has_buttons: bool
    """Whether it was last left with buttons (a restart must take them off)."""
