"""What the renderer draws: frozen, public views of a table that the table host fills in.

The renderer never touches game objects. The views hold only what everyone at the table may see:
a Hold'em seat has ``shown_cards`` (cards turned face up, at showdown) and nothing else, and the
Blackjack dealer has only face-up cards plus a flag for the face-down hole card. A hidden card
has no field to live in, so a table image or text built from these views cannot leak one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from bot.holdem.kinds import SeatStatus, Stage
from bot.tables.limits import (
    BLACKJACK_MAX_HANDS,
    BLACKJACK_MAX_SEATS,
    HOLDEM_MAX_SEATS,
    HOLDEM_MIN_SEATS,
)
from engine.cards import Card

__all__ = [
    "BLACKJACK_MAX_HANDS",
    "BLACKJACK_MAX_SEATS",
    "HOLDEM_MAX_SEATS",
    "HOLDEM_MIN_SEATS",
    "BlackjackHandView",
    "BlackjackPhase",
    "BlackjackResultLabel",
    "BlackjackSeatView",
    "BlackjackTableView",
    "HoldemSeatView",
    "HoldemTableView",
    "SeatStatus",
    "Stage",
    "ViewError",
]


class ViewError(ValueError):
    """A view that describes an impossible table (the table host has a bug)."""


def _check_chips(owner: str, **amounts: int) -> None:
    for name, amount in amounts.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ViewError(f"{owner}: {name} must be a whole number of chips >= 0, not {amount!r}")


def _check_cards(owner: str, cards: tuple[Card, ...], *, unique: bool = True) -> None:
    if not all(isinstance(card, Card) for card in cards):
        raise ViewError(f"{owner}: cards must be engine.cards.Card values, not {cards!r}")
    # Hold'em uses one deck; a Blackjack shoe holds several, so repeats are real there.
    if unique and len(set(cards)) != len(cards):
        raise ViewError(f"{owner}: the same card appears twice in {cards!r}")


@dataclass(frozen=True, slots=True)
class HoldemSeatView:
    """One chair at a Hold'em table, as everyone at the table may see it.

    There is deliberately no field for hidden hole cards: ``shown_cards`` holds only cards that
    have been turned face up (at showdown, or shown by choice). A seat that is in the hand
    (``status.in_hand``) and shows nothing is drawn with card backs.
    """

    seat: int
    """The seat number as players see it."""
    name: str = ""
    """The display name (anything; the renderer strips control characters and truncates)."""
    stack: int = 0
    """Chips behind, not counting ``bet``."""
    bet: int = 0
    """Chips put in on the current street."""
    status: SeatStatus = SeatStatus.ACTIVE
    is_bot: bool = False
    is_button: bool = False
    is_small_blind: bool = False
    is_big_blind: bool = False
    is_to_act: bool = False
    shown_cards: tuple[Card, ...] = ()
    """Cards turned face up for everyone (showdown). Never put private hole cards here."""
    hand_description: str = ""
    """What the shown cards make, for the result: ``"Two Pair, Kings and Sevens"``."""
    amount_won: int = 0
    """Chips won from the pots this hand (the result), 0 if none."""
    last_action: str = ""
    """Optional short note of the seat's last action on this street: ``"Raise to 400"``."""

    def __post_init__(self) -> None:
        owner = f"seat {self.seat}"
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ViewError(f"seat number must be an int >= 0, not {self.seat!r}")
        _check_chips(owner, stack=self.stack, bet=self.bet, amount_won=self.amount_won)
        if not isinstance(self.shown_cards, tuple):
            raise ViewError(f"{owner}: shown_cards must be a tuple")
        _check_cards(owner, self.shown_cards)
        if len(self.shown_cards) > 2:
            raise ViewError(f"{owner}: a Hold'em seat shows at most 2 cards")
        if self.status is SeatStatus.EMPTY and (
            self.shown_cards or self.bet or self.is_to_act or self.is_bot or self.amount_won
        ):
            raise ViewError(f"{owner}: an empty seat has no cards, bet, turn, bot or winnings")
        if self.is_to_act and self.status is not SeatStatus.ACTIVE:
            raise ViewError(f"{owner}: only an active seat can be the one to act")

    @property
    def positions(self) -> str:
        """``"D/SB"``: the button and blinds this seat holds this hand, for a line of text."""
        held = (("D", self.is_button), ("SB", self.is_small_blind), ("BB", self.is_big_blind))
        return "/".join(label for label, on in held if on)


