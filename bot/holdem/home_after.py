"""After a hand: rabbit hunting, showing hole cards by choice, and the 7-2 bounty's chips.

Until the next hand is dealt, a member dealt into the hand just finished may press "Rabbit
hunt" (when the table allows it and the hand ended before the river: the cards that would have
come are posted, nothing changes, the look is logged) or show one or both hole cards nobody has
seen (after winning without a showdown or after folding). The 7-2 bounty: a pot won with 7-2
offsuit, shown at the showdown or shown later by the winner, collects the table's bounty from
every other player dealt in, each paying what they have up to the bounty. Bounties known at the
showdown move in the hand's settlement; one claimed by a later show moves in an operation of its
own, between the seats still at the table (a player who has left pays nothing more).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.holdem.errors import InvalidActionError, NotSeatedError
from bot.holdem.events import TableSnapshot
from bot.holdem.home_events import (
    AfterHandOffer,
    BountyCollected,
    CardsRevealed,
    RabbitHuntDealt,
)
from bot.holdem.narrate import HandSummary
from bot.holdem.order import SeatOrder
from bot.tables.errors import StaleActionError
from bot.tables.moves import move_chips
from engine.errors import EngineError
from engine.holdem import (
    BountyPaid,
    Event,
    Hand,
    HoleCardsRevealed,
    RabbitHunt,
    RabbitHunted,
    Reveal,
)
from engine.holdem.stats import counts_by_seat, hand_stats
from storage import Bounty

if TYPE_CHECKING:
    from bot.holdem.flow import HandLifecycle

_log = logging.getLogger("felt.holdem")

HAND_OVER = "That hand is over: its buttons closed when the next hand was dealt."


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """The hand just finished, kept until the next is dealt for what players may still do."""

    hand_id: int
    hand: Hand
    order: SeatOrder
    names: dict[int, str]
    users: tuple[int | None, ...]
    """Each engine player's member id (None for a bot), in PHH order."""

    def player_of(self, user_id: int) -> int:
        """The engine player of a member dealt into this hand."""
        if user_id not in self.users:
            raise NotSeatedError("Only players dealt into that hand can do that.")
        return self.users.index(user_id)


def finished(table: HandLifecycle, hand: Hand) -> FinishedHand:
    """The record of ``hand`` just finished at ``table``."""
    users = tuple(table.seats[seat_no].user_id for seat_no in table.order)
    return FinishedHand(table.hand_id, hand, table.order, table.seating.names(), users)


def bounties(events: Sequence[Event], order: SeatOrder) -> list[Bounty]:
    """The 7-2 bounties in ``events``, by seat."""
    return [
        Bounty(order.seat(e.payer), order.seat(e.winner), e.amount)
        for e in events
        if isinstance(e, BountyPaid)
    ]


def bounty_event(hand_id: int, paid: Sequence[Bounty], names: dict[int, str]) -> BountyCollected:
    """The channel's news of bounties all won by one seat."""
    winner = paid[0].winner
    payments = tuple((b.payer, names.get(b.payer, "?"), b.amount) for b in paid)
    return BountyCollected(hand_id, winner, names.get(winner, "?"), payments)


def offer(table: HandLifecycle) -> AfterHandOffer | None:
    """What the table message offers between hands, if anything."""
    done = table.finished_hand
    if done is None or table.hand is not None:
        return None
    hand = done.hand
    members = [p for p, user in enumerate(done.users) if user is not None]
    if not members:
        return None
    can_hunt = hand.after_hand(members[0]).can_rabbit_hunt
    can_show = any(hand.after_hand(p).revealable for p in members)
    if not can_hunt and not can_show:
        return None
    return AfterHandOffer(done.hand_id, can_hunt, can_show)


def decorate(snapshot: TableSnapshot, table: HandLifecycle) -> TableSnapshot:
    """Between hands, the snapshot carries the after-hand buttons of the hand just finished."""
    found = offer(table)
    return snapshot if found is None else replace(snapshot, after_hand=found)


async def settle(table: HandLifecycle, hand: Hand, summary: HandSummary, text: str) -> list[Bounty]:
    """Settle the finished ``hand`` in storage with its showdown bounties (lock held), update
    the seats' stacks and keep the hand for the after-hand buttons; returns the bounties."""
    owed = bounties(hand.events, table.order)
    key = f"holdem:{table.table_id}:hand:{table.hand_id}:settle"
    settled = await move_chips(
        "settlement",
        lambda: table.storage.settle_hand(
            table.table_id,
            table.hand_id,
            summary.final_stacks,
            phh=text,
            results=summary.results,
            counts=counts_by_seat(hand_stats(hand), list(table.order)),
            bounties=owed,
            key=key,
        ),
    )
    for seat_no, stack in settled.stacks.items():
        table.seats[seat_no].stack = stack
    table.finished_hand = finished(table, hand)
    return owed


def _current(table: HandLifecycle, hand_id: int) -> FinishedHand:
    done = table.finished_hand
    if done is None or done.hand_id != hand_id or table.hand is not None:
        raise StaleActionError(HAND_OVER)
    return done


async def rabbit_hunt(table: HandLifecycle, user_id: int, hand_id: int) -> None:
    """Deal the cards that would have come and post them (lock held)."""
    done = _current(table, hand_id)
    player = done.player_of(user_id)
    try:
        events = done.hand.act(player, RabbitHunt())
    except EngineError as error:
        raise InvalidActionError(_sentence(str(error))) from None
    boards = tuple(e.cards for e in events if isinstance(e, RabbitHunted))
    name = done.names[done.order.seat(player)]
    _log.info(
        "rabbit hunt",
        extra={"table_id": table.table_id, "hand_id": hand_id, "user_id": user_id},
    )
    await table.publish(RabbitHuntDealt(hand_id, name, boards))
    await table._publish_table()


async def reveal(table: HandLifecycle, user_id: int, hand_id: int, cards: tuple[int, ...]) -> None:
    """Show hole cards by choice (lock held); a 7-2 shown by a pot's winner collects the
    bounty from the seats still at the table."""
    done = _current(table, hand_id)
    player = done.player_of(user_id)
    try:
        events = done.hand.act(player, Reveal(cards))
    except EngineError as error:
        raise InvalidActionError(_sentence(str(error))) from None
    seat_no = done.order.seat(player)
    for event in events:
        if isinstance(event, HoleCardsRevealed):
            shown = CardsRevealed(hand_id, seat_no, done.names[seat_no], tuple(event.cards))
            await table.publish(shown)
    owed = bounties(events, done.order)
    if owed:
        key = f"holdem:{table.table_id}:hand:{hand_id}:bounty:{seat_no}"
        paid = await move_chips(
            "bounty", lambda: table.storage.pay_bounty(table.table_id, hand_id, owed, key=key)
        )
        for seat, stack in paid.stacks.items():
            if seat in table.seats:
                table.seats[seat].stack = stack
        moved = [b for b in owed if paid.deltas.get(b.payer, 0) < 0]
        if moved:
            by_payer = {b.payer: -paid.deltas[b.payer] for b in moved}
            actual = [Bounty(b.payer, b.winner, by_payer[b.payer]) for b in moved]
            await table.publish(bounty_event(hand_id, actual, done.names))
    await table._publish_table()


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
