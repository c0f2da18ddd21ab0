"""What a Hold'em channel shows, and in what order, when Discord's rate limits hold requests back:
every edit of a table message shows the table as it was when the edit was sent, so nothing
edited after a hand's result shows that hand still in play; and when a new table message is
posted, no older one still has buttons.

Rate limits run ten times faster here (same counts, shorter windows).
"""

from __future__ import annotations

import dataclasses
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


def seen(kind: str, message: FakeMessage) -> Seen:
    return Seen(
        kind,
        message.id,
        message.content,
        tuple(str(embed.get("title") or "") for embed in message.embeds),
        tuple(message.button_labels),
        IMAGE_NAME in message.filenames,
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

    results = [i for i, entry in enumerate(history) if any("Result" in t for t in entry.titles)]
    assert len(results) >= 4
    for start in results:
        for entry in history[start + 1 :]:
            if entry.kind == "post" and entry.table:
                break  # the next hand's table message
            assert not (entry.kind == "edit" and in_play(entry)), (history[start], entry)


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
    assert table_posts >= 4
    assert sum(1 for labels in buttons.values() if labels) <= 1
    assert fake_discord.stats.rate_limited == 0