@dataclass(frozen=True, slots=True)
class HoldemTableView:
    """A Hold'em table as the channel sees it: safe to show anyone, at any moment.

    ``seats`` lists every chair of the table in seat order, empty ones included (2 to 10);
    they are drawn clockwise from the bottom centre. ``pots`` lists the main pot first, then
    side pots; an empty tuple or zeros mean nothing is in the middle yet.
    """

    table_name: str
    hand_number: int
    street: Stage
    seats: tuple[HoldemSeatView, ...]
    board: tuple[Card, ...] = ()
    pots: tuple[int, ...] = ()
    small_blind: int = 0
    big_blind: int = 0
    """The blinds, shown in the header when above zero."""
    more_boards: tuple[tuple[Card, ...], ...] = ()
    """The other boards of a double board or of a board run several times (``board`` is the
    first), drawn smaller under it."""

    def __post_init__(self) -> None:
        if not HOLDEM_MIN_SEATS <= len(self.seats) <= HOLDEM_MAX_SEATS:
            raise ViewError(
                f"a Hold'em table has {HOLDEM_MIN_SEATS} to {HOLDEM_MAX_SEATS} seats, "
                f"not {len(self.seats)}"
            )
        if not all(isinstance(seat, HoldemSeatView) for seat in self.seats):
            raise ViewError("seats must be HoldemSeatView values")
        numbers = [seat.seat for seat in self.seats]
        if len(set(numbers)) != len(numbers):
            raise ViewError(f"seat numbers repeat: {numbers}")
        _check_chips("table", hand_number=self.hand_number)
        _check_chips("table", small_blind=self.small_blind, big_blind=self.big_blind)
        for index, pot in enumerate(self.pots):
            _check_chips("table", **{f"pot {index}": pot})
        if not isinstance(self.board, tuple) or len(self.board) not in (0, 3, 4, 5):
            raise ViewError(f"the board holds 0, 3, 4 or 5 cards, not {self.board!r}")
        shown = [card for seat in self.seats for card in seat.shown_cards]
        _check_cards("table", (*self.board, *shown))
        if sum(seat.is_to_act for seat in self.seats) > 1:
            raise ViewError("more than one seat is marked to act")
        if sum(seat.is_button for seat in self.seats) > 1:
            raise ViewError("more than one seat holds the button")
        if not self.street.has_hand and shown:
            raise ViewError("no cards can be shown while no hand is running")

    @property
    def seat_to_act(self) -> HoldemSeatView | None:
        """The seat whose turn it is, if any."""
        return next((seat for seat in self.seats if seat.is_to_act), None)

    @property
    def total_pot(self) -> int:
        """All the pots together (bets on the current street not included)."""
        return sum(self.pots)


