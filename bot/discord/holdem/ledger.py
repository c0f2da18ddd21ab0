"""The session ledger in Discord: ``/holdem ledger`` and the settle-up posted when a table closes.

``/holdem ledger`` answers privately (ephemeral): anyone may ask at any time, mid-session, without
filling the channel; the closing post is public, since it is what the whole table settles up by.
Both carry the same text and two CSV files: PokerNow's ledger and who pays whom.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.attachments import attachment
from bot.discord.chips import chips
from bot.discord.holdem.formatting import RESULT_COLOUR, escape
from bot.discord.holdem.history import table_id_here
from bot.discord.permissions import guild_member
from bot.discord.replies import acknowledge
from bot.holdem.ledger import SettleUp, settle_up
from bot.holdem.manager import HoldemTables
from bot.render.text import EMBED_DESCRIPTION_LIMIT
from storage import Storage


def ledger_embed(settled: SettleUp, *, closing: bool) -> discord.Embed:
    """Each player's buy-ins, rebuys, cash-out, chips still at the table and net; then who pays
    whom (the fewest transfers)."""
    session = settled.session
    title = f"Ledger of table {escape(session.name or str(session.table_id))}"
    lines = []
    for player in settled.players:
        parts = [f"in {player.buy_in:,}"]
        if player.rebuys:
            parts.append(f"rebuys {player.rebuys:,}")
        parts.append(f"out {player.cash_out:,}")
        if player.stack:
            parts.append(f"at the table {player.stack:,}")
        lines.append(f"**{escape(settled.label(player))}** {player.net:+,} · " + " · ".join(parts))
    if not lines:
        lines.append("Nobody has sat down yet.")
    lines.append("")
    if settled.transfers:
        lines.append("**Who pays whom**" + ("" if closing else " (if the table closed now)"))
        lines.extend(
            f"{escape(t.payer)} pays {escape(t.payee)} {chips(t.amount)}" for t in settled.transfers
        )
    else:
        lines.append("Everyone is square: nobody pays anybody.")
    text = "\n".join(lines)
    if len(text) > EMBED_DESCRIPTION_LIMIT:
        text = text[: EMBED_DESCRIPTION_LIMIT - 40] + "\n… (the full ledger is in the files)"
    return discord.Embed(title=title, description=text, colour=RESULT_COLOUR)


def ledger_files(settled: SettleUp) -> list[discord.File]:
    """PokerNow's ledger CSV and the transfers CSV."""
    stem = settled.file_stem()
    return [
        attachment(settled.ledger_csv().encode(), filename=f"{stem}-ledger.csv"),
        attachment(settled.transfers_csv().encode(), filename=f"{stem}-transfers.csv"),
    ]


async def send_ledger(
    interaction: discord.Interaction[Any], storage: Storage, tables: HoldemTables
) -> None:
    """``/holdem ledger``: this channel's table session (the live table, else the last one that
    played here), privately."""
    guild_id = guild_member(interaction).guild.id
    live = tables.get(interaction.channel_id or 0)
    table_id = await table_id_here(storage, guild_id, interaction.channel_id or 0, live)
    await acknowledge(interaction, ephemeral=True, thinking=True)
    settled = settle_up(await storage.table_session(table_id))
    closing = settled.session.closed_at is not None
    await interaction.followup.send(
        embed=ledger_embed(settled, closing=closing), files=ledger_files(settled), ephemeral=True
    )


async def post_closing_ledger(client: discord.Client, channel_id: int, settled: SettleUp) -> None:
    """The settle-up, posted in the table's channel after its last messages."""
    channel = client.get_partial_messageable(channel_id)
    await channel.send(embed=ledger_embed(settled, closing=True), files=ledger_files(settled))
