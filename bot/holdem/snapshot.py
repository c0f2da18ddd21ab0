"""``table_snapshot``: the whole Hold'em table as everyone may see it, built from plain facts.

Pure: the host hands over what it knows (seats, the hand, its ``SeatOrder``, the turn's
deadline), and gets back a ``TableSnapshot`` told by seat number. Only face-up cards go in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.holdem.events import Offer, SeatSnapshot, TableLifecycle, TableSnapshot
from bot.holdem.home_options import option_summary
from bot.holdem.kinds import SeatStatus, Stage
from bot.holdem.narrate import ended_by_folds, winnings
from bot.holdem.order import SeatOrder, to_act
from bot.holdem.settings import HoldemSettings
from engine.cards import Card
from engine.holdem import Hand


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One occupied seat between hands (its stack before any hand in progress)."""

    seat_no: int
    name: str
    user_id: int | None
    stack: int
    sitting_out: bool = False

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class TableState:
    """What the host knows about its table besides the hand itself."""

    table_id: int
    name: str
    status: TableLifecycle
    settings: HoldemSettings
    hand_id: int
    seats: tuple[SeatFacts, ...]
    last_actions: Mapping[int, str] = field(default_factory=dict)
    next_hand_at: float | None = None
    """When the next hand is due, while the table pauses between hands."""
    time_bank: bool = False
    rail: tuple[str, ...] = ()


def stage_of(hand: Hand | None, next_hand_at: float | None) -> Stage:
    """The stage the table shows."""
    if hand is None:
        return Stage.WAITING if next_hand_at is None else Stage.NEXT_HAND
    if hand.is_complete:
        return Stage.HAND_OVER if ended_by_folds(hand) else Stage.SHOWDOWN
    return Stage.of_engine(hand.street)


def table_snapshot(
    state: TableState, hand: Hand | None, order: SeatOrder, deadline: float | None
) -> TableSnapshot:
    """The table as everyone may see it."""
    live = hand is not None and not hand.is_complete
    player = to_act(hand) if hand is not None and live else None
    to_act_seat = order.seat(player) if player is not None else None
    legal = hand.turn if hand is not None and live else None
    settings = state.settings
    return TableSnapshot(
        table_id=state.table_id,
        name=state.name,
        status=state.status,
        seat_count=settings.seats,
        small_blind=settings.small_blind,
        big_blind=settings.big_blind,
        ante=settings.ante,
        hand_id=state.hand_id if hand is not None else None,
        street=stage_of(hand, state.next_hand_at),
        board=tuple(hand.board) if hand is not None else (),
        pots=tuple(pot.amount for pot in hand.pots()) if hand is not None and live else (),
        total_pot=hand.pot_total if hand is not None else 0,
        to_act_seat=to_act_seat,
        deadline=deadline if to_act_seat is not None else None,
        legal=Offer.of(legal, to_act_seat) if legal and to_act_seat is not None else None,
        action_count=hand.action_count if hand is not None else 0,
        seats=_seats(state, hand, order, to_act_seat),
        next_hand_at=state.next_hand_at if hand is None else None,
        options=option_summary(settings),
        time_bank=state.time_bank,
        rail=state.rail,
        run_boards=tuple(hand.boards) if hand is not None and len(hand.boards) > 1 else (),
    )


def _seats(
    state: TableState, hand: Hand | None, order: SeatOrder, to_act_seat: int | None
) -> tuple[SeatSnapshot, ...]:
    won = winnings(hand, order)
    small, big = order.blinds() if hand is not None else (None, None)
    seats = []
    for facts in sorted(state.seats, key=lambda s: s.seat_no):
        seat_no = facts.seat_no
        player = order.player(seat_no) if hand is not None else None
        bet, stack, status, shown, description = 0, facts.stack, _idle(facts), _NO_CARDS, ""
        if hand is not None and player is not None:
            bet, stack, status = hand.bets[player], hand.stacks[player], _status(hand, player)
            if hand.shown[player]:
                shown = tuple(hand.hole_cards[player])
                value = hand.value_of(player)
                description = value.description if value is not None else ""
        seats.append(
            SeatSnapshot(
                seat_no=seat_no,
                name=facts.name,
                user_id=facts.user_id,
                is_bot=facts.is_bot,
                stack=stack,
                bet=bet,
                status=status,
                is_button=hand is not None and seat_no == order.button,
                is_to_act=seat_no == to_act_seat,
                is_small_blind=seat_no == small,
                is_big_blind=seat_no == big,
                shown_cards=shown,
                description=description,
                last_action=state.last_actions.get(seat_no, ""),
                won=won.get(seat_no, 0),
            )
        )
    return tuple(seats)


_NO_CARDS: tuple[Card, ...] = ()


def _status(hand: Hand, player: int) -> SeatStatus:
    # A hand shown at showdown stays in view even when it lost (the engine stops counting
    # losers as live before it builds the pots).
    if not hand.live[player] and not hand.shown[player]:
        return SeatStatus.FOLDED
    if hand.stacks[player] == 0 and not hand.is_complete:
        return SeatStatus.ALL_IN
    return SeatStatus.ACTIVE


def _idle(facts: SeatFacts) -> SeatStatus:
    return SeatStatus.SITTING_OUT if facts.sitting_out else SeatStatus.WAITING
