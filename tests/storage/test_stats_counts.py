"""Statistics counters: added in the settling transaction, equal to a rebuild from the stored
hands and rounds, read per member, per guild and per day, and ranked by a ratio."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine.blackjack.stats import RoundCounts
from engine.bots.strategy import RandomStrategy
from engine.bots.view import SeatView
from engine.holdem import Hand, Stakes, phh
from engine.holdem.stats import MAXIMA, StyleCounts, counts_by_seat, hand_stats
from engine.holdem.stats import phh_counts_by_seat as count_phh
from storage import (
    BLACKJACK_COLUMNS,
    HOLDEM_COLUMNS,
    BetReason,
    Game,
    InvalidArgument,
    InvalidSettlement,
    Period,
    RatioQuery,
    RoundOutcome,
    StoredHand,
    UnknownSeason,
)
from storage import player_counts as counts_module
from storage.store import Storage
from tests.storage.support import FakeClock, Sql, State

GUILD = 222_222_222_222_222_222
CHANNEL = 888
MEMBERS = (2_001, 2_002, 2_003)
HISTORY = json.dumps({"dealer": ["Th", "7c"], "hands": {}})


def count_stored(hand: StoredHand) -> dict[int, dict[str, int]]:
    return count_phh(phh.loads(hand.phh))


def test_storage_columns_are_the_engine_counts_fields() -> None:
    assert tuple(f.name for f in dataclasses.fields(StyleCounts)) == HOLDEM_COLUMNS
    assert tuple(f.name for f in dataclasses.fields(RoundCounts)) == BLACKJACK_COLUMNS
    assert counts_module.MAXIMA == MAXIMA


class Casino:
    """A guild with one Hold'em table (three members and a bot) and Blackjack rounds."""

    def __init__(self, storage: Storage, clock: FakeClock, seed: int) -> None:
        self.storage = storage
        self.clock = clock
        self.rng = random.Random(seed)
        self.table = 0
        self.hand_id = 0
        self.keys = 0

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    async def open(self) -> None:
        for member in MEMBERS:
            await self.storage.admin_grant(GUILD, member, 100_000, actor_id=1, key=self.key())
        opened = await self.storage.open_table(GUILD, CHANNEL, settings={}, key=self.key())
        self.table = opened.table_id
        for seat_no, member in enumerate(MEMBERS):
            await self.storage.buy_in(self.table, seat_no, member, 400, key=self.key())
        await self.storage.seat_bot(self.table, 3, "Ada", 400, key=self.key())

    async def play_hand(self) -> None:
        info = await self.storage.get_table(self.table)
        assert info is not None
        for seat in info.seats:
            if seat.stack < 20:
                await self.storage.rebuy(self.table, seat.seat_no, 400, key=self.key())
        info = await self.storage.get_table(self.table)
        assert info is not None
        seats = [seat.seat_no for seat in info.seats]
        self.rng.shuffle(seats)
        stacks = {seat.seat_no: seat.stack for seat in info.seats}
        self.hand_id += 1
        await self.storage.start_hand(self.table, self.hand_id, stacks, key=self.key())
        blinds = self.rng.choice(((1, 2), (5, 10)))
        hand = Hand(
            Stakes.standard(len(seats), *blinds, self.rng.choice((0, 1))),
            [stacks[s] for s in seats],
            rng=self.rng,
        )
        while (turn := hand.turn) is not None:
            view = SeatView.from_hand(hand, turn.player)
            hand.act(turn.player, RandomStrategy().decide(view, self.rng))
        self.clock.advance(hours=self.rng.choice((0, 1, 9)))
        await self.storage.settle_hand(
            self.table,
            self.hand_id,
            {seat: hand.stacks[p] for p, seat in enumerate(seats)},
            phh=phh.dumps(phh.from_hand(hand, seats=seats)),
            counts=counts_by_seat(hand_stats(hand), seats),
            key=self.key(),
        )

    async def play_round(self) -> None:
        players = self.rng.sample(MEMBERS, self.rng.randint(1, 3))
        dealt = await self.storage.open_round(
            GUILD, CHANNEL, dict.fromkeys(players, 100), key=self.key()
        )
        staked = dict.fromkeys(players, 100)
        for member in players:
            for reason in (BetReason.DOUBLE, BetReason.SPLIT, BetReason.INSURANCE):
                if self.rng.random() < 0.3:
                    await self.storage.add_bet(
                        dealt.round_id, member, 50, reason=reason, key=self.key()
                    )
                    staked[member] += 50
        outcomes = {
            member: RoundOutcome(
                payout=self.rng.choice((0, staked[member], 2 * staked[member])), hands_played=1
            )
            for member in players
        }
        await self.storage.settle_round(dealt.round_id, outcomes, history=HISTORY, key=self.key())


