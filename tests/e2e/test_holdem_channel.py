"""What a Hold'em channel shows, and in what order, when Discord's rate limits hold requests back:
every edit of a table message shows the table as it was when the edit was sent, so nothing
edited after a hand's result shows that hand still in play; each hand's streets and result are
told on the table message (no post per street or result), and every result is shown; and when a
new table message is posted, no older one still has buttons.

Rate limits run ten times faster here (same counts, shorter windows).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import pytest

from bot.discord.holdem.formatting import IMAGE_NAME
from tests.e2e.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory


@dataclasses.dataclass(frozen=True, slots=True)
class Seen:
    """One message posted or edited in the channel, as members saw it right after."""

    kind: str
    """``post`` or ``edit``."""
    message_id: int
    content: str
    titles: tuple[str, ...]
    buttons: tuple[str, ...]
    table: bool
    """A table message (it has the table's picture)."""
    hand: int | None
    """The hand a table message shows (its first line), if any."""
    results: frozenset[int]
    """The hands whose results the message tells."""


HAND = re.compile(r"Hand #(\d+)")
RESULT = re.compile(r"Hand #(\d+) · Result")


def seen(kind: str, message: FakeMessage) -> Seen:
    text = "\n".join(str(embed.get("description") or "") for embed in message.embeds)
    first = HAND.search(text.split("\n", 1)[0])
    return Seen(
        kind,
        message.id,
        message.content,
        tuple(str(embed.get("title") or "") for embed in message.embeds),
        tuple(message.button_labels),
        IMAGE_NAME in message.filenames,
        int(first.group(1)) if first else None,
        frozenset(int(found) for found in RESULT.findall(text)),
    )


class RecordingFakeDiscord(FakeDiscord):
    """The fake Discord that also keeps every channel's history in the order it applied it."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.history: dict[int, list[Seen]] = {}

    def create_message(
        self, channel: FakeChannel, payload: Mapping[str, Any], files: Sequence[Any], **options: Any
    ) -> FakeMessage:
        message = super().create_message(channel, payload, files, **options)
        if not message.ephemeral:
            self.history.setdefault(channel.id, []).append(seen("post", message))
        return message

    def edit_message(
        self, message: FakeMessage, payload: Mapping[str, Any], files: Sequence[Any], **options: Any
    ) -> None:
        super().edit_message(message, payload, files, **options)
        if not message.ephemeral:
            self.history.setdefault(message.channel.id, []).append(seen("edit", message))


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with RecordingFakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


def in_play(entry: Seen) -> bool:
    """Whether a table message shows a hand still being played."""
    return bool(entry.buttons) or "to act" in entry.content or "thinking" in entry.content


async def play_hands(fake: FakeDiscord, world: World, start_holdem: Factory, hands: int) -> None:
    h = await start_holdem()
    opened = await fake.slash(world.alice, world.channel, "holdem start", seats=4, bots=2)
    await opened.wait_answered()
    joined = await fake.slash(world.bob, world.channel, "holdem join", buy_in=500)
    await joined.wait_answered()
    await h.play([world.alice, world.bob], until=lambda: h.hands_finished() >= hands)
    presenter = h.cog.presenters[world.channel.id]
    await presenter.drain()


async def test_holdem_channel_nothing_after_a_result_shows_that_hand_in_play(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    assert isinstance(fake_discord, RecordingFakeDiscord)
    await play_hands(fake_discord, world, start_holdem, hands=4)
    history = fake_discord.history[world.channel.id]

    told: set[int] = set()
    for entry in history:
        if entry.hand in told:
            assert not in_play(entry), entry
        told |= entry.results
    assert told >= {1, 2, 3, 4}  # every hand's result was shown


async def test_holdem_channel_streets_and_results_are_told_on_the_table_message(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    assert isinstance(fake_discord, RecordingFakeDiscord)
    await play_hands(fake_discord, world, start_holdem, hands=4)
    history = fake_discord.history[world.channel.id]

    posts = [entry for entry in history if entry.kind == "post"]
    assert not [entry for entry in posts if not entry.table and entry.hand is not None]
    assert all(not entry.results for entry in posts if not entry.table)
    table = [entry for entry in history if entry.table]
    assert {entry.hand for entry in table} >= {1, 2, 3, 4}
    # Once the seats are taken (a sit-down post may bury the first one), no post comes: the
    # hands after the first are all told on one table message.
    later = {entry.message_id for entry in table if entry.hand is not None and entry.hand >= 2}
    assert len(later) == 1
    assert fake_discord.stats.rate_limited == 0


async def test_holdem_channel_a_new_table_message_comes_after_the_old_lost_its_buttons(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    assert isinstance(fake_discord, RecordingFakeDiscord)
    await play_hands(fake_discord, world, start_holdem, hands=4)
    history = fake_discord.history[world.channel.id]

    buttons: dict[int, tuple[str, ...]] = {}
    table_posts = 0
    for entry in history:
        if entry.kind == "post" and entry.table:
            table_posts += 1
            assert {m: b for m, b in buttons.items() if b} == {}, entry
        buttons[entry.message_id] = entry.buttons
    assert table_posts >= 1
    assert sum(1 for labels in buttons.values() if labels) <= 1
    assert fake_discord.stats.rate_limited == 0
