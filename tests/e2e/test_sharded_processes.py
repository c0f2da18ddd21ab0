"""Sharded bots proven together (issue 15): the real `felt run` as several processes, each
running some shards, against the fake Discord and one database (PostgreSQL: 3 processes over 6
guilds; SQLite: 2 processes sharing one WAL file over 4 guilds).

Every guild has a Hold'em hand waiting for its player and an open Blackjack round; one shard
process is SIGKILLed in the middle of them. The others keep playing untouched (their hands and
rounds finish, every click is accepted, nothing of theirs is voided); a second `felt run` for
living shards is refused in one line naming the holder; the killed shard restarted alone takes
over at once (same host, process gone), recovers exactly its own guilds and serves them again
(the time it takes is printed: issue 15 asks for under 10 s, a figure measured here, not asserted,
since a timed assert only measures how busy the machine is); after SIGTERM every lease is
released and `felt db check` accounts for every chip.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.discord.blackjack import ids as blackjack_ids
from storage import HandStatus, RoundStatus, Storage
from storage.shards import shard_of
from tests.e2e.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, FakeMessage
from tests.e2e.fakediscord.model import ResponseKind
from tests.e2e.support.bot_world import scaled_rules
from tests.e2e.support.felt_process import REPOSITORY, start_felt_run, write_run_config
from tests.e2e.support.holdem import ACTION, passive
from tests.storage.support import PostgresServer, postgres_server_running

RESTART_GUARD_SECONDS = 60.0
"""How long the test waits for a restarted shard before calling it stuck (a hang guard; the
restart time itself is printed, and was 1.05-3.29 s against issue 15's 10 s goal)."""


@dataclass(frozen=True, slots=True)
class Place:
    """One guild: a Hold'em channel with Alice at a table, a Blackjack channel where Bob bets."""

    guild: FakeGuild
    shard: int
    poker: FakeChannel
    blackjack: FakeChannel
    alice: FakeMember
    bob: FakeMember


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with postgres_server_running() as server:
        yield server


def write_config(folder: Path, fake: FakeDiscord, shards: int, database: str | Path) -> Path:
    return write_run_config(
        folder / "config.toml",
        api_base_url=fake.api_base_url,
        gateway_url=fake.gateway_url,
        database=database,
        discord=f"shard_count = {shards}\nshutdown_grace_seconds = 5\n",
        sections="[holdem]\nbot_delay_seconds = 0\nturn_seconds = 600\n"
        "[blackjack]\nbetting_seconds = 120\nturn_seconds = 600\n"
        '[logging]\nformat = "json"\n',
    )


async def felt_run(config: Path, token: str, shard: int, shards: int) -> asyncio.subprocess.Process:
    shard_ids = ("--shard-ids", str(shard), "--shard-count", str(shards))
    return await start_felt_run(config, token, *shard_ids, quiet_stdout=True)


def make_places(fake: FakeDiscord, shards: int, per_shard: int) -> list[Place]:
    places = []
    for shard in range(shards):
        for n in range(per_shard):
            guild = fake.create_guild(f"Guild {shard}.{n}", shard=shard)
            assert shard_of(guild.id, shards) == shard
            places.append(
                Place(
                    guild,
                    shard,
                    fake.create_channel(guild, "poker"),
                    fake.create_channel(guild, "blackjack"),
                    fake.create_member(guild, f"Alice{shard}{n}"),
                    fake.create_member(guild, f"Bob{shard}{n}"),
                )
            )
    return places


async def poll(condition: Callable[[], Awaitable[bool]], what: str, within: float = 30.0) -> None:
    """Wait until the async ``condition()`` (a look at the database) holds."""
    deadline = time.monotonic() + within
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


# ----- reading the database from the test --------------------------------------------------------


async def open_hands(database: str | Path) -> dict[int, list[tuple[int, int]]]:
    """Each guild's hands in progress, as (table id, hand id)."""
    async with await Storage.open(database, create=False, migrate=False, pool_size=1) as storage:
        tables = await storage.list_tables(open_only=True)
    found: dict[int, list[tuple[int, int]]] = {}
    for table in tables:
        if table.hand_in_progress is not None:
            found.setdefault(table.guild_id, []).append((table.table_id, table.hand_in_progress))
    return found


async def round_status(database: str | Path, guild_id: int) -> dict[int, RoundStatus]:
    async with await Storage.open(database, create=False, migrate=False, pool_size=1) as storage:
        return {r.round_id: r.status for r in await storage.list_rounds(guild_id, limit=20)}


async def hand_status(database: str | Path, table_id: int, hand_id: int) -> HandStatus:
    async with await Storage.open(database, create=False, migrate=False, pool_size=1) as storage:
        hand = await storage.get_hand(table_id, hand_id)
    assert hand is not None
    return hand.status


# ----- acting as members -------------------------------------------------------------------------


def newest_with(fake: FakeDiscord, channel: FakeChannel, label_prefix: str) -> FakeMessage | None:
    for message in reversed(fake.channel_messages(channel)):
        if any(label.startswith(label_prefix) for label in message.button_labels):
            return message
    return None


def holdem_offer(
    fake: FakeDiscord, place: Place, hand: tuple[int, int], seen: set[str]
) -> FakeMessage | None:
    """The table message offering Alice an action in ``hand`` (table id, hand id) that she has
    not answered yet (a message from before a restart offers a hand that is over)."""
    for message in reversed(fake.channel_messages(place.poker)):
        if "holdem-table.png" not in message.filenames:
            continue
        ids = {
            button.custom_id
            for button in message.buttons
            if (m := ACTION.fullmatch(button.custom_id or ""))
            and (int(m["table"]), int(m["hand"])) == hand
        }
        if place.alice.id in message.mentions and ids and not ids & seen:
            return message
    return None


async def accepted(interaction: Any) -> None:
    await interaction.wait_answered(within=20)
    assert interaction.errors == [], interaction.errors
    assert interaction.response_kind is ResponseKind.DEFERRED_UPDATE_MESSAGE, [
        m.text for m in interaction.messages
    ]


async def play_a_hand_out(fake: FakeDiscord, place: Place, database: str | Path) -> int:
    """Alice checks or calls until the hand in progress has ended; how many clicks it took."""
    ((table_id, hand_id),) = (await open_hands(database))[place.guild.id]
    seen: set[str] = set()
    clicks = 0
    deadline = time.monotonic() + 60
    while await hand_status(database, table_id, hand_id) is HandStatus.IN_PROGRESS:
        assert time.monotonic() < deadline, f"hand {hand_id} never ended: {fake.describe()}"
        found: list[FakeMessage] = []

        def offered(found: list[FakeMessage] = found) -> bool:
            offer = holdem_offer(fake, place, (table_id, hand_id), seen)
            if offer is not None:
                found.append(offer)
            return offer is not None

        try:
            await fake.wait_until(offered, within=3, what="Alice's turn")
        except (AssertionError, TimeoutError):
            continue  # the hand may have ended without another turn for Alice
        message = found[-1]
        seen.update(b.custom_id for b in message.buttons if b.custom_id)
        await accepted(await fake.click(place.alice, message, label=passive(message)))
        clicks += 1
    assert await hand_status(database, table_id, hand_id) is HandStatus.SETTLED
    return clicks


BLACKJACK_ACTION = re.compile(blackjack_ids.ACTION_TEMPLATE)
PASSIVE_BLACKJACK = ("stand", "no_insurance")
"""What Bob answers: he declines insurance and stands on every hand."""


def blackjack_offer(
    fake: FakeDiscord, place: Place, round_id: int, pressed: set[str]
) -> str | None:
    """The custom id of a stand (or no-insurance) button of ``round_id`` not pressed yet."""
    for message in reversed(fake.channel_messages(place.blackjack)):
        for button in message.buttons:
            found = BLACKJACK_ACTION.fullmatch(button.custom_id or "")
            if (
                found
                and int(found["round"]) == round_id
                and found["action"] in PASSIVE_BLACKJACK
                and button.custom_id not in pressed
            ):
                return button.custom_id
    return None


async def finish_the_round(fake: FakeDiscord, place: Place, database: str | Path) -> None:
    """Bob deals his open round now and stands until it is settled."""
    statuses = await round_status(database, place.guild.id)
    (round_id,) = [r for r, status in statuses.items() if status is RoundStatus.OPEN]
    deal = newest_with(fake, place.blackjack, "Deal now")
    assert deal is not None
    await accepted(await fake.click(place.bob, deal, label="Deal now"))
    pressed: set[str] = set()
    deadline = time.monotonic() + 60
    while (await round_status(database, place.guild.id))[round_id] is RoundStatus.OPEN:
        assert time.monotonic() < deadline, f"round {round_id} never ended: {fake.describe()}"
        custom_id = blackjack_offer(fake, place, round_id, pressed)
        if custom_id is not None:
            pressed.add(custom_id)
            message = next(
                m
                for m in reversed(fake.channel_messages(place.blackjack))
                if custom_id in {b.custom_id for b in m.buttons}
            )
            await accepted(await fake.click(place.bob, message, custom_id=custom_id))
        await asyncio.sleep(0.05)
    assert (await round_status(database, place.guild.id))[round_id] is RoundStatus.SETTLED


async def sit_and_bet(fake: FakeDiscord, place: Place) -> None:
    """Alice opens a heads-up table against one bot (the hand waits for her); Bob bets."""
    opened = await fake.slash(place.alice, place.poker, "holdem start", seats=2, bots=1)
    await opened.wait_answered(within=20)
    bet = await fake.slash(place.bob, place.blackjack, "blackjack deal", bet=50)
    await bet.wait_answered(within=20)
    assert "You bet 50 chips" in "".join(m.text for m in bet.messages), (
        bet.errors,
        bet.response_kind,
        fake.describe(),
    )


async def ping(fake: FakeDiscord, place: Place) -> None:
    interaction = await fake.slash(place.alice, place.poker, "ping")
    await interaction.wait_answered(within=20)
    assert interaction.reply.content.startswith("Pong")


# ----- the test ----------------------------------------------------------------------------------


async def stop(process: asyncio.subprocess.Process) -> str:
    process.send_signal(signal.SIGTERM)
    _out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()[-3000:]
    return err.decode()


def felt_db(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", *arguments],
        capture_output=True,
        check=False,
        text=True,
        timeout=60,
        cwd=REPOSITORY,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )


@pytest.mark.parametrize(
    ("backend", "shards", "per_shard"),
    [
        ("postgresql", 3, 2),
        ("sqlite", 2, 2),
        pytest.param("postgresql", 4, 4, marks=pytest.mark.slow),
        pytest.param("sqlite", 3, 3, marks=pytest.mark.slow),
    ],
)
async def test_sharded_processes_survive_one_being_killed_mid_hand(
    backend: str, shards: int, per_shard: int, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "postgresql":
        database: str | Path = request.getfixturevalue("postgres").new_database()
    else:
        database = tmp_path / "shared.db"
    async with FakeDiscord(rate_limits=scaled_rules(10), recommended_shards=shards) as fake:
        processes: list[asyncio.subprocess.Process] = []
        try:
            await run_and_kill_one(fake, shards, per_shard, database, tmp_path, processes)
        finally:
            for process in processes:
                if process.returncode is None:
                    process.kill()
                    await process.wait()

    instances = felt_db("instances", "--db", str(database))
    assert instances.returncode == 0, instances.stderr
    assert "0 living instance(s)" in instances.stdout
    assert "(its process was gone when another started)" in instances.stdout
    assert instances.stdout.count("(stopped)") == shards
    check = felt_db("check", "--db", str(database))
    assert check.returncode == 0, check.stdout
    assert "OK: every balance equals its ledger" in check.stdout


async def run_and_kill_one(
    fake: FakeDiscord,
    shards: int,
    per_shard: int,
    database: str | Path,
    folder: Path,
    processes: list[asyncio.subprocess.Process],
) -> None:
    places = make_places(fake, shards, per_shard)
    configs = [write_config(folder / f"shard{i}", fake, shards, database) for i in range(shards)]
    await start_every_shard_mid_game(fake, shards, database, places, configs, processes)
    await refuse_a_second_process_for_a_living_shard(fake, shards, configs, processes)
    killed = 1
    before = await kill_one_while_the_others_play_on(fake, killed, database, places, processes)
    victims = [p for p in places if p.shard == killed]
    survivors = [p for p in places if p.shard != killed]
    processes[killed] = await restart_and_recover(fake, killed, shards, database, configs, victims)
    await check_every_game_ended_as_it_should(database, before, victims, survivors)
    # The restored tables play on: a new hand in each of the restarted shard's guilds.
    await poll(lambda: all_in_hand(database, victims), "a new hand on every restored table")
    await asyncio.gather(*(play_a_hand_out(fake, p, database) for p in victims))
    # Processes do not share rate-limit state (docs/deploy.md: a REST proxy does that): a 429
    # is Discord asking one to wait, which discord.py does before retrying. Nothing else.
    assert [(r.status, r.route) for r in fake.errors() if r.status != 429] == []

    # A graceful stop of every process releases every lease.
    for process in processes:
        await stop(process)


async def start_every_shard_mid_game(
    fake: FakeDiscord,
    shards: int,
    database: str | Path,
    places: list[Place],
    configs: list[Path],
    processes: list[asyncio.subprocess.Process],
) -> None:
    """Start one process per shard and leave a hand and a round in progress in every guild."""
    for shard in range(shards):
        processes.append(await felt_run(configs[shard], fake.token, shard, shards))
    await fake.wait_until(
        lambda: fake.gateway.all_shards_ready() and bool(fake.registered_commands()),
        within=60,
        what="every shard process to connect",
    )
    # One guild after the other: on a loaded machine, a burst of first commands to freshly
    # started processes can miss Discord's 3 s answer deadline (what this test is not about).
    for place in places:
        await sit_and_bet(fake, place)
    await poll(lambda: all_in_hand(database, places), "a hand in progress in every guild")


async def refuse_a_second_process_for_a_living_shard(
    fake: FakeDiscord,
    shards: int,
    configs: list[Path],
    processes: list[asyncio.subprocess.Process],
) -> None:
    """A second process for a living shard is refused before it touches anything."""
    duplicate = await felt_run(configs[0], fake.token, 0, shards)
    _out, err = await asyncio.wait_for(duplicate.communicate(), 60)
    last = err.decode().strip().splitlines()[-1]
    assert duplicate.returncode == 1
    assert last.startswith("felt run: another Felt holds these shards: instance ")
    assert f"pid {processes[0].pid}, since " in last and "--takeover" in last


async def kill_one_while_the_others_play_on(
    fake: FakeDiscord,
    killed: int,
    database: str | Path,
    places: list[Place],
    processes: list[asyncio.subprocess.Process],
) -> dict[int, list[tuple[int, int]]]:
    """SIGKILL shard ``killed`` in the middle of its hands and rounds; the others keep playing
    (every hand and round of theirs finishes, every click accepted). Returns the open hands
    from before the kill."""
    before = await open_hands(database)
    processes[killed].send_signal(signal.SIGKILL)
    await processes[killed].wait()
    victims = [p for p in places if p.shard == killed]
    survivors = [p for p in places if p.shard != killed]

    # The others keep playing: every hand and round of theirs finishes, every click accepted.
    await asyncio.gather(*(play_a_hand_out(fake, p, database) for p in survivors))
    await asyncio.gather(*(finish_the_round(fake, p, database) for p in survivors))
    after = await open_hands(database)
    for place in victims:  # nobody touched the dead shard's games meanwhile
        assert after[place.guild.id] == before[place.guild.id]
    return before


async def restart_and_recover(
    fake: FakeDiscord,
    killed: int,
    shards: int,
    database: str | Path,
    configs: list[Path],
    victims: list[Place],
) -> asyncio.subprocess.Process:
    """Restart the killed shard alone: it takes over at once and serves its guilds again (the
    time it took is printed). Returns the new process."""
    started = time.monotonic()
    process = await felt_run(configs[killed], fake.token, killed, shards)
    await fake.wait_until(
        lambda: (
            (session := fake.gateway.current.get(killed)) is not None
            and session.ready
            and session.connection is not None
        ),
        within=RESTART_GUARD_SECONDS,
        what="the restarted shard to connect",
    )
    await asyncio.gather(*(ping(fake, place) for place in victims))
    for place in victims:
        await fake.wait_for_message(
            place.poker, lambda m: "this table is back" in m.text, within=RESTART_GUARD_SECONDS
        )
    serving = time.monotonic() - started
    print(f"\nrestarted shard serving its guilds {serving:.2f} s after starting ({database})")
    return process


async def check_every_game_ended_as_it_should(
    database: str | Path,
    before: dict[int, list[tuple[int, int]]],
    victims: list[Place],
    survivors: list[Place],
) -> None:
    """The killed shard's hands were voided and rounds refunded; the others' were settled."""
    for place in victims:
        ((table_id, hand_id),) = before[place.guild.id]
        assert await hand_status(database, table_id, hand_id) is HandStatus.VOIDED
        assert set((await round_status(database, place.guild.id)).values()) == {
            RoundStatus.REFUNDED
        }
    for place in survivors:
        ((table_id, hand_id),) = before[place.guild.id]
        assert await hand_status(database, table_id, hand_id) is HandStatus.SETTLED
        assert set((await round_status(database, place.guild.id)).values()) == {RoundStatus.SETTLED}


async def all_in_hand(database: str | Path, places: list[Place]) -> bool:
    hands = await open_hands(database)
    return all(len(hands.get(place.guild.id, [])) == 1 for place in places)
