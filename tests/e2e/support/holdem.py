"""The Hold'em driver: the real bot with a Hold'em cog built for tests (no delays, stepped timers,
recorded events and hole cards), and helpers that act as members through the fake Discord."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

from bot.discord.client import FeltBot, discover_extensions
from bot.discord.cogs.holdem import Holdem
from bot.discord.holdem import ids
from bot.discord.pacing import Pacer
from bot.holdem.events import HandDealt, HandFinished, HandsTabled, TableEvent
from bot.holdem.host import HoldemTable
from bot.holdem.seating import BotFactory
from engine.cards import Card
from tests.bot.holdem.support import calling_station
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMember, FakeMessage
from tests.e2e.support.bot_world import StartBot, World, channel_window
from tests.e2e.support.decks import DeckSpec, StackedDecks
from tests.e2e.support.timers import SteppedScheduler

HOLDEM_EXTENSION = "bot.discord.cogs.holdem"
ACTION = re.compile(ids.ACTION_TEMPLATE)
FAST = {"bot_delay_seconds": 0.0, "between_hands_seconds": 0.0}

K = TypeVar("K")
"""The kind of event a test asks for."""


@dataclasses.dataclass
class HoldemWorld:
    """The bot under test, its Hold'em cog and what the tables told it."""

    fake: FakeDiscord
    world: World
    bot: FeltBot
    cog: Holdem
    scheduler: SteppedScheduler
    events: list[tuple[int, TableEvent]]
    times: list[float]
    """When each event was published (the fake's clock), parallel to ``events``."""
    hole_cards: dict[tuple[int, int], list[tuple[Card, Card]]]
    """(table id, hand id) -> every dealt-in player's hole cards (bots included)."""

    @property
    def channel(self) -> Any:
        return self.world.channel

    def table(self) -> HoldemTable:
        assert self.cog.tables is not None
        table = self.cog.tables.get(self.world.channel.id)
        assert table is not None, "no table in #poker"
        return table

    def of(self, kind: type[K]) -> list[K]:
        return [event for _channel, event in self.events if isinstance(event, kind)]

    def hands_finished(self) -> int:
        return len(self.of(HandFinished))

    def shown_cards(self, hand_id: int) -> set[Card]:
        shown: set[Card] = set()
        for event in self.of(HandsTabled) + self.of(HandFinished):
            if event.hand_id == hand_id:
                hands = event.hands if isinstance(event, HandsTabled) else event.shown
                for hand in hands:
                    shown.update(hand.cards)
        return shown

    def boards(self, hand_id: int) -> set[Card]:
        for event in self.of(HandFinished):
            if event.hand_id == hand_id:
                return set(event.board)
        return set()

    # ----- what members see ---------------------------------------------------------------------

    def table_message(self) -> FakeMessage | None:
        """The newest table message in #poker (it has the table image)."""
        for message in reversed(self.fake.channel_messages(self.world.channel)):
            if "holdem-table.png" in message.filenames:
                return message
        return None

    def offer(self, member: FakeMember) -> tuple[FakeMessage, ids.ActionRef] | None:
        """The table message if it offers ``member`` the current action: it names them and its
        buttons carry the host's current hand and action number."""
        message = self.table_message()
        if message is None or member.id not in message.mentions:
            return None
        refs = {
            ids.ActionRef(int(m["table"]), int(m["hand"]), int(m["count"]))
            for button in message.buttons
            if button.custom_id and (m := ACTION.fullmatch(button.custom_id))
        }
        table = self.cog.tables.get(self.world.channel.id) if self.cog.tables else None
        if table is None:
            return None
        snapshot = table.snapshot()
        current = ids.ActionRef(snapshot.table_id, snapshot.hand_id or 0, snapshot.action_count)
        seat = snapshot.seat(snapshot.to_act_seat or 0)
        if refs != {current} or seat is None or seat.user_id != member.id:
            return None
        return message, current

    async def wait_offer(
        self, member: FakeMember, within: float = 20.0
    ) -> tuple[FakeMessage, ids.ActionRef]:
        found: list[tuple[FakeMessage, ids.ActionRef]] = []

        def check() -> bool:
            offer = self.offer(member)
            if offer is not None:
                found.append(offer)
            return offer is not None

        await self.fake.wait_until(check, within=within, what=f"{member.name}'s turn on the table")
        return found[-1]

    def moved_on(self, ref: ids.ActionRef) -> bool:
        """Whether the table is past the offer ``ref`` (or closed)."""
        table = self.cog.tables.get(self.world.channel.id) if self.cog.tables else None
        if table is None:
            return True
        snapshot = table.snapshot()
        return (snapshot.hand_id, snapshot.action_count) != (ref.hand_id, ref.action_count)

    async def act(self, member: FakeMember, label: str | None = None) -> FakeInteraction:
        """Click ``label`` (default: check or call) on ``member``'s offer; wait until the table
        moved on."""
        message, ref = await self.wait_offer(member)
        clicked = await self.fake.click(member, message, label=label or passive(message))
        await clicked.wait_answered()
        await self.wait_host(lambda: self.moved_on(ref), f"the table to take {member.name}'s move")
        return clicked

    async def next_turn(
        self, members: Sequence[FakeMember], until: Callable[[], bool]
    ) -> FakeMember | None:
        """The first of ``members`` offered an action, or None once ``until()`` holds."""
        found: list[FakeMember] = []

        def ready() -> bool:
            if until():
                return True
            found[:] = [m for m in members if self.offer(m) is not None]
            return bool(found)

        await self.fake.wait_until(ready, within=30, what="a member's turn")
        return None if until() or not found else found[0]

    async def play(self, members: Sequence[FakeMember], until: Callable[[], bool]) -> None:
        """Members check or call until ``until()`` holds."""
        while (member := await self.next_turn(members, until)) is not None:
            await self.act(member)

    async def turn_of(self, wanted: FakeMember, members: Sequence[FakeMember]) -> None:
        """The others check or call until ``wanted`` is offered an action."""
        while (member := await self.next_turn(members, lambda: False)) is not wanted:
            assert member is not None
            await self.act(member)

    def to_act(self) -> int | None:
        """The user id of the member to act now, if it is a member's turn."""
        table = self.table()
        snapshot = table.snapshot()
        if snapshot.legal is None or snapshot.to_act_seat is None:
            return None
        seat = snapshot.seat(snapshot.to_act_seat)
        return seat.user_id if seat is not None else None

    async def wait_host(
        self, predicate: Callable[[], bool], what: str, within: float = 20.0
    ) -> None:
        """Wait for the host to reach a state (re-checked whenever the fake Discord changes,
        which every table event ends up doing)."""
        await self.fake.wait_until(predicate, within=within, what=what)


