"""``/holdem hand`` (a hand replayed street by street, as images) and ``/holdem hands`` (your
recent hand histories as a file), both private to the member who asks.

A replay is only ever of a hand the member played, and is built from the hand's history masked
for them (``masked_history``): their own hole cards and the cards shown at showdown, never a
mucked or folded hand. Its Previous/Next buttons are persistent ``DynamicItem``s that carry the
table, hand, member and frame, so they work after a restart; anyone else's click is refused.
Images are drawn in a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.errors import Refusal
from bot.discord.holdem import formatting, ids
from bot.discord.holdem.history import settled_hand, table_id_here
from bot.discord.holdem.ids import ReplayRef
from bot.discord.table_components import ButtonSpec, TableButton
from bot.holdem.hand_files import HandFormat, write_hands
from bot.holdem.host import HoldemTable
from bot.render.replayer import ReplayFrame, render_replay_frame, replay_frames
from engine.cards import Card
from engine.holdem.story import masked_history, read_history, tell
from storage import HandRecord, Storage
from storage.hand_export import HandQuery

DEFAULT_HANDS = 20
MAX_HANDS = 200
"""The most hands ``/holdem hands`` sends; `felt db export hands` on the host has no limit."""
CONTENT_LIMIT = 1_900


@dataclass(frozen=True, slots=True)
class Replay:
    """A member's replay of one hand: its frames and where it was played."""

    table_id: int
    hand_id: int
    user_id: int
    frames: tuple[ReplayFrame, ...]
    own_cards: tuple[Card, ...] | None
    """PRIVATE: the member's hole cards (the replay goes to them alone)."""


def replay_of(record: HandRecord, user_id: int) -> Replay:
    """The member's replay of a settled hand, or the refusal why they may not see it."""
    seat_no = next((seat.seat_no for seat in record.seats if seat.user_id == user_id), None)
    if seat_no is None:
        raise Refusal(
            f"You did not play hand #{record.hand_id}: you can replay only hands you played."
        )
    assert record.phh is not None
    history = read_history(record.phh)
    seats = history.extra.get("seats")
    viewer = seats.index(seat_no) if isinstance(seats, list) and seat_no in seats else None
    story = tell(masked_history(history, viewer))
    table = str(history.extra.get("table") or "Hold'em")
    frames = replay_frames(story, viewer, table_name=table, hand_number=record.hand_id)
    own = story.players[viewer].hole if viewer is not None else None
    return Replay(record.table_id, record.hand_id, user_id, frames, own)


async def last_hand_of(storage: Storage, guild_id: int, user_id: int) -> HandRecord:
    """The member's latest settled hand on this server."""
    latest = await storage.settled_hands(
        HandQuery(guild_id=guild_id, user_id=user_id), limit=1, newest=True
    )
    if not latest:
        raise Refusal("You have not played a finished hand on this server yet.")
    record = await storage.get_hand(latest[0].table_id, latest[0].hand_id)
    assert record is not None
    return record


async def replay_message(replay: Replay, frame: int) -> dict[str, Any]:
    """What the replay's message holds at ``frame``: text, the image and the buttons."""
    shown = replay.frames[frame]
    png = await asyncio.to_thread(render_replay_frame, shown)
    header = (
        f"**Hand #{replay.hand_id}** · {shown.title} ({frame + 1}/{len(replay.frames)}): "
        "only you see this replay."
    )
    if replay.own_cards:
        header += f" Your cards: **{formatting.hole_cards_text(replay.own_cards)}**."
    text = "\n".join([header, *(formatting.escape(line) for line in shown.lines)])
    if len(text) > CONTENT_LIMIT:
        text = text[: CONTENT_LIMIT - 1] + "…"
    name = f"hand{replay.hand_id}-{frame + 1}.png"
    ref = ReplayRef(replay.table_id, replay.hand_id, replay.user_id, frame)
    view = discord.ui.View(timeout=None)
    for step, label, target, disabled in (
        ("prev", "◀ Previous", frame - 1, frame == 0),
        ("next", "Next ▶", frame + 1, frame == len(replay.frames) - 1),
    ):
        target_ref = ReplayRef(ref.table_id, ref.hand_id, ref.user_id, max(0, target))
        spec = ButtonSpec(
            ids.replay_id(target_ref, step), label, discord.ButtonStyle.secondary, 0, disabled
        )
        view.add_item(ReplayButton(spec))
    return {
        "content": text,
        "attachments": [attachment(png, filename=name)],
        "view": view,
    }


