"""One of several processes hammering the same accounts at once: the subject of the multi-process
test (test_processes.py).

    python tests/storage/hammer_session.py DATABASE --worker W --seed S --ops N

It runs N random operations on the guilds the test prepared: transfers between members, buy-ins
and cash-outs, Hold'em hands started and settled with random results, blackjack rounds dealt and
settled. Refusals (not enough chips, a seat taken, a hand another process started first) are
expected and counted. At the end it prints one JSON line: how each operation it saw succeed
changed each member's holdings (wallet + seats + bets), the keys it saw succeed and be refused,
and any unexpected error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from storage.errors import StorageError
from storage.models import RoundOutcome, SeatResult
from storage.store import Storage

GUILDS = {
    1: (101, 102, 103, 104, 105, 106),
    2: (201, 202, 203),
}
"""Members of each guild (the test opens their accounts and the tables)."""


class Hammer:
    def __init__(self, storage: Storage, worker: int, rng: random.Random) -> None:
        self.storage = storage
        self.worker = worker
        self.rng = rng
        self.count = 0
        self.effects: Counter[int] = Counter()
        self.done: list[str] = []
        self.refused: list[str] = []
        self.refusals: Counter[str] = Counter()
        self.unexpected: list[str] = []

    async def step(
        self,
        operation: Callable[[str], Awaitable[Any]],
        effects: Callable[[Any], dict[int, int]] | None = None,
        *,
        must_succeed: bool = False,
    ) -> Any:
        """Run one operation under a fresh key; on success add its effects."""
        self.count += 1
        key = f"w{self.worker}-{self.count}"
        try:
            result = await operation(key)
        except StorageError as refusal:
            self.refused.append(key)
            self.refusals[type(refusal).__name__] += 1
            if must_succeed:
                self.unexpected.append(f"{key}: {type(refusal).__name__}: {refusal}")
            return None
        self.done.append(key)
        if effects is not None:
            self.effects.update(effects(result))
        return result

    async def transfer(self, guild: int) -> None:
        sender, recipient = self.rng.sample(GUILDS[guild], 2)
        amount = self.rng.randrange(1, 600)
        await self.step(
            lambda key: self.storage.transfer(guild, sender, recipient, amount, key=key),
            lambda _result: {sender: -amount, recipient: amount},
        )

    async def buy_in(self, guild: int) -> None:
        tables = await self.storage.list_tables(guild)
        table = self.rng.choice(tables)
        user = self.rng.choice(GUILDS[guild])
        seat = self.rng.randrange(6)
        amount = self.rng.randrange(50, 400)
        await self.step(
            lambda key: self.storage.buy_in(table.table_id, seat, user, amount, key=key)
        )

    async def cash_out(self, guild: int) -> None:
        tables = [t for t in await self.storage.list_tables(guild) if t.seats]
        if not tables:
            return
        table = self.rng.choice(tables)
        seat = self.rng.choice(table.seats)
        await self.step(lambda key: self.storage.cash_out(table.table_id, seat.seat_no, key=key))

    async def hand(self, guild: int) -> None:
        table = self.rng.choice(await self.storage.list_tables(guild))
        players = [seat for seat in table.seats if seat.stack > 0]
        if len(players) < 2 or table.hand_in_progress is not None:
            return
        hand_id = (table.last_hand_id or 0) + 1
        start = {seat.seat_no: seat.stack for seat in players}
        started = await self.step(
            lambda key: self.storage.start_hand(table.table_id, hand_id, start, key=key)
        )
        if started is None:
            return  # another process changed the table first
        final = dict(start)
        winner = self.rng.choice(players).seat_no
        pot = 0
        for seat in players:
            if seat.seat_no != winner:
                lost = self.rng.randrange(0, seat.stack + 1)
                final[seat.seat_no] -= lost
                final[winner] += lost
                pot += lost
        owners = {seat.seat_no: seat.user_id for seat in players}
        await self.step(
            lambda key: self.storage.settle_hand(
                table.table_id,
                hand_id,
                final,
                phh=f"# hand {hand_id}",
                results={winner: SeatResult(won=True, pot_won=pot)},
                key=key,
            ),
            lambda _result: {
                owner: final[n] - start[n] for n in start if (owner := owners[n]) is not None
            },
            must_succeed=True,
        )

    async def blackjack(self, guild: int) -> None:
        players = self.rng.sample(GUILDS[guild], self.rng.randrange(1, 3))
        bets = {user: self.rng.randrange(10, 200) for user in players}
        dealt = await self.step(
            lambda key: self.storage.open_round(guild, self.rng.randrange(1, 4), bets, key=key)
        )
        if dealt is None:
            return
        payouts = {user: self.rng.choice((0, bets[user], 2 * bets[user])) for user in players}
        await self.step(
            lambda key: self.storage.settle_round(
                dealt.round_id,
                {user: RoundOutcome(payout) for user, payout in payouts.items()},
                history=json.dumps(payouts),
                key=key,
            ),
            lambda _result: {user: payouts[user] - bets[user] for user in players},
            must_succeed=True,
        )

    async def once(self) -> None:
        guild = self.rng.choice((1, 1, 1, 2))
        roll = self.rng.random()
        if roll < 0.25:
            await self.transfer(guild)
        elif roll < 0.45:
            await self.buy_in(guild)
        elif roll < 0.55:
            await self.cash_out(guild)
        elif roll < 0.85:
            await self.hand(guild)
        else:
            await self.blackjack(guild)


async def main(arguments: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database")
    parser.add_argument("--worker", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ops", type=int, default=50)
    args = parser.parse_args(arguments)
    async with await Storage.open(args.database, migrate=False, pool_size=2) as storage:
        hammer = Hammer(storage, args.worker, random.Random(f"{args.seed}:{args.worker}"))
        while hammer.count < args.ops:
            await hammer.once()
    print(
        json.dumps(
            {
                "effects": {str(user): delta for user, delta in hammer.effects.items()},
                "done": hammer.done,
                "refused": hammer.refused,
                "refusals": hammer.refusals,
                "unexpected": hammer.unexpected,
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
