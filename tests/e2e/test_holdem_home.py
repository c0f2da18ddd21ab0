"""Home-game night end to end, through the fake Discord: ``/holdem ledger`` at any time (private,
with PokerNow's ledger CSV and who pays whom) and the settle-up posted when the table closes."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld

POKERNOW = [
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def slash(
    fake: FakeDiscord, who: FakeMember, world: World, command: str, **options: Any
) -> FakeMessage:
    sent = await fake.slash(who, world.channel, command, **options)
    await sent.wait_answered()
    return sent.reply


def csv_of(message: FakeMessage, suffix: str) -> list[list[str]]:
    data = next(a.data for a in message.attachments if a.filename.endswith(suffix))
    return list(csv.reader(io.StringIO(data.decode())))


async def play_until(h: HoldemWorld, members: list[FakeMember], hands: int) -> None:
    await h.play(members, until=lambda: h.hands_finished() >= hands)


async def test_holdem_ledger_answers_privately_with_both_csv_files_and_refuses_without_a_table(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    none = await slash(fake, bob, world, "holdem ledger")
    assert none.ephemeral and "No Hold'em table has played in this channel" in none.content
    await slash(fake, alice, world, "holdem start", seats=3, bots=0, buy_in=500)
    await slash(fake, bob, world, "holdem join", buy_in=300)
    await play_until(h, [alice, bob], hands=1)

    reply = await slash(fake, world.admin, world, "holdem ledger")

    assert reply.ephemeral and reply.ephemeral_for is world.admin.user
    assert reply.embed is not None and "Ledger of table" in reply.embed["title"]
    description = reply.embed["description"]
    assert "**Alice**" in description and "in 500" in description and "in 300" in description
    assert "if the table closed now" in description or "Everyone is square" in description
    rows = csv_of(reply, "-ledger.csv")
    assert rows[0] == POKERNOW
    assert {row[1] for row in rows[1:]} == {str(alice.id), str(bob.id)}
    assert all(row[5] == "" for row in rows[1:])  # nobody has cashed out yet
    assert sum(int(row[7]) for row in rows[1:]) == 0
    assert csv_of(reply, "-transfers.csv")[0] == ["payer", "payee", "amount"]
    assert not [m for m in fake.channel_messages(world.channel) if "Ledger of" in m.text]


async def test_closing_the_table_posts_who_pays_whom_and_the_pokernow_ledger(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=3, bots=0, buy_in=500)
    await slash(fake, bob, world, "holdem join", buy_in=300)
    await slash(fake, bob, world, "holdem rebuy", amount=100)
    await play_until(h, [alice, bob], hands=2)
    await slash(fake, alice, world, "holdem stop")
    await play_until(h, [alice, bob], hands=3)

    posted = await fake.wait_for_message(
        world.channel, lambda m: any(n.endswith("-ledger.csv") for n in m.filenames)
    )

    assert posted.embed is not None and "Ledger of table" in posted.embed["title"]
    rows = csv_of(posted, "-ledger.csv")
    assert rows[0] == POKERNOW
    by_id = {row[1]: row for row in rows[1:]}
    assert by_id[str(bob.id)][4] == "400"  # the buy-in and the rebuy
    assert all(row[3] and row[6] == "0" for row in rows[1:])  # everyone left, nothing on the table
    nets = {row[0]: int(row[7]) for row in rows[1:]}
    assert sum(nets.values()) == 0
    transfers = csv_of(posted, "-transfers.csv")[1:]
    assert len(transfers) == (1 if any(nets.values()) else 0)
    for payer, payee, amount in transfers:
        assert nets[payer] == -int(amount) and nets[payee] == int(amount)
        assert f"{payer} pays {payee} {int(amount):,} chips" in posted.embed["description"]
    for member in (alice, bob):
        account = await h.bot.storage.get_account(world.guild.id, member.id)
        assert account is not None and account.at_tables == 0