async def send_replay(
    interaction: discord.Interaction[Any],
    storage: Storage,
    live: HoldemTable | None,
    number: int | None,
) -> None:
    """``/holdem hand [number]``: the asker's last hand, or hand ``number`` of this channel's
    table; the interaction is already deferred (ephemeral)."""
    guild_id = interaction.guild_id or 0
    user_id = interaction.user.id
    if number is None:
        record = await last_hand_of(storage, guild_id, user_id)
    else:
        table_id = await table_id_here(storage, guild_id, interaction.channel_id or 0, live)
        record = await settled_hand(storage, guild_id, table_id, number)
    replay = await asyncio.to_thread(replay_of, record, user_id)
    message = await replay_message(replay, 0)
    files = message.pop("attachments")
    await interaction.followup.send(**message, files=files, ephemeral=True)


async def step_replay(interaction: discord.Interaction[Any], ref: ReplayRef) -> None:
    """A Previous/Next click: the same replay at another frame, for its owner only."""
    if interaction.user.id != ref.user_id:
        raise Refusal("This replay is someone else's: `/holdem hand` replays your own hands.")
    await interaction.response.defer()
    storage: Storage = interaction.client.storage
    record = await storage.get_hand(ref.table_id, ref.hand_id)
    if record is None or record.guild_id != interaction.guild_id or record.phh is None:
        raise Refusal("This hand is no longer stored.")
    replay = await asyncio.to_thread(replay_of, record, ref.user_id)
    frame = min(max(ref.frame, 0), len(replay.frames) - 1)
    await interaction.edit_original_response(**await replay_message(replay, frame))


class ReplayButton(TableButton, template=ids.REPLAY_TEMPLATE):
    """Previous or Next on a replay: understood from its custom_id alone."""

    what = "holdem replay button"

    def parse(self, match: re.Match[str]) -> None:
        self.ref = ReplayRef(
            int(match["table"]), int(match["hand"]), int(match["user"]), int(match["frame"])
        )

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await step_replay(interaction, self.ref)


async def send_hands(
    interaction: discord.Interaction[Any], storage: Storage, count: int, kind: HandFormat
) -> None:
    """``/holdem hands``: the asker's ``count`` latest hands as one file in ``kind``; the
    interaction is already deferred (ephemeral)."""
    if not 1 <= count <= MAX_HANDS:
        raise Refusal(f"Ask for 1 to {MAX_HANDS} hands, not {count:,}.")
    query = HandQuery(guild_id=interaction.guild_id or 0, user_id=interaction.user.id)
    hands = await storage.settled_hands(query, limit=count, newest=True)
    if not hands:
        raise Refusal("You have not played a finished hand on this server yet.")
    out = io.StringIO()
    await asyncio.to_thread(write_hands, hands, kind, out)
    data = out.getvalue().encode()
    limit = getattr(interaction, "attachment_size_limit", None) or 8 * 1024 * 1024
    if len(data) > limit:
        raise Refusal("That file is too big for Discord: ask for fewer hands.")
    await interaction.followup.send(
        f"Your last {len(hands):,} hand(s) as {kind.value}: your own cards, and the cards shown "
        "at showdown. PokerTracker, Hold'em Manager and GTO Wizard import the pokerstars "
        "format.",
        file=attachment(data, filename=f"felt-hands.{kind.extension}"),
        ephemeral=True,
    )
