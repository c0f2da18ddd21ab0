"""Shared helpers for the Blackjack tests: stacked deals and state snapshots."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.blackjack import CASINO, Event, Round, Rules, StackedShoe


def dealt(
    cards: str, rules: Rules = CASINO, bets: dict[int, int] | None = None
) -> tuple[Round, list[Event], StackedShoe]:
    """A round dealt from a stacked shoe (order: first cards by seat, up card, second cards by
    seat, hole card, then draws)."""
    shoe = StackedShoe.of(cards)
    game = Round(rules, shoe, bets if bets is not None else {0: 10})
    events = list(game.events)
    return game, events, shoe


def snapshot(game: Round, shoe: StackedShoe) -> tuple[Any, ...]:
    """Everything observable about a round and its shoe, for before/after comparisons."""
    return (
        game.view(),
        game.phase,
        game.to_act,
        game.pending_insurance,
        tuple(game.legal_actions(seat) for seat in range(7)),
        game.results,
        game.insurance_results,
        tuple(game.seat_net(seat) for seat in game.seats),
        shoe.cards_dealt,
        tuple(shoe.remaining),
    )


E = TypeVar("E", bound=Event)


def of_type(events: list[Event], kind: type[E]) -> list[E]:
    """The events of one kind, in order."""
    return [event for event in events if isinstance(event, kind)]
