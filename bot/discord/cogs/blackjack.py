"""``/blackjack``: Blackjack against the dealer in a channel, several members at one table.

One table per channel (a thread counts as a channel). The cog checks who is asking and hands the
request to the table host (``bot.blackjack.host``); the host's events come back through one
``BlackjackPresenter`` per channel, which does the Discord requests. A table holds no chips
between rounds, so it lives in memory only: at startup the channels whose rounds recovery
refunded are told so, and at shutdown every table is suspended (the round in play refunded).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.blackjack.counting import MAX_CARDS, MIN_CARDS, CountSystem
from bot.blackjack.drill import SEED_LIMIT, Score
from bot.blackjack.errors import (
    NotInRoundError,
)
from bot.blackjack.events import TableEvent, TablePhase
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.blackjack.view import seat_label
from bot.discord.blackjack import formatting, live_count
from bot.discord.blackjack.components import DYNAMIC_ITEMS, HANDLERS
from bot.discord.blackjack.count import start as start_count
from bot.discord.blackjack.drill import start as start_drill
from bot.discord.blackjack.ids import ActionRef
from bot.discord.blackjack.live_count import HANDLERS as LIVE_HANDLERS
from bot.discord.blackjack.live_count import LiveCounts
from bot.discord.blackjack.options import HouseEdges, InvalidBet, checked_bet, table_settings
from bot.discord.blackjack.presenter import POST_LINGER_SECONDS, BlackjackPresenter, EventTap
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.guild_settings import blackjack_defaults
from bot.discord.pacing import Pacer
from bot.discord.permissions import guild_member, require_game_channel, require_table_permissions
from bot.discord.replies import acknowledge, defer_first
from bot.discord.table_cog import TableCog
from bot.discord.table_look import TABLE_COLOUR
from bot.tables.clock import Scheduler
from bot.tables.errors import StaleActionError
from bot.tables.limits import BLACKJACK_MAX_SIDE_BET
from engine.blackjack import PRESETS, Action, Rules, Shoe, basic_chart
from storage import MAX_CHIPS, BetReason, Storage

_log = logging.getLogger("felt.discord.blackjack")

REFUNDED_BY_RECOVERY = "Felt restarted during this round"
SUSPENDED = "Felt is restarting"
"""At shutdown, how long the tables' last messages may take to go out."""
"""Insurance decisions may come in any order; a click that lost the race to another player's
decision is re-applied at the new step this many times."""

Chips = app_commands.Range[int, 1, MAX_CHIPS]
SideChips = app_commands.Range[int, 0, BLACKJACK_MAX_SIDE_BET]
ShoeFactory = Callable[[Rules], Shoe]


