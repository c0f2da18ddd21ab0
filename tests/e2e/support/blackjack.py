"""Fixtures and helpers for the Blackjack end-to-end tests: the real bot with a Blackjack cog
built for tests, and helpers that act as members through the fake Discord.

- the table's timers run on a ``ManualScheduler``: the betting window closes and turns time out
  only when a test calls ``deal_by_clock``/``time_out`` (no test waits for a timer);
- the shoe is stacked: ``start_blackjack(cards="Th 9c 7d ...")`` deals exactly those cards, in
  the engine's dealing order (one card to each seat from the first, the dealer's up card, a
  second card to each seat, the hole card, then the draws);
- ``BlackjackWorld`` holds the running bot, its cog and every event the table published.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import pytest

from bot.blackjack.events import TableEvent
from bot.blackjack.host import BlackjackTable
from bot.blackjack.view import deciding
from bot.discord.blackjack import formatting, ids
from bot.discord.blackjack.options import HouseEdges
from bot.discord.blackjack.presenter import BlackjackPresenter
from bot.discord.client import FeltBot
from bot.discord.cogs.blackjack import Blackjack
from bot.discord.pacing import Pacer
from bot.tables.clock import ManualScheduler
from engine.blackjack import Rules, StackedShoe
from tests.e2e.fakediscord import (
    FakeDiscord,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    ResponseKind,
)
from tests.e2e.support.bot_world import StartBot, World, channel_window

ACTION = re.compile(ids.ACTION_TEMPLATE)
EXTENSIONS = ("bot.discord.cogs.admin", "bot.discord.cogs.economy", "bot.discord.cogs.stats")
"""The other cogs the tests run with (Hold'em stays out: its tables are not under test here)."""
FAST = {"betting_seconds": 10.0, "turn_seconds": 20.0}

K = TypeVar("K")
"""The kind of event a test asks for."""


@dataclasses.dataclass
class BlackjackWorld:
    """The bot under test, its Blackjack cog and what the tables told it."""

    fake: FakeDiscord
    world: World
    bot: FeltBot
    cog: Blackjack
    scheduler: ManualScheduler
    events: list[TableEvent]

    @property
    def channel(self) -> Any:
        return self.world.channel

    def table(self) -> BlackjackTable:
        table = self.cog.tables.get(self.world.channel.id)
        assert table is not None, "no Blackjack table in #poker"
        return table

    def presenter(self) -> BlackjackPresenter:
        return self.cog.presenters[self.world.channel.id]

    def of(self, kind: type[K]) -> list[K]:
        return [event for event in self.events if isinstance(event, kind)]

    # ----- what members see ---------------------------------------------------------------------

    def table_messages(self) -> list[FakeMessage]:
        """The channel's table messages (the ones with the table image), oldest first."""
        return [
            message
            for message in self.fake.channel_messages(self.world.channel)
            if formatting.IMAGE_NAME in message.filenames
        ]

    def table_message(self) -> FakeMessage | None:
        messages = self.table_messages()
        return messages[-1] if messages else None

    def posts(self) -> list[FakeMessage]:
        """The channel's other messages (results, cancellations)."""
        return [
            message
            for message in self.fake.channel_messages(self.world.channel)
            if formatting.IMAGE_NAME not in message.filenames
        ]

    def offer(self, member: FakeMember) -> FakeMessage | None:
        """The table message if its buttons offer ``member`` the decision the host waits for:
        they carry the host's current round and step, and ``member`` may decide now."""
        message = self.table_message()
        table = self.cog.tables.get(self.world.channel.id)
        if message is None or table is None:
            return None
        snapshot = table.snapshot()
        if member.id not in deciding(snapshot):
            return None
        refs = {
            (int(m["round"]), int(m["step"]))
            for button in message.buttons
            if button.custom_id and (m := ACTION.fullmatch(button.custom_id))
        }
        return message if refs == {(snapshot.round_id, snapshot.step)} else None

    async def wait_offer(self, member: FakeMember) -> FakeMessage:
        found: list[FakeMessage] = []

        def check() -> bool:
            offer = self.offer(member)
            if offer is not None:
                found.append(offer)
            return offer is not None

        await self.fake.wait_until(check, within=20, what=f"{member.name}'s turn on the table")
        return found[-1]

    async def wait_message(
        self, predicate: Callable[[FakeMessage], bool], what: str
    ) -> FakeMessage:
        """Wait until the newest table message satisfies ``predicate``."""
        found: list[FakeMessage] = []

        def check() -> bool:
            message = self.table_message()
            if message is not None and predicate(message):
                found.append(message)
                return True
            return False

        await self.fake.wait_until(check, within=20, what=what)
        return found[-1]

    async def settle(self) -> None:
        """Wait until the table's messages caught up with everything published."""
        presenter = self.cog.presenters.get(self.world.channel.id)
        if presenter is not None:
            await asyncio.wait_for(presenter.drain(), 30)

    # ----- acting as members --------------------------------------------------------------------

    async def bet(self, member: FakeMember, amount: Any, **options: Any) -> FakeInteraction:
        """``/blackjack deal bet:amount`` as ``member``; waits for the answer."""
        interaction = await self.fake.slash(
            member, self.world.channel, "blackjack deal", bet=amount, **options
        )
        await answered(self.fake, interaction)
        return interaction

    async def deal_by_clock(self) -> None:
        """Let the betting window run out: the cards are dealt."""
        await self.scheduler.advance(self.table().settings.betting_seconds)

    async def time_out(self) -> None:
        """Let the player to act run out of time."""
        await self.scheduler.advance(self.table().settings.turn_seconds)

    async def act(self, member: FakeMember, label: str) -> FakeInteraction:
        """Press ``label`` on ``member``'s offer and wait until the table moved on."""
        message = await self.wait_offer(member)
        before = self.table().snapshot()
        clicked = await self.fake.click(member, message, label=label)
        await clicked.wait_answered()
        assert clicked.response_kind is ResponseKind.DEFERRED_UPDATE_MESSAGE, clicked.messages
        await self.fake.wait_until(
            lambda: moved_on(self, before.round_id, before.step),
            what=f"{member.name}'s {label} to apply",
        )
        return clicked


def moved_on(h: BlackjackWorld, round_id: int | None, step: int) -> bool:
    table = h.cog.tables.get(h.world.channel.id)
    if table is None:
        return True
    snapshot = table.snapshot()
    return (snapshot.round_id, snapshot.step) != (round_id, step)


async def answered(fake: FakeDiscord, interaction: FakeInteraction) -> None:
    """Wait for an answer the member can read: a reply, or (after a deferral) a followup."""

    def done() -> bool:
        if interaction.errors or interaction.followups:
            return True
        if interaction.response_kind is ResponseKind.DEFERRED_UPDATE_MESSAGE:
            return False
        return interaction.answered

    await fake.wait_until(
        done, what=f"interaction {interaction.id} to be answered", interaction_id=interaction.id
    )


async def refusal(
    h: BlackjackWorld,
    member: FakeMember,
    message: FakeMessage,
    *,
    label: str | None = None,
    custom_id: str | None = None,
) -> str:
    """Press a button expecting a refusal: only ``member`` sees it; returns its text."""
    clicked = await h.fake.click(member, message, label=label, custom_id=custom_id)
    await answered(h.fake, clicked)
    # After a deferred update the interaction's "original" is the message clicked on; the
    # refusal is the ephemeral followup.
    (reply,) = [m for m in clicked.messages if m.ephemeral]
    assert reply.ephemeral_for is member.user, reply
    return reply.content


Factory = Callable[..., Awaitable[BlackjackWorld]]


@pytest.fixture
async def start_blackjack(fake_discord: FakeDiscord, world: World, start_bot: StartBot) -> Factory:
    """Start the bot with a Blackjack cog for tests (stacked shoe, manual timers, recorded
    events). Call again after a shutdown or a crash to restart on the same database."""

    async def start(
        *,
        cards: str = "",
        rules: Rules | None = None,
        overrides: Mapping[str, Any] | None = None,
        pacer: Pacer | None = None,
        house_edges: HouseEdges | None = None,
        count_rng: random.Random | None = None,
    ) -> BlackjackWorld:
        scheduler = ManualScheduler(start=fake_discord.clock.now())
        events: list[TableEvent] = []
        cogs: list[Blackjack] = []
        changes: dict[str, Any] = {**FAST, **(overrides or {})}
        if rules is not None:
            changes["rules"] = rules

        def tap(_channel_id: int, event: TableEvent) -> None:
            events.append(event)
            fake_discord.changed()

        def make(bot: FeltBot) -> Blackjack:
            cog = Blackjack(
                bot,
                scheduler=scheduler,
                shoes=(lambda _rules: StackedShoe.of(cards)) if cards else None,
                table_overrides=changes,
                pacer=pacer or Pacer(per_second=45.0, channel_window=channel_window(fake_discord)),
                house_edges=house_edges,
                tap=tap,
                linger=0.0,
                count_rng=count_rng,
            )
            cogs.append(cog)
            return cog

        bot = await start_bot(extensions=list(EXTENSIONS), cogs=[make])
        return BlackjackWorld(fake_discord, world, bot, cogs[0], scheduler, events)

    return start
