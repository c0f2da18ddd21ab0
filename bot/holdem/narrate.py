"""What happened in a hand, told by seat and in words: engine events in, table events out.

Pure functions: the host passes the hand, its ``SeatOrder`` and the seat names, and publishes
what comes back. Equities of hands tabled before the river are left empty for the host to fill
(they are computed in a worker thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.holdem.events import (
    ActionTaken,
    HandsTabled,
    PotResult,
    ShownHand,
    StreetDealt,
    TableEvent,
)
from bot.holdem.kinds import Stage
from bot.holdem.order import SeatOrder
from engine.cards import Card
from engine.holdem import (
    ActionKind,
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardsShown,
    Event,
    Hand,
    PlayerActed,
    PotAwarded,
)
from storage import SeatResult

_VERBS = {
    ActionKind.FOLD: "folds",
    ActionKind.CHECK: "checks",
}


@dataclass(frozen=True, slots=True)
class Narration:
    """The table events for a batch of engine events, and what the table keeps from them."""

    events: tuple[TableEvent, ...]
    last_actions: Mapping[int, str]
    """Each seat's last action on the current street: ``"Raise to 40"``."""
    running_pot: int
    """Everything in the middle after these events."""


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand told by seat: for the result post and for storage's settlement."""

    final_stacks: Mapping[int, int]
    pots: tuple[PotResult, ...]
    shown: tuple[ShownHand, ...]
    net: tuple[tuple[int, str, int], ...]
    results: Mapping[int, SeatResult]


def describe_action(
    event: PlayerActed, seat_no: int, name: str, hand_id: int, *, automatic: bool
) -> tuple[ActionTaken, str]:
    """The channel's line for one action, and the seat's short note (``"Raise to 40"``)."""
    match event.kind:
        case ActionKind.CALL:
            verb = f"calls {event.added:,}"
        case ActionKind.BET:
            verb = f"bets {event.bet_to:,}"
        case ActionKind.RAISE:
            verb = f"raises to {event.bet_to:,}"
        case kind:
            verb = _VERBS[kind]
    all_in = event.all_in and event.kind is not ActionKind.FOLD
    text = f"{name} {verb}" + (" (all-in)" if all_in else "")
    note = "All-in" if all_in else verb.capitalize()
    if automatic:
        text += " (timed out)"
    taken = ActionTaken(
        hand_id, seat_no, name, event.kind, event.bet_to, event.all_in, automatic, text
    )
    return taken, note


def posted(events: Sequence[Event]) -> int:
    """Chips the antes and blinds put in the middle (less any returned)."""
    total = 0
    for event in events:
        match event:
            case AntePosted(amount=amount) | BlindPosted(amount=amount):
                total += amount
            case BetReturned(amount=amount):
                total -= amount
    return total


def narrate(
    events: Sequence[Event],
    hand: Hand,
    order: SeatOrder,
    names: Mapping[int, str],
    *,
    hand_id: int,
    running_pot: int,
    last_actions: Mapping[int, str],
    automatic: bool = False,
) -> Narration:
    """Table events for engine ``events`` just produced by ``hand``."""
    out: list[TableEvent] = []
    notes = dict(last_actions)
    pot = running_pot
    shown: list[ShownHand] = []
    for event in events:
        match event:
            case PlayerActed():
                pot += event.added
                seat_no = order.seat(event.player)
                taken, notes[seat_no] = describe_action(
                    event, seat_no, names[seat_no], hand_id, automatic=automatic
                )
                out.append(taken)
            case BetReturned(amount=amount):
                pot -= amount
            case CardsShown(player=player, cards=cards, description=description):
                seat_no = order.seat(player)
                shown.append(ShownHand(seat_no, names[seat_no], cards, description))
            case BoardDealt(street=street, cards=cards, board=0):
                notes = {}
                board = board_until(hand.board, events, event)
                if shown:  # hands tabled before a board card: an all-in run-out
                    before = board[: -len(cards)]
                    out.append(HandsTabled(hand_id, before, tuple(shown), ()))
                    shown = []
                out.append(StreetDealt(hand_id, Stage.of_engine(street), cards, board, pot))
            case _:
                pass
    return Narration(tuple(out), notes, pot)


def board_until(
    board: Sequence[Card], events: Sequence[Event], until: BoardDealt
) -> tuple[Card, ...]:
    """The board as it stood when ``until`` was dealt (a run-out deals several at once)."""
    later = 0
    seen = False
    for event in events:
        if event is until:
            seen = True
        elif seen and isinstance(event, BoardDealt) and event.board == until.board:
            later += len(event.cards)
    return tuple(board[: len(board) - later])


def winnings(hand: Hand | None, order: SeatOrder) -> dict[int, int]:
    """Chips each seat won from the pots, once the hand is over."""
    won: dict[int, int] = {}
    if hand is not None and hand.is_complete:
        for event in hand.events:
            if isinstance(event, PotAwarded):
                for player, share in event.shares:
                    seat_no = order.seat(player)
                    won[seat_no] = won.get(seat_no, 0) + share
    return won


def summarise(hand: Hand, order: SeatOrder, names: Mapping[int, str]) -> HandSummary:
    """A finished hand by seat: final stacks, pots, shown hands, net results."""
    results: dict[int, SeatResult] = {}
    pots: list[PotResult] = []
    for event in hand.events:
        if not isinstance(event, PotAwarded):
            continue
        winners = tuple(
            (order.seat(p), names[order.seat(p)], share) for p, share in event.shares if share
        )
        pots.append(PotResult(event.pot, event.amount, winners, event.description, event.board))
        for seat_no, _, _ in winners:
            best = max(results.get(seat_no, SeatResult()).pot_won, event.amount)
            results[seat_no] = SeatResult(won=True, pot_won=best)
    # Hands tabled before an all-in run-out were described on a partial board: describe
    # every shown hand on the final one.
    shown = tuple(
        ShownHand(order.seat(e.player), names[order.seat(e.player)], e.cards, _final(hand, e))
        for e in hand.events
        if isinstance(e, CardsShown)
    )
    net = tuple(
        (seat_no, names[seat_no], hand.stacks[p] - hand.starting_stacks[p])
        for p, seat_no in enumerate(order)
    )
    final = {seat_no: hand.stacks[p] for p, seat_no in enumerate(order)}
    return HandSummary(final, tuple(pots), shown, net, results)


def ended_by_folds(hand: Hand) -> bool:
    """Whether a finished hand was won without a showdown (everyone else folded)."""
    return not any(isinstance(event, CardsShown) for event in hand.events)


def _final(hand: Hand, shown: CardsShown) -> str:
    value = hand.value_of(shown.player)
    return value.description if value is not None and len(hand.board) == 5 else ""
