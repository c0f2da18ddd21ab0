"""A table session's ledger from the escrow records (``storage/sessions.py``), on SQLite and
PostgreSQL: buy-ins apart from rebuys, a player's seatings added up, the session's open and close
times, and nets that always sum to zero whatever the hands (7-2 bounties included) did; and the
home-game state beside it (``storage/home_flow.py``): time banks and rail consent."""

from __future__ import annotations

import random

import pytest

from engine.settle import settle
from storage.errors import InvalidArgument, UnknownTable
from storage.store import Storage
from tests.storage.support import FakeClock

GUILD = 111_111_111_111_111_111
CHANNEL = 555_555
ALICE, BOB, CAROL = 1_001, 1_002, 1_003
PHH = 'variant = "NT"\n'


async def open_table(storage: Storage, key: str = "open") -> int:
    opened = await storage.open_table(GUILD, CHANNEL, settings={}, name="Friday", key=key)
    return opened.table_id


async def test_a_session_adds_up_each_players_seatings_and_keeps_rebuys_apart(
    storage: Storage, clock: FakeClock
) -> None:
    table = await open_table(storage)
    await storage.buy_in(table, 0, ALICE, 300, key="a1", display_name="alice")
    await storage.buy_in(table, 1, BOB, 200, key="b1", display_name="bob")
    await storage.rebuy(table, 1, 100, key="b-rebuy")
    await storage.start_hand(table, 1, {0: 300, 1: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 450, 1: 150}, phh=PHH, key="s1")
    await storage.cash_out(table, 0, key="a-out")
    await storage.buy_in(table, 2, ALICE, 100, key="a2", display_name="alice")

    session = await storage.table_session(table)

    assert (session.name, session.guild_id, session.closed_at) == ("Friday", GUILD, None)
    assert [
        (p.player_id, p.buy_in, p.rebuys, p.cash_out, p.stack, p.net) for p in session.players()
    ] == [
        (str(ALICE), 400, 0, 450, 100, 150),
        (str(BOB), 200, 100, 0, 150, -150),
    ]
    assert len(session.lines) == 3


async def test_a_closed_session_has_its_closing_time_and_nothing_left_at_the_table(
    storage: Storage,
) -> None:
    table = await open_table(storage)
    await storage.buy_in(table, 0, ALICE, 300, key="a1")
    await storage.buy_in(table, 1, BOB, 300, key="b1")
    await storage.start_hand(table, 1, {0: 300, 1: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 0, 1: 600}, phh=PHH, key="s1")
    await storage.close_table(table, key="close")

    session = await storage.table_session(table)

    assert session.closed_at is not None and session.closed_at >= session.opened_at
    assert {p.player_id: (p.cash_out, p.stack, p.net) for p in session.players()} == {
        str(ALICE): (0, 0, -300),
        str(BOB): (600, 0, 300),
    }
    assert all(line.session_end is not None for line in session.lines)


async def test_an_unknown_table_has_no_session(storage: Storage) -> None:
    with pytest.raises(UnknownTable):
        await storage.table_session(404)


@pytest.mark.parametrize("seed", range(3))
async def test_session_nets_sum_to_zero_and_settle_in_fewer_transfers_than_players(
    storage: Storage, seed: int
) -> None:
    """Random buy-ins, rebuys, hands (a pot moves chips; a 7-2 bounty moves more from every
    other player to the winner, between escrows as the host applies it), leavings and a close:
    Felt takes no rake, so the session's nets sum to zero and settle in at most n - 1."""
    rng = random.Random(seed)
    table = await open_table(storage, key=f"open{seed}")
    members = [ALICE, BOB, CAROL]
    stacks: dict[int, int] = {}
    for seat, user in enumerate(members):
        stacks[seat] = rng.randrange(100, 400)
        await storage.buy_in(table, seat, user, stacks[seat], key=f"in{seat}")
    await storage.seat_bot(table, 3, "Ada", 250, key="in-ada")
    stacks[3] = 250
    for hand_id in range(1, 9):
        dealt = {seat: stack for seat, stack in stacks.items() if stack}
        await storage.start_hand(table, hand_id, dealt, key=f"h{hand_id}")
        winner = rng.choice(list(dealt))
        final = dict(dealt)
        for seat in dealt:
            if seat != winner:
                lost = rng.randrange(0, final[seat] + 1)
                bounty = min(rng.choice([0, 0, 20]), final[seat] - lost)
                final[seat] -= lost + bounty
                final[winner] += lost + bounty
        await storage.settle_hand(table, hand_id, final, phh=PHH, key=f"s{hand_id}")
        stacks |= final
        broke = [seat for seat, stack in stacks.items() if stack == 0 and seat < 3]
        for seat in broke:
            await storage.rebuy(table, seat, 100, key=f"r{hand_id}:{seat}")
            stacks[seat] = 100
    await storage.cash_out(table, 0, key="out0")
    del stacks[0]
    if seed % 2:
        await storage.close_table(table, key="close")

    players = (await storage.table_session(table)).players()
    nets = {p.player_id: p.net for p in players}

    assert sum(nets.values()) == 0
    assert len(settle(nets)) <= len(nets) - 1


async def test_time_banks_are_stored_per_member_and_table_and_replaced(storage: Storage) -> None:
    table = await open_table(storage)
    await storage.save_time_banks(table, {ALICE: 30, BOB: 0})
    await storage.save_time_banks(table, {ALICE: 12})

    assert await storage.time_banks(table) == {ALICE: 12, BOB: 0}
    with pytest.raises(InvalidArgument):
        await storage.save_time_banks(table, {ALICE: -1})
    with pytest.raises(UnknownTable):
        await storage.save_time_banks(table + 1, {ALICE: 5})
    assert await storage.time_banks(table) == {ALICE: 12, BOB: 0}


async def test_rail_consent_is_off_until_a_member_allows_it_and_can_be_taken_back(
    storage: Storage,
) -> None:
    assert await storage.rail_consents(GUILD, (ALICE, BOB)) == set()
    await storage.set_rail_consent(GUILD, ALICE, True)
    await storage.set_rail_consent(GUILD, BOB, True)
    await storage.set_rail_consent(GUILD, BOB, False)

    assert await storage.rail_consents(GUILD, (ALICE, BOB, CAROL)) == {ALICE}
    assert await storage.rail_consents(GUILD + 1, (ALICE,)) == set()
    assert await storage.rail_consents(GUILD, ()) == set()
