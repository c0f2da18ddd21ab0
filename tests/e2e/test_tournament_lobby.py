"""The tournament lobby end to end through the fake Discord: create, register by command and by
button, unregister and cancel with refunds, the lobby message kept up to date, a full Sit & Go
handed to the director, a start time reached with too few entries, and every refusal as one
private line that changes nothing.

The director here is a real minimal ``TournamentRunner`` that records what it was given (the
running tournament itself is the director's, tested with it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.config import TournamentConfig
from bot.discord.client import FeltBot
from bot.discord.cogs.tournament import NO_DIRECTOR, Tournaments
from bot.tables.clock import ManualScheduler
from storage import Storage
from storage.tournaments import TournamentStatus
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMember, FakeMessage
from tests.e2e.support.bot_world import StartBot, World, bot_config

EXTENSIONS = ["bot.discord.cogs.economy", "bot.discord.cogs.admin", "bot.discord.cogs.stats"]
START = 1_000


class RecordingDirector:
    """Takes the tournaments the lobby starts; checks each is running in storage by then."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.storage: Storage | None = None
        self.any_started = asyncio.Event()

    async def start(self, tournament_id: int) -> None:
        assert self.storage is not None
        row = await self.storage.get_tournament(tournament_id)
        assert row is not None and row.status is TournamentStatus.RUNNING
        self.started.append(tournament_id)
        self.any_started.set()

    async def wait(self) -> list[int]:
        """The tournaments started, once one was (the fake sees nothing of this)."""
        await asyncio.wait_for(self.any_started.wait(), 10)
        return self.started


Lobby = tuple[FeltBot, RecordingDirector, ManualScheduler]
StartLobby = Callable[..., Awaitable[Lobby]]


@pytest.fixture
async def start_lobby(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, tmp_path: Path
) -> StartLobby:
    async def start(*, director: bool = True, **tournament: Any) -> Lobby:
        recorder = RecordingDirector()
        scheduler = ManualScheduler(fake_discord.clock.now())

        def make(bot: FeltBot) -> Tournaments:
            recorder.storage = bot.storage
            return Tournaments(bot, runner=recorder if director else None, scheduler=scheduler)

        config = bot_config(fake_discord, tmp_path / "felt.db")
        config = replace(config, tournament=TournamentConfig(**tournament))
        bot = await start_bot(extensions=EXTENSIONS, cogs=[make], config=config)
        return bot, recorder, scheduler

    return start


async def use(fake: FakeDiscord, who: Any, command: str, world: World, **options: Any) -> str:
    """Run a command; the text its member saw (its reply, or its last followup)."""
    interaction = await fake.slash(who, world.channel, command, **options)
    return await seen(fake, interaction)


async def seen(fake: FakeDiscord, interaction: FakeInteraction) -> str:
    await fake.wait_until(
        lambda: (
            (interaction.answered and not interaction.reply.loading) or bool(interaction.followups)
        ),
        what=f"interaction {interaction.id} to be answered",
        interaction_id=interaction.id,
    )
    assert interaction.errors == []
    messages = [m for m in interaction.messages if not m.loading]
    return messages[-1].content


def lobby_message(fake: FakeDiscord, world: World) -> FakeMessage:
    [message] = [m for m in fake.channel_messages(world.channel) if "🏆" in m.content]
    return message


async def create_sng(fake: FakeDiscord, world: World, **options: Any) -> FakeMessage:
    chosen: dict[str, Any] = {
        "name": "Friday turbo",
        "type": "sng",
        "buy_in": 100,
        "max_entries": 2,
    }
    chosen.update(options)
    interaction = await fake.slash(world.admin, world.channel, "tournament create", **chosen)
    await fake.wait_until(
        lambda: any("🏆" in m.content for m in fake.channel_messages(world.channel)),
        what="the lobby message",
    )
    assert interaction.errors == []
    return lobby_message(fake, world)


async def balance(storage: Storage, world: World, member: FakeMember) -> int:
    account = await storage.get_account(world.guild.id, member.id)
    return START if account is None else account.balance


async def test_registering_by_button_and_command_updates_the_lobby_and_starts_a_full_sng(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, director, _scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world)
    assert "Entries: 0/2" in lobby.content and "Starts when full" in lobby.content
    assert lobby.button_labels == ["Register", "Unregister"]

    click = await fake_discord.click(world.alice, lobby, label="Register")
    assert "You are registered in **Friday turbo**" in await seen(fake_discord, click)
    await fake_discord.wait_until(
        lambda: "Entries: 1/2" in lobby_message(fake_discord, world).content
    )
    assert world.alice.mention in lobby_message(fake_discord, world).content
    assert await balance(bot.storage, world, world.alice) == START - 100

    text = await use(fake_discord, world.bob, "tournament register", world)
    assert "100 chips moved from your wallet" in text
    [tournament_id] = await director.wait()
    row = await bot.storage.get_tournament(tournament_id)
    assert row is not None and row.status is TournamentStatus.RUNNING
    await fake_discord.wait_until(
        lambda: "Running" in lobby_message(fake_discord, world).content, what="the lobby to close"
    )
    assert lobby_message(fake_discord, world).button_labels == []
    assert "Prize pool: 200 chips" in lobby_message(fake_discord, world).content
    refused = await use(
        fake_discord, world.admin, "tournament cancel", world, tournament=tournament_id
    )
    assert refused == f"Tournament #{tournament_id} has already started."
    refused = await use(fake_discord, world.alice, "tournament unregister", world)
    assert refused == (
        f"**Friday turbo** (#{tournament_id}) has started: "
        "an entry cannot be withdrawn once the tournament is running."
    )