class BlackjackResultLabel(Enum):
    """How a settled Blackjack hand ended, as the table labels it."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    BLACKJACK = "blackjack"
    EVEN_MONEY = "even money"
    SURRENDER = "surrender"

    @property
    def label(self) -> str:
        """The label drawn on the hand: ``"WIN"``, ``"PUSH"``."""
        return self.value.upper()


class BlackjackPhase(StrEnum):
    """Where a Blackjack round stands, for the header."""

    BETTING = "Place your bets"
    INSURANCE = "Insurance?"
    PLAYERS = "Players act"
    DEALER = "Dealer plays"
    SETTLED = "Round over"


@dataclass(frozen=True, slots=True)
class BlackjackHandView:
    """One player hand: its cards (always face up), total text, stake and result."""

    cards: tuple[Card, ...]
    total: str = ""
    """The total as the table says it: ``"soft 17"``, ``"21"``, ``"bust"``, ``"blackjack"``."""
    bet: int = 0
    """Chips at stake on this hand (doubled hands show the doubled stake)."""
    is_doubled: bool = False
    result: BlackjackResultLabel | None = None
    net: int | None = None
    """Chips won (+) or lost (-) once settled, if the host wants it shown."""

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple):
            raise ViewError("a hand's cards must be a tuple")
        _check_cards("hand", self.cards, unique=False)
        _check_chips("hand", bet=self.bet)
        if self.net is not None and (isinstance(self.net, bool) or not isinstance(self.net, int)):
            raise ViewError(f"hand: net must be an int or None, not {self.net!r}")


@dataclass(frozen=True, slots=True)
class BlackjackSeatView:
    """One player at the Blackjack table with their hands (1 to 4 after splits)."""

    seat: int
    name: str
    hands: tuple[BlackjackHandView, ...] = ()
    """Empty while the player has bet but nothing is dealt yet."""
    bet: int = 0
    """The opening bet (shown before the deal; each hand shows its own stake after)."""
    is_bot: bool = False
    hand_to_act: int | None = None
    """Index into ``hands`` of the hand whose turn it is, if it is this seat's turn."""
    insurance: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ViewError(f"seat number must be an int >= 0, not {self.seat!r}")
        _check_chips(f"seat {self.seat}", bet=self.bet, insurance=self.insurance)
        if not isinstance(self.hands, tuple) or len(self.hands) > BLACKJACK_MAX_HANDS:
            raise ViewError(f"seat {self.seat}: 0 to {BLACKJACK_MAX_HANDS} hands, as a tuple")
        if self.hand_to_act is not None and not 0 <= self.hand_to_act < len(self.hands):
            raise ViewError(f"seat {self.seat}: hand_to_act {self.hand_to_act} is not a hand")


@dataclass(frozen=True, slots=True)
class BlackjackTableView:
    """A Blackjack table as the channel sees it: safe to show anyone, at any moment.

    ``dealer_cards`` are the dealer's face-up cards only; while ``dealer_hole_hidden`` is set a
    face-down card is drawn after them. The hole card itself is never in the view.
    """

    table_name: str
    round_number: int
    phase: BlackjackPhase
    seats: tuple[BlackjackSeatView, ...]
    dealer_cards: tuple[Card, ...] = ()
    dealer_hole_hidden: bool = False
    dealer_total: str = ""
    """The dealer's total when it may be shown (``""`` hides it)."""
    min_bet: int = 0
    max_bet: int = 0
    """Table limits, shown in the header when above zero."""

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= BLACKJACK_MAX_SEATS:
            raise ViewError(f"a Blackjack table has 1 to {BLACKJACK_MAX_SEATS} players")
        if not all(isinstance(seat, BlackjackSeatView) for seat in self.seats):
            raise ViewError("seats must be BlackjackSeatView values")
        numbers = [seat.seat for seat in self.seats]
        if len(set(numbers)) != len(numbers):
            raise ViewError(f"seat numbers repeat: {numbers}")
        _check_chips("table", round_number=self.round_number)
        _check_chips("table", min_bet=self.min_bet, max_bet=self.max_bet)
        if not isinstance(self.dealer_cards, tuple):
            raise ViewError("dealer_cards must be a tuple")
        _check_cards("dealer", self.dealer_cards, unique=False)
        if sum(seat.hand_to_act is not None for seat in self.seats) > 1:
            raise ViewError("more than one seat is marked to act")

    @property
    def seat_to_act(self) -> BlackjackSeatView | None:
        """The seat whose turn it is, if any."""
        return next((seat for seat in self.seats if seat.hand_to_act is not None), None)
