"""The real bot against the fake Discord with many Hold'em tables at once.

The fake Discord (and the simulated members who play) runs in a child process, so the bot's
process holds only the bot: its peak memory is what a real deployment would need. Each table
has two simulated members (they think 0.5-2.5 s, then mostly check or call, sometimes raise,
fold or peek at their cards) and bots in the other chairs (1 s per move). After a warm-up
(every table dealt its first hand), the run measures for ``--seconds``:

- interaction latency (from Discord sending the interaction to the bot acknowledging it),
  p50/p95/p99, over every button press and command;
- hands finished per minute, over all tables;
- 429 answers from the fake over the whole run (goal: none), each with what filled its bucket,
  and the bot's request rate;
- the bot process's peak resident memory (goal: at most 300 MB for 200 tables).

Goals: p99 <= 50 ms, no 429, <= 300 MB for 200 tables.

    .venv/bin/python bench/discord_load.py [--tables 200] [--seconds 60] [--warmup 90]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import multiprocessing
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

ACTION = re.compile(r"holdem:act:\d+:(\d+):(\d+):")
TABLE_IMAGE = "holdem-table.png"
KEEP_MESSAGES = 40


# ----- the fake Discord and its members (child process) ----------------------------------------


@dataclasses.dataclass
class Table:
    channel: Any
    members: list[Any]
    message: Any = None
    changed: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    offered: tuple[int, int] | None = None


def make_fake(tables: dict[int, Table], limited: list[str]) -> Any:
    from fakediscord import FakeDiscord

    class LoadFakeDiscord(FakeDiscord):
        """Keeps only recent messages and no attachment bytes, and tells each table's members
        when their channel changed."""

        def create_message(self, channel: Any, payload: Any, files: Any, **options: Any) -> Any:
            message = super().create_message(channel, payload, files, **options)
            table = tables.get(channel.id)
            if table is not None and not message.ephemeral:
                if TABLE_IMAGE in message.filenames:
                    table.message = message
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
            if table is not None:
                table.changed.set()

        def _store_attachment(self, message: Any, part: Any, filename: str, entry: Any) -> Any:
            attachment = super()._store_attachment(message, part, filename, entry)
            self.attachments.pop(attachment.id, None)
            attachment.data = b""
            return attachment

    fake = LoadFakeDiscord(record_requests=False)
    explain_429s(fake, limited)
    return fake


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
    measuring: bool = False
    stopping: bool = False
    dealt: set[int] = dataclasses.field(default_factory=set)
    all_dealt: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)

    async def command(self, member: Any, channel: Any, name: str, **options: Any) -> None:
        interaction = await self.fake.slash(member, channel, name, **options)
        await self.record(interaction)

    async def record(self, interaction: Any) -> None:
        await interaction.wait_acknowledged(within=30)
        if self.measuring and interaction.acknowledged_at is not None:
            self.latencies.append(interaction.acknowledged_at - interaction.created_at)

    async def play(self, table: Table) -> None:
        """One table's two members: open it, join, then act whenever it is their turn."""
        first, second = table.members
        await self.command(first, table.channel, "holdem start", seats=6, bots=4, buy_in=1000)
        await self.command(second, table.channel, "holdem join", buy_in=1000)
        while not self.stopping:
            await table.changed.wait()
            table.changed.clear()
            offer = self.offer(table)
            if offer is None:
                continue
            member, message, ref = offer
            self.dealt.add(table.channel.id)
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
    fake = make_fake(tables, limited)
    await fake.start()
    guild = fake.create_guild("Load")
    for index in range(options["tables"]):
        channel = fake.create_channel(guild, f"poker-{index}")
        members = [fake.create_member(guild, f"p{index}{side}") for side in "ab"]
        tables[channel.id] = Table(channel, members)
    conn.send({"api": fake.api_base_url, "gateway": fake.gateway_url, "token": fake.token})
    await fake.wait_until(
        lambda: (
            fake.gateway.all_shards_ready()
            and any(c["name"] == "holdem" for c in fake.registered_commands())
        ),
        within=60,
        what="the bot",
    )
    driver = Driver(fake, tables, random.Random(options["seed"]), (0.5, 2.5))
    players = [asyncio.create_task(driver.play(table)) for table in tables.values()]
    started = time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(driver.all_dealt.wait(), options["warmup"])
    warmup = time.monotonic() - started
    requests_before = fake.stats.requests
    driver.measuring = True
    conn.send({"measuring": True, "dealt": len(driver.dealt), "warmup": warmup})
    await asyncio.sleep(options["seconds"])
    driver.measuring = False
    requests = fake.stats.requests - requests_before
    conn.send({"stop": True})
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # the bot has stopped
    driver.stopping = True
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    conn.send(
        {
            "latencies": driver.latencies,
            "rate_limited": fake.stats.rate_limited,
            "limited_routes": limited,
            "invalid": fake.stats.invalid,
            "errors": dict(fake.stats.by_code),
            "requests": requests,
            "fake_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    )
    await fake.stop()


def run_fake(conn: Connection, options: dict[str, Any]) -> None:
    asyncio.run(fake_main(conn, options))


# ----- the bot (this process) ------------------------------------------------------------------


async def bot_main(conn: Connection, endpoints: dict[str, Any], folder: Path) -> dict[str, Any]:
    from bot.config import DatabaseConfig, DiscordConfig, EconomyConfig, FeltConfig, HoldemConfig
    from bot.discord.client import apply_endpoints, create_bot, discover_extensions
    from bot.discord.cogs.holdem import Holdem
    from bot.discord.database import open_for_bot
    from bot.holdem.events import HandFinished

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
    hands: list[float] = []

    def tap(_channel: int, event: object) -> None:
        if isinstance(event, HandFinished):
            hands.append(time.monotonic())

    cogs: list[Holdem] = []

    def make(bot: Any) -> Holdem:
        cogs.append(Holdem(bot, tap=tap, table_overrides={"between_hands_seconds": 2.0}))
        return cogs[-1]

    extensions = [name for name in discover_extensions() if not name.endswith(".holdem")]
    bot = create_bot(
        config, storage=storage, recovery=recovery, identify_spacing=0, cogs=[make],
        extensions=extensions,
    )  # fmt: skip
    runner = asyncio.create_task(bot.start(config.discord.token))
    loop = asyncio.get_running_loop()
    try:
        measuring = await loop.run_in_executor(None, conn.recv)
        began = time.monotonic()
        requests_before = sum(p.requests for p in cogs[0].presenters.values())
        await loop.run_in_executor(None, conn.recv)  # stop
        ended = time.monotonic()
        finished = sum(1 for when in hands if began <= when <= ended)
        requests = sum(p.requests for p in cogs[0].presenters.values()) - requests_before
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        tables = len(cogs[0].tables.tables()) if cogs[0].tables else 0
        waited = cogs[0].pacer.waited
    finally:
        if cogs:
            await cogs[0].halt()
        await bot.close()
        with contextlib.suppress(Exception):
            await runner
        await storage.close()
        restore()
        conn.send({"stopped": True})
    return {
        "hands_per_minute": finished / ((ended - began) / 60),
        "bot_requests_per_second": requests / (ended - began),
        "peak_mb": peak_mb,
        "tables": tables,
        "warmup": measuring["warmup"],
        "dealt": measuring["dealt"],
        "pacer_wait_seconds": waited,
    }


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=90.0, help="longest warm-up")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    options = {"tables": args.tables, "seconds": args.seconds, "warmup": args.warmup}
    options["seed"] = args.seed
    child = context.Process(target=run_fake, args=(theirs, options), daemon=True)
    child.start()
    endpoints = ours.recv()
    with tempfile.TemporaryDirectory(prefix="felt-load-") as folder:
        bot = asyncio.run(bot_main(ours, endpoints, Path(folder)))
    fake = ours.recv()
    child.join(30)

    latencies = [value * 1000 for value in fake["latencies"]]
    p50, p95, p99 = (percentile(latencies, q) for q in (0.50, 0.95, 0.99))
    print(f"Hold'em load: {args.tables} tables (2 members and 4 bots each), bot in this process,")
    dealt = f"{bot['dealt']}/{args.tables} tables dealt"
    print(f"fake Discord in a child process; warm-up {bot['warmup']:.0f} s ({dealt}), then "
          f"{args.seconds:.0f} s measured.")  # fmt: skip
    print(f"  interactions measured    {len(latencies):>10,}")
    print(f"  latency p50 / p95 / p99  {p50:7.1f} / {p95:.1f} / {p99:.1f} ms   (goal p99 <= 50)")
    print(f"  hands per minute         {bot['hands_per_minute']:>10,.0f}")
    print(f"  429s received            {fake['rate_limited']:>10,}   (goal 0; whole run)")
    for route in fake["limited_routes"][:5]:
        print(f"    429 on {route}")
    print(f"  invalid requests         {fake['invalid']:>10,}   (401/403/429)")
    print(f"  bot requests per second  {bot['bot_requests_per_second']:>10.1f}   "
          f"(fake saw {fake['requests'] / args.seconds:.1f}/s in all)")  # fmt: skip
    print(f"  bot peak memory          {bot['peak_mb']:>10.0f} MB (goal <= 300; fake: "
          f"{fake['fake_rss_mb']:.0f} MB)")  # fmt: skip
    print(f"  open tables at the end   {bot['tables']:>10}")
    ok = p99 <= 50 and fake["rate_limited"] == 0 and bot["peak_mb"] <= 300
    print("  goals met" if ok else "  goals NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
