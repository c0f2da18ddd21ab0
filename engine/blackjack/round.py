"""One Blackjack round at a table of 1-7 seats: a sans-IO state machine, actions in, events out.

The engine's vocabulary, shared with ``engine.holdem.Hand``: constructing the game deals it
(``Round(rules, shoe, {seat: bet})`` deals the opening cards and runs everything up to the first
decision); ``turn`` says who must decide what (a ``Decision``, ``None`` when nobody must);
``act(seat, action)`` (or ``hit(seat)``, ``stand(seat)``, ...) applies one decision and returns
the events it caused; ``events`` is everything so far; ``is_complete`` says every bet is settled,
which can already be true at construction (a dealer blackjack on the peek). ``to_act``,
``legal_actions(seat)`` and ``decision()`` answer the same question per seat (insurance is
decided by the seats in any order); an action that is malformed, out of turn or not allowed
raises a specific ``EngineError`` and changes nothing. Legal actions are exactly what ``act``
accepts, from one source. ``extra_stake(seat, action)`` tells a table host how many chips a
double, split or insurance will add, so it can escrow them before it calls ``act``. ``copy()``
gives an independent copy (with its own copy of the shoe).

Table procedure, where casinos differ:

- Seats act from seat 0 up. Split hands are numbered in the order they are made (the new hand is
  appended to the seat's hands) and played in that order; each gets its second card when it
  comes up, as in American casinos. Any two ten-valued cards are a pair.
- Split aces get one card each (unless ``hit_split_aces``); an ace dealt to a split ace may be
  split again if ``resplit_aces`` and ``max_hands`` allow, else the hand stands. A two-card 21
  after a split is not a blackjack. A hand that reaches 21 stands by itself.
- Insurance (and even money for a natural) is offered when the dealer shows an ace and the rules
  allow; the seats decide in any order, then the dealer peeks. Insurance is half the bet, rounded
  down; a seat whose bet is 1 chip is only offered even money (when it has a natural).
- With ``peek`` the dealer checks under a ten or an ace; a blackjack ends the round at once
  (naturals push, everything else loses the opening bet). Without ``peek`` (European no-hole-card)
  the dealer's second card comes after the players, and a dealer blackjack then takes every bet:
  doubles, splits and surrendered hands (a surrender only saves half when the dealer has no
  blackjack). Naturals are paid as soon as the dealer cannot have a blackjack.
- Busted and surrendered hands are settled at once; the dealer draws only if some hand is still
  waiting on the dealer's total, and stands on all 17s unless ``h17``.
- Fractions of a chip are rounded down; see ``engine.blackjack.rules``.

The hot path works on card ids and small ints and builds event objects only when
``record_events`` is true, so the simulator runs this same code.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from engine.blackjack.actions import (
    Action,
    HandResult,
    InsuranceResult,
    Outcome,
    Phase,
)
from engine.blackjack.errors import BetError, MalformedActionError, RoundStateError
from engine.blackjack.events import (
    CardDealt,
    DealerBusted,
    DealerCardDealt,
    DealerPeeked,
    DealerStood,
    EvenMoneyTaken,
    Event,
    HandBusted,
    HandDoubled,
    HandSettled,
    HandSplit,
    HandStood,
    HandSurrendered,
    HoleCardDealt,
    HoleCardRevealed,
    InsuranceDeclined,
    InsuranceOffered,
    InsuranceSettled,
    InsuranceTaken,
    RoundEnded,
    ShoeShuffled,
    StakeAdded,
    TurnStarted,
)
from engine.blackjack.hand import VALUE_OF_ID
from engine.blackjack.rules import DoubleRule, Rules, Surrender, Ties
from engine.blackjack.shoe import Shoe
from engine.blackjack.views import (
    BlackjackHandStatus,
    DealerView,
    Decision,
    HandView,
    RoundSeatView,
    RoundView,
)
from engine.cards import DECK, Card
from engine.errors import ActionNotAllowedError, NotYourTurnError

SEATS: Final = 7
"""Seats at a Blackjack table, numbered 0 (first to act) to 6."""

_HIT: Final = 1
_STAND: Final = 2
_DOUBLE: Final = 4
_SPLIT: Final = 8
_SURRENDER: Final = 16
_INSURE: Final = 32
_EVEN_MONEY: Final = 64
_NO_INSURANCE: Final = 128

_BIT: Final[dict[object, int]] = {
    Action.HIT: _HIT,
    Action.STAND: _STAND,
    Action.DOUBLE: _DOUBLE,
    Action.SPLIT: _SPLIT,
    Action.SURRENDER: _SURRENDER,
    Action.INSURE: _INSURE,
    Action.EVEN_MONEY: _EVEN_MONEY,
    Action.NO_INSURANCE: _NO_INSURANCE,
}
_MASK_SETS: Final = tuple(
    frozenset(action for action, bit in _BIT.items() if mask & bit and isinstance(action, Action))
    for mask in range(256)
)
_NO_ACTIONS: Final[frozenset[Action]] = frozenset()

_WAITING: Final = BlackjackHandStatus.WAITING
_STOOD: Final = BlackjackHandStatus.STOOD
_BUST: Final = BlackjackHandStatus.BUST
_SURRENDERED: Final = BlackjackHandStatus.SURRENDERED
_NATURAL: Final = BlackjackHandStatus.BLACKJACK


# Enum members as module constants for the hot path: in Python 3.11 reading ``Phase.OVER`` costs
# several times reading a global, and a simulated round asks a dozen such questions.
_READY: Final = Phase.READY
_INSURANCE_PHASE: Final = Phase.INSURANCE
_PLAYERS: Final = Phase.PLAYERS
_OVER: Final = Phase.OVER
_HIT_ACTION: Final = Action.HIT
_STAND_ACTION: Final = Action.STAND
_DOUBLE_ACTION: Final = Action.DOUBLE
_SPLIT_ACTION: Final = Action.SPLIT
_INSURE_ACTION: Final = Action.INSURE
_EVEN_MONEY_ACTION: Final = Action.EVEN_MONEY
_BLACKJACK_OUTCOME: Final = Outcome.BLACKJACK
_WIN: Final = Outcome.WIN
_PUSH: Final = Outcome.PUSH
_LOSS: Final = Outcome.LOSS
_BUST_OUTCOME: Final = Outcome.BUST
_SURRENDER_OUTCOME: Final = Outcome.SURRENDER
_EVEN_MONEY_OUTCOME: Final = Outcome.EVEN_MONEY
_TIES_PUSH: Final = Ties.PUSH
_LATE_SURRENDER: Final = Surrender.LATE


class _Hand:
    """A player hand in play (mutable, private to the round)."""

    __slots__ = (
        "ace",
        "cards",
        "doubled",
        "from_split",
        "hard",
        "index",
        "outcome",
        "payout",
        "seat",
        "split_aces",
        "stake",
        "status",
    )

    def __init__(self, seat: int, index: int, stake: int) -> None:
        self.seat = seat
        self.index = index
        self.stake = stake
        self.cards: list[int] = []
        self.hard = 0
        self.ace = False
        self.from_split = False
        self.split_aces = False
        self.doubled = False
        self.status = _WAITING
        self.outcome: Outcome | None = None
        self.payout = 0

    def copy(self) -> _Hand:
        twin = _Hand.__new__(_Hand)
        for name in _Hand.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.cards = list(self.cards)
        return twin


class _Seat:
    """A seat in the round (mutable, private to the round)."""

    __slots__ = (
        "bet",
        "hands",
        "insurance",
        "insurance_payout",
        "insurance_settled",
        "net",
        "seat",
    )

    def __init__(self, seat: int, bet: int) -> None:
        self.seat = seat
        self.bet = bet
        self.hands = [_Hand(seat, 0, bet)]
        self.insurance = 0
        self.insurance_payout = 0
        self.insurance_settled = False
        self.net = 0

    def copy(self) -> _Seat:
        twin = _Seat.__new__(_Seat)
        for name in _Seat.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.hands = [hand.copy() for hand in self.hands]
        return twin


def _is_int(value: object) -> bool:
    """An int that is not a bool."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


