"""Away from a tournament table, end to end through the fake Discord: `/holdem sitout` and
`/holdem leave` in a table's thread say what happens there (the seat stays dealt in, posts and
folds; nothing goes back to a wallet), and the member who left stays dealt in, paying blinds,
while the others play on (to the end, with a place, in tests/bot/tournament/test_director.py)."""

from __future__ import annotations

from bot.tournament.memory import player_key
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_tournament_sng import play_out, start


async def test_a_member_who_leaves_a_tournament_table_is_told_so_and_blinded_away(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot)
    storage = run.bot.storage
    created = await fake_discord.slash(
        world.admin, world.channel, "tournament create", name="Friday", type="sng", buy_in=100,
        preset="hyper", max_entries=4, seats=4, start="in 5m", bots=True,
    )  # fmt: skip
    await created.wait_answered()
    await run.register((world.alice, world.bob), world.channel)
    wallet = await storage.balance(world.guild.id, world.alice.id)
    tid = await run.started(world.guild.id)
    director = run.director(tid)
    assert director is not None
    await fake_discord.wait_until(lambda: bool(director.tables), what="the table to open")
    [table] = director.tables.values()
    thread = fake_discord.channels[table.channel_id]

    async def said(command: str) -> str:
        interaction = await fake_discord.slash(world.alice, thread, command)
        await interaction.wait_answered()
        assert interaction.errors == []
        [reply] = [m for m in interaction.messages if not m.loading]
        assert reply.ephemeral_for is interaction.user
        return reply.content

    sat_out = await said("holdem sitout")
    assert sat_out.startswith("You sit out from the next hand: you are still dealt in")
    assert "cashed out" not in sat_out
    left = await said("holdem leave")
    assert left.startswith("You left your tournament seat: it stays dealt in")
    assert "wallet" not in left
    assert table.seat_of(world.alice.id) is not None
    kept_before = len(await storage.tournament_hands(tid))

    # Bob plays on alone for a few turns: Alice's seat is dealt in and pays its blinds.
    await play_out(run, tid, [world.bob], clicks_at_most=6)
    later = (await storage.tournament_hands(tid))[kept_before + 1 :]
    assert len(later) >= 2 and all(str(world.alice.id) in hand.phh for hand in later)
    [entry] = [e for e in director.engine.alive if e.player == player_key(world.alice.id, None)]
    assert 0 < entry.stack < director.engine.structure.starting_stack
    assert await storage.balance(world.guild.id, world.alice.id) == wallet
