"""A tie at the finish (players busted in the same hand with equal stacks share a place and
split its prizes) is stored and paid as the engine ranks it (on SQLite and PostgreSQL)."""

from __future__ import annotations

from storage.store import Storage
from tests.storage.test_tournaments import ALICE, BOB, CAROL, GUILD, START, sit_and_go


async def test_tied_players_share_a_place_and_are_paid_their_split(storage: Storage) -> None:
    tid = await sit_and_go(storage, fee=0)
    for member in (ALICE, BOB, CAROL):
        await storage.register_tournament(tid, member, key=f"reg-{member}")
    await storage.start_tournament(tid)
    # 3 entries pay 65/35 of 300: 195 to 1st; Bob and Carol tie for 2nd and split 105 + 0.
    finished = await storage.finish_tournament(
        tid, {ALICE: 1, BOB: 2, CAROL: 2}, {ALICE: 195, BOB: 53, CAROL: 52}, key="fin"
    )
    assert {e.user_id: (e.place, e.prize) for e in finished.entries} == {
        ALICE: (1, 195),
        BOB: (2, 53),
        CAROL: (2, 52),
    }
    assert [await storage.balance(GUILD, m) for m in (ALICE, BOB, CAROL)] == [
        START - 100 + 195,
        START - 100 + 53,
        START - 100 + 52,
    ]
    results = await storage.tournament_results(GUILD, CAROL)
    assert (results.played, results.in_the_money, results.net) == (1, 1, -48)
    assert (await storage.check()).ok
