"""Stats per member/game/season, leaderboards with shared ranks, seasons with archived
standings and optional balance resets."""

from __future__ import annotations

from typing import Any

import pytest

from storage.errors import InvalidAmount, InvalidArgument, SeasonResetBlocked, UnknownSeason
from storage.models import Game, LeaderboardEntry, Metric, Period, RoundOutcome, SeatResult
from storage.store import Storage
from tests.storage.support import Sql, State

GUILD = 10
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
ADMIN = 99


async def play_hand(
    storage: Storage,
    table: int,
    hand: int,
    start: dict[int, int],
    final: dict[int, int],
    *,
    pot: int,
) -> None:
    await storage.start_hand(table, hand, start, key=f"start-{table}-{hand}")
    winners = {
        seat: SeatResult(won=True, pot_won=pot) for seat in final if final[seat] > start[seat]
    }
    await storage.settle_hand(table, hand, final, phh="#", results=winners, key=f"s-{table}-{hand}")


async def scenario(storage: Storage) -> int:
    """Alice wins a 600 pot from Bob; Carol wins 150 at blackjack; Dave loses 100 there."""
    table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key="a")
    await storage.buy_in(table, 1, BOB, 300, key="b")
    await play_hand(storage, table, 1, {0: 300, 1: 300}, {0: 600, 1: 0}, pot=600)
    dealt = await storage.open_round(GUILD, 2, {CAROL: 100, DAVE: 100}, key="r")
    await storage.settle_round(
        dealt.round_id,
        {CAROL: RoundOutcome(250, hands_won=1, blackjacks=1), DAVE: RoundOutcome(0)},
        history="{}",
        key="rs",
    )
    return table


async def test_stats_per_game_and_all_games(storage: Storage) -> None:
    await scenario(storage)

    alice = await storage.stats(GUILD, ALICE, game=Game.HOLDEM)
    carol = await storage.stats(GUILD, CAROL)
    nobody = await storage.stats(GUILD, 12345)

    assert (alice.hands_played, alice.hands_won, alice.net, alice.biggest_pot) == (1, 1, 300, 600)
    assert (carol.rounds_played, carol.blackjacks, carol.net, carol.game) == (1, 1, 150, None)
    assert (nobody.hands_played, nobody.net) == (0, 0)
    assert (await storage.stats(GUILD, ALICE, game=Game.BLACKJACK)).hands_played == 0


async def test_leaderboards_by_balance_net_and_biggest_pot(storage: Storage) -> None:
    await scenario(storage)

    balance = await storage.leaderboard(GUILD, Metric.BALANCE)
    net = await storage.leaderboard(GUILD, Metric.NET)
    holdem_net = await storage.leaderboard(GUILD, Metric.NET, game=Game.HOLDEM)
    pots = await storage.leaderboard(GUILD, Metric.BIGGEST_POT, season=Period.ALL_TIME)

    # Alice's 600 is at the table: the balance board counts it.
    assert [(e.user_id, e.value) for e in balance.entries] == [
        (ALICE, 1_300),
        (CAROL, 1_150),
        (DAVE, 900),
        (BOB, 700),
    ]
    assert [(e.rank, e.user_id, e.value) for e in net.entries] == [
        (1, ALICE, 300),
        (2, CAROL, 150),
        (3, DAVE, -100),
        (4, BOB, -300),
    ]
    assert [e.user_id for e in holdem_net.entries] == [ALICE, BOB]
    assert [(e.user_id, e.value) for e in pots.entries] == [(ALICE, 600), (CAROL, 150)]
    assert (pots.season, net.season) == (None, 1)


async def test_equal_values_share_a_rank_and_pages_keep_ranks(storage: Storage) -> None:
    for user, amount in ((ALICE, 500), (BOB, 500), (CAROL, 200), (DAVE, 100)):
        await storage.admin_set(GUILD, user, amount, actor_id=ADMIN, key=f"set-{user}")

    first = await storage.leaderboard(GUILD, Metric.BALANCE, limit=2)
    second = await storage.leaderboard(GUILD, Metric.BALANCE, limit=2, offset=2)
    where = await storage.leaderboard_position(GUILD, CAROL, Metric.BALANCE)

    assert [(e.rank, e.user_id) for e in first.entries] == [(1, ALICE), (1, BOB)]
    assert [(e.rank, e.user_id) for e in second.entries] == [(3, CAROL), (4, DAVE)]
    assert first.total == second.total == 4
    assert where == LeaderboardEntry(3, CAROL, 200)
    assert await storage.leaderboard_position(GUILD, 777, Metric.BALANCE) is None
    with pytest.raises(InvalidArgument):
        await storage.leaderboard(GUILD, Metric.BALANCE, limit=101)


