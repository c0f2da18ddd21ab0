"""Fixtures and helpers for the Hold'em end-to-end tests: the real bot, a Hold'em cog built for
tests, and helpers that act as members through the fake Discord.

- ``SteppedScheduler``: bot moves and the pause between hands run on the event loop at once;
  turn timers wait until the test calls ``expire_turn`` (no test waits for a timer);
- ``StackedDecks``: a random generator that deals chosen cards for chosen hands (split pots);
- ``HoldemWorld``: the running bot, its Hold'em cog, every event the tables published, and the
  hole cards of every hand (so privacy checks know what must never be public);
- ``start_holdem``: starts the bot with that cog (``fake_discord``/``world``/``start_bot`` come
  from ``conftest.py``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import heapq
import itertools
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest
from conftest import StartBot, World, channel_window
from fakediscord import (
    DEFAULT_RULES,
    FakeDiscord,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    RateLimitRule,
)

from bot.discord.client import FeltBot, discover_extensions
from bot.discord.cogs.holdem import Holdem
from bot.discord.holdem import ids
from bot.discord.pacing import Pacer
from bot.holdem.events import (
    HandDealt,
    HandFinished,
    HandsTabled,
    HoleCards,
    StreetDealt,
    TableEvent,
)
from bot.holdem.host import HoldemTable
from engine.cards import DECK, Card, parse_cards
from tests.bot.holdem.conftest import calling_station

HOLDEM_EXTENSION = "bot.discord.cogs.holdem"
ACTION = re.compile(ids.ACTION_TEMPLATE)
FAST = {"bot_delay_seconds": 0.0, "between_hands_seconds": 0.0}


def scaled_rules(speed: float) -> dict[str, RateLimitRule]:
    """Discord's per-route limits with windows ``speed`` times shorter (same counts): the same
    pacing problem, played faster."""
    return {
        route: RateLimitRule(rule.limit, rule.window / speed, rule.bucket)
        for route, rule in DEFAULT_RULES.items()
    }


# ----- time and cards ---------------------------------------------------------------------------


class _Timer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class SteppedScheduler:
    """Delays below ``threshold`` run on the event loop at once; longer ones (turn timers) wait
    for ``expire_turn``/``advance``. ``now()`` is wall-clock time plus what was advanced."""

    def __init__(self, threshold: float = 1.0) -> None:
        self.threshold = threshold
        self.offset = 0.0
        self._held: list[tuple[float, int, _Timer, Callable[[], Awaitable[None]]]] = []
        self._order = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time() + self.offset

    def call_later(self, delay: float, callback: Callable[[], Awaitable[None]]) -> _Timer:
        timer = _Timer()
        if delay < self.threshold:
            loop = asyncio.get_running_loop()

            def fire() -> None:
                if not timer.cancelled:
                    task = loop.create_task(self._guarded(callback))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

            loop.call_soon(fire)
        else:
            heapq.heappush(self._held, (self.now() + delay, next(self._order), timer, callback))
        return timer

    @property
    def held(self) -> int:
        return sum(1 for *_, timer, _cb in self._held if not timer.cancelled)

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` and run the held timers that fell due, in order."""
        self.offset += seconds
        now = self.now()
        while self._held and self._held[0][0] <= now:
            _due, _, timer, callback = heapq.heappop(self._held)
            if not timer.cancelled:
                await self._guarded(callback)

    async def expire_turn(self) -> None:
        """Jump to the next live held timer (a turn timeout) and run it."""
        live = [entry for entry in self._held if not entry[2].cancelled]
        if not live:
            raise AssertionError("no turn timer is running")
        due = min(live)[0]
        await self.advance(max(0.0, due - self.now()) + 0.001)

    @staticmethod
    async def _guarded(callback: Callable[[], Awaitable[None]]) -> None:
        try:
            await callback()
        except Exception as error:  # a failing timer must fail the test, not vanish
            raise AssertionError(f"a table timer failed: {error!r}") from error


DeckSpec = Sequence[Card] | Callable[[], Sequence[Card]]


