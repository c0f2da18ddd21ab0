"""The real bot against the fake Discord with many Hold'em (and Blackjack) tables at once.

The fake Discord (and the simulated members who play) runs in a child process, so the bot's
process holds only the bot: its peak memory is what a real deployment would need. Each table
has two simulated members (they think 0.5-2.5 s, then mostly check or call, sometimes raise,
fold or peek at their cards) and bots in the other chairs (1 s per move). Members open their
tables ``--ramp`` per second (staggered, as tables fill over time). After a warm-up (every
table dealt its first hand, or ``--warmup`` seconds), the run measures for ``--seconds``:

- interaction latency (from Discord sending the interaction to the bot acknowledging it),
  p50/p95/p99, over every button press and command;
- hands finished per minute, over all tables;
- 429 answers from the fake over the whole run (goal: none), each with what filled its bucket,
  and the bot's request rate;
- the bot process's peak resident memory (goal: at most 300 MB for 200 tables, 500 MB for
  1,000);
- how long a member's turn took to show: from the moment it began in the bot (the click or the
  bot's move before it) to the table message offering its buttons, p50/p90/max;
- the share of requests by route (what the fake saw), by kind (table message posts and edits,
  edits through a member's click, hole-card DMs, other posts, interaction answers) and by the
  pacer's priority; requests per hand, in all and counted against Discord's global limit
  (interaction endpoints are not);
- how long a table took to start (from ``/holdem start`` to the first turn on its message; the
  second member joins once the table message is up, and again if refused);
- the bot's CPU per hand (its drawing threads apart), the redraws that waited for spare CPU and
  the event loop passes that held table requests (``bot/discord/loop_gate.py``);
  ``--profile`` prints where the event loop's time went.

``--blackjack N`` adds N Blackjack tables, each with one member who bets, then stands or hits
(a bet that brings no offer is followed by a longer pause each time, up to 30 s).
``--edits immediate`` edits table messages as Felt did before issue 21 (every change as soon as
the channel's budget allows), for a before/after in one run (``bench/table_latency.py``).

Goals (issue 21): p99 <= 50 ms, no interaction later than 3 s, no 429, <= 300 MB for 200
tables (500 MB for 1,000); the turn shown p90 <= 1.5 s is ``bench/table_latency.py``'s goal
(20 tables), printed apart: with a thousand tables the global 50 requests/s cannot show every
table's turns that fast.

    .venv/bin/python bench/discord_load.py [--tables 200] [--blackjack 0] [--seconds 60]
        [--warmup 90] [--ramp 10] [--edits held|immediate] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import cProfile
import dataclasses
import gc
import multiprocessing
import os
import pstats
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

ACTION = re.compile(r"holdem:act:\d+:(\d+):(\d+):")
BLACKJACK_ACTION = re.compile(r"blackjack:act:(\d+):(\d+):")
TABLE_IMAGE = "holdem-table.png"
BLACKJACK_IMAGE = "blackjack-table.png"
KEEP_MESSAGES = 40
OPENINGS_PER_SECOND = 10.0
"""Tables the members open per second at the start (``--ramp``): staggered, as a community's
tables fill over time, not a thousand ``/holdem start`` in one instant."""
BLACKJACK_BACKOFF_SECONDS = 30.0


# ----- the fake Discord and its members (child process) ----------------------------------------


@dataclasses.dataclass
class Table:
    channel: Any
    members: list[Any]
    message: Any = None
    changed: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    offered: tuple[int, int] | None = None
    shown: dict[tuple[int, int], float] = dataclasses.field(default_factory=dict)
    """When the table message first offered each turn (hand, action count), monotonic time."""
    image: str = TABLE_IMAGE
    pattern: re.Pattern[str] = ACTION
    opening: float | None = None
    """When its first member sent ``/holdem start`` (monotonic time)."""
    first_turn: float | None = None
    """When the table message first offered a member a turn."""
    posted: float | None = None
    """When its first table message was posted."""
    joined: float | None = None
    """When the second member's ``/holdem join`` was acknowledged."""

    def saw(self, message: Any) -> None:
        """Note the turn ``message`` offers, if it is this table's message and offers one."""
        if message is not self.message:
            return
        refs = {
            (int(m.group(1)), int(m.group(2)))
            for button in message.buttons
            if button.custom_id and (m := self.pattern.match(button.custom_id))
        }
        if len(refs) == 1:
            self.shown.setdefault(refs.pop(), time.monotonic())


def make_fake(tables: dict[int, Table], limited: list[str], kinds: collections.Counter[str]) -> Any:
    from fakediscord import FakeDiscord
    from fakediscord.model import ChannelKind

    class LoadFakeDiscord(FakeDiscord):
        """Keeps only recent messages and no attachment bytes, and tells each table's members
        when their channel changed."""

        def create_message(self, channel: Any, payload: Any, files: Any, **options: Any) -> Any:
            message = super().create_message(channel, payload, files, **options)
            kinds[message_kind(message, channel, options, ChannelKind.DM)] += 1
            table = tables.get(channel.id)
            if table is not None and not message.ephemeral:
                if table.image in message.filenames:
                    table.message = message
                    table.posted = table.posted or time.monotonic()
                    table.saw(message)
                table.changed.set()
                if len(channel.messages) > KEEP_MESSAGES:
                    for old in list(channel.messages)[: len(channel.messages) - KEEP_MESSAGES]:
                        if channel.messages[old] is not table.message:
                            self.messages.pop(old, None)
                            del channel.messages[old]
            return message

        def edit_message(self, message: Any, payload: Any, files: Any, **options: Any) -> None:
            super().edit_message(message, payload, files, **options)
            table = tables.get(message.channel.id)
            if message.interaction is not None or message.ephemeral:
                kinds["interaction reply edits"] += 1
            elif table is not None and message is table.message and options.get("resolve_loading"):
                kinds["table message edits through a click"] += 1  # the click's token
            elif table is not None and message is table.message:
                kinds["table message edits"] += 1
            else:
                kinds["other edits"] += 1
            if table is not None:
                table.saw(message)
                table.changed.set()

        def _store_attachment(self, message: Any, part: Any, filename: str, entry: Any) -> Any:
            attachment = super()._store_attachment(message, part, filename, entry)
            self.attachments.pop(attachment.id, None)
            attachment.data = b""
            return attachment

    fake = LoadFakeDiscord(record_requests=False)
    explain_429s(fake, limited)
    return fake


