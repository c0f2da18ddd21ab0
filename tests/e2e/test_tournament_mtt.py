"""A multi-table tournament end to end through the fake Discord: six members on two tables, each
in its own thread; busts break a table and the final table is redrawn (members moved are
mentioned in their new thread); a crash in the middle, and the tournament resumes in the same
threads from its saved state and plays to the end, prizes paid and ``db check`` exact."""

from __future__ import annotations

import pytest

from bot.discord.cogs.holdem import Holdem
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_tournament_sng import play_out, start


@pytest.mark.slow  # about two minutes of members clicking through the fake Discord
async def test_a_multi_table_tournament_moves_members_between_threads_and_survives_a_crash(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot)
    storage = run.bot.storage
    members = [world.alice, world.bob, world.admin]
    members += [fake_discord.create_member(world.guild, name) for name in ("Cy", "Di", "Ed")]
    created = await fake_discord.slash(
        world.admin, world.channel, "tournament create", name="Sunday", type="mtt", buy_in=50,
        preset="hyper", max_entries=6, seats=4, start="in 5m",
    )  # fmt: skip
    await created.wait_answered()
    assert created.errors == []
    for member in members:
        registered = await fake_discord.slash(member, world.channel, "tournament register")
        await registered.wait_answered()
        assert registered.errors == []
    fake_discord.clock.advance(300)
    await run.lobby_clock.advance(300)
    [row] = await storage.list_tournaments(world.guild.id)
    tid = row.tournament_id
    await fake_discord.wait_until(lambda: run.director(tid) is not None, what="the start")
    director = run.director(tid)
    assert director is not None and len(director.tables) == 2
    threads = {table.channel_id for table in director.tables.values()}

    await play_out(run, tid, members, clicks_at_most=12, level_up_every=4)
    assert not director.done.is_set()
    saved = await storage.load_tournament(tid)
    assert saved.state is not None

    # A crash: no shutdown hook; the hands in play are lost, the saved state is not.
    holdem = run.bot.get_cog("Holdem")
    assert isinstance(holdem, Holdem)
    run.runner.halt()
    await holdem.halt()
    await run.bot.close()

    again = await start(fake_discord, start_bot)
    await fake_discord.wait_until(lambda: again.director(tid) is not None, what="the resume")
    resumed = again.director(tid)
    assert resumed is not None
    assert resumed.engine.to_dict()["entries"] == saved.state["engine"]["entries"]
    assert {table.channel_id for table in resumed.tables.values()} <= threads
    await play_out(again, tid, members, level_up_every=3)
    assert resumed.done.is_set()

    moved = [
        m
        for thread in threads
        for m in fake_discord.channel_messages(fake_discord.channels[thread])
        if "you were moved here" in m.content
    ]
    assert moved, "the final table's redraw mentions the members it moves"
    entries = await storage.tournament_entries(tid)
    assert sum(e.prize for e in entries) == 6 * 50
    assert min(e.place or 99 for e in entries) == 1
    assert (await storage.check()).ok