async def rebuild_equals_incremental(
    storage: Storage, clock: FakeClock, sql: Sql, *, hands: int, seed: int
) -> None:
    casino = Casino(storage, clock, seed=seed)
    await casino.open()
    for number in range(hands):
        await casino.play_hand()
        if number % 4 == 0:
            await casino.play_round()
        if number == hands // 2:
            await storage.start_season(GUILD, name=None, key="season-2")
    stored = await storage.stored_stats()
    days = {key[4] for key in stored}
    seasons = {key[1] for key in stored}
    assert len(days) >= 3 and len(seasons) == 2  # the run spans days and seasons
    assert {key[0] for key in stored} == {Game.HOLDEM, Game.BLACKJACK}

    recount = await storage.recount_stats(count_stored)

    assert recount.hands == hands and recount.unreadable == ()
    assert recount.rows == stored

    sql("UPDATE holdem_counts SET vpip = vpip + 7, biggest_pot = 0")
    sql("DELETE FROM blackjack_counts")
    assert await storage.stored_stats() != stored
    rebuilt = await storage.rebuild_stats(count_stored)
    assert rebuilt.rows == stored
    assert await storage.stored_stats() == stored


async def test_a_rebuild_from_the_stored_hands_equals_the_counts_added_at_settlement(
    storage: Storage, clock: FakeClock, sql: Sql
) -> None:
    await rebuild_equals_incremental(storage, clock, sql, hands=60, seed=17)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_rebuild_equals_the_settlement_counts_over_many_random_hands(
    storage: Storage, clock: FakeClock, sql: Sql, seed: int
) -> None:
    await rebuild_equals_incremental(storage, clock, sql, hands=400, seed=seed)


async def test_the_counts_add_up_to_the_net_the_wallets_saw(
    storage: Storage, clock: FakeClock
) -> None:
    casino = Casino(storage, clock, seed=3)
    await casino.open()
    for _ in range(12):
        await casino.play_hand()
    for member in MEMBERS:
        counts = await storage.counts(GUILD, member, Game.HOLDEM)
        results = await storage.stats(GUILD, member, game=Game.HOLDEM)
        assert counts.values["hands"] == results.hands_played
        assert counts.values["net"] == results.net


async def test_a_hand_with_statistics_for_a_seat_not_dealt_in_changes_nothing(
    storage: Storage, clock: FakeClock, state: State
) -> None:
    casino = Casino(storage, clock, seed=5)
    await casino.open()
    await storage.start_hand(casino.table, 1, {0: 400, 1: 400}, key="start")
    before = state()
    bad_counts: list[dict[int, dict[str, object]]] = [
        {7: {"hands": 1}},
        {0: {"hands": 1, "bluffs": 2}},
        {0: {"hands": -1}},
        {0: {"vpip": True}},
    ]
    for number, counts in enumerate(bad_counts):
        with pytest.raises(InvalidSettlement):
            await storage.settle_hand(
                casino.table,
                1,
                {0: 410, 1: 390},
                phh="#",
                counts=counts,  # type: ignore[arg-type]
                key=f"bad-{number}",
            )
    assert state() == before


async def test_a_bots_seat_keeps_no_statistics(
    storage: Storage, clock: FakeClock, sql: Sql
) -> None:
    casino = Casino(storage, clock, seed=6)
    await casino.open()
    await storage.start_hand(casino.table, 1, {0: 400, 3: 400}, key="start")
    await storage.settle_hand(
        casino.table,
        1,
        {0: 410, 3: 390},
        phh="#",
        counts={0: {"hands": 1, "net": 10}, 3: {"hands": 1, "net": -10}},
        key="settle",
    )
    assert sql("SELECT user_id, hands, net FROM holdem_counts") == [(MEMBERS[0], 1, 10)]


async def test_blackjack_counts_count_doubles_splits_and_insurance(storage: Storage) -> None:
    alice = MEMBERS[0]
    await storage.admin_grant(GUILD, alice, 1_000, actor_id=1, key="grant")
    dealt = await storage.open_round(GUILD, CHANNEL, {alice: 100}, key="deal")
    await storage.add_bet(dealt.round_id, alice, 100, reason=BetReason.SPLIT, key="split")
    await storage.add_bet(dealt.round_id, alice, 100, reason=BetReason.DOUBLE, key="double")
    await storage.settle_round(
        dealt.round_id,
        {alice: RoundOutcome(payout=400, hands_played=2, hands_won=1)},
        history=HISTORY,
        key="settle",
    )
    counts = await storage.counts(GUILD, alice, Game.BLACKJACK)
    assert RoundCounts(**counts.values) == RoundCounts(
        rounds=1, hands=2, hands_won=1, staked=300, net=100, doubles=1, splits=1
    )


