"""Shared helpers: random tables and spots for bot tests, and a stacked hand builder."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from engine.bots.stats import PlayerStats, TableStats
from engine.bots.strategy import RandomStrategy, Strategy
from engine.bots.view import SeatView
from engine.cards import parse_cards
from engine.holdem import Action, Hand, Stakes, stacked_deck


def random_table(rng: random.Random) -> tuple[Stakes, list[int]]:
    """Stakes and stacks for 2 to 10 players: blinds 1/2 to 5/10, sometimes antes, stacks from
    a few blinds (all-ins and incomplete raises) to deep."""
    players = rng.randint(2, 10)
    small = rng.choice((1, 2, 5))
    big = 2 * small
    ante = rng.choice((0, 0, 0, 1))
    stacks = [
        rng.choice((rng.randint(1, 10 * big), rng.randint(20 * big, 300 * big)))
        for _ in range(players)
    ]
    return Stakes.standard(players, small, big, ante), stacks


def spots(
    count: int,
    seed: int,
    *,
    chooser: Callable[[SeatView, random.Random], Action] | None = None,
    stats: bool = True,
) -> Iterator[tuple[Hand, SeatView]]:
    """``count`` decisions from random hands: the hand (before the action) and the view of the
    player to act. The hands are played on with ``chooser`` (default: random legal play)."""
    rng = random.Random(seed)
    book = TableStats()
    play = chooser or RandomStrategy().decide
    seen = 0
    while seen < count:
        stakes, stacks = random_table(rng)
        keys = list(range(len(stacks)))
        rng.shuffle(keys)
        hand = Hand(stakes, stacks, rng=rng)
        snapshot = book.snapshot(keys) if stats else None
        while not hand.is_complete and seen < count:
            legal = hand.turn
            assert legal is not None
            view = SeatView.from_hand(hand, legal.player, stats=snapshot)
            yield hand, view
            seen += 1
            hand.act(legal.player, play(view, rng))
        if hand.is_complete:
            book.record(hand.events, keys)


def stacked(
    holes: Sequence[str],
    board: str = "",
    *,
    stacks: Sequence[int] | None = None,
    blinds: tuple[int, int] = (1, 2),
) -> Hand:
    """A hand dealt from a stacked deck."""
    players = len(holes)
    deck = stacked_deck([parse_cards(h) for h in holes], parse_cards(board))
    return Hand(
        Stakes.standard(players, *blinds),
        list(stacks) if stacks is not None else [200] * players,
        deck=deck,
    )


def act_all(hand: Hand, *actions: Action) -> None:
    """Apply actions in turn, each by the player to act."""
    for action in actions:
        turn = hand.turn
        assert turn is not None
        player = turn.player
        hand.act(player, action)


def decide(
    strategy: Strategy, hand: Hand, seed: int = 1, stats: Sequence[PlayerStats] | None = None
) -> Action:
    """The strategy's action for the player to act."""
    turn = hand.turn
    assert turn is not None
    player = turn.player
    return strategy.decide(SeatView.from_hand(hand, player, stats=stats), random.Random(seed))
