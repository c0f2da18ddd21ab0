"""A tournament end to end through the fake Discord: the lobby starts a Sit & Go of two members
and house bots, the director runs its table in a thread of the lobby channel with the Hold'em
table message and buttons, the members play by clicking, and the places are paid into the
wallets with ``db check`` exact."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.discord.client import FeltBot
from bot.discord.cogs.holdem import Holdem
from bot.discord.cogs.tournament import Tournaments
from bot.discord.holdem import ids
from bot.discord.pacing import Pacer
from bot.discord.tournament.running import DiscordTournaments
from bot.holdem.events import TableEvent
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from bot.tournament.director import TournamentDirector
from bot.tournament.table import TournamentTable
from tests.bot.tournament.support import pushers
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import StartBot, World, channel_window
from tests.e2e.support.holdem import FAST, passive
from tests.e2e.support.timers import SteppedScheduler

EXTENSIONS = ["bot.discord.cogs.economy", "bot.discord.cogs.admin", "bot.discord.cogs.stats"]
ACTION = re.compile(ids.ACTION_TEMPLATE)
QUICK = HoldemSettings(bots=0, bot_delay_seconds=0.0, between_hands_seconds=0.0)


@dataclass
class Running:
    fake: FakeDiscord
    bot: FeltBot
    runner: DiscordTournaments
    lobby_clock: ManualScheduler
    tables: SteppedScheduler

    def director(self, tournament_id: int) -> TournamentDirector | None:
        return self.runner.directors.running.get(tournament_id)

    async def register(self, members: Sequence[FakeMember], channel: Any) -> None:
        """Each of ``members`` registers by command in ``channel``, and is taken."""
        for member in members:
            registered = await self.fake.slash(member, channel, "tournament register")
            await registered.wait_answered()
            assert registered.errors == []

    async def started(self, guild_id: int, seconds: float = 300) -> int:
        """Move both clocks past the start time; the one tournament's id once it runs."""
        self.fake.clock.advance(seconds)
        await self.lobby_clock.advance(seconds)
        [row] = await self.bot.storage.list_tournaments(guild_id)
        tid = row.tournament_id
        await self.fake.wait_until(lambda: self.director(tid) is not None, what="the start")
        return tid


async def start(
    fake: FakeDiscord, start_bot: StartBot, settings: HoldemSettings = QUICK
) -> Running:
    tables = SteppedScheduler()
    lobby_clock = ManualScheduler(fake.clock.now())
    runners: list[DiscordTournaments] = []

    def tap(_channel_id: int, _event: TableEvent) -> None:
        fake.changed()

    def holdem(bot: FeltBot) -> Holdem:
        pacer = Pacer(channel_window=channel_window(fake))
        return Holdem(bot, bots=pushers, scheduler=tables, table_overrides=FAST, pacer=pacer,
                      tap=tap, linger=0.0)  # fmt: skip

    def tournaments(bot: FeltBot) -> Tournaments:
        runner = DiscordTournaments(bot, bots=pushers, scheduler=tables, settings=settings)
        runners.append(runner)
        return Tournaments(bot, runner=runner, scheduler=lobby_clock)

    bot = await start_bot(extensions=EXTENSIONS, cogs=[holdem, tournaments])
    return Running(fake, bot, runners[0], lobby_clock, tables)


def offer(
    fake: FakeDiscord, director: TournamentDirector, member: FakeMember
) -> tuple[FakeMessage, TournamentTable, ids.ActionRef] | None:
    """The table message offering ``member`` the action now, in their table's thread."""
    for table in list(director.tables.values()):
        snapshot = table.snapshot()
        seat = snapshot.seat(snapshot.to_act_seat or 0)
        if snapshot.legal is None or seat is None or seat.user_id != member.id:
            continue
        current = ids.ActionRef(snapshot.table_id, snapshot.hand_id or 0, snapshot.action_count)
        channel = fake.channels[table.channel_id]
        for message in reversed(fake.channel_messages(channel)):
            if "holdem-table.png" not in message.filenames:
                continue
            refs = {
                ids.ActionRef(int(m["table"]), int(m["hand"]), int(m["count"]))
                for button in message.buttons
                if button.custom_id and (m := ACTION.fullmatch(button.custom_id))
            }
            return (message, table, current) if refs == {current} else None
    return None


async def play_out(
    run: Running,
    tournament_id: int,
    members: Sequence[FakeMember],
    *,
    clicks_at_most: int | None = None,
    level_up_every: int | None = None,
) -> int:
    """The members check or call in their threads until the tournament is over (or after
    ``clicks_at_most`` clicks); every ``level_up_every`` clicks the tables' clock jumps 20 s
    (levels by minutes move on). How many clicks that took."""
    fake = run.fake
    found: list[tuple[FakeMember, Any]] = []

    def ready() -> bool:
        director = run.director(tournament_id)
        if director is None:
            return False
        if director.done.is_set():
            found.clear()
            return True
        found[:] = [(m, o) for m in members if (o := offer(fake, director, m)) is not None]
        return bool(found)

    clicks = 0
    while True:
        await fake.wait_until(ready, within=60, what="a member's turn or the end")
        if not found or clicks == clicks_at_most:
            return clicks
        clicks += 1
        if level_up_every and clicks % level_up_every == 0:
            await run.tables.advance(20)
            continue
        member, (message, table, ref) = found[0]
        clicked = await fake.click(member, message, label=passive(message))
        await clicked.wait_answered()

        def moved_on(table: TournamentTable = table, ref: ids.ActionRef = ref) -> bool:
            snapshot = table.snapshot()
            return (snapshot.hand_id, snapshot.action_count) != (ref.hand_id, ref.action_count)

        await fake.wait_until(moved_on, within=20, what=f"the table to take {member.name}'s move")


async def test_a_sit_and_go_of_two_members_and_bots_plays_in_a_thread_and_pays_the_wallets(
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
    wallets = {m.id: await storage.balance(world.guild.id, m.id) for m in (world.alice, world.bob)}
    tid = await run.started(world.guild.id)
    assert await play_out(run, tid, [world.alice, world.bob]) > 0

    threads = [c for c in fake_discord.channels.values() if c.parent_id == world.channel.id]
    assert len(threads) == 1, "one table, one thread"
    assert any("holdem-table.png" in m.filenames for m in fake_discord.channel_messages(threads[0]))
    entries = await storage.tournament_entries(tid)
    assert sorted(e.place or 0 for e in entries)[0] == 1
    assert sum(e.prize for e in entries) == 4 * 100
    for member in (world.alice, world.bob):
        [entry] = [e for e in entries if e.user_id == member.id]
        assert await storage.balance(world.guild.id, member.id) == wallets[member.id] + entry.prize
    await fake_discord.wait_until(
        lambda: any("is over" in m.content for m in fake_discord.channel_messages(world.channel)),
        what="the result in the lobby channel",
    )
    assert any("⏱️" in m.content for m in fake_discord.channel_messages(world.channel))
    assert (await storage.check()).ok