async def test_a_new_season_archives_balances_and_restarts_stats(storage: Storage) -> None:
    table = await scenario(storage)
    await storage.close_table(table, key="close")

    started = await storage.start_season(GUILD, name="Spring", actor_id=ADMIN, key="season-2")
    await storage.admin_grant(GUILD, BOB, 1_000, actor_id=ADMIN, key="g")

    assert (started.previous.number, started.current.number, started.current.name) == (
        1,
        2,
        "Spring",
    )
    assert started.previous.ended_at is not None
    assert started.balances_reset == 0
    past = await storage.leaderboard(GUILD, Metric.BALANCE, season=1)
    now = await storage.leaderboard(GUILD, Metric.BALANCE)
    assert next((e.user_id, e.value) for e in past.entries) == (ALICE, 1_300)
    assert next((e.user_id, e.value) for e in now.entries) == (BOB, 1_700)
    assert (await storage.leaderboard(GUILD, Metric.NET)).entries == ()
    assert (await storage.leaderboard(GUILD, Metric.NET, season=1)).total == 4
    assert (await storage.stats(GUILD, ALICE, season=1)).net == 300
    assert (await storage.stats(GUILD, ALICE, season=Period.CURRENT_SEASON)).net == 0
    assert (await storage.stats(GUILD, ALICE)).net == 300
    assert [s.number for s in await storage.list_seasons(GUILD)] == [1, 2]
    assert (await storage.current_season(GUILD)).name == "Spring"
    with pytest.raises(UnknownSeason):
        await storage.leaderboard(GUILD, Metric.NET, season=9)


async def test_a_season_reset_sets_every_wallet_in_the_ledger(storage: Storage, sql: Sql) -> None:
    for user, amount in ((ALICE, 5_000), (BOB, 10), (CAROL, 1_000)):
        await storage.admin_set(GUILD, user, amount, actor_id=ADMIN, key=f"set-{user}")

    started = await storage.start_season(GUILD, reset_to=1_000, actor_id=ADMIN, key="s2")

    assert started.balances_reset == 2
    assert [await storage.balance(GUILD, u) for u in (ALICE, BOB, CAROL)] == [1_000] * 3
    assert sql("SELECT delta FROM ledger WHERE kind = 'season_reset' ORDER BY entry_id") == [
        (-4_000,),
        (990,),
    ]
    report = await storage.check()
    assert report.ok
    # Burned: Bob's set from 1,000 to 10 and Alice's reset.
    # Minted: the grants, Alice's set and Bob's reset.
    assert report.guilds[0].burned == 990 + 4_000
    assert report.guilds[0].minted == 3 * 1_000 + 4_000 + 990


async def test_a_season_reset_is_refused_while_chips_are_in_play(
    storage: Storage, state: State
) -> None:
    table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key="a")
    await storage.open_round(GUILD, 2, {BOB: 10}, key="r")
    before = state()

    with pytest.raises(SeasonResetBlocked) as blocked:
        await storage.start_season(GUILD, reset_to=1_000, key="s2")

    assert (blocked.value.seats, blocked.value.rounds) == (1, 1)
    assert state() == before
    # Without a reset a new season may start any time.
    assert (await storage.start_season(GUILD, key="s2-no-reset")).current.number == 2


async def test_balance_board_is_not_per_game(storage: Storage) -> None:
    with pytest.raises(ValueError, match="not per game"):
        await storage.leaderboard(GUILD, Metric.BALANCE, game=Game.HOLDEM)


@pytest.mark.parametrize("reset_to", [-1, 2**53, 1.5, "0"])
async def test_a_season_with_a_bad_reset_amount_is_refused(
    storage: Storage, state: State, reset_to: Any
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()
    with pytest.raises(InvalidAmount):
        await storage.start_season(GUILD, reset_to=reset_to, key="s")
    with pytest.raises(InvalidArgument):
        await storage.start_season(GUILD, name="x" * 101, key="s")
    assert state() == before