class Blackjack(TableCog[BlackjackPresenter]):
    """Blackjack tables: commands, buttons, and the tables' lifecycle."""

    game = "Blackjack"
    handlers = HANDLERS
    buttons = DYNAMIC_ITEMS

    blackjack = app_commands.Group(
        name="blackjack", description="Blackjack against the dealer, with your chips"
    )

    def __init__(
        self,
        bot: FeltBot,
        *,
        scheduler: Scheduler | None = None,
        shoes: ShoeFactory | None = None,
        table_overrides: Mapping[str, Any] | None = None,
        pacer: Pacer | None = None,
        house_edges: HouseEdges | None = None,
        tap: EventTap | None = None,
        linger: float = POST_LINGER_SECONDS,
        count_rng: random.Random | None = None,
    ) -> None:
        super().__init__(bot, scheduler=scheduler, pacer=pacer, tap=tap, linger=linger)
        self._live_counts = LiveCounts(self.scheduler.now, count_rng or secrets.SystemRandom())
        self.house_edges = house_edges or HouseEdges()
        self.tables: dict[int, BlackjackTable] = {}
        self._shoes = shoes
        self._overrides = dict(table_overrides or {})
        self._locks: dict[int, asyncio.Lock] = {}

    # ----- lifecycle ---------------------------------------------------------------------------

    @property
    def live_counts(self) -> LiveCounts:
        return self._live_counts

    async def cog_load(self) -> None:
        await super().cog_load()
        LIVE_HANDLERS.register(self.bot, self)

    async def cog_unload(self) -> None:
        LIVE_HANDLERS.unregister(self.bot)
        await super().cog_unload()

    async def open_tables(self) -> None:
        recovery = self.bot.recovery
        for refunded in recovery.refunded_rounds if recovery is not None else ():
            presenter = self._presenter_for(refunded.guild_id, refunded.channel_id)
            presenter.announce(
                formatting.cancelled_post(refunded.round_id, REFUNDED_BY_RECOVERY, refunded.refunds)
            )

    async def suspend_tables(self) -> None:
        """Refund every round in play."""
        for table in list(self.tables.values()):
            try:
                await table.suspend(SUSPENDED)
            except Exception:
                _log.exception(
                    "could not suspend a blackjack table", extra={"channel_id": table.channel_id}
                )

    async def halt(self) -> None:
        """Stop everything at once, touching no chips (unload; a test's crash)."""
        self.tables.clear()
        await self._live_counts.aclose()
        await super().halt()

    def _presenter_for(self, guild_id: int, channel_id: int) -> BlackjackPresenter:
        presenter = self.presenters.get(channel_id)
        if presenter is None:
            presenter = BlackjackPresenter(
                self.presenter_setup(guild_id, channel_id),
                hints=lambda: self._hints_at(channel_id),
                watch=lambda event: self._watch(channel_id, event),
            )
            self.adopt(presenter)
        return presenter

    def _watch(self, channel_id: int, event: TableEvent) -> None:
        table = self.tables.get(channel_id)
        if table is not None:
            self.live_counts.watch(table, event)

    def _hints_at(self, channel_id: int) -> bool:
        table = self.tables.get(channel_id)
        return table is None or table.settings.hints

    # ----- tables ------------------------------------------------------------------------------

    @property
    def storage(self) -> Storage:
        return self.bot.storage

    def _require_storage(self) -> None:
        if not self.bot.has_storage or self._executor is None:
            raise Refusal("Blackjack is not available: Felt runs without its chip database.")

    async def _next_settings(self, guild_id: int, channel_id: int) -> BlackjackSettings:
        """The settings of this channel's current round, or of the next one (the guild's
        defaults now: an admin's change applies from the next round)."""
        table = self.tables.get(channel_id)
        if table is not None and table.phase is not TablePhase.IDLE:
            return table.settings
        config = await blackjack_defaults(self.storage, guild_id, self.bot.config)
        return table_settings(config, self._overrides)

    def _table_for(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        settings: BlackjackSettings,
    ) -> BlackjackTable:
        """The channel's table, made (or remade between rounds, when the guild's settings
        changed) with ``settings``. Call under the channel's lock."""
        table = self.tables.get(channel_id)
        if table is not None and (table.phase is not TablePhase.IDLE or table.settings == settings):
            return table
        table = BlackjackTable(
            storage=self.storage,
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            settings=settings,
            scheduler=self.scheduler,
            presenter=self._presenter_for(guild_id, channel_id),
            shoe=self._shoes(settings.rules) if self._shoes is not None else None,
        )
        self.tables[channel_id] = table
        return table

    def _lock_for(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _table_of_round(
        self, interaction: discord.Interaction[Any], round_id: int
    ) -> BlackjackTable:
        table = self.tables.get(interaction.channel_id or 0)
        if table is None or table.round_id != round_id:
            raise StaleActionError("That round is over: its buttons no longer do anything.")
        return table

    # ----- buttons -----------------------------------------------------------------------------

    async def on_action(
        self, interaction: discord.Interaction[Any], ref: ActionRef, action: Action
    ) -> None:
        table = self._table_of_round(interaction, ref.round_id)
        user_id = interaction.user.id
        step = table.check_offer(user_id, ref.round_id, ref.step, action)
        await self.defer_click(interaction)
        await table.act(user_id, ref.round_id, step, action)

    async def on_deal_now(self, interaction: discord.Interaction[Any], round_id: int) -> None:
        table = self._table_of_round(interaction, round_id)
        snapshot = table.snapshot()
        if snapshot.phase is not TablePhase.BETTING:
            raise StaleActionError("The cards are already dealt.")
        if snapshot.player(interaction.user.id) is None:
            raise NotInRoundError(
                "Only players with a bet in this round can deal: `/blackjack deal` to join."
            )
        await self.defer_click(interaction)
        await table.deal_now(interaction.user.id)

    async def on_hint(self, interaction: discord.Interaction[Any], round_id: int) -> None:
        table = self._table_of_round(interaction, round_id)
        await interaction.response.send_message(
            self._hint_text(table, interaction.user.id), ephemeral=True
        )

    def _hint_text(self, table: BlackjackTable, user_id: int) -> str:
        if not table.settings.hints:
            raise Refusal("Hints are turned off on this server.")
        advice = table.hint(user_id)
        return f"Basic strategy says: **{advice.action.label}** ({advice.row})."

    # ----- commands ----------------------------------------------------------------------------

    @blackjack.command(name="deal", description="Bet on this channel's next round of Blackjack.")
    @defer_first(ephemeral=True)  # before its storage reads: a busy database must not cost 3 s
    @app_commands.describe(
        bet="Your bet in chips, within the table's limits",
        side_21_3="A 21+3 side bet (your two cards and the dealer's up card), if the table has it",
        perfect_pairs="A Perfect Pairs side bet (your two cards), if the table has it",
    )
    async def deal(
        self,
        interaction: discord.Interaction[FeltBot],
        bet: Chips,
        side_21_3: SideChips | None = None,
        perfect_pairs: SideChips | None = None,
    ) -> None:
        member = guild_member(interaction)
        if member.bot:
            raise Refusal("Bot accounts cannot play.")
        if isinstance(bet, bool) or not isinstance(bet, int):
            raise InvalidBet("The bet must be a whole number of chips.")
        await require_game_channel(interaction)
        require_table_permissions(interaction)
        self._require_storage()
        channel_id = interaction.channel_id
        assert channel_id is not None
        guild_id = member.guild.id
        await acknowledge(interaction, ephemeral=True, thinking=True)
        async with self._lock_for(channel_id):
            settings = await self._next_settings(guild_id, channel_id)
            amount = checked_bet(bet, settings)
            # Open the wallet first (with the guild's starting chips), so that a refusal for
            # too big a bet quotes the real balance.
            account = await self.storage.get_account(guild_id, member.id)
            opened = account is None
            if account is None:
                account = await self.storage.ensure_account(guild_id, member.id)
            name = getattr(interaction.channel, "name", None)
            current = self.tables.get(channel_id)
            if current is None or current.settings.rules != settings.rules:
                # A new rule set's basic strategy takes the engine a few tenths of a second to
                # work out (once; it is cached): not on the event loop, which answers clicks.
                await asyncio.to_thread(basic_chart, settings.rules)
            table = self._table_for(
                guild_id, channel_id, f"Blackjack · #{name}" if name else "Blackjack", settings
            )
            side_bets = {BetReason.SIDE_21_3: side_21_3, BetReason.PERFECT_PAIRS: perfect_pairs}
            seat = await table.bet(
                member.id,
                member.display_name,
                amount,
                key=f"blackjack:bet:{interaction.id}",
                side_bets={reason: n for reason, n in side_bets.items() if n is not None},
            )
            snapshot = table.snapshot()
        balance = await self.storage.balance(guild_id, member.id)
        when = "soon"
        if snapshot.phase is TablePhase.BETTING and snapshot.deadline is not None:
            when = f"<t:{int(snapshot.deadline)}:R>"
        welcome = ""
        if opened:
            welcome = f"Welcome to Felt! Your account is open with {account.balance:,} chips.\n"
        await interaction.followup.send(
            f"{welcome}You bet {amount:,} chips on round #{snapshot.round_id} (seat "
            f"{seat_label(seat)}); you have {balance:,} left. The cards are dealt {when}, or as "
            f"soon as a player presses **{formatting.DEAL_NOW}**.",
            ephemeral=True,
        )

    @blackjack.command(name="rules", description="This table's rules and the house edge.")
    async def rules(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        self._require_storage()
        channel_id = interaction.channel_id
        assert channel_id is not None
        await acknowledge(interaction, ephemeral=True, thinking=True)
        settings = await self._next_settings(member.guild.id, channel_id)
        try:
            edge: float | None = await self.house_edges.get(settings.rules)
        except Exception:
            _log.exception("could not work out the house edge")
            edge = None
        lines = [f"• {line}" for line in formatting.rules_lines(settings.rules)]
        lines += ["", formatting.house_edge_line(edge)]
        sides = formatting.side_bet_lines(settings.rules, settings.max_side_bet)
        lines += ["", *sides] if sides else []
        bots = settings.describe_bots()
        lines += ["", f"**House bots**: {bots}."] if bots else []
        embed = discord.Embed(
            title="Blackjack rules at this table",
            description="\n".join(lines),
            colour=TABLE_COLOUR,
        )
        hints = (
            "`/blackjack hint` tells you what basic strategy says"
            if settings.hints
            else ("hints are off on this server")
        )
        embed.add_field(
            name="Table",
            value=(
                f"Bets {settings.min_bet:,} to {settings.max_bet:,} chips · "
                f"{settings.betting_seconds:g} s to bet before the deal · "
                f"{settings.turn_seconds:g} s per decision (a hand that runs out of time "
                f"stands) · {hints}."
            ),
            inline=False,
        )
        await interaction.followup.send(embed=embed, ephemeral=True)

    @blackjack.command(
        name="hint", description="What basic strategy says for your hand (only you see it)."
    )
    async def hint(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        table = self.tables.get(interaction.channel_id or 0)
        if table is None or table.round_id is None:
            raise Refusal("No round is being played here: `/blackjack deal` to start one.")
        await interaction.response.send_message(self._hint_text(table, member.id), ephemeral=True)

    @blackjack.command(
        name="drill", description="Practise basic strategy: random decisions, scored (no chips)."
    )
    @app_commands.describe(rules="The rule set to drill under (default: this server's)")
    @app_commands.choices(rules=[app_commands.Choice(name=name, value=name) for name in PRESETS])
    async def drill(
        self, interaction: discord.Interaction[FeltBot], rules: str | None = None
    ) -> None:
        member = guild_member(interaction)
        if rules is not None and rules not in PRESETS:
            raise Refusal(f"Rules must be one of {', '.join(PRESETS)}.")
        if rules is None:
            rules = (
                await blackjack_defaults(self.storage, member.guild.id, self.bot.config)
            ).preset
        content, view = start_drill(rules, secrets.randbelow(SEED_LIMIT))
        await interaction.response.send_message(content, view=view, ephemeral=True)

    @blackjack.command(
        name="count", description="Practise counting cards: a run of cards, or this table's shoe."
    )
    @app_commands.describe(
        system="The counting system (default Hi-Lo)",
        cards="How many cards each run of the drill shows",
        at_table="Be asked the running count of this channel's table at a random moment",
    )
    @app_commands.choices(
        system=[app_commands.Choice(name=s.label, value=s.value) for s in CountSystem]
    )
    async def count(
        self,
        interaction: discord.Interaction[FeltBot],
        system: str = CountSystem.HILO.value,
        cards: app_commands.Range[int, MIN_CARDS, MAX_CARDS] | None = None,
        at_table: bool = False,
    ) -> None:
        if system not in {s.value for s in CountSystem}:
            raise Refusal("System must be Hi-Lo, KO or Omega II.")
        if at_table is not False:
            if cards is not None:
                raise Refusal("`cards` is for the drill: at a table you count what it shows.")
            await self.arm_live_count(interaction, CountSystem(system), Score())
            return
        await self._require_counting(interaction)
        cards = 10 if cards is None else cards
        if (
            isinstance(cards, bool)
            or not isinstance(cards, int)
            or not MIN_CARDS <= cards <= MAX_CARDS
        ):
            raise Refusal(f"A run shows {MIN_CARDS} to {MAX_CARDS} cards.")
        content, view = start_count(CountSystem(system), cards, secrets.randbelow(SEED_LIMIT))
        await interaction.response.send_message(content, view=view, ephemeral=True)

    async def arm_live_count(
        self, interaction: discord.Interaction[Any], system: CountSystem, score: Score
    ) -> None:
        """Arm a live count question at this channel's table for the member asking (from the
        command, or from "Ask me again")."""
        member = await self._require_counting(interaction)
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            raise Refusal(
                "No Blackjack table is being played in this channel: `/blackjack deal` to start "
                "one, then ask again."
            )
        self._live_counts.arm(table, member.id, system, interaction.followup, score)
        text = live_count.armed_text(system)
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _require_counting(self, interaction: discord.Interaction[Any]) -> discord.Member:
        """The member asking, if this server offers counting practice (it is opt-in)."""
        member = guild_member(interaction)
        server = await blackjack_defaults(self.storage, member.guild.id, self.bot.config)
        if not server.counting:
            raise Refusal("Counting practice is off on this server.")
        return member


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(Blackjack(bot))
