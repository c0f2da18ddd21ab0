"""From the host's public snapshot to the renderer's view: what every front draws."""

from __future__ import annotations

from bot.holdem.events import TableSnapshot
from bot.holdem.kinds import SeatStatus
from bot.render.models import HoldemSeatView, HoldemTableView


def table_view(snapshot: TableSnapshot) -> HoldemTableView:
    """The render view of a snapshot, every chair included (empty ones too)."""
    street = snapshot.street
    seats = []
    for seat_no in range(1, snapshot.seat_count + 1):
        seat = snapshot.seat(seat_no)
        if seat is None:
            seats.append(HoldemSeatView(seat=seat_no, status=SeatStatus.EMPTY))
            continue
        status = seat.status
        if not street.has_hand and status in (SeatStatus.ACTIVE, SeatStatus.ALL_IN):
            status = SeatStatus.WAITING
        seats.append(
            HoldemSeatView(
                seat=seat_no,
                name=seat.name,
                stack=seat.stack,
                bet=seat.bet,
                status=status,
                is_bot=seat.is_bot,
                is_button=seat.is_button,
                is_small_blind=seat.is_small_blind,
                is_big_blind=seat.is_big_blind,
                is_to_act=seat.is_to_act and status is SeatStatus.ACTIVE,
                shown_cards=seat.shown_cards if street.has_hand else (),
                hand_description=seat.description,
                amount_won=seat.won,
                last_action=seat.last_action,
            )
        )
    return HoldemTableView(
        table_name=snapshot.name,
        hand_number=snapshot.hand_id or 0,
        street=street,
        seats=tuple(seats),
        board=snapshot.board,
        pots=snapshot.pots,
        small_blind=snapshot.small_blind,
        big_blind=snapshot.big_blind,
        more_boards=snapshot.run_boards[1:],
    )