async def test_bankroll_days_and_the_guilds_pooled_counts(
    storage: Storage, clock: FakeClock
) -> None:
    casino = Casino(storage, clock, seed=8)
    await casino.open()
    for _ in range(3):
        await casino.play_hand()
        clock.advance(days=1)
    days = await storage.bankroll(GUILD, MEMBERS[0], Game.HOLDEM)
    assert [d.day for d in days] == sorted({d.day for d in days}) and len(days) == 3
    mine = await storage.counts(GUILD, MEMBERS[0], Game.HOLDEM)
    assert sum(d.net for d in days) == mine.values["net"]
    assert sum(d.hands for d in days) == mine.values["hands"] == 3
    everyone = await storage.counts(GUILD, None, Game.HOLDEM)
    assert everyone.values["hands"] == 9  # three members dealt in three hands (not the bot)


async def test_unknown_seasons_are_refused(storage: Storage) -> None:
    await storage.current_season(GUILD)
    with pytest.raises(UnknownSeason):
        await storage.counts(GUILD, MEMBERS[0], Game.HOLDEM, season=4)
    with pytest.raises(UnknownSeason):
        await storage.bankroll(GUILD, MEMBERS[0], Game.HOLDEM, season=4)


async def test_a_ratio_board_ranks_members_with_enough_hands(
    storage: Storage, clock: FakeClock
) -> None:
    casino = Casino(storage, clock, seed=9)
    await casino.open()
    for _ in range(10):
        await casino.play_hand()
    query = RatioQuery(Game.HOLDEM, ("vpip",), ("hands",), 100, minimum=5)
    board = await storage.ratio_leaderboard(GUILD, query, season=Period.ALL_TIME)
    assert board.total == 3
    for entry in board.entries:
        counts = await storage.counts(GUILD, entry.user_id, Game.HOLDEM)
        assert entry.value == 10_000 * counts.values["vpip"] // counts.values["hands"]
    assert [e.value for e in board.entries] == sorted(
        (e.value for e in board.entries), reverse=True
    )
    strict = RatioQuery(Game.HOLDEM, ("vpip",), ("hands",), 100, minimum=11)
    assert (await storage.ratio_leaderboard(GUILD, strict, season=Period.ALL_TIME)).total == 0
    mine = await storage.ratio_position(GUILD, MEMBERS[1], query, season=Period.ALL_TIME)
    assert mine is not None and mine.user_id == MEMBERS[1]


def test_a_ratio_of_unknown_columns_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        RatioQuery(Game.HOLDEM, ("doubles",), ("hands",), 100, minimum=0)
    with pytest.raises(InvalidArgument):
        RatioQuery(Game.BLACKJACK, ("net",), ("rounds",), 1, minimum=-1)


async def test_recent_results_are_a_members_last_nets_oldest_first(
    storage: Storage, clock: FakeClock, sql: Sql
) -> None:
    casino = Casino(storage, clock, seed=12)
    await casino.open()
    for _ in range(6):
        await casino.play_hand()
        clock.advance(minutes=1)
    await casino.play_round()
    alice = MEMBERS[0]
    expected = [
        int(net)
        for (net,) in sql(
            "SELECT hs.final_stack - hs.start_stack FROM hand_seats hs "
            "JOIN seats s ON s.seat_id = hs.seat_id WHERE s.user_id = ? ORDER BY hs.hand_id",
            alice,
        )
    ]

    results = await storage.recent_results(GUILD, alice, Game.HOLDEM)
    last_two = await storage.recent_results(GUILD, alice, Game.HOLDEM, limit=2)

    assert [r.net for r in results] == expected and len(expected) == 6
    assert [r.ended_at for r in results] == sorted(r.ended_at for r in results)
    assert last_two == results[-2:]
    counts = await storage.counts(GUILD, alice, Game.BLACKJACK)
    rounds = await storage.recent_results(GUILD, alice, Game.BLACKJACK)
    assert sum(r.net for r in rounds) == counts.values["net"]
    assert len(rounds) == counts.values["rounds"]
    with pytest.raises(InvalidArgument):
        await storage.recent_results(GUILD, alice, Game.HOLDEM, limit=0)