async def test_unregistering_and_cancelling_refund_every_buy_in(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, director, _scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world, max_entries=6)
    await seen(fake_discord, await fake_discord.click(world.alice, lobby, label="Register"))
    await seen(fake_discord, await fake_discord.click(world.bob, lobby, label="Register"))
    left = await seen(fake_discord, await fake_discord.click(world.bob, lobby, label="Unregister"))
    assert left.endswith("100 chips went back to your wallet.")
    assert await balance(bot.storage, world, world.bob) == START

    text = await use(fake_discord, world.admin, "tournament cancel", world)
    assert "is cancelled: 100 chips refunded to 1 entry" in text
    assert await balance(bot.storage, world, world.alice) == START
    await fake_discord.wait_until(
        lambda: "Cancelled" in lobby_message(fake_discord, world).content, what="the lobby"
    )
    assert director.started == []
    assert (await bot.storage.check()).ok


async def test_a_start_time_with_one_entry_cancels_and_refunds(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, director, scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world, start="in 10m", max_entries=6)
    assert "<t:" in lobby.content and ":R>" in lobby.content
    await seen(fake_discord, await fake_discord.click(world.alice, lobby, label="Register"))
    fake_discord.clock.advance(600)
    await scheduler.advance(600)
    await fake_discord.wait_until(
        lambda: "Cancelled" in lobby_message(fake_discord, world).content, what="the cancel"
    )
    assert await balance(bot.storage, world, world.alice) == START
    assert director.started == []


async def test_a_start_time_fills_a_sng_with_house_bots(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, director, scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world, start="in 5m", max_entries=4, bots=True)
    await seen(fake_discord, await fake_discord.click(world.alice, lobby, label="Register"))
    fake_discord.clock.advance(300)
    await scheduler.advance(300)
    [tournament_id] = await director.wait()
    entries = await bot.storage.tournament_entries(tournament_id)
    assert entries[0].user_id == world.alice.id
    assert len([entry for entry in entries if entry.bot_name is not None]) == 3
    assert "🤖" in lobby_message(fake_discord, world).content
    assert (await bot.storage.check()).ok


@pytest.mark.parametrize(
    ("who", "options", "refusal"),
    [
        ("alice", {}, "Only Felt admins can create tournaments on this server."),
        ("admin", {"type": "mtt"}, "A multi-table tournament needs a start time"),
        ("admin", {"max_entries": 12}, "A Sit & Go is one table: 2 to 9 entries"),
        ("admin", {"start": "tomorrow-ish"}, "The start must be `full`, a Discord timestamp"),
        ("admin", {"start": "<t:1000:R>"}, "The start must be at least a minute from now"),
        ("admin", {"bots": True}, "Bots fill the empty seats at the start time"),
    ],
)
async def test_create_refusals_are_one_private_line(
    fake_discord: FakeDiscord,
    start_lobby: StartLobby,
    world: World,
    who: str,
    options: dict[str, Any],
    refusal: str,
) -> None:
    bot, _director, _scheduler = await start_lobby()
    chosen: dict[str, Any] = {"name": "Night", "type": "sng", "buy_in": 100}
    chosen.update(options)
    member = getattr(world, who)
    interaction = await fake_discord.slash(member, world.channel, "tournament create", **chosen)
    text = await seen(fake_discord, interaction)
    assert text.startswith(refusal)
    assert "\n" not in text
    assert all(m.ephemeral_for is interaction.user for m in interaction.messages)
    assert await bot.storage.list_tournaments(world.guild.id) == []