def message_kind(message: Any, channel: Any, options: dict[str, Any], dm: Any) -> str:
    """What a new message is, for the share of requests by kind."""
    if options.get("interaction") is not None:
        return "interaction replies"
    if channel.kind is dm:
        return "DMs (hole cards)"
    if TABLE_IMAGE in message.filenames or BLACKJACK_IMAGE in message.filenames:
        return "table message posts"
    titles = " ".join(str(embed.get("title") or "") for embed in message.embeds)
    if "Result" in titles or "·" in titles:
        return "hand/round posts (streets, results)"
    return "other channel posts"


def explain_429s(fake: Any, limited: list[str]) -> None:
    """Have the fake's limiter note each 429 with what filled its bucket: for the global limit,
    the routes counted in the second before; for a route's, the channel and when it resets."""
    limiter = fake.rate_limiter
    check = limiter.check
    counted: collections.deque[tuple[float, str]] = collections.deque()

    def explained(route: str, major: str, *, counts_globally: bool) -> Any:
        decision = check(route, major, counts_globally=counts_globally)
        now = fake.clock.now()
        while counted and counted[0][0] <= now - 1.0:
            counted.popleft()
        if decision.allowed:
            if counts_globally:
                counted.append((now, route))
        elif decision.is_global:
            routes = collections.Counter(counted_route for _, counted_route in counted)
            top = ", ".join(f"{n} {r}" for r, n in routes.most_common(3))
            limited.append(f"{route}: global, {len(counted)} in the second before ({top})")
        else:
            reset = decision.headers.get("X-RateLimit-Reset-After")
            limited.append(f"{route}: channel {major}'s bucket, resets in {reset} s")
        return decision

    limiter.check = explained


