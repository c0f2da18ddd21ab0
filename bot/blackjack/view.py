"""From the Blackjack host's public snapshot to the renderer's view, and who may decide what.

Everything here reads only the snapshot (which never holds the dealer's hole card while it is
face down), so whatever a front draws from it is safe to show the whole channel.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.blackjack.events import BlackjackSnapshot, TablePhase
from bot.render.models import (
    BlackjackHandView,
    BlackjackPhase,
    BlackjackResultLabel,
    BlackjackSeatView,
    BlackjackTableView,
)
from engine.blackjack import Action, BlackjackHandStatus, HandView, Outcome, Phase
from engine.blackjack.hand import hand_value
from engine.cards import Card

_RESULTS = {
    Outcome.BLACKJACK: BlackjackResultLabel.BLACKJACK,
    Outcome.EVEN_MONEY: BlackjackResultLabel.EVEN_MONEY,
    Outcome.WIN: BlackjackResultLabel.WIN,
    Outcome.PUSH: BlackjackResultLabel.PUSH,
    Outcome.LOSS: BlackjackResultLabel.LOSE,
    Outcome.BUST: BlackjackResultLabel.LOSE,
    Outcome.SURRENDER: BlackjackResultLabel.SURRENDER,
}
_PHASES = {
    Phase.READY: BlackjackPhase.BETTING,
    Phase.INSURANCE: BlackjackPhase.INSURANCE,
    Phase.PLAYERS: BlackjackPhase.PLAYERS,
    Phase.OVER: BlackjackPhase.SETTLED,
}
ACTION_ORDER: tuple[Action, ...] = (
    Action.HIT,
    Action.STAND,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
    Action.INSURE,
    Action.EVEN_MONEY,
    Action.NO_INSURANCE,
)
"""The order buttons and lists show actions in."""


def seat_label(seat: int) -> int:
    """The seat number people see: the host counts seats from 0, people from 1."""
    return seat + 1


def total_text(cards: tuple[Card, ...], *, natural: bool = False) -> str:
    """A hand's total as the table says it: ``"soft 17"``, ``"20"``, ``"bust (24)"``,
    ``"blackjack"`` (only for a natural: a two-card 21 after a split is ``"21"``)."""
    if not cards:
        return ""
    if natural:
        return "blackjack"
    value = hand_value(cards)
    if value.is_bust:
        return f"bust ({value.total})"
    if value.soft and value.total < 21:
        return f"soft {value.total}"
    return str(value.total)


def _hand(hand: HandView) -> BlackjackHandView:
    result = hand.result
    return BlackjackHandView(
        cards=hand.cards,
        total=total_text(hand.cards, natural=hand.status is BlackjackHandStatus.BLACKJACK),
        bet=hand.stake,
        is_doubled=hand.doubled,
        result=_RESULTS[result.outcome] if result is not None else None,
        net=result.net if result is not None else None,
    )


def table_view(snapshot: BlackjackSnapshot) -> BlackjackTableView | None:
    """The render view of ``snapshot``; None when nobody has bet (an idle table draws nothing).

    The seat to act is marked during the players' turns only: while insurance is offered every
    pending player decides at once (see :func:`deciding`).
    """
    if not snapshot.players:
        return None
    game = snapshot.view
    seats_by_number = {seat.seat: seat for seat in game.seats} if game is not None else {}
    seats = []
    for player in snapshot.players:
        seat = seats_by_number.get(player.seat)
        hands = tuple(_hand(hand) for hand in seat.hands) if seat is not None else ()
        hand_to_act = None
        if (
            game is not None
            and game.phase is Phase.PLAYERS
            and game.to_act is not None
            and game.to_act[0] == player.seat
        ):
            hand_to_act = game.to_act[1]
        seats.append(
            BlackjackSeatView(
                seat=seat_label(player.seat),
                name=player.name,
                hands=hands,
                bet=player.bet,
                hand_to_act=hand_to_act,
                insurance=seat.insurance if seat is not None else 0,
                is_bot=player.bot,
            )
        )
    if game is None or snapshot.phase is TablePhase.BETTING:
        phase = BlackjackPhase.BETTING
    else:
        phase = _PHASES[game.phase]
    dealer_cards: tuple[Card, ...] = game.dealer.cards if game is not None else ()
    hidden = game is not None and game.dealer.hole_hidden
    dealer_total = ""
    if dealer_cards and not hidden:
        dealer_total = total_text(
            dealer_cards, natural=len(dealer_cards) == 2 and hand_value(dealer_cards).total == 21
        )
    return BlackjackTableView(
        table_name=snapshot.table_name,
        round_number=snapshot.round_id or 0,
        phase=phase,
        seats=tuple(seats),
        dealer_cards=dealer_cards,
        dealer_hole_hidden=hidden,
        dealer_total=dealer_total,
        min_bet=snapshot.min_bet,
        max_bet=snapshot.max_bet,
    )


def deciding(snapshot: BlackjackSnapshot) -> Mapping[int, frozenset[Action]]:
    """Who may decide now, and what: ``{user_id: legal actions}``.

    During the players' turns that is the one player to act. While insurance is offered, every
    player still to decide may do so in any order: a player holding a natural is offered even
    money, the others insurance (the engine's rule; the host's snapshot only carries the legal
    actions of the lowest seat still deciding).
    """
    game = snapshot.view
    if game is None or snapshot.phase is not TablePhase.PLAYING:
        return {}
    if game.phase is Phase.INSURANCE:
        by_seat = {seat.seat: seat for seat in game.seats}
        offers: dict[int, frozenset[Action]] = {}
        for player in snapshot.players:
            if player.bot or player.seat not in game.pending_insurance:
                continue
            seat = by_seat.get(player.seat)
            natural = (
                seat is not None
                and bool(seat.hands)
                and seat.hands[0].status is BlackjackHandStatus.BLACKJACK
            )
            first = Action.EVEN_MONEY if natural else Action.INSURE
            offers[player.user_id] = frozenset({first, Action.NO_INSURANCE})
        return offers
    to_act = snapshot.to_act_user
    if to_act is not None and snapshot.legal and not is_bot(snapshot, to_act):
        return {to_act: snapshot.legal}
    return {}


def is_bot(snapshot: BlackjackSnapshot, user_id: int) -> bool:
    """Whether ``user_id`` is one of the house's bot players in this round."""
    player = snapshot.player(user_id)
    return player is not None and player.bot


def in_order(actions: frozenset[Action]) -> list[Action]:
    """``actions`` in the order the table shows them (Hit, Stand, Double down, ...)."""
    return [action for action in ACTION_ORDER if action in actions]
