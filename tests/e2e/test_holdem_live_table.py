"""A table that feels live: a member's turn goes out at once, and the bots' moves before it
reach the table message in that same edit, not in edits of their own (``table_edits``)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import pytest

from bot.discord.holdem.formatting import IMAGE_NAME, escape
from bot.discord.pacing import Pacer
from bot.discord.table_edits import EditPolicy
from bot.holdem.events import ActionTaken
from tests.e2e.fakediscord import FakeDiscord, FakeMessage
from tests.e2e.support.bot_world import World, channel_window
from tests.e2e.support.holdem import Factory


@dataclasses.dataclass(frozen=True, slots=True)
class Edit:
    message_id: int
    description: str
    buttons: tuple[str, ...]


class EditRecordingFakeDiscord(FakeDiscord):
    """The fake Discord that also keeps every edit of a table message, in order."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.edits: list[Edit] = []

    def edit_message(
        self, message: FakeMessage, payload: Mapping[str, Any], files: Sequence[Any], **options: Any
    ) -> None:
        super().edit_message(message, payload, files, **options)
        if IMAGE_NAME in message.filenames:
            text = "".join(str(embed.get("description") or "") for embed in message.embeds)
            self.edits.append(Edit(message.id, text, tuple(message.button_labels)))


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with EditRecordingFakeDiscord() as fake:
        yield fake


async def test_holdem_live_table_bots_moves_come_in_the_same_edit_as_the_members_next_turn(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    assert isinstance(fake_discord, EditRecordingFakeDiscord)
    # Redraws held for as long as the test runs: only turn offers may edit the table message.
    held = EditPolicy(quiet_seconds=600.0, longest_hold_seconds=600.0)
    pacer = Pacer(channel_window=channel_window(fake_discord), edit_policy=held)
    h = await start_holdem(pacer=pacer)
    opened = await fake_discord.slash(world.alice, world.channel, "holdem start", seats=4, bots=3)
    await opened.wait_answered()
    await h.wait_offer(world.alice)

    for _ in range(3):
        edits_before = len(fake_discord.edits)
        moves_before = len(h.of(ActionTaken))
        await h.act(world.alice)
        await h.wait_offer(world.alice)
        edits = fake_discord.edits[edits_before:]
        moves = h.of(ActionTaken)[moves_before:]
        bots_moves = [move for move in moves if move.name != world.alice.name]

        assert len(edits) == 1, edits  # the offer, and nothing for the bots' moves
        assert "Check" in edits[0].buttons or any(b.startswith("Call") for b in edits[0].buttons)
        assert bots_moves
        for move in bots_moves:
            assert escape(move.text) in edits[0].description