@lru_cache(maxsize=64)
def _double_table(double: DoubleRule) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Whether a two-card hand may double, indexed ``[soft][hard total]``."""
    if double is DoubleRule.ANY:
        hard_ok = soft_ok = tuple(True for _ in range(32))
    elif double is DoubleRule.NONE:
        hard_ok = soft_ok = tuple(False for _ in range(32))
    else:
        low = 9 if double is DoubleRule.NINE_TO_ELEVEN else 10
        hard_ok = tuple(low <= total <= 11 for total in range(32))
        soft_ok = tuple(False for _ in range(32))
    return hard_ok, soft_ok


class Round:
    """One round of Blackjack; see the module docstring for the procedure and the API."""

    __slots__ = (
        "_by_seat",
        "_current",
        "_current_seat",
        "_das",
        "_dealer",
        "_dealer_ace",
        "_dealer_hard",
        "_double_ok",
        "_draw",
        "_events",
        "_hand_pos",
        "_hit_split_aces",
        "_hole_revealed",
        "_mask",
        "_max_hands",
        "_peek",
        "_pending_insurance",
        "_phase",
        "_record",
        "_resplit_aces",
        "_seat_pos",
        "_seats",
        "_shoe",
        "_surrender",
        "rules",
    )

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        bets: Mapping[int, int],
        *,
        record_events: bool = True,
    ) -> None:
        if not isinstance(rules, Rules):
            raise BetError("rules must be a Rules")
        # The exact-type tests first: they answer the common case without the slower checks
        # (an ABC's isinstance, bool being an int) that only an unusual argument needs.
        if (type(bets) is not dict and not isinstance(bets, Mapping)) or not bets:
            raise BetError("a round needs at least one seat with a bet")
        seats: list[_Seat] = []
        by_seat: dict[int, _Seat] = {}
        for seat, bet in sorted(bets.items()):
            if not _is_int(seat) or not 0 <= seat < SEATS:
                raise BetError(f"seat {seat!r} is not a seat (seats are 0 to {SEATS - 1})")
            if not _is_int(bet) or bet < 1:
                raise BetError(f"the bet at seat {seat} must be a whole number of chips, 1 or more")
            entry = by_seat[seat] = _Seat(seat, bet)
            seats.append(entry)
        self.rules = rules
        self._shoe = shoe
        self._draw = shoe.draw
        self._seats = seats
        self._by_seat = by_seat
        self._record = record_events
        self._events: list[Event] | None = [] if record_events else None
        self._phase = _READY
        self._dealer: list[int] = []
        self._dealer_hard = 0
        self._dealer_ace = False
        self._hole_revealed = False
        self._pending_insurance: list[int] = []
        self._current: _Hand | None = None
        self._current_seat: _Seat | None = None
        self._mask = 0
        self._seat_pos = 0
        self._hand_pos = 0
        self._peek = rules.peek
        self._das = rules.das
        self._max_hands = rules.max_hands
        self._resplit_aces = rules.resplit_aces
        self._hit_split_aces = rules.hit_split_aces
        self._surrender = rules.surrender is _LATE_SURRENDER
        self._double_ok = _double_table(rules.double)
        self._deal()

    # ----------------------------------------------------------------------------- copying

    def copy(self) -> Round:
        """An independent copy with its own copy of the shoe: acting on one changes neither the
        other nor the other's shoe (a seeded shoe deals both the same cards)."""
        twin = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._seats = [entry.copy() for entry in self._seats]
        twin._by_seat = {entry.seat: entry for entry in twin._seats}
        twin._shoe = self._shoe.copy()
        twin._draw = twin._shoe.draw
        twin._events = list(self._events) if self._events is not None else None
        twin._dealer = list(self._dealer)
        twin._pending_insurance = list(self._pending_insurance)
        if self._current is not None:
            twin._current_seat = twin._by_seat[self._current.seat]
            twin._current = twin._current_seat.hands[self._current.index]
        return twin

    def __copy__(self) -> Round:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Round:
        return self.copy()

    # ----------------------------------------------------------------------------- queries

    @property
    def phase(self) -> Phase:
        """Where the round is."""
        return self._phase

    @property
    def is_complete(self) -> bool:
        """Whether every bet is settled."""
        return self._phase is _OVER

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that has happened in the round (empty without ``record_events``)."""
        return tuple(self._events) if self._events is not None else ()

    @property
    def turn(self) -> Decision | None:
        """What the seat in ``to_act`` must decide, or ``None`` when nobody must decide."""
        who = self.to_act
        return None if who is None else self.decision(who[0])

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats playing this round, in playing order."""
        return tuple(entry.seat for entry in self._seats)

    @property
    def to_act(self) -> tuple[int, int] | None:
        """``(seat, hand)`` that must decide next, or None when nobody must.

        While insurance is offered any pending seat may decide; this is the lowest of them.
        """
        if self._phase is _PLAYERS and self._current is not None:
            return self._current.seat, self._current.index
        if self._phase is _INSURANCE_PHASE:
            return self._pending_insurance[0], 0
        return None

    @property
    def pending_insurance(self) -> tuple[int, ...]:
        """Seats that still have to decide on insurance or even money."""
        return tuple(self._pending_insurance) if self._phase is _INSURANCE_PHASE else ()

    def legal_actions(self, seat: int | None = None) -> frozenset[Action]:
        """Exactly the actions ``act`` accepts from ``seat`` now (empty if it is not its turn).

        Without a seat: the actions of the seat in ``to_act`` (empty when nobody is to act).
        """
        if seat is None:
            who = self.to_act
            if who is None:
                return _NO_ACTIONS
            seat = who[0]
        return _MASK_SETS[self._mask_of(seat)]

    def can(self, seat: int, action: Action) -> bool:
        """Whether ``act(seat, action)`` would be accepted now."""
        bit = _BIT.get(action, 0) if isinstance(action, Action) else 0
        return bool(bit and self._mask_of(seat) & bit)

    def extra_stake(self, seat: int, action: Action) -> int:
        """Chips ``act(seat, action)`` adds to the seat's stake (0 for most actions).

        Raises like ``act`` would if the action is not allowed, so a host can check the player's
        balance and escrow the chips first, then act.
        """
        self._check(seat, action)
        if action is _DOUBLE_ACTION or action is _SPLIT_ACTION:
            hand = self._current
            assert hand is not None
            return hand.stake
        if action is _INSURE_ACTION:
            return Rules.insurance_stake(self._by_seat[seat].bet)
        return 0

    def decision(self, seat: int | None = None) -> Decision:
        """What ``seat`` (default: the seat in ``to_act``) must decide now."""
        if seat is None:
            who = self.to_act
            if who is None:
                raise RoundStateError("nobody has a decision to make now")
            seat = who[0]
        mask = self._mask_of(seat)
        if not mask:
            raise NotYourTurnError(f"seat {seat} has nothing to decide now")
        if self._phase is _INSURANCE_PHASE:
            entry = self._by_seat[seat]
            hand = entry.hands[0]
        else:
            current, current_seat = self._current, self._current_seat
            assert current is not None
            assert current_seat is not None
            hand, entry = current, current_seat
        hard = hand.hard
        soft = hand.ace and hard <= 11
        return Decision(
            seat=seat,
            hand=hand.index,
            phase=self._phase,
            cards=tuple([DECK[card] for card in hand.cards]),
            total=hard + 10 if soft else hard,
            soft=soft,
            dealer_up=DECK[self._dealer[0]],
            legal=_MASK_SETS[mask],
            hands_at_seat=len(entry.hands),
            from_split=hand.from_split,
            rules=self.rules,
        )

    def chart_situation(self, seat: int) -> tuple[bool, int, int, bool, int, int]:
        """What a chart strategy reads of ``decision(seat)``: whether insurance is asked, the
        legal actions (as a bit mask), the card value of a two-card pair (0 for any other
        hand), whether the total is soft, the total, and the dealer's up card's value (1 for an
        ace). ``engine.blackjack.sim`` asks a chart strategy (basic, dealer, simple) once per
        situation instead of building a ``Decision`` at every decision."""
        hand = self._current
        if self._phase is _PLAYERS and hand is not None and hand.seat == seat:
            mask = self._mask  # what _mask_of answers in this phase, without the call
            insurance = False
        else:
            mask = self._mask_of(seat)
            if not mask:
                raise NotYourTurnError(f"seat {seat} has nothing to decide now")
            insurance = self._phase is _INSURANCE_PHASE
            hand = self._by_seat[seat].hands[0] if insurance else self._current
            assert hand is not None
        cards = hand.cards
        pair = 0
        if len(cards) == 2 and VALUE_OF_ID[cards[0]] == VALUE_OF_ID[cards[1]]:
            pair = VALUE_OF_ID[cards[0]]
        hard = hand.hard
        soft = hand.ace and hard <= 11
        total = hard + 10 if soft else hard
        return insurance, mask, pair, soft, total, VALUE_OF_ID[self._dealer[0]]

    def opening_cards(self, seat: int) -> tuple[Card, Card]:
        """The seat's first two cards as dealt, whatever was split since (the cards side bets
        are settled on). The first split of hand 0 always makes hand 1 from its second card."""
        entry = self._by_seat.get(seat)
        if entry is None:
            raise BetError(f"seat {seat!r} is not playing this round")
        hands = entry.hands
        second = hands[1].cards[0] if len(hands) > 1 else hands[0].cards[1]
        return DECK[hands[0].cards[0]], DECK[second]

    @property
    def dealer_up(self) -> Card:
        """The dealer's up card."""
        return DECK[self._dealer[0]]

    def seat_net(self, seat: int) -> int:
        """Chips the seat has won (positive) or lost so far, over all its hands and insurance."""
        entry = self._by_seat.get(seat)
        if entry is None:
            raise BetError(f"seat {seat!r} is not playing this round")
        return entry.net

    @property
    def results(self) -> tuple[HandResult, ...]:
        """The settled hands so far, seat by seat."""
        return tuple(
            HandResult(hand.seat, hand.index, hand.outcome, hand.stake, hand.payout)
            for entry in self._seats
            for hand in entry.hands
            if hand.outcome is not None
        )

    @property
    def insurance_results(self) -> tuple[InsuranceResult, ...]:
        """The settled insurance bets."""
        return tuple(
            InsuranceResult(entry.seat, entry.insurance, entry.insurance_payout)
            for entry in self._seats
            if entry.insurance_settled
        )

    def view(self) -> RoundView:
        """The table as everyone may see it: the hole card stays hidden until the dealer plays."""
        dealer = self._dealer
        hidden = len(dealer) >= 2 and not self._hole_revealed
        visible = dealer[:1] if hidden else dealer
        return RoundView(
            phase=self._phase,
            rules=self.rules,
            dealer=DealerView(cards=tuple(DECK[card] for card in visible), hole_hidden=hidden),
            seats=tuple(self._seat_view(entry) for entry in self._seats),
            to_act=self.to_act,
            pending_insurance=self.pending_insurance,
        )

    def _seat_view(self, entry: _Seat) -> RoundSeatView:
        insurance = None
        if entry.insurance_settled:
            insurance = InsuranceResult(entry.seat, entry.insurance, entry.insurance_payout)
        return RoundSeatView(
            seat=entry.seat,
            bet=entry.bet,
            hands=tuple(self._hand_view(hand) for hand in entry.hands),
            insurance=entry.insurance,
            insurance_result=insurance,
            net=entry.net if self._phase is _OVER else None,
        )

    def _hand_view(self, hand: _Hand) -> HandView:
        acting = hand is self._current and self._phase is _PLAYERS
        result = None
        if hand.outcome is not None:
            result = HandResult(hand.seat, hand.index, hand.outcome, hand.stake, hand.payout)
        return HandView(
            seat=hand.seat,
            index=hand.index,
            cards=tuple(DECK[card] for card in hand.cards),
            stake=hand.stake,
            status=BlackjackHandStatus.ACTING if acting else hand.status,
            doubled=hand.doubled,
            from_split=hand.from_split,
            result=result,
        )

    # ----------------------------------------------------------------------------- actions

    def _deal(self) -> None:
        """Deal the opening cards and run everything up to the first decision."""
        events = self._events
        shoe = self._shoe
        if shoe.begin_round() and events is not None:
            events.append(ShoeShuffled(shoe.size))
        draw = self._draw
        seats = self._seats
        if events is None:  # _give inlined: the simulator deals millions of these
            for entry in seats:
                hand = entry.hands[0]
                card = draw()
                hand.cards.append(card)
                hand.hard = VALUE_OF_ID[card]
                hand.ace = card >= 48
        else:
            for entry in seats:
                self._give(entry.hands[0], draw())
        up = draw()
        self._dealer.append(up)
        self._dealer_hard = VALUE_OF_ID[up]
        self._dealer_ace = up >= 48
        if events is not None:
            events.append(DealerCardDealt(DECK[up]))
        for entry in seats:
            hand = entry.hands[0]
            if events is None:
                card = draw()
                hand.cards.append(card)
                hand.hard += VALUE_OF_ID[card]
                if card >= 48:
                    hand.ace = True
            else:
                self._give(hand, draw())
            if hand.hard == 11 and hand.ace:
                hand.status = _NATURAL
        if self._peek:
            hole = draw()
            self._dealer.append(hole)
            self._dealer_hard += VALUE_OF_ID[hole]
            self._dealer_ace = self._dealer_ace or hole >= 48
            if events is not None:
                events.append(HoleCardDealt())
        if self.rules.insurance and up >= 48:
            pending = [
                entry.seat for entry in seats if entry.hands[0].status is _NATURAL or entry.bet >= 2
            ]
            if pending:
                self._pending_insurance = pending
                self._phase = _INSURANCE_PHASE
                if events is not None:
                    events.append(InsuranceOffered(tuple(pending)))
                return
        self._after_insurance()

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s ``action`` and everything that follows until the next decision."""
        phase = self._phase
        if phase is _PLAYERS:
            hand = self._current
            bit = _BIT.get(action, 0) if isinstance(action, Action) else 0
            if hand is None or hand.seat != seat or type(seat) is not int or not self._mask & bit:
                self._check(seat, action)  # raises the specific error
            assert hand is not None
            events = self._events
            first_new = len(events) if events is not None else 0
            if action is _HIT_ACTION:
                self._hit(hand)
            elif action is _STAND_ACTION:
                hand.status = _STOOD
                if events is not None:
                    hard = hand.hard
                    total = hard + 10 if hand.ace and hard <= 11 else hard
                    events.append(HandStood(seat, hand.index, total))
                self._advance()
            elif action is _DOUBLE_ACTION:
                self._double(hand)
            elif action is _SPLIT_ACTION:
                self._split(hand)
            else:
                self._surrender_hand(hand)
            return events[first_new:] if events is not None else []
        self._check(seat, action)
        events = self._events
        first_new = len(events) if events is not None else 0
        self._decide_insurance(self._by_seat[seat], action)
        return events[first_new:] if events is not None else []

    def hit(self, seat: int) -> list[Event]:
        """``act(seat, Action.HIT)``."""
        return self.act(seat, _HIT_ACTION)

    def stand(self, seat: int) -> list[Event]:
        """``act(seat, Action.STAND)``."""
        return self.act(seat, _STAND_ACTION)

    def double(self, seat: int) -> list[Event]:
        """``act(seat, Action.DOUBLE)``."""
        return self.act(seat, _DOUBLE_ACTION)

    def split(self, seat: int) -> list[Event]:
        """``act(seat, Action.SPLIT)``."""
        return self.act(seat, _SPLIT_ACTION)

    def surrender(self, seat: int) -> list[Event]:
        """``act(seat, Action.SURRENDER)``."""
        return self.act(seat, Action.SURRENDER)

    def insure(self, seat: int) -> list[Event]:
        """``act(seat, Action.INSURE)``."""
        return self.act(seat, _INSURE_ACTION)

    def take_even_money(self, seat: int) -> list[Event]:
        """``act(seat, Action.EVEN_MONEY)``."""
        return self.act(seat, _EVEN_MONEY_ACTION)

    def decline_insurance(self, seat: int) -> list[Event]:
        """``act(seat, Action.NO_INSURANCE)``."""
        return self.act(seat, Action.NO_INSURANCE)

    # ----------------------------------------------------------------------------- checks

    def _mask_of(self, seat: int) -> int:
        phase = self._phase
        if phase is _PLAYERS:
            current = self._current
            return self._mask if current is not None and current.seat == seat else 0
        if phase is _INSURANCE_PHASE and seat in self._pending_insurance:
            entry = self._by_seat[seat]
            if entry.hands[0].status is _NATURAL:
                return _EVEN_MONEY | _NO_INSURANCE
            return _INSURE | _NO_INSURANCE
        return 0

    def _check(self, seat: int, action: object) -> None:
        """Raise the error ``act(seat, action)`` deserves, or return if it is allowed."""
        if not isinstance(action, Action):
            raise MalformedActionError(f"{action!r} is not a Blackjack action")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise MalformedActionError(f"{seat!r} is not a seat number")
        if seat not in self._by_seat:
            raise BetError(f"seat {seat} is not playing this round")
        phase = self._phase
        if phase is _READY:
            raise RoundStateError("the cards have not been dealt yet")
        if phase is _OVER:
            raise RoundStateError("the round is over")
        mask = self._mask_of(seat)
        if not mask:
            who = self.to_act
            if phase is _INSURANCE_PHASE:
                raise NotYourTurnError(f"seat {seat} has already decided on insurance")
            raise NotYourTurnError(
                f"it is not seat {seat}'s turn" + (f" (seat {who[0]} is to act)" if who else "")
            )
        if not mask & _BIT[action]:
            raise ActionNotAllowedError(self._refusal(seat, action))

    def _refusal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not allowed for ``seat`` now, in words a player understands."""
        if self._phase is _INSURANCE_PHASE:
            if action in (_INSURE_ACTION, _EVEN_MONEY_ACTION, Action.NO_INSURANCE):
                if action is _INSURE_ACTION:
                    return "with a blackjack you are offered even money, not insurance"
                return "even money is only offered on a blackjack"
            return "decide on insurance first"
        hand = self._current
        assert hand is not None
        rules = self.rules
        if action in (_INSURE_ACTION, _EVEN_MONEY_ACTION, Action.NO_INSURANCE):
            return "insurance is not on offer now"
        if hand.split_aces and not rules.hit_split_aces and action is not _SPLIT_ACTION:
            return "split aces get one card each"
        if action is _DOUBLE_ACTION:
            if len(hand.cards) != 2:
                return "you can only double on your first two cards"
            if rules.double is DoubleRule.NONE:
                return "doubling is not allowed at this table"
            if hand.from_split and not rules.das:
                return "doubling after a split is not allowed at this table"
            return f"at this table you may only double on hard {rules.double.value}"
        if action is _SPLIT_ACTION:
            cards = hand.cards
            if len(cards) != 2 or VALUE_OF_ID[cards[0]] != VALUE_OF_ID[cards[1]]:
                return "you can only split a pair"
            if rules.max_hands == 1:
                return "splitting is not allowed at this table"
            if hand.split_aces and not rules.resplit_aces:
                return "split aces cannot be split again at this table"
            return f"you cannot split into more than {rules.max_hands} hands"
        if action is Action.SURRENDER:
            if rules.surrender is Surrender.NONE:
                return "surrender is not allowed at this table"
            return "you can only surrender your first two cards, before any split"
        return f"you cannot {action.value} now"

    # ----------------------------------------------------------------------------- play

    def _give(self, hand: _Hand, card: int) -> None:
        hand.cards.append(card)
        value = VALUE_OF_ID[card]
        hand.hard += value
        if value == 1:
            hand.ace = True
        events = self._events
        if events is not None:
            events.append(CardDealt(hand.seat, hand.index, DECK[card]))

    def _hit(self, hand: _Hand) -> None:
        self._give(hand, self._draw())
        hard = hand.hard
        if hard > 21:
            self._bust(hand)
            self._advance()
        elif hard == 21 or (hard == 11 and hand.ace):
            self._stand_on_21(hand)
            self._advance()
        else:
            self._mask = _HIT | _STAND

    def _stand_on_21(self, hand: _Hand) -> None:
        hand.status = _STOOD
        events = self._events
        if events is not None:
            events.append(HandStood(hand.seat, hand.index, 21))

    def _bust(self, hand: _Hand) -> None:
        hand.status = _BUST
        events = self._events
        if events is not None:
            events.append(HandBusted(hand.seat, hand.index, hand.hard))
        self._settle(hand, _BUST_OUTCOME, 0)

    def _double(self, hand: _Hand) -> None:
        extra = hand.stake
        hand.stake += extra
        hand.doubled = True
        events = self._events
        if events is not None:
            events.append(StakeAdded(hand.seat, hand.index, extra, _DOUBLE_ACTION))
            events.append(HandDoubled(hand.seat, hand.index))
        self._give(hand, self._draw())
        if hand.hard > 21:
            self._bust(hand)
        else:
            hand.status = _STOOD
            if events is not None:
                hard = hand.hard
                total = hard + 10 if hand.ace and hard <= 11 else hard
                events.append(HandStood(hand.seat, hand.index, total))
        self._advance()

    def _split(self, hand: _Hand) -> None:
        entry = self._current_seat
        assert entry is not None
        second = hand.cards.pop()
        new = _Hand(hand.seat, len(entry.hands), hand.stake)
        entry.hands.append(new)
        aces = second >= 48
        hand.hard = VALUE_OF_ID[hand.cards[0]]
        hand.from_split = new.from_split = True
        hand.split_aces = new.split_aces = aces
        new.ace = aces
        new.hard = VALUE_OF_ID[second]
        new.cards.append(second)
        events = self._events
        if events is not None:
            events.append(StakeAdded(hand.seat, new.index, new.stake, _SPLIT_ACTION))
            events.append(HandSplit(hand.seat, hand.index, new.index))
        self._second_card(entry, hand)
        if hand.status is _WAITING:
            self._mask = self._mask_for(entry, hand)
        else:
            self._advance()

    def _second_card(self, entry: _Seat, hand: _Hand) -> None:
        """Deal a split hand its second card and stand it if it is finished already."""
        card = self._draw()
        self._give(hand, card)
        if hand.split_aces and not self._hit_split_aces:
            if not (card >= 48 and self._resplit_aces and len(entry.hands) < self._max_hands):
                hand.status = _STOOD
                events = self._events
                if events is not None:
                    hard = hand.hard
                    events.append(
                        HandStood(hand.seat, hand.index, hard + 10 if hard <= 11 else hard)
                    )
        elif hand.hard == 11 and hand.ace:
            self._stand_on_21(hand)

    def _surrender_hand(self, hand: _Hand) -> None:
        hand.status = _SURRENDERED
        events = self._events
        if events is not None:
            events.append(HandSurrendered(hand.seat, hand.index))
        # Without a peek the dealer may still turn up a blackjack and take the whole bet.
        if self._peek or not self._dealer_may_have_blackjack():
            self._settle(hand, _SURRENDER_OUTCOME, Rules.surrender_refund(hand.stake))
        self._advance()

    def _mask_for(self, entry: _Seat, hand: _Hand) -> int:
        if hand.split_aces and not self._hit_split_aces:
            return _STAND | _SPLIT  # reached only when this ace may be resplit
        cards = hand.cards
        if len(cards) != 2:
            return _HIT | _STAND
        mask = _HIT | _STAND
        hard = hand.hard
        soft = hand.ace and hard <= 11
        if self._double_ok[soft][hard] and (self._das or not hand.from_split):
            mask |= _DOUBLE
        first = VALUE_OF_ID[cards[0]]
        if (
            first == VALUE_OF_ID[cards[1]]
            and len(entry.hands) < self._max_hands
            and (not hand.split_aces or self._resplit_aces)
        ):
            mask |= _SPLIT
        if self._surrender and not hand.from_split:
            mask |= _SURRENDER
        return mask

    def _advance(self) -> None:
        """Move the turn to the next hand that must decide, or finish the round."""
        seats = self._seats
        while self._seat_pos < len(seats):
            entry = seats[self._seat_pos]
            hands = entry.hands
            while self._hand_pos < len(hands):
                hand = hands[self._hand_pos]
                if hand.status is _WAITING:
                    if len(hand.cards) == 1:
                        self._second_card(entry, hand)
                    if hand.status is _WAITING:
                        self._current = hand
                        self._current_seat = entry
                        self._mask = self._mask_for(entry, hand)
                        events = self._events
                        if events is not None:
                            events.append(TurnStarted(hand.seat, hand.index))
                        return
                self._hand_pos += 1
            self._seat_pos += 1
            self._hand_pos = 0
        self._current = None
        self._current_seat = None
        self._mask = 0
        self._finish()

    # ----------------------------------------------------------------------------- insurance

    def _decide_insurance(self, entry: _Seat, action: Action) -> None:
        events = self._events
        seat = entry.seat
        if action is _INSURE_ACTION:
            stake = Rules.insurance_stake(entry.bet)
            entry.insurance = stake
            if events is not None:
                events.append(StakeAdded(seat, 0, stake, _INSURE_ACTION))
                events.append(InsuranceTaken(seat, stake))
        elif action is _EVEN_MONEY_ACTION:
            hand = entry.hands[0]
            if events is not None:
                events.append(EvenMoneyTaken(seat))
            self._settle(hand, _EVEN_MONEY_OUTCOME, 2 * hand.stake)
        elif events is not None:
            events.append(InsuranceDeclined(seat))
        self._pending_insurance.remove(seat)
        if not self._pending_insurance:
            self._after_insurance()

    def _settle_insurance(self, dealer_blackjack: bool) -> None:
        events = self._events
        for entry in self._seats:
            if entry.insurance and not entry.insurance_settled:
                entry.insurance_settled = True
                payout = 3 * entry.insurance if dealer_blackjack else 0
                entry.insurance_payout = payout
                entry.net += payout - entry.insurance
                if events is not None:
                    events.append(
                        InsuranceSettled(InsuranceResult(entry.seat, entry.insurance, payout))
                    )

    def _after_insurance(self) -> None:
        """Peek, pay naturals, and hand the turn to the first seat."""
        dealer = self._dealer
        up_value = VALUE_OF_ID[dealer[0]]
        events = self._events
        if self._peek and up_value in (1, 10):
            blackjack = self._dealer_hard == 11 and self._dealer_ace
            if events is not None:
                events.append(DealerPeeked(blackjack))
            if blackjack:
                self._finish()
                return
            self._settle_insurance(False)
        if self._peek or up_value not in (1, 10):
            for entry in self._seats:
                hand = entry.hands[0]
                if hand.status is _NATURAL and hand.outcome is None:
                    self._settle(hand, _BLACKJACK_OUTCOME, self.rules.blackjack_payout(hand.stake))
        self._phase = _PLAYERS
        self._advance()

    # ----------------------------------------------------------------------------- dealer

    def _dealer_may_have_blackjack(self) -> bool:
        up_value = VALUE_OF_ID[self._dealer[0]]
        return up_value in (1, 10)

    def _finish(self) -> None:
        """Play the dealer's hand if anything depends on it, settle every bet, end the round."""
        events = self._events
        waiting: list[_Hand] = []
        insured = False
        stood = False
        for entry in self._seats:
            if entry.insurance and not entry.insurance_settled:
                insured = True
            for hand in entry.hands:
                if hand.outcome is None:
                    waiting.append(hand)
                    if hand.status is _STOOD:
                        stood = True
        dealer = self._dealer
        if len(dealer) == 2:
            self._hole_revealed = True
            if events is not None:
                events.append(HoleCardRevealed(DECK[dealer[1]]))
        elif waiting or insured:
            card = self._draw()
            dealer.append(card)
            self._dealer_hard += VALUE_OF_ID[card]
            if card >= 48:
                self._dealer_ace = True
            self._hole_revealed = True
            if events is not None:
                events.append(DealerCardDealt(DECK[card]))
        blackjack = len(dealer) == 2 and self._dealer_hard == 11 and self._dealer_ace
        if insured:
            self._settle_insurance(blackjack)
        if blackjack:
            if events is not None:
                events.append(DealerStood(21, True))
            for hand in waiting:
                if hand.status is _NATURAL:
                    self._settle(hand, _PUSH, hand.stake)
                else:
                    self._settle(hand, _LOSS, 0)
        else:
            if stood:
                self._dealer_play()
            hard = self._dealer_hard
            dealer_total = hard + 10 if self._dealer_ace and hard <= 11 else hard
            if events is not None and len(dealer) >= 2:
                if dealer_total > 21:
                    events.append(DealerBusted(dealer_total))
                else:
                    events.append(DealerStood(dealer_total, False))
            self._settle_against(dealer_total, waiting)
        self._phase = _OVER
        if events is not None:
            events.append(RoundEnded())

    def _settle_against(self, dealer_total: int, waiting: list[_Hand]) -> None:
        """Settle the hands still open against the dealer's final total (no blackjack)."""
        rules = self.rules
        ties_push = rules.ties is _TIES_PUSH
        for hand in waiting:
            status = hand.status
            if status is _NATURAL:
                self._settle(hand, _BLACKJACK_OUTCOME, rules.blackjack_payout(hand.stake))
            elif status is _SURRENDERED:
                self._settle(hand, _SURRENDER_OUTCOME, Rules.surrender_refund(hand.stake))
            else:
                hard = hand.hard
                total = hard + 10 if hand.ace and hard <= 11 else hard
                stake = hand.stake
                if dealer_total > 21 or total > dealer_total:
                    self._settle(hand, _WIN, 2 * stake)
                elif total == dealer_total and ties_push:
                    self._settle(hand, _PUSH, stake)
                else:
                    self._settle(hand, _LOSS, 0)

    def _dealer_play(self) -> None:
        draw = self._draw
        dealer = self._dealer
        hard = self._dealer_hard
        ace = self._dealer_ace
        h17 = self.rules.h17
        events = self._events
        while True:
            if ace and hard <= 11:
                total = hard + 10
                if total > 17 or (total == 17 and not h17):
                    break
            elif hard >= 17:
                break
            card = draw()
            dealer.append(card)
            hard += VALUE_OF_ID[card]
            if card >= 48:
                ace = True
            if events is not None:
                events.append(DealerCardDealt(DECK[card]))
        self._dealer_hard = hard
        self._dealer_ace = ace

    def _settle(self, hand: _Hand, outcome: Outcome, payout: int) -> None:
        hand.outcome = outcome
        hand.payout = payout
        self._by_seat[hand.seat].net += payout - hand.stake
        events = self._events
        if events is not None:
            events.append(
                HandSettled(HandResult(hand.seat, hand.index, outcome, hand.stake, payout))
            )