def merged(worlds: Sequence[HoldemWorld]) -> HoldemWorld:
    """One record of runs of the bot one after the other (a restart) on the same database."""
    last = worlds[-1]
    return dataclasses.replace(
        last,
        events=[event for h in worlds for event in h.events],
        times=[when for h in worlds for when in h.times],
        hole_cards={key: cards for h in worlds for key, cards in h.hole_cards.items()},
    )


def passive(message: FakeMessage) -> str:
    """The check or call button of an offer."""
    labels = message.button_labels
    if "Check" in labels:
        return "Check"
    return next(label for label in labels if label.startswith("Call"))


def button(message: FakeMessage, prefix: str) -> str:
    """The label of the one button that starts with ``prefix``."""
    return next(label for label in message.button_labels if label.startswith(prefix))


Factory = Callable[..., Awaitable[HoldemWorld]]


@pytest.fixture
async def start_holdem(fake_discord: FakeDiscord, world: World, start_bot: StartBot) -> Factory:
    """Start the bot with a Hold'em cog for tests (no delays, stepped timers, recorded events;
    calling stations for bots unless ``bots`` builds others).

    Call again after ``bot.shutdown()`` (or ``cog.halt()`` and ``bot.close()`` for a crash) to
    restart on the same database.
    """

    async def start(
        *,
        decks: Mapping[int, DeckSpec] | None = None,
        seed: int = 7,
        overrides: Mapping[str, Any] | None = None,
        pacer: Pacer | None = None,
        linger: float = 0.0,
        bots: BotFactory = calling_station,
    ) -> HoldemWorld:
        scheduler = SteppedScheduler()
        events: list[tuple[int, TableEvent]] = []
        times: list[float] = []
        holes: dict[tuple[int, int], list[tuple[Card, Card]]] = {}
        cogs: list[Holdem] = []
        rng = StackedDecks(seed, decks)

        def tap(channel_id: int, event: TableEvent) -> None:
            events.append((channel_id, event))
            times.append(fake_discord.clock.now())
            if isinstance(event, HandDealt) and cogs and cogs[0].tables is not None:
                table = cogs[0].tables.get(channel_id)
                if table is not None and table.hand is not None:
                    holes[(table.table_id, event.hand_id)] = list(table.hand.hole_cards)
            fake_discord.changed()

        def make(bot: FeltBot) -> Holdem:
            cog = Holdem(
                bot,
                bots=bots,
                scheduler=scheduler,
                rng=lambda: rng,
                table_overrides={**FAST, **(overrides or {})},
                pacer=pacer or Pacer(channel_window=channel_window(fake_discord)),
                tap=tap,
                linger=linger,
            )
            cogs.append(cog)
            return cog

        extensions = [name for name in discover_extensions() if name != HOLDEM_EXTENSION]
        bot = await start_bot(extensions=extensions, cogs=[make])
        return HoldemWorld(fake_discord, world, bot, cogs[0], scheduler, events, times, holes)

    return start