@dataclasses.dataclass
class Driver:
    fake: Any
    tables: dict[int, Table]
    rng: random.Random
    think: tuple[float, float]
    latencies: list[float] = dataclasses.field(default_factory=list)
    kinds_of_latencies: list[str] = dataclasses.field(default_factory=list)
    """What each measured interaction was (a command's name, or "button"), for the breakdown."""
    acknowledged: list[tuple[int, float, float]] = dataclasses.field(default_factory=list)
    """Each measured interaction's id, when it was sent and when acknowledged (on the
    machine's monotonic clock, which the bot's process shares: see :class:`Stamps`)."""
    measuring: bool = False
    stopping: bool = False
    dealt: set[int] = dataclasses.field(default_factory=set)
    all_dealt: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    unacknowledged: collections.Counter[str] = dataclasses.field(
        default_factory=collections.Counter
    )
    """Interactions the bot did not acknowledge within 3 s, by command (the whole run)."""

    async def command(self, member: Any, channel: Any, name: str, **options: Any) -> bool:
        """Use a slash command; whether the bot acknowledged it in time."""
        interaction = await self.fake.slash(member, channel, name, **options)
        return await self.record(interaction, name)

    async def record(self, interaction: Any, what: str = "button") -> bool:
        """Wait for ``interaction``'s acknowledgement; note its latency (while measuring) or
        that it never came in time (the whole run)."""
        with contextlib.suppress(AssertionError):  # the fake's "timed out" (noted below)
            await interaction.wait_acknowledged(within=30)
        late = interaction.errors or interaction.acknowledged_at is None
        if late:
            self.unacknowledged[what] += 1
        elif self.measuring:
            self.latencies.append(interaction.acknowledged_at - interaction.created_at)
            self.kinds_of_latencies.append(what)
            offset = self.fake.clock.now() - time.monotonic()
            self.acknowledged.append(
                (
                    interaction.id,
                    interaction.created_at - offset,
                    interaction.acknowledged_at - offset,
                )
            )
        return not late

    async def sit(self, member: Any, channel: Any, name: str, **options: Any) -> None:
        """Open or join a table, again after a pause if the command was not acknowledged in
        time or was refused (a member tries again; the table would otherwise never fill)."""
        for attempt in range(1, 6):
            interaction = await self.fake.slash(member, channel, name, **options)
            acknowledged = await self.record(interaction, name)
            with contextlib.suppress(AssertionError):
                await interaction.wait_answered(within=30)
            said = " ".join(message.text for message in interaction.messages)
            if (acknowledged and "There is no" not in said) or self.stopping:
                return
            await asyncio.sleep(2.0 * attempt)

    async def play(self, table: Table, delay: float = 0.0) -> None:
        """One table's two members: open it (after ``delay``: openings are staggered), join,
        then act whenever it is their turn."""
        first, second = table.members
        await asyncio.sleep(delay)
        table.opening = time.monotonic()
        await self.sit(first, table.channel, "holdem start", seats=6, bots=4, buy_in=1000)
        while table.message is None and not self.stopping:  # the second member sees it open
            await table.changed.wait()
            table.changed.clear()
        await self.sit(second, table.channel, "holdem join", buy_in=1000)
        table.joined = time.monotonic()
        while not self.stopping:
            await table.changed.wait()
            table.changed.clear()
            offer = self.offer(table)
            if offer is None:
                continue
            member, message, ref = offer
            self.dealt.add(table.channel.id)
            if table.first_turn is None:
                table.first_turn = time.monotonic()
            if len(self.dealt) == len(self.tables):
                self.all_dealt.set()
            if table.offered == ref:
                continue
            table.offered = ref
            await asyncio.sleep(self.rng.uniform(*self.think))
            if self.stopping or self.offer(table) != offer:
                continue
            if self.rng.random() < 0.05:
                interaction = await self.fake.click(member, message, label="My cards")
                await self.record(interaction)
            interaction = await self.fake.click(member, message, label=self.choose(message))
            await self.record(interaction)
            await self.top_up(table)

    def offer(self, table: Table) -> tuple[Any, Any, tuple[int, int]] | None:
        message = table.message
        if message is None or message.deleted:
            return None
        refs = {
            (int(m.group(1)), int(m.group(2)))
            for button in message.buttons
            if button.custom_id and (m := ACTION.match(button.custom_id))
        }
        mentioned = set(message.mentions)
        member = next((m for m in table.members if m.id in mentioned), None)
        if len(refs) != 1 or member is None:
            return None
        return member, message, refs.pop()

    def choose(self, message: Any) -> str:
        labels = message.button_labels
        roll = self.rng.random()
        quick = [label for label in labels if label.startswith(("Min", "½ pot", "Pot"))]
        if roll < 0.08 and "Fold" in labels and "Check" not in labels:
            return "Fold"
        if roll < 0.2 and quick:
            return self.rng.choice(quick)
        if "Check" in labels:
            return "Check"
        return next(label for label in labels if label.startswith("Call"))

    async def play_blackjack(self, table: Table, delay: float = 0.0) -> None:
        """One Blackjack table's member: bet, then stand (or hit now and then) when offered;
        bet again once no offer came for a while. A bet that brought no offer (refused, or
        the table slow to show it) is followed by a longer pause each time (up to
        ``BLACKJACK_BACKOFF_SECONDS``): a member does not hammer a table that says no."""
        (member,) = table.members
        await asyncio.sleep(delay)
        unanswered = 0
        while not self.stopping:
            if unanswered:
                pause = min(BLACKJACK_BACKOFF_SECONDS, 2.0**unanswered)
                await asyncio.sleep(pause * self.rng.uniform(0.5, 1.0))
            await self.command(member, table.channel, "blackjack deal", bet=10)
            unanswered += 1
            idle_since = time.monotonic()
            while not self.stopping and time.monotonic() - idle_since < 20:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.changed.wait(), 4)
                table.changed.clear()
                offer = self.blackjack_offer(table)
                if offer is None or table.offered == offer[1]:
                    if offer is None and table.offered is not None:
                        break  # the round is over: bet on the next
                    continue
                message, ref = offer
                table.offered = ref
                unanswered = 0
                await asyncio.sleep(self.rng.uniform(*self.think))
                if self.stopping or self.blackjack_offer(table) != offer:
                    continue
                labels = message.button_labels
                label = "Hit" if "Hit" in labels and self.rng.random() < 0.3 else "Stand"
                if label not in labels:
                    continue
                interaction = await self.fake.click(member, message, label=label)
                await self.record(interaction)
                idle_since = time.monotonic()
            table.offered = None

    def blackjack_offer(self, table: Table) -> tuple[Any, tuple[int, int]] | None:
        message = table.message
        if message is None or message.deleted:
            return None
        refs = {
            (int(m.group(1)), int(m.group(2)))
            for button in message.buttons
            if button.custom_id and (m := BLACKJACK_ACTION.match(button.custom_id))
        }
        if len(refs) != 1:
            return None
        return message, refs.pop()

    async def top_up(self, table: Table) -> None:
        message = table.message
        text = message.text if message is not None else ""
        for member in table.members:
            if f"{member.name} — 0 · sitting out" in text:
                await self.command(member, table.channel, "holdem rebuy", amount=1000)


