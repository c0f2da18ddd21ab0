"""A scripted Felt session that runs until it is killed: the subject of the crash test.

    python tests/storage/crash_session.py DB JOURNAL --seed S --run R [--ops N]

It opens (and migrates) the database, runs recovery as the bot does at startup, then plays forever
(or ``--ops`` operations): buy-ins, rebuys, cash-outs, bot seats, Hold'em hands started and settled
with random results, blackjack rounds with doubles, settled or refunded, transfers and grants,
tables closed and reopened. Before each operation it appends to JOURNAL the operation's key and
the change it makes to each member's holdings (wallet + seats + bets), and after it the outcome, so
the test can tell exactly what every member must hold whatever moment the kill landed on. Each
finished step prints one line on stdout; the test counts lines to choose when to kill.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from storage.errors import StorageError
from storage.models import BetReason, RoundOutcome, SeatResult, TableInfo, TableOpened
from storage.settings import EconomySettings
from storage.store import Storage

GUILD = 1
MEMBERS = (101, 102, 103, 104, 105, 106)
CHANNELS = (11, 12)
STARTING_CHIPS = 1_000
ECONOMY = EconomySettings(starting_chips=STARTING_CHIPS)


class Session:
    def __init__(self, storage: Storage, journal: int, rng: random.Random, run: int) -> None:
        self.storage = storage
        self.journal = journal
        self.rng = rng
        self.run = run
        self.count = 0

    def _log(self, entry: dict[str, Any]) -> None:
        # One write() per line on an O_APPEND descriptor: a kill cannot leave half a line that
        # the test would misread (it ignores an unterminated last line anyway).
        os.write(self.journal, (json.dumps(entry) + "\n").encode())

    async def step(
        self, effects: dict[int, int], operation: Callable[[str], Awaitable[object]]
    ) -> bool:
        """Journal the intent, run the operation under a fresh key, journal the outcome."""
        self.count += 1
        key = f"r{self.run}-{self.count}"
        self._log({"key": key, "effects": {str(k): v for k, v in effects.items() if v}})
        try:
            await operation(key)
        except StorageError as refusal:
            self._log({"refused": key, "why": type(refusal).__name__})
            ok = False
        else:
            self._log({"done": key})
            ok = True
        print(f"op {self.count}", flush=True)
        return ok

    async def wallet(self, user: int) -> int:
        account = await self.storage.get_account(GUILD, user)
        return STARTING_CHIPS if account is None else account.balance

    async def fund(self, user: int, amount: int) -> None:
        if await self.wallet(user) < amount:
            await self.step(
                {user: 2_000},
                lambda key: self.storage.admin_grant(GUILD, user, 2_000, actor_id=1, key=key),
            )

    async def tables(self) -> list[TableInfo]:
        return await self.storage.list_tables(GUILD)

    async def open_table(self, channel: int, key: str) -> TableOpened:
        return await self.storage.open_table(GUILD, channel, settings={"big_blind": 10}, key=key)

    async def open_tables(self) -> None:
        tables = await self.tables()
        used = {table.channel_id for table in tables}
        for channel in CHANNELS:
            if channel not in used:
                await self.step({}, functools.partial(self.open_table, channel))

    async def seat_players(self, table: TableInfo) -> None:
        free = [n for n in range(6) if table.seat(n) is None]
        seated = {seat.user_id for seat in table.seats}
        if not free:
            return
        seat_no = self.rng.choice(free)
        if self.rng.random() < 0.2 and not any(s.is_bot for s in table.seats):
            await self.step(
                {},
                lambda key: self.storage.seat_bot(table.table_id, seat_no, "Ada", 300, key=key),
            )
            return
        candidates = [m for m in MEMBERS if m not in seated]
        if not candidates:
            return
        user = self.rng.choice(candidates)
        amount = self.rng.randrange(50, 400)
        await self.fund(user, amount)
        await self.step(
            {},
            lambda key: self.storage.buy_in(table.table_id, seat_no, user, amount, key=key),
        )

    async def play_hand(self, table: TableInfo) -> None:
        players = [seat for seat in table.seats if seat.stack > 0]
        if len(players) < 2 or table.hand_in_progress is not None:
            return
        hand_id = (table.last_hand_id or 0) + 1
        start = {seat.seat_no: seat.stack for seat in players}
        started = await self.step(
            {}, lambda key: self.storage.start_hand(table.table_id, hand_id, start, key=key)
        )
        if not started:
            return
        final = dict(start)
        winner = self.rng.choice(players).seat_no
        pot = 0
        for seat in players:
            if seat.seat_no != winner:
                lost = self.rng.randrange(0, seat.stack + 1)
                final[seat.seat_no] -= lost
                final[winner] += lost
                pot += lost
        effects = {
            seat.user_id: final[seat.seat_no] - start[seat.seat_no]
            for seat in players
            if seat.user_id is not None
        }
        results = {winner: SeatResult(won=True, pot_won=pot)}
        if self.rng.random() < 0.1:
            await self.step(
                {},
                lambda key: self.storage.void_hand(
                    table.table_id, hand_id, reason="misdeal", key=key
                ),
            )
            return
        await self.step(
            effects,
            lambda key: self.storage.settle_hand(
                table.table_id, hand_id, final, phh=f"# hand {hand_id}", results=results, key=key
            ),
        )

    async def leave_or_rebuy(self, table: TableInfo) -> None:
        if not table.seats:
            return
        seat = self.rng.choice(table.seats)
        if self.rng.random() < 0.5:
            await self.step(
                {}, lambda key: self.storage.cash_out(table.table_id, seat.seat_no, key=key)
            )
            return
        amount = self.rng.randrange(10, 200)
        if seat.user_id is not None:
            await self.fund(seat.user_id, amount)
        await self.step(
            {}, lambda key: self.storage.rebuy(table.table_id, seat.seat_no, amount, key=key)
        )

    async def blackjack(self) -> None:
        players = self.rng.sample(MEMBERS, self.rng.randrange(1, 4))
        bets = {user: self.rng.randrange(10, 200) for user in players}
        for user, bet in bets.items():
            await self.fund(user, bet * 2)
        state: dict[str, Any] = {}

        async def deal(key: str) -> None:
            state["round"] = await self.storage.open_round(GUILD, 99, bets, key=key)

        if not await self.step({}, deal):
            return
        round_id = state["round"].round_id
        staked = dict(bets)
        doubler = self.rng.choice(players)
        if self.rng.random() < 0.4:
            extra = bets[doubler]
            doubled = await self.step(
                {},
                lambda key: self.storage.add_bet(
                    round_id, doubler, extra, reason=BetReason.DOUBLE, key=key
                ),
            )
            if doubled:
                staked[doubler] += extra
        if self.rng.random() < 0.1:
            await self.step(
                {}, lambda key: self.storage.refund_round(round_id, reason="test", key=key)
            )
            return
        payouts = {
            user: self.rng.choice((0, staked[user], 2 * staked[user], staked[user] * 5 // 2))
            for user in players
        }
        outcomes = {user: RoundOutcome(payout) for user, payout in payouts.items()}
        effects = {user: payouts[user] - staked[user] for user in players}
        await self.step(
            effects,
            lambda key: self.storage.settle_round(
                round_id, outcomes, history=json.dumps(payouts), key=key
            ),
        )

    async def transfer(self) -> None:
        sender, recipient = self.rng.sample(MEMBERS, 2)
        amount = self.rng.randrange(1, 300)
        if await self.storage.get_account(GUILD, recipient) is None:
            return
        await self.step(
            {sender: -amount, recipient: amount},
            lambda key: self.storage.transfer(GUILD, sender, recipient, amount, key=key),
        )

    async def close_one(self) -> None:
        tables = await self.tables()
        if tables:
            table = self.rng.choice(tables)
            await self.step(
                {}, lambda key: self.storage.close_table(table.table_id, key=key, actor_id=1)
            )

    async def once(self) -> None:
        await self.open_tables()
        roll = self.rng.random()
        tables = await self.tables()
        table = self.rng.choice(tables) if tables else None
        if table is None:
            return
        if roll < 0.30:
            await self.seat_players(table)
        elif roll < 0.60:
            await self.play_hand(table)
        elif roll < 0.70:
            await self.leave_or_rebuy(table)
        elif roll < 0.88:
            await self.blackjack()
        elif roll < 0.97:
            await self.transfer()
        else:
            await self.close_one()


async def main(arguments: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("journal")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--run", type=int, default=0)
    parser.add_argument("--ops", type=int, default=0, help="stop after this many (0: never)")
    args = parser.parse_args(arguments)
    journal = os.open(args.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    storage = await Storage.open(args.db, economy=ECONOMY)
    print("opened", flush=True)
    await storage.recover()
    print("ready", flush=True)
    session = Session(storage, journal, random.Random(f"{args.seed}:{args.run}"), args.run)
    while not args.ops or session.count < args.ops:
        await session.once()
    await storage.close()
    os.close(journal)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