class StackedDecks(random.Random):
    """Deals ``decks[n]`` (cards in dealing order, or a function called when the hand is dealt
    that returns them) in the n-th hand dealt, random cards else.

    The engine draws each card with ``randrange(cards_left)`` (a Fisher-Yates step from the
    sorted deck), so the generator answers with the index that brings the wanted card forward.
    Other draws (the dealer button, bot seeds) are passed to the seeded generator.
    """

    def __init__(self, seed: int, decks: Mapping[int, DeckSpec] | None = None) -> None:
        super().__init__(seed)
        self.decks = dict(decks or {})
        self.hands_dealt = 0
        self._deck: list[Card] = []
        self._wanted: list[Card] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if stop is not None or not 24 <= start <= 52:
            return (
                super().randrange(start, stop, step)
                if stop is not None
                else super().randrange(start)
            )
        if start == 52:
            self.hands_dealt += 1
            self._deck = list(DECK)
            spec = self.decks.get(self.hands_dealt, ())
            self._wanted = list(spec() if callable(spec) else spec)
        i = 52 - start
        if i < len(self._wanted):
            j = self._deck.index(self._wanted[i])
        else:
            j = i + super().randrange(start)
        self._deck[i], self._deck[j] = self._deck[j], self._deck[i]
        return j - i


def dealing_order(seats: Sequence[int], previous_button: int) -> list[int]:
    """Seats in the order a hand deals them: first left of the next button, the button last
    (the standard rule, which PHH's player numbering follows)."""
    ordered = sorted(seats)
    later = [seat for seat in ordered if seat > previous_button]
    button = later[0] if later else ordered[0]
    after = ordered.index(button) + 1
    return ordered[after:] + ordered[:after]


def deck(holes: Sequence[str], board: str) -> list[Card]:
    """Cards in dealing order: one card to each player in turn, twice, then burn + flop,
    burn + turn, burn + river (the burns are taken from cards nobody holds)."""
    hands = [parse_cards(h) for h in holes]
    flop_turn_river = parse_cards(board)
    used = {*itertools.chain.from_iterable(hands), *flop_turn_river}
    spare = iter(card for card in DECK if card not in used)
    order = [hand[0] for hand in hands] + [hand[1] for hand in hands]
    order += [next(spare), *flop_turn_river[:3], next(spare), flop_turn_river[3]]
    order += [next(spare), flop_turn_river[4]]
    return order


# ----- the world --------------------------------------------------------------------------------


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

    def of(self, kind: type[Any]) -> list[Any]:
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


def every_card_token(text: str) -> Iterator[Card]:
    """Every card written in ``text``, as ``A♠``/``10♥`` or ``As``/``Th``."""
    for match in re.finditer(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([♣♦♥♠cdhs])(?![0-9A-Za-z])", text):
        rank = "T" if match.group(1) == "10" else match.group(1)
        suit = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}.get(match.group(2), match.group(2))
        yield parse_cards(rank + suit)[0]


Factory = Callable[..., Awaitable[HoldemWorld]]


