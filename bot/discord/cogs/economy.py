"""``/balance``, ``/daily``, ``/give`` and ``/history``: a member's chips and recent games
(``/stats`` and ``/leaderboard`` are in ``bot/discord/cogs/stats.py``).

Every command that reads or writes chips acknowledges the interaction before it waits on the
database (after checking its options, so that a bad option is refused at once and privately).
Answers about yourself are ephemeral; a gift is announced in the channel so that its recipient
learns about it. Using any of these about yourself opens your account, with the guild's starting
chips.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.chips import checked_amount, chips, signed
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.permissions import guild_member
from bot.discord.replies import acknowledge, defer_first
from storage import (
    MAX_CHIPS,
    Account,
    HandRecord,
    HandStatus,
    RoundRecord,
    RoundStatus,
    Storage,
)

HISTORY_LENGTH = 10
MAX_SEASON = 1_000_000
NO_BOTS = "Bots do not hold chips."


async def open_account(storage: Storage, guild_id: int, user_id: int) -> tuple[Account, bool]:
    """The member's account, opening it with the starting chips on first use; True if opened."""
    existing = await storage.get_account(guild_id, user_id)
    if existing is not None:
        return existing, False
    return await storage.ensure_account(guild_id, user_id), True


def welcome(account: Account) -> str:
    return f"Welcome to Felt! Your account is open with {chips(account.balance)} to start.\n"


def describe_holdings(account: Account) -> str:
    extra = []
    if account.at_tables:
        extra.append(f"{account.at_tables:,} at tables")
    if account.in_play:
        extra.append(f"{account.in_play:,} in play")
    return f"{chips(account.balance)}" + (f" (plus {', '.join(extra)})" if extra else "")


def refuse_bot(member: discord.Member | discord.User) -> None:
    if member.bot:
        raise Refusal(NO_BOTS)