async def fake_main(conn: Connection, options: dict[str, Any]) -> None:
    from fakediscord import FakeDiscord  # noqa: F401  (imported for the subclass)

    tables: dict[int, Table] = {}
    limited: list[str] = []
    kinds: collections.Counter[str] = collections.Counter()
    fake = make_fake(tables, limited, kinds)
    await fake.start()
    guild = fake.create_guild("Load")
    for index in range(options["tables"]):
        channel = fake.create_channel(guild, f"poker-{index}")
        members = [fake.create_member(guild, f"p{index}{side}") for side in "ab"]
        tables[channel.id] = Table(channel, members)
    blackjack: dict[int, Table] = {}
    for index in range(options["blackjack"]):
        channel = fake.create_channel(guild, f"blackjack-{index}")
        member = fake.create_member(guild, f"b{index}")
        blackjack[channel.id] = Table(
            channel, [member], image=BLACKJACK_IMAGE, pattern=BLACKJACK_ACTION
        )
    tables.update(blackjack)
    conn.send({"api": fake.api_base_url, "gateway": fake.gateway_url, "token": fake.token})
    await fake.wait_until(
        lambda: (
            fake.gateway.all_shards_ready()
            and any(c["name"] == "holdem" for c in fake.registered_commands())
        ),
        within=60,
        what="the bot",
    )
    holdem = {key: table for key, table in tables.items() if key not in blackjack}
    driver = Driver(fake, holdem, random.Random(options["seed"]), (0.5, 2.5))
    ramp = options["ramp"]
    spacing = 1.0 / ramp if ramp > 0 else 0.0
    players = [
        asyncio.create_task(driver.play(table, index * spacing))
        for index, table in enumerate(holdem.values())
    ]
    players += [
        asyncio.create_task(driver.play_blackjack(table, (2 * index + 1) * spacing))
        for index, table in enumerate(blackjack.values())
    ]
    started = time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(driver.all_dealt.wait(), options["warmup"])
    warmup = time.monotonic() - started
    requests_before = fake.stats.requests
    cpu_before = fake_cpu()
    routes_before = collections.Counter(fake.stats.by_route)
    kinds_before = collections.Counter(kinds)
    driver.measuring = True
    conn.send({"measuring": True, "dealt": len(driver.dealt), "warmup": warmup})
    await asyncio.sleep(options["seconds"])
    driver.measuring = False
    requests = fake.stats.requests - requests_before
    routes = collections.Counter(fake.stats.by_route)
    routes.subtract(routes_before)
    measured_kinds = collections.Counter(kinds)
    measured_kinds.subtract(kinds_before)
    measured_kinds["interaction answers"] = routes.get(CALLBACK_ROUTE, 0)
    driver.stopping = True  # members stop before the bot does (no commands into a closed bot)
    conn.send({"stop": True})
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # the bot has stopped
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    conn.send(
        {
            "latencies": driver.latencies,
            "latency_kinds": driver.kinds_of_latencies,
            "acknowledged": driver.acknowledged,
            "fake_cpu_seconds": fake_cpu() - cpu_before,
            "unacknowledged": dict(driver.unacknowledged),
            "rate_limited": fake.stats.rate_limited,
            "limited_routes": limited,
            "invalid": fake.stats.invalid,
            "errors": dict(fake.stats.by_code),
            "requests": requests,
            "routes": dict(routes),
            "kinds": dict(measured_kinds),
            "shown": {
                (channel, *ref): when
                for channel, table in holdem.items()
                for ref, when in table.shown.items()
            },
            "started": [
                table.first_turn - table.opening
                for table in holdem.values()
                if table.first_turn is not None and table.opening is not None
            ],
            "start_steps": [
                (table.posted - table.opening, table.joined - table.opening)
                for table in holdem.values()
                if None not in (table.posted, table.joined, table.opening)
            ],
            "fake_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    )
    await fake.stop()


def fake_cpu() -> float:
    """This (the fake Discord's) process's CPU seconds so far, every thread."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_fake(conn: Connection, options: dict[str, Any]) -> None:
    asyncio.run(fake_main(conn, options))


# ----- the bot (this process) ------------------------------------------------------------------


async def bot_main(
    conn: Connection,
    endpoints: dict[str, Any],
    folder: Path,
    edits: str,
    collector: str,
    painters: str,
    profile: bool = False,
    cycles: bool = False,
    thresholds: tuple[int, int, int] | None = None,
    freeze_from: int | None = None,
) -> dict[str, Any]:
    from bot.config import DatabaseConfig, DiscordConfig, EconomyConfig, FeltConfig, HoldemConfig
    from bot.discord.client import apply_endpoints, create_bot, discover_extensions
    from bot.discord.cogs.blackjack import Blackjack
    from bot.discord.cogs.holdem import Holdem
    from bot.discord.collector import short_pauses
    from bot.discord.database import open_for_bot
    from bot.discord.pacing import Pacer
    from bot.discord.painters import Painters
    from bot.discord.table_edits import IMMEDIATE_EDITS
    from bot.holdem.events import HandFinished, TurnStarted

    config = FeltConfig(
        discord=DiscordConfig(
            token=endpoints["token"],
            api_base_url=endpoints["api"],
            gateway_url=endpoints["gateway"],
        ),
        database=DatabaseConfig(path=str(folder / "felt.db")),
        holdem=HoldemConfig(bot_delay_seconds=1.0, turn_seconds=30),
        economy=EconomyConfig(starting_chips=100_000),
    )
    storage, recovery = await open_for_bot(config)
    restore = apply_endpoints(config.discord)
    pauses_kept_short = contextlib.ExitStack()
    if collector == "frozen":
        # As `felt run` does (runner.run_bot), unless other collection thresholds are asked for.
        kept: dict[str, Any] = {} if thresholds is None else {"thresholds": thresholds}
        if freeze_from is not None:
            kept["freeze_from"] = freeze_from
        pauses_kept_short.enter_context(short_pauses(**kept))
    hands: list[float] = []
    turns: dict[tuple[int, int, int], float] = {}
    pacer = Pacer(edit_policy=IMMEDIATE_EDITS if edits == "immediate" else None)

    events: collections.Counter[str] = collections.Counter()
    pauses = GcPauses()
    gc.callbacks.append(pauses.callback)

    def tap(channel: int, event: object) -> None:
        events[type(event).__name__] += 1
        if isinstance(event, HandFinished):
            hands.append(time.monotonic())
        elif isinstance(event, TurnStarted):
            turns[(channel, event.hand_id, event.action_count)] = time.monotonic()

    cogs: list[Holdem] = []
    blackjack: list[Blackjack] = []

    def make(bot: Any) -> Holdem:
        overrides = {"between_hands_seconds": 2.0}
        cogs.append(Holdem(bot, tap=tap, table_overrides=overrides, pacer=pacer))
        return cogs[-1]

    def make_blackjack(bot: Any) -> Blackjack:
        blackjack.append(Blackjack(bot, pacer=pacer))
        return blackjack[-1]

    ours = (".holdem", ".blackjack")
    extensions = [name for name in discover_extensions() if not name.endswith(ours)]
    bot = create_bot(
        config, storage=storage, recovery=recovery, identify_spacing=0,
        cogs=[make, make_blackjack], extensions=extensions, painters=Painters(painters),
    )  # fmt: skip
    stamps = Stamps()
    pauses_kept_short.enter_context(stamps.installed(bot))
    runner = asyncio.create_task(bot.start(config.discord.token))
    loop = asyncio.get_running_loop()
    try:
        measuring = await loop.run_in_executor(None, conn.recv)
        stamps.forget()  # the warm-up's clicks are not measured: their stamps only take memory
        drawing = DrawingClock()
        drawing.watch(bot.drawing)  # both games draw in the bot's one executor
        drawing.begin()
        measured_pauses = GcPauses()
        gc.callbacks.append(measured_pauses.callback)
        began, cpu_began = time.monotonic(), time.process_time()
        profiler = cProfile.Profile() if profile else None
        if profiler is not None:
            profiler.enable()
        granted_before = collections.Counter(pacer.granted)
        events_before = collections.Counter(events)
        requests_before = sum(p.requests for p in cogs[0].presenters.values())
        token_edits_before = sum(
            getattr(p.channel, "token_edits", 0) for p in cogs[0].presenters.values()
        )
        await loop.run_in_executor(None, conn.recv)  # stop
        ended, cpu_seconds = time.monotonic(), time.process_time() - cpu_began
        gc.callbacks.remove(measured_pauses.callback)
        drawing.end()
        if profiler is not None:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        finished = sum(1 for when in hands if began <= when <= ended)
        requests = sum(p.requests for p in cogs[0].presenters.values()) - requests_before
        token_edits = sum(getattr(p.channel, "token_edits", 0) for p in cogs[0].presenters.values())
        token_edits -= token_edits_before
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        tables = len(cogs[0].tables.tables()) if cogs[0].tables else 0
        waited = cogs[0].pacer.waited
        granted = collections.Counter(pacer.granted)
        granted.subtract(granted_before)
        measured_events = collections.Counter(events)
        measured_events.subtract(events_before)
        garbage = garbage_cycles() if cycles else {}
    finally:
        # As `felt run` stops on SIGTERM: commands refused from now on, the tables suspended
        # (hands voided, chips back), within the grace period, then the connection closed.
        await bot.shutdown("end of the benchmark")
        with contextlib.suppress(Exception):
            await runner
        await storage.close()
        restore()
        pauses_kept_short.close()
        conn.send({"stopped": True})
    return {
        "hands_per_minute": finished / ((ended - began) / 60),
        "bot_requests_per_second": requests / (ended - began),
        "cpu_seconds": cpu_seconds,
        "drawing_seconds": drawing.seconds,
        "painter_seconds": drawing.painter_seconds,
        "painter_mb": drawing.painter_mb,
        "painters": painters,
        "redraws_waited": getattr(getattr(pacer, "drawing", None), "redraws_waited", 0),
        "long_passes": getattr(getattr(pacer, "admission", None), "long_passes", 0),
        "token_edits_per_second": token_edits / (ended - began),
        "peak_mb": peak_mb,
        "tables": tables,
        "warmup": measuring["warmup"],
        "dealt": measuring["dealt"],
        "pacer_wait_seconds": waited,
        "granted": dict(granted),
        "turns": {key: when for key, when in turns.items() if began <= when <= ended},
        "events": dict(measured_events),
        "gc": pauses.summary(),
        "gc_measured": measured_pauses.summary(),
        "garbage": garbage,
        "parsed": stamps.parsed,
        "answered": stamps.answered,
    }


def garbage_cycles() -> dict[str, int]:
    """The objects in garbage cycles now (those frozen ones included), by type: what only the
    cyclic collector can free, and what ``short_pauses`` leaves until its hourly thaw."""
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kinds = collections.Counter(
            f"{type(item).__module__}.{type(item).__qualname__}" for item in gc.garbage
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return dict(kinds.most_common(25))


class Stamps:
    """When the bot's process parsed each interaction off the gateway and when it sent the
    interaction's answer, on ``time.monotonic`` (CLOCK_MONOTONIC, one clock for every process
    on the machine), so an acknowledgement's latency splits into its stages: the fake sending
    and the bot reading the gateway event, the bot's own work until its answer goes out, and
    the answer's trip to the fake (whose handling counts too)."""

    def __init__(self) -> None:
        self.parsed: dict[int, float] = {}
        self.answered: dict[int, float] = {}

    def forget(self) -> None:
        self.parsed.clear()
        self.answered.clear()

    @contextlib.contextmanager
    def installed(self, bot: Any) -> Iterator[Stamps]:
        from discord.webhook.async_ import AsyncWebhookAdapter

        parsers = bot._connection.parsers
        parse = parsers["INTERACTION_CREATE"]
        respond = AsyncWebhookAdapter.create_interaction_response

        def parse_stamped(data: dict[str, Any]) -> None:
            self.parsed[int(data["id"])] = time.monotonic()
            parse(data)

        def respond_stamped(adapter: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
            self.answered[int(interaction_id)] = time.monotonic()
            return respond(adapter, interaction_id, *args, **kwargs)

        parsers["INTERACTION_CREATE"] = parse_stamped
        AsyncWebhookAdapter.create_interaction_response = respond_stamped  # type: ignore[assignment]
        try:
            yield self
        finally:
            parsers["INTERACTION_CREATE"] = parse
            AsyncWebhookAdapter.create_interaction_response = respond  # type: ignore[method-assign]


def stages(bot: dict[str, Any], fake: dict[str, Any]) -> dict[str, list[float]]:
    """Each measured acknowledgement's stages in ms (see :class:`Stamps`)."""
    parsed, answered = bot["parsed"], bot["answered"]
    found: dict[str, list[float]] = {"gateway": [], "bot": [], "answer": []}
    for interaction_id, sent, acknowledged in fake["acknowledged"]:
        if interaction_id in parsed and interaction_id in answered:
            found["gateway"].append((parsed[interaction_id] - sent) * 1000)
            found["bot"].append((answered[interaction_id] - parsed[interaction_id]) * 1000)
            found["answer"].append((acknowledged - answered[interaction_id]) * 1000)
    return found


class DrawingClock:
    """The CPU time of the bot's drawing: its drawing threads', or its painter processes' (read
    from /proc while measuring), and the painters' peak memory."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.painter_seconds = 0.0
        self.painter_mb = 0.0
        self._pools: list[Any] = []
        self._began: dict[int, float] = {}

    def watch(self, executor: Any) -> None:
        from bot.discord.painters import PainterPool

        if executor is None:
            return
        if isinstance(executor, PainterPool):
            self._pools.append(executor)
            return
        submit = executor.submit

        def timed(fn: Any, *args: Any, **kwargs: Any) -> Any:
            def run() -> Any:
                began = time.thread_time()
                try:
                    return fn(*args, **kwargs)
                finally:
                    self.seconds += time.thread_time() - began

            return submit(run)

        executor.submit = timed

    def _painter_cpu(self) -> dict[int, float]:
        ticks = os.sysconf("SC_CLK_TCK")
        seconds = {}
        for pool in self._pools:
            for pid in pool.pids():
                with contextlib.suppress(OSError):
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    seconds[pid] = (int(fields[11]) + int(fields[12])) / ticks
        return seconds

    def begin(self) -> None:
        self._began = self._painter_cpu()

    def end(self) -> None:
        now = self._painter_cpu()
        self.painter_seconds = sum(cpu - self._began.get(pid, 0.0) for pid, cpu in now.items())
        for pid in now:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        self.painter_mb += int(line.split()[1]) / 1024


class GcPauses:
    """How long the bot's event loop stood still for the cyclic garbage collector, by
    generation (a full collection walks every object of a thousand tables)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.longest: collections.defaultdict[int, float] = collections.defaultdict(float)
        self.total: collections.defaultdict[int, float] = collections.defaultdict(float)
        self.count: collections.Counter[int] = collections.Counter()

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        took = time.perf_counter() - self.started
        generation = int(info["generation"])
        self.count[generation] += 1
        self.total[generation] += took
        self.longest[generation] = max(self.longest[generation], took)

    def summary(self) -> str:
        return "; ".join(
            f"gen {g}: {self.count[g]:,}, {self.total[g]:.1f} s in all, longest "
            f"{self.longest[g] * 1000:.0f} ms"
            for g in sorted(self.count)
        )


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def gc_thresholds(text: str) -> tuple[int, int, int]:
    """``--gc-thresholds``: three whole numbers, the first at least 1 (``gc.set_threshold``)."""
    parts = text.split(",")
    if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(
            f"expected three whole numbers such as 700,10,100: {text!r}"
        )
    young, middle, full = (int(part) for part in parts)
    if young < 1:
        raise argparse.ArgumentTypeError("the first threshold must be at least 1")
    return young, middle, full


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--blackjack", type=int, default=0, help="Blackjack tables besides")
    parser.add_argument("--edits", choices=("held", "immediate"), default="held")
    parser.add_argument(
        "--collector",
        choices=("frozen", "plain"),
        default="frozen",
        help="the garbage collector as `felt run` keeps it (frozen), or Python's default",
    )
    parser.add_argument(
        "--gc-thresholds",
        type=gc_thresholds,
        default=None,
        help="with the frozen collector, gc.set_threshold's three numbers (default: felt run's)",
    )
    parser.add_argument(
        "--freeze-from",
        type=int,
        choices=(1, 2),
        default=None,
        help="with the frozen collector, freeze after collections of this generation or older",
    )
    parser.add_argument(
        "--painters",
        choices=("processes", "threads"),
        default="processes",
        help="draw table pictures in worker processes (as `felt run` does) or in threads",
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=90.0, help="longest warm-up")
    parser.add_argument(
        "--ramp", type=float, default=OPENINGS_PER_SECOND, help="tables opened per second"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", action="store_true", help="profile the bot's event loop while measuring"
    )
    parser.add_argument(
        "--cycles",
        action="store_true",
        help="at the end, count the objects in garbage cycles by type (the collector's leftovers)",
    )
    return parser


def measure(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """One run: what the bot and what the fake measured."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    options = {"tables": args.tables, "seconds": args.seconds, "warmup": args.warmup}
    options["seed"] = args.seed
    options["blackjack"] = args.blackjack
    options["ramp"] = args.ramp
    child = context.Process(target=run_fake, args=(theirs, options), daemon=True)
    child.start()
    endpoints = ours.recv()
    with tempfile.TemporaryDirectory(prefix="felt-load-") as folder:
        bot = asyncio.run(
            bot_main(
                ours,
                endpoints,
                Path(folder),
                args.edits,
                args.collector,
                args.painters,
                args.profile,
                args.cycles,
                args.gc_thresholds,
                args.freeze_from,
            )
        )
    fake = ours.recv()
    child.join(30)
    return bot, fake


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    bot, fake = measure(args)
    report(args, bot, fake)
    return 0


def turn_delays(bot: dict[str, Any], fake: dict[str, Any]) -> list[float]:
    """Seconds from each member's turn beginning (in the bot) to the table message offering it."""
    shown = fake["shown"]
    return [shown[key] - began for key, began in bot["turns"].items() if key in shown]


def shares(counts: dict[str, int]) -> str:
    total = sum(counts.values()) or 1
    ordered = sorted(counts.items(), key=lambda item: -item[1])
    return ", ".join(f"{name} {count / total:.0%}" for name, count in ordered if count > 0)


def report(args: argparse.Namespace, bot: dict[str, Any], fake: dict[str, Any]) -> bool:
    latencies = [value * 1000 for value in fake["latencies"]]
    p50, p95, p99 = (percentile(latencies, q) for q in (0.50, 0.95, 0.99))
    slowest = max(latencies, default=float("nan"))
    by_kind: dict[str, list[float]] = collections.defaultdict(list)
    for kind, value in zip(fake["latency_kinds"], latencies, strict=True):
        by_kind[kind].append(value)
    goal_mb = 300 if args.tables <= 200 else 500
    blackjack = f", plus {args.blackjack} Blackjack tables" if args.blackjack else ""
    print(f"Hold'em load: {args.tables} tables (2 members and 4 bots each){blackjack}, bot in this "
          f"process, table edits {args.edits},")  # fmt: skip
    dealt = f"{bot['dealt']}/{args.tables} tables dealt"
    print(f"fake Discord in a child process; warm-up {bot['warmup']:.0f} s ({dealt}), then "
          f"{args.seconds:.0f} s measured.")  # fmt: skip
    started = fake["started"]
    print(f"  table started after      {percentile(started, 0.5):7.1f} / "
          f"{percentile(started, 0.9):.1f} / {max(started, default=float('nan')):.1f} s "
          f"p50 / p90 / max from `/holdem start` to the first turn on its message "
          f"({len(started):,} of {args.tables:,} tables by the end)")  # fmt: skip
    posted = [step[0] for step in fake["start_steps"]]
    joined = [step[1] for step in fake["start_steps"]]
    print(f"    ...of which: table message posted p50/p90 {percentile(posted, 0.5):.1f} / "
          f"{percentile(posted, 0.9):.1f} s; second member seated p50/p90 "
          f"{percentile(joined, 0.5):.1f} / {percentile(joined, 0.9):.1f} s")  # fmt: skip
    print(f"  interactions measured    {len(latencies):>10,}")
    print(f"  latency p50 / p95 / p99  {p50:7.1f} / {p95:.1f} / {p99:.1f} ms   (goal p99 <= 50)")
    print(f"  slowest acknowledgement  {slowest:>10.1f} ms  (goal: under 3,000)")
    print("    ...p50 / p99 by kind    " + "; ".join(
        f"{kind} {percentile(values, 0.5):.1f} / {percentile(values, 0.99):.1f} ms "
        f"({len(values):,})"
        for kind, values in sorted(by_kind.items(), key=lambda item: -len(item[1]))))  # fmt: skip
    split = stages(bot, fake)
    print("    ...p50 / p95 / p99 by stage (ms): " + "; ".join(
        f"{stage} {percentile(values, 0.5):.1f} / {percentile(values, 0.95):.1f} / "
        f"{percentile(values, 0.99):.1f}" for stage, values in split.items())
        + f" ({len(split['bot']):,} matched): the fake sending and the bot reading the event, "
        "the bot until its answer is sent, the answer until the fake took it")  # fmt: skip
    print(
        f"  fake Discord's CPU       {fake['fake_cpu_seconds'] / args.seconds:>10.0%} of a core "
        "(while measuring: a busy fake answers late, and its lateness counts as the bot's)"
    )
    missed = fake["unacknowledged"]
    print(f"  not acknowledged in 3 s  {sum(missed.values()):>10,}   (whole run, warm-up too: "
          f"{', '.join(f'{n} {what}' for what, n in missed.items()) or 'none'})")  # fmt: skip
    hands = bot["hands_per_minute"]
    print(f"  hands per minute         {hands:>10,.0f}   ({hands / args.tables:.2f} per table)")
    delays = turn_delays(bot, fake)
    print(f"  turn shown after         {percentile(delays, 0.5):7.2f} / "
          f"{percentile(delays, 0.9):.2f} / {max(delays, default=float('nan')):.2f} s "
          f"p50 / p90 / max over {len(delays):,} member turns (goal p90 <= 1.5)")  # fmt: skip
    counted = bot["events"]
    wanted = ("HandDealt", "HandFinished", "HandCancelled", "HoleCards", "TurnStarted")
    print("  table events             " + ", ".join(f"{counted.get(k, 0):,} {k}" for k in wanted))
    print(f"  429s received            {fake['rate_limited']:>10,}   (goal 0; whole run)")
    for route in fake["limited_routes"][:5]:
        print(f"    429 on {route}")
    print(f"  invalid requests         {fake['invalid']:>10,}   (401/403/429)")
    print(f"  bot requests per second  {bot['bot_requests_per_second']:>10.1f}   "
          f"(fake saw {fake['requests'] / args.seconds:.1f}/s in all)")  # fmt: skip
    per_hand = bot["bot_requests_per_second"] * 60 / hands if hands else float("nan")
    print(f"  bot requests per hand    {per_hand:>10.1f}   (the load-independent cost of a hand)")
    counted = global_requests(fake["routes"]) / args.seconds
    counted_per_hand = counted * 60 / hands if hands else float("nan")
    token_share = bot["token_edits_per_second"] / (bot["bot_requests_per_second"] or 1)
    print(f"  ...counted against the global 50/s {counted_per_hand:.1f} per hand, {counted:.1f}/s "
          f"in all ({token_share:.0%} of the tables' requests are edits through a click, "
          f"which Discord does not count)")  # fmt: skip
    print(f"  requests by route        {shares(_short_routes(fake['routes']))}")
    print(f"  requests by kind         {shares(fake['kinds'])}")
    print(f"  pacer grants by kind     {shares(bot['granted'])}")
    cpu = bot["cpu_seconds"]
    print(f"  bot CPU                  {cpu / args.seconds:>10.0%} of a core   "
          f"({cpu * 1000 * 60 / args.seconds / hands if hands else float('nan'):.0f} ms per hand, "
          f"drawing threads included; load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    drawn = bot["drawing_seconds"]
    per_hand = 1000 * 60 / args.seconds / hands if hands else float("nan")
    if bot["painters"] == "threads":
        print(f"  ...of which drawing      {drawn / (cpu or 1):>10.0%}   "
              f"({drawn * per_hand:.0f} ms per hand;"
              f" {bot['redraws_waited']:,} redraws waited for spare CPU, whole run)")  # fmt: skip
    else:
        painted = bot["painter_seconds"]
        print(f"  painter processes' CPU   {painted / args.seconds:>10.0%} of a core   "
              f"({painted * per_hand:.0f} ms per hand; {bot['redraws_waited']:,} redraws waited "
              f"for spare CPU, whole run)")  # fmt: skip
    print(f"  event loop passes that held table requests {bot['long_passes']:,} (whole run; "
          f"a pass over 10 ms: the loop had more than it could do at once)")  # fmt: skip
    memory = bot["peak_mb"] + bot["painter_mb"]
    print(f"  bot peak memory          {memory:>10.0f} MB (goal <= {goal_mb}; the bot's process "
          f"{bot['peak_mb']:.0f} MB, its painters {bot['painter_mb']:.0f} MB; fake: "
          f"{fake['fake_rss_mb']:.0f} MB)")  # fmt: skip
    print(f"  open tables at the end   {bot['tables']:>10}")
    print(f"  bot's garbage collections {bot['gc_measured']} while measuring; {bot['gc']} in the "
          f"whole run ({args.collector})")  # fmt: skip
    if bot["garbage"]:
        total = sum(bot["garbage"].values())
        print(f"  objects in garbage cycles at the end (the 25 commonest types): {total:,}")
        for kind, count in bot["garbage"].items():
            print(f"    {count:>9,}  {kind}")
    ok = (
        p99 <= 50
        and slowest < 3000
        and not missed
        and fake["rate_limited"] == 0
        and memory <= goal_mb
    )
    turns_ok = percentile(delays, 0.9) <= 1.5
    print(f"  issue 21 goals (ack p99, none over 3 s, no 429, memory) {'met' if ok else 'NOT met'};"
          f" turn shown p90 <= 1.5 s {'met' if turns_ok else 'NOT met'}")  # fmt: skip
    return ok and turns_ok


EDIT_ROUTE = "PATCH /channels/{channel_id}/messages/{message_id}"
CLICK_EDIT_ROUTE = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
"""A table message edited through a member's click (``bot/discord/interaction_edits.py``)."""
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{token}/callback"
_ROUTE_NAMES = {
    EDIT_ROUTE: "message edits",
    "POST /channels/{channel_id}/messages": "message posts",
    CALLBACK_ROUTE: "interaction answers",
    "POST /webhooks/{application_id}/{token}": "followups",
    CLICK_EDIT_ROUTE: "interaction-token edits (table messages through a click, replies)",
    "POST /users/@me/channels": "DM opens",
}


def global_requests(routes: dict[str, int]) -> int:
    """Requests Discord counts against the bot's global limit: all but interaction endpoints
    (the callback, and the webhook routes an interaction's token opens)."""
    return sum(
        count
        for route, count in routes.items()
        if not route.startswith("POST /interactions/") and " /webhooks/" not in route
    )


def _short_routes(routes: dict[str, int]) -> dict[str, int]:
    named: collections.Counter[str] = collections.Counter()
    for route, count in routes.items():
        named[_ROUTE_NAMES.get(route, "other")] += count
    return dict(named)


if __name__ == "__main__":
    sys.exit(main())