async def test_register_refusals_are_one_private_line_and_change_nothing(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, _director, _scheduler = await start_lobby()
    text = await use(fake_discord, world.alice, "tournament register", world)
    assert text == "No tournament is open for registration here."
    lobby = await create_sng(fake_discord, world, max_entries=3, buy_in=5_000)
    refused = await fake_discord.click(world.alice, lobby, label="Register")
    assert (await seen(fake_discord, refused)).startswith("Not enough chips: <@")
    assert await balance(bot.storage, world, world.alice) == START
    refused = await fake_discord.click(world.bob, lobby, label="Unregister")
    assert await seen(fake_discord, refused) == "You are not registered in tournament #1."
    text = await use(fake_discord, world.alice, "tournament register", world, tournament=99)
    assert text == "There is no tournament #99 here."
    text = await use(fake_discord, world.alice, "tournament cancel", world)
    assert text == "Only its organiser or a Felt admin can cancel a tournament."
    row = await bot.storage.get_tournament(1)
    assert row is not None and (row.entries, row.status) == (0, TournamentStatus.REGISTERING)


async def test_registering_twice_is_refused(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, _director, _scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world, max_entries=3)
    await seen(fake_discord, await fake_discord.click(world.alice, lobby, label="Register"))
    again = await fake_discord.click(world.alice, lobby, label="Register")
    assert await seen(fake_discord, again) == "You are already registered in tournament #1."
    assert await balance(bot.storage, world, world.alice) == START - 100


async def test_without_a_director_tournaments_cannot_be_created(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    await start_lobby(director=False)
    text = await use(
        fake_discord, world.admin, "tournament create", world, name="X", type="sng", buy_in=10
    )
    assert text == NO_DIRECTOR


async def test_info_and_list_show_the_open_tournaments(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    await start_lobby()
    await create_sng(fake_discord, world, max_entries=3)
    listed = await use(fake_discord, world.bob, "tournament list", world)
    assert listed.startswith("#1 **Friday turbo** · Sit & Go · 100 chips · 0/3 · when full")
    info = await use(fake_discord, world.bob, "tournament info", world)
    assert "Starting stack 1,500" in info and "Payouts:" in info


async def test_members_may_create_when_the_server_allows_it_and_the_fee_goes_on_top(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, _director, _scheduler = await start_lobby()
    text = await use(
        fake_discord,
        world.admin,
        "felt-admin config tournaments",
        world,
        members_create=True,
        fee_percent=10,
    )
    assert "created by any member, house fee 10%" in text
    interaction = await fake_discord.slash(
        world.alice, world.channel, "tournament create", name="Alice's", type="sng", buy_in=100
    )
    await fake_discord.wait_until(
        lambda: any("🏆" in m.content for m in fake_discord.channel_messages(world.channel)),
        what="the lobby message",
    )
    assert interaction.errors == []
    assert "Buy-in: 100 chips + 10 fee" in lobby_message(fake_discord, world).content
    await seen(
        fake_discord,
        await fake_discord.click(world.bob, lobby_message(fake_discord, world), label="Register"),
    )
    assert await balance(bot.storage, world, world.bob) == START - 110


async def test_results_reach_stats_and_the_tournament_leaderboard(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, director, _scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world)
    await seen(fake_discord, await fake_discord.click(world.alice, lobby, label="Register"))
    await seen(fake_discord, await fake_discord.click(world.bob, lobby, label="Register"))
    [tournament_id] = await director.wait()
    # What the director does at the end: places and prizes, the pool paid out exactly.
    await bot.storage.finish_tournament(
        tournament_id, {world.alice.id: 1, world.bob.id: 2}, {world.alice.id: 200}
    )
    stats = await fake_discord.slash(world.alice, world.channel, "stats")
    await seen(fake_discord, stats)
    embed = stats.reply.embed
    assert embed is not None
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Tournaments"] == (
        "Played: 1 · In the money: 1 (100%) · Wins: 1 · Net prize: +100"
    )
    board = await fake_discord.slash(world.bob, world.channel, "leaderboard", board="tournaments")
    await seen(fake_discord, board)
    shown = board.reply.embed
    assert shown is not None
    assert shown["title"] == "Tournament winnings leaderboard · Hold'em · season 1"
    assert shown["description"].splitlines() == [
        f"**1.** {world.alice.mention} · +100",
        f"**2.** {world.bob.mention} · -100",
    ]
    assert shown["footer"]["text"].endswith("You: #2 (-100)")


async def test_after_a_restart_the_buttons_work_and_the_start_time_still_holds(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    bot, _director, _scheduler = await start_lobby()
    lobby = await create_sng(fake_discord, world, start="in 10m", max_entries=3)
    await seen(fake_discord, await fake_discord.click(world.alice, lobby, label="Register"))
    await bot.close()

    restarted, director, scheduler = await start_lobby()
    click = await fake_discord.click(
        world.bob, lobby_message(fake_discord, world), label="Register"
    )
    assert "You are registered in **Friday turbo**" in await seen(fake_discord, click)
    fake_discord.clock.advance(600)
    await scheduler.advance(600)
    [tournament_id] = await director.wait()
    entries = await restarted.storage.tournament_entries(tournament_id)
    assert [entry.user_id for entry in entries] == [world.alice.id, world.bob.id]


async def test_the_config_file_lets_members_create_and_sets_the_fee(
    fake_discord: FakeDiscord, start_lobby: StartLobby, world: World
) -> None:
    await start_lobby(members_create=True, fee_percent=5)
    interaction = await fake_discord.slash(
        world.alice, world.channel, "tournament create", name="Mine", type="sng", buy_in=200
    )
    await fake_discord.wait_until(
        lambda: any("🏆" in m.content for m in fake_discord.channel_messages(world.channel)),
        what="the lobby message",
    )
    assert interaction.errors == []
    assert "Buy-in: 200 chips + 10 fee" in lobby_message(fake_discord, world).content
