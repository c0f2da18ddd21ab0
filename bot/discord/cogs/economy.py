"""``/balance``, ``/daily``, ``/give``, ``/leaderboard``, ``/stats`` and ``/history``: a member's
chips and results.

Every command that reads or writes chips acknowledges the interaction before it waits on the
database (after checking its options, so that a bad option is refused at once and privately).
Answers about yourself are ephemeral; a gift is announced in the channel so that its recipient
learns about it; a leaderboard is posted for everyone. Using any of these about yourself opens
your account, with the guild's starting chips.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.chips import checked_amount, chips, signed
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.leaderboard import (
    Board,
    LeaderboardPage,
    PageRequest,
    render_page,
    season_selector,
)
from bot.discord.permissions import guild_member
from bot.discord.replies import acknowledge, defer_first
from storage import (
    MAX_CHIPS,
    Account,
    Game,
    HandRecord,
    HandStatus,
    Period,
    RoundRecord,
    RoundStatus,
    Stats,
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
    """A member's chips: balance, daily bonus, gifts, leaderboards, stats and history."""

    def __init__(self, bot: FeltBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardPage)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardPage)

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

    # ----- /leaderboard ------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="Who holds the most chips, wins most...")
    @app_commands.describe(
        board="What to rank by (default: chips held)",
        game="Only this game (winnings and biggest pot)",
        season="Season number; 0 for all time (default: the current season)",
    )
    @app_commands.choices(
        board=[
            app_commands.Choice(name="Chips", value=Board.CHIPS.value),
            app_commands.Choice(name="Winnings", value=Board.WINNINGS.value),
            app_commands.Choice(name="Biggest pot", value=Board.BIGGEST_POT.value),
        ],
        game=[
            app_commands.Choice(name="Hold'em", value=Game.HOLDEM.value),
            app_commands.Choice(name="Blackjack", value=Game.BLACKJACK.value),
        ],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[FeltBot],
        board: str = Board.CHIPS.value,
        game: str | None = None,
        season: app_commands.Range[int, 0, MAX_SEASON] | None = None,
    ) -> None:
        me = guild_member(interaction)
        chosen_board = _choice(Board, board, "board")
        chosen_game = None if game is None else _choice(Game, game, "game")
        if chosen_board is Board.CHIPS and chosen_game is not None:
            raise Refusal(
                "The chips board counts chips from every game; pick winnings or biggest_pot "
                "to rank one game."
            )
        if season is not None and (
            isinstance(season, bool) or not isinstance(season, int) or not 0 <= season <= MAX_SEASON
        ):
            raise Refusal(
                f"The season must be a number from 1 to {MAX_SEASON:,}, or 0 for all time."
            )
        await acknowledge(interaction, thinking=True)
        request = PageRequest(
            me.guild.id, chosen_board, chosen_game, season_selector(season), 0, me.id
        )
        embed, view = await render_page(self.storage, request)
        if view is None:
            await interaction.followup.send(embed=embed)
        else:
            await interaction.followup.send(embed=embed, view=view)

    # ----- /stats ------------------------------------------------------------------------------

    @app_commands.command(name="stats", description="Your results in each game, or a member's.")
    @app_commands.describe(member="Whose results to show (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[FeltBot], member: discord.Member | None = None
    ) -> None:
        me = guild_member(interaction)
        target = member or me
        refuse_bot(target)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        guild_id = me.guild.id
        account: Account | None
        if target.id == me.id:
            account, _opened = await open_account(self.storage, guild_id, me.id)
        else:
            account = await self.storage.get_account(guild_id, target.id)
        holdem = await self.storage.stats(guild_id, target.id, game=Game.HOLDEM)
        blackjack = await self.storage.stats(guild_id, target.id, game=Game.BLACKJACK)
        season = await self.storage.stats(guild_id, target.id, season=Period.CURRENT_SEASON)
        embed = stats_embed(target, account, holdem, blackjack, season)
        await interaction.followup.send(embed=embed, ephemeral=True)

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


ChoiceT = TypeVar("ChoiceT", Board, Game)


def _choice(kind: type[ChoiceT], value: str, option: str) -> ChoiceT:
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(member.value for member in kind)
        raise Refusal(f"Unknown {option} {value!r}: choose {names}.") from None


# ----- rendering ---------------------------------------------------------------------------------


def stats_embed(
    member: discord.Member,
    account: Account | None,
    holdem: Stats,
    blackjack: Stats,
    season: Stats,
) -> discord.Embed:
    embed = discord.Embed(title=f"Stats for {member.display_name}", colour=discord.Colour.blue())
    embed.add_field(
        name="Chips",
        value=describe_holdings(account) if account is not None else "No account yet",
        inline=False,
    )
    won = f" ({holdem.hands_won / holdem.hands_played:.0%})" if holdem.hands_played else ""
    embed.add_field(
        name="Hold'em",
        value=(
            f"Hands: {holdem.hands_played:,}, won {holdem.hands_won:,}{won}\n"
            f"Net: {signed(holdem.net)}\nBiggest pot: {holdem.biggest_pot:,}"
        ),
    )
    embed.add_field(
        name="Blackjack",
        value=(
            f"Rounds: {blackjack.rounds_played:,}, hands won {blackjack.hands_won:,} of "
            f"{blackjack.hands_played:,}\nBlackjacks: {blackjack.blackjacks:,}\n"
            f"Net: {signed(blackjack.net)}"
        ),
    )
    label = f"Season {season.season}" if season.season is not None else "This season"
    embed.add_field(name=label, value=f"Net: {signed(season.net)}", inline=False)
    embed.set_footer(text="All-time results unless marked. /leaderboard ranks everyone.")
    return embed


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
