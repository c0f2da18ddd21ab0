"""Tournament results by season: a tournament counts in the season it finished in, so `/stats`
and `/leaderboard board:tournaments` of one season leave out the others, and all time adds
them up (on SQLite and PostgreSQL)."""

from __future__ import annotations

from storage.models import Leaderboard, Period
from storage.store import Storage
from tests.storage.test_tournaments import ALICE, BOB, GUILD, sit_and_go


async def _play(storage: Storage, winner: int, loser: int, key: str) -> None:
    tid = await sit_and_go(storage, fee=0, key=f"create-{key}")
    for member in (winner, loser):
        await storage.register_tournament(tid, member, key=f"reg-{key}-{member}")
    await storage.start_tournament(tid)
    await storage.finish_tournament(tid, {winner: 1, loser: 2}, {winner: 200}, key=f"fin-{key}")


async def test_a_tournament_counts_in_the_season_it_finished_in(storage: Storage) -> None:
    await _play(storage, ALICE, BOB, "first")
    first = (await storage.current_season(GUILD)).number
    await storage.start_season(GUILD, key="season-2")
    await _play(storage, BOB, ALICE, "second")
    await _play(storage, BOB, ALICE, "third")

    def board(page: Leaderboard) -> list[tuple[int, int]]:
        return [(entry.user_id, entry.value) for entry in page.entries]

    assert board(await storage.tournament_board(GUILD)) == [(BOB, 200), (ALICE, -200)]
    assert board(await storage.tournament_board(GUILD, season=first)) == [(ALICE, 100), (BOB, -100)]
    everything = await storage.tournament_board(GUILD, season=Period.ALL_TIME)
    assert board(everything) == [(BOB, 100), (ALICE, -100)]
    now = await storage.tournament_results(GUILD, ALICE, season=Period.CURRENT_SEASON)
    assert (now.played, now.wins, now.net) == (2, 0, -200)
    then = await storage.tournament_results(GUILD, ALICE, season=first)
    assert (then.played, then.wins, then.net) == (1, 1, 100)
    spot = await storage.tournament_position(GUILD, ALICE, season=first)
    assert spot is not None and (spot.rank, spot.value) == (1, 100)
