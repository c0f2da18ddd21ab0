"""``/holdem history``: a stored hand as a PHH file anyone may read.

Storage keeps each settled hand's full PHH (every hole card). The published file masks every
hole card that was never shown (``????``); the member who asked may see their own cards, in the
reply only, never in the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.errors import Refusal
from bot.discord.holdem import formatting
from bot.discord.holdem.formatting import escape
from bot.discord.replies import acknowledge
from bot.holdem.host import HoldemTable
from engine.cards import Card
from engine.holdem import phh
from storage import HandRecord, HandStatus, Storage


@dataclass(frozen=True, slots=True)
class PublishedHand:
    """The PHH text to attach, and the asker's own hole cards in that hand (if they played)."""

    text: str
    own_cards: tuple[Card, ...] | None


def publish_hand(full_text: str, seat_no: int | None) -> PublishedHand:
    """Mask ``full_text``'s unshown hole cards; ``seat_no`` is the asker's seat, if any."""
    history = phh.loads(full_text)
    hand = phh.replay(history)
    extra = {key: value for key, value in history.extra.items() if key != "finishing_stacks"}
    masked = phh.dumps(phh.from_hand(hand, reveal=False, **extra))
    own: tuple[Card, ...] | None = None
    seats = history.extra.get("seats")
    if seat_no is not None and isinstance(seats, list) and seat_no in seats:
        own = tuple(hand.hole_cards[seats.index(seat_no)])
    return PublishedHand(masked, own)


async def table_id_here(
    storage: Storage, guild_id: int, channel_id: int, live: HoldemTable | None
) -> int:
    """The channel's table: the live one, else the last one that played here."""
    if live is not None:
        return live.table_id
    here = [
        info.table_id
        for info in await storage.list_tables(guild_id, open_only=False)
        if info.channel_id == channel_id
    ]
    if not here:
        raise Refusal("No Hold'em table has played in this channel.")
    return max(here)


async def settled_hand(
    storage: Storage, guild_id: int, table_id: int, hand_id: int | None
) -> HandRecord:
    """Hand ``hand_id`` of the table (default: the last settled one), or the refusal why not."""
    if hand_id is None:
        hands = await storage.list_hands(guild_id, table_id=table_id, limit=10)
        settled = [h for h in hands if h.status is HandStatus.SETTLED and h.phh]
        if not settled:
            raise Refusal("No hand has finished at this table yet.")
        record = settled[0]
    else:
        found = await storage.get_hand(table_id, hand_id)
        if found is None or found.guild_id != guild_id:
            raise Refusal(f"There is no hand #{hand_id:,} at this table.")
        record = found
    if record.status is HandStatus.VOIDED:
        reason = escape(record.void_reason or "cancelled")
        raise Refusal(f"Hand #{record.hand_id} was cancelled ({reason}): it has no history.")
    if record.status is not HandStatus.SETTLED or not record.phh:
        raise Refusal(f"Hand #{record.hand_id} is not finished yet.")
    return record


async def send_history(
    interaction: discord.Interaction[Any],
    storage: Storage,
    live: HoldemTable | None,
    number: int | None,
) -> None:
    """``/holdem history [hand]``: hand ``number`` of this channel's table (default the last)
    as a masked PHH file, with the asker's own cards in the reply only."""
    guild_id = interaction.guild_id or 0
    table_id = await table_id_here(storage, guild_id, interaction.channel_id or 0, live)
    await acknowledge(interaction, ephemeral=True, thinking=True)
    record = await settled_hand(storage, guild_id, table_id, number)
    assert record.phh is not None
    seat_no = next((s.seat_no for s in record.seats if s.user_id == interaction.user.id), None)
    published = publish_hand(record.phh, seat_no)
    text = f"Hand #{record.hand_id}: cards nobody showed are written `????`."
    if published.own_cards is not None:
        text += f"\nYour cards were **{formatting.hole_cards_text(published.own_cards)}**."
    await interaction.followup.send(
        text,
        file=attachment(
            published.text.encode(),
            filename=f"holdem-table{table_id}-hand{record.hand_id}.phh",
        ),
        ephemeral=True,
    )
