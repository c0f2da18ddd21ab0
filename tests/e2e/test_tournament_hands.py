"""``/tournament hands`` end to end through the fake Discord: every hand a tournament kept, all
its tables, as one private file in the format asked, with nobody's folded cards; and its
refusals as one private line."""

from __future__ import annotations

import json
from typing import Any

from engine.holdem import phh
from tests.bot.hand_seeding import seed_hands
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World
from tests.e2e.test_tournament_lobby import (  # noqa: F401 (start_lobby is a fixture)
    StartLobby,
    create_sng,
    seen,
    start_lobby,
)
from tests.engine.holdem.export_hands import parse_pokerstars


async def test_a_tournaments_hands_come_as_one_private_file_without_folded_cards(
    fake_discord: FakeDiscord,
    start_lobby: StartLobby,  # noqa: F811
    world: World,
) -> None:
    bot, director, _scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world)
    for member in (world.alice, world.bob):
        await seen(fake_discord, await fake_discord.click(member, lobby, label="Register"))
    [tournament_id] = await director.wait()

    async def ask(**options: Any) -> tuple[str, list[str], bytes]:
        interaction = await fake_discord.slash(
            world.bob, world.channel, "tournament hands", **options
        )
        text = await seen(fake_discord, interaction)
        [message] = [m for m in interaction.messages if not m.loading]
        assert message.ephemeral_for is interaction.user
        data = message.attachments[0].data if message.attachments else b""
        return text, message.filenames, data

    text, files, _ = await ask(tournament=tournament_id)
    assert (text, files) == (f"Tournament #{tournament_id} has no finished hand yet.", [])

    # Hands as the director keeps them: PHH text, two tables (seeded from a real table).
    table = await seed_hands(
        bot.storage, guild_id=world.guild.id, channel_id=world.channel.id,
        members=[world.alice.id, world.bob.id], hands=4, seed=5,
    )  # fmt: skip
    for number, hand_id in enumerate(table.settled, start=1):
        record = await bot.storage.get_hand(table.table_id, hand_id)
        assert record is not None and record.phh is not None
        await bot.storage.record_tournament_hand(
            tournament_id, 1 + number % 2, number, level=1, phh=record.phh
        )
    kept = len(table.settled)

    text, files, data = await ask(tournament=tournament_id)
    assert text.startswith(f"The {kept} hand(s) of **Friday turbo** (#{tournament_id})")
    assert files == [f"felt-tournament-{tournament_id}.txt"]
    written = data.decode()
    assert len(parse_pokerstars(written, antes=False)) == kept
    assert "Dealt to" not in written  # nobody's hole cards but those shown at showdown
    assert {f"Friday turbo tournament {tournament_id} table {n}" for n in (1, 2)} <= {
        line.split("'")[1] for line in written.splitlines() if line.startswith("Table '")
    }

    _, files, data = await ask(tournament=tournament_id, format="phh")
    assert files == [f"felt-tournament-{tournament_id}.phhs"]
    assert len(phh.loads_all(data.decode())) == kept
    _, files, data = await ask(tournament=tournament_id, format="ohh")
    assert files == [f"felt-tournament-{tournament_id}.ohh"]
    assert json.loads(data.decode().split("\n\n")[0])["ohh"]["game_number"]

    text, files, _ = await ask(tournament=99)
    assert (text, files) == ("There is no tournament #99 here.", [])
