"""A database of real settled (and voided) Hold'em hands, for export tests and the benchmark.

Hands are played by the engine with the simple bot strategies at one table, and each is started
and settled through ``Storage`` exactly as the table host does (``start_hand`` with the seats'
stacks, ``settle_hand`` with the PHH ``phh.from_hand`` writes): the stored rows are the ones a
live table leaves. A seat that goes broke is topped up between hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bots.registry import make_strategy
from engine.bots.simulate import play_hand
from engine.holdem import Hand, Stakes, phh
from storage.store import Storage

STACK = 200
STRATEGIES = ("random", "passive", "aggressive", "passive", "aggressive", "random")


@dataclass(frozen=True, slots=True)
class SeededTable:
    """What ``seed_hands`` made: the table, its settled hands and the voided ones."""

    table_id: int
    settled: tuple[int, ...]
    voided: tuple[int, ...]
    names: dict[int, str]
    """Each seat's name as the PHH lists it."""


async def seed_hands(
    storage: Storage,
    *,
    guild_id: int,
    channel_id: int,
    members: Sequence[int],
    hands: int,
    seed: int,
    seats: int = 6,
    ante: int = 0,
    name: str = "Main",
    void_every: int = 0,
    strategies: Sequence[str] = STRATEGIES,
) -> SeededTable:
    """Open a table with ``members`` in the first seats and bots in the rest, and play
    ``hands`` hands (every ``void_every``-th one is voided instead of settled)."""
    key = f"seed:{guild_id}:{channel_id}:{seed}"
    table = (
        await storage.open_table(
            guild_id, channel_id, settings={"seats": seats}, name=name, key=f"{key}:open"
        )
    ).table_id
    names: dict[int, str] = {}
    chairs = range(1, seats + 1)  # the host numbers seats from 1
    for seat in chairs:
        if seat <= len(members):
            user = members[seat - 1]
            await storage.admin_grant(guild_id, user, 10**7, actor_id=0, key=f"{key}:grant:{user}")
            names[seat] = f"member{user}"
            await storage.buy_in(
                table, seat, user, STACK, key=f"{key}:in:{seat}", display_name=names[seat]
            )
        else:
            names[seat] = f"Bot{seat}"
            await storage.seat_bot(table, seat, names[seat], STACK, key=f"{key}:bot:{seat}")
    rng = random.Random(seed)
    players = {seat: make_strategy(strategies[seat % len(strategies)]) for seat in chairs}
    stacks = dict.fromkeys(chairs, STACK)
    settled, voided = [], []
    for number in range(1, hands + 1):
        for seat, stack in stacks.items():
            if stack < 2 * (ante + 2):
                rebuy = f"{key}:rebuy:{number}:{seat}"
                stacks[seat] = (await storage.rebuy(table, seat, STACK - stack, key=rebuy)).stack
        button = number % seats
        order = [(button + 1 + i) % seats + 1 for i in range(seats)]
        await storage.start_hand(
            table, number, {s: stacks[s] for s in order}, key=f"{key}:start:{number}"
        )
        if void_every and number % void_every == 0:
            await storage.void_hand(table, number, reason="seeded void", key=f"{key}:void:{number}")
            voided.append(number)
            continue
        hand = Hand(Stakes.standard(seats, 1, 2, ante), [stacks[s] for s in order], rng=rng)
        play_hand(hand, [players[s] for s in order], [rng] * seats)
        text = phh.dumps(
            phh.from_hand(
                hand,
                hand=number,
                table=name,
                players=[names[s] for s in order],
                seats=order,
                seat_count=seats,
            )
        )
        final = {seat: hand.stacks[i] for i, seat in enumerate(order)}
        await storage.settle_hand(table, number, final, phh=text, key=f"{key}:settle:{number}")
        stacks = final
        settled.append(number)
    return SeededTable(table, tuple(settled), tuple(voided), names)