@pytest.fixture(name="start_holdem")
async def start_holdem_fixture(
    fake_discord: FakeDiscord, world: World, start_bot: StartBot
) -> Factory:
    """Start the bot with a Hold'em cog for tests (no delays, stepped timers, recorded events).

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
                bots=calling_station,
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


# ----- the privacy check ------------------------------------------------------------------------

HAND_NUMBER = re.compile(r"Hand #(\d+)")
EPHEMERAL = 1 << 6


@dataclasses.dataclass
class PrivacyReport:
    """What ``check_privacy`` looked at and what it found."""

    public_payloads: int = 0
    public_with_cards: int = 0
    private_payloads: int = 0
    problems: list[str] = dataclasses.field(default_factory=list)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _sections(body: Any, files: Sequence[tuple[str, int]]) -> list[str]:
    """A payload's readable parts, each judged on its own: content, each embed, the components,
    and the attachments (file names and alt text)."""
    if not isinstance(body, Mapping):
        return [" ".join(name for name, _size in files)] if files else []
    data = body.get("data") if isinstance(body.get("data"), Mapping) else body
    sections = [str(data.get("content") or "")]
    sections += ["\n".join(_strings(embed)) for embed in data.get("embeds") or []]
    sections.append("\n".join(_strings(data.get("components") or [])))
    sections.append("\n".join(_strings(data.get("attachments") or [])))
    sections.append(" ".join(name for name, _size in files))
    if "title" in data:  # a modal
        sections.append(str(data["title"]))
    return [section for section in sections if section]


def _is_private(fake: FakeDiscord, request: Any) -> tuple[bool, int | None]:
    """Whether a request's message is seen by one member only, and that member."""
    parts = request.path.split("?")[0].split("/")
    body = request.body if isinstance(request.body, Mapping) else {}
    if request.route.startswith(("POST /channels/", "PATCH /channels/")):
        channel = fake.channels.get(int(parts[parts.index("channels") + 1]))
        if channel is not None and channel.recipient is not None:
            return True, channel.recipient.id
        return False, None
    if request.route == "POST /interactions/{interaction_id}/{token}/callback":
        interaction = fake.interactions.get(int(parts[parts.index("interactions") + 1]))
        user = interaction.user.id if interaction is not None else None
        data = body.get("data") if isinstance(body.get("data"), Mapping) else {}
        if body.get("type") == 9:  # a modal is shown to its member only
            return True, user
        if body.get("type") == 7 and interaction is not None and interaction.message is not None:
            return interaction.message.ephemeral, user
        return bool(int(data.get("flags") or 0) & EPHEMERAL), user
    token = parts[parts.index("webhooks") + 2]
    interaction = fake.interactions_by_token.get(token)
    user = interaction.user.id if interaction is not None else None
    if request.method == "POST":
        return bool(int(body.get("flags") or 0) & EPHEMERAL), user
    target = parts[-1]
    if interaction is None:
        return False, None
    messages = [interaction.original, *interaction.followups]
    for message in messages:
        if message is not None and (
            (target == "@original" and message is interaction.original) or str(message.id) == target
        ):
            return message.ephemeral, user
    return False, user


MESSAGE_ROUTES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /interactions/{interaction_id}/{token}/callback",
    "POST /webhooks/{application_id}/{token}",
    "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
)


def check_privacy(fake: FakeDiscord, played: HoldemWorld) -> PrivacyReport:
    """Every payload the bot sent, judged by who sees it.

    - public (channel messages, edits, public interaction answers): a section naming cards must
      name exactly one hand (``Hand #N``), and each card must be on that hand's board or among
      the cards turned face up in it, and not sent before they were turned up;
    - private (DMs, ephemeral answers): only the member's own hole cards, the board and shown
      cards of the hand named.
    """
    report = PrivacyReport()
    holes = {hand: cards for (_table, hand), cards in played.hole_cards.items()}
    own: dict[tuple[int, int], set[Card]] = {}
    for event in played.of(HoleCards):
        own[(event.hand_id, event.user_id)] = set(event.cards)
    shown_at: dict[int, float] = {}
    for (_channel, event), when in zip(played.events, played.times, strict=True):
        if isinstance(event, HandsTabled | HandFinished):
            shown_at.setdefault(event.hand_id, when)
    boards: dict[int, set[Card]] = {}
    for event in played.of(StreetDealt):
        boards.setdefault(event.hand_id, set()).update(event.board)
    for request in fake.requests:
        if request.route not in MESSAGE_ROUTES or request.status >= 400:
            continue
        private, user = _is_private(fake, request)
        if private:
            report.private_payloads += 1
        else:
            report.public_payloads += 1
        for section in _sections(request.body, request.files):
            cards = set(every_card_token(section))
            if not cards:
                continue
            numbers = set(HAND_NUMBER.findall(section))
            where = f"{request.method} {request.path} at {request.at:.3f}: {section[:120]!r}"
            if len(numbers) != 1:
                report.problems.append(f"cards without one hand number in {where}")
                continue
            hand = int(numbers.pop())
            dealt = {card for pair in holes.get(hand, []) for card in pair}
            shown = played.shown_cards(hand)
            allowed = boards.get(hand, set()) | shown
            if private:
                allowed |= own.get((hand, user or 0), set())
            else:
                report.public_with_cards += 1
            for card in sorted(cards):
                if card in allowed:
                    if not private and card in dealt and request.at < shown_at.get(hand, 0.0):
                        report.problems.append(f"{card} shown before showdown in {where}")
                    continue
                kind = "hole card" if card in dealt else "card"
                report.problems.append(f"{kind} {card} of hand #{hand} leaked in {where}")
    return report