class Economy(commands.Cog):
    """A member's chips: balance, daily bonus, gifts and history."""

    def __init__(self, bot: FeltBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        guild_member(interaction)  # refuses a DM sent by a client that ignored the contexts
        return True

    @property
    def storage(self) -> Storage:
        return self.bot.storage

    # ----- /balance ----------------------------------------------------------------------------

    @app_commands.command(name="balance", description="Show your chips, or another member's.")
    @app_commands.describe(member="Whose chips to show (default: yours)")
    async def balance(
        self, interaction: discord.Interaction[FeltBot], member: discord.Member | None = None
    ) -> None:
        me = guild_member(interaction)
        target = member or me
        refuse_bot(target)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        guild_id = me.guild.id
        if target.id == me.id:
            account, opened = await open_account(self.storage, guild_id, me.id)
            text = (welcome(account) if opened else "") + f"You have {describe_holdings(account)}."
        else:
            found = await self.storage.get_account(guild_id, target.id)
            if found is None:
                raise Refusal(f"{target.mention} has no chips here yet.")
            text = f"{target.mention} has {describe_holdings(found)}."
        await interaction.followup.send(text, ephemeral=True)

    # ----- /daily ------------------------------------------------------------------------------

    @app_commands.command(name="daily", description="Claim your daily chips; a streak pays more.")
    @defer_first(ephemeral=True)
    async def daily(self, interaction: discord.Interaction[FeltBot]) -> None:
        me = guild_member(interaction)
        existed = await self.storage.get_account(me.guild.id, me.id) is not None
        claim = await self.storage.claim_daily(me.guild.id, me.id, key=str(interaction.id))
        streak = (
            f"day {claim.streak} of your streak 🔥" if claim.streak > 1 else "day 1 of a new streak"
        )
        text = (
            ("" if existed else "Welcome to Felt! Your account is open.\n")
            + f"You claimed **{chips(claim.amount)}** ({streak}). "
            + f"You now have {chips(claim.balance)}.\n"
            + f"Come back <t:{int(claim.next_claim_at.timestamp())}:R> to keep the streak going."
        )
        await interaction.followup.send(text, ephemeral=True)

    # ----- /give -------------------------------------------------------------------------------

    @app_commands.command(name="give", description="Give some of your chips to another member.")
    @app_commands.describe(member="Who gets the chips", amount="How many chips to give")
    async def give(
        self,
        interaction: discord.Interaction[FeltBot],
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_CHIPS],
    ) -> None:
        sender = guild_member(interaction)
        amount = checked_amount(amount)
        if member.id == sender.id:
            raise Refusal("You cannot give chips to yourself.")
        refuse_bot(member)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        transfer = await self.storage.transfer(
            sender.guild.id, sender.id, member.id, amount, key=str(interaction.id)
        )
        await interaction.followup.send(
            f"You gave {chips(amount)} to {member.mention}. "
            f"You have {chips(transfer.sender_balance)} left.",
            ephemeral=True,
        )
        # In the channel, so that the recipient is told (a mention notifies them).
        await interaction.followup.send(
            f"{sender.mention} gave {chips(amount)} to {member.mention}.",
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    # ----- /history ----------------------------------------------------------------------------

    @app_commands.command(
        name="history", description="Your recent Hold'em hands and Blackjack rounds."
    )
    @defer_first(ephemeral=True)
    async def history(self, interaction: discord.Interaction[FeltBot]) -> None:
        me = guild_member(interaction)
        guild_id = me.guild.id
        await open_account(self.storage, guild_id, me.id)
        hands = await self.storage.list_hands(guild_id, user_id=me.id, limit=HISTORY_LENGTH)
        rounds = await self.storage.list_rounds(guild_id, user_id=me.id, limit=HISTORY_LENGTH)
        await interaction.followup.send(embed=history_embed(me.id, hands, rounds), ephemeral=True)


# ----- rendering ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryLine:
    at: datetime
    text: str


def history_embed(
    user_id: int, hands: list[HandRecord], rounds: list[RoundRecord]
) -> discord.Embed:
    lines = [_hand_line(user_id, hand) for hand in hands]
    lines += [_round_line(user_id, round_) for round_ in rounds]
    lines.sort(key=lambda line: line.at, reverse=True)
    shown = lines[:HISTORY_LENGTH]
    embed = discord.Embed(title="Your recent games", colour=discord.Colour.dark_green())
    if not shown:
        embed.description = "You have not played a hand or a round here yet."
        return embed
    embed.description = "\n".join(line.text for line in shown)
    if hands:
        embed.set_footer(text="See a hand move by move with /holdem history.")
    return embed


def _hand_line(user_id: int, hand: HandRecord) -> HistoryLine:
    seat = next((seat for seat in hand.seats if seat.user_id == user_id), None)
    when = hand.ended_at or hand.started_at
    if hand.status is HandStatus.SETTLED and seat is not None and seat.final_stack is not None:
        result = signed(seat.final_stack - seat.start_stack)
    elif hand.status is HandStatus.VOIDED:
        result = "voided, chips returned"
    else:
        result = "in progress"
    return HistoryLine(
        when,
        f"🃏 Hold'em · table {hand.table_id} hand #{hand.hand_id} · {result} · "
        f"<t:{int(when.timestamp())}:R>",
    )


def _round_line(user_id: int, round_: RoundRecord) -> HistoryLine:
    player = next((player for player in round_.players if player.user_id == user_id), None)
    when = round_.ended_at or round_.opened_at
    if round_.status is RoundStatus.SETTLED and player is not None and player.payout is not None:
        result = signed(player.payout - player.total_bet)
    elif round_.status is RoundStatus.REFUNDED:
        result = "refunded"
    else:
        result = "in progress"
    return HistoryLine(
        when,
        f"🂡 Blackjack · round {round_.round_id} · {result} · <t:{int(when.timestamp())}:R>",
    )


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(Economy(bot))
