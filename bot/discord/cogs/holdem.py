"""``/holdem``: No-Limit Hold'em tables in a channel, with bots in the empty chairs.

One table per channel (a thread counts as a channel, so members who want several tables open a
thread for each). The cog checks who is asking and hands the request to the table host
(``bot.holdem``); the host's events come back through one ``TablePresenter`` per table, which
does the Discord requests. At load, tables open in storage are restored (a hand cut short by a
crash was voided by storage's recovery and the channel is told); at shutdown every table is
suspended (its hand voided, chips back to the stacks) so that it comes back at the next start.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.chips import checked_amount
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.guild_settings import bots_allowed, holdem_defaults
from bot.discord.holdem import ids
from bot.discord.holdem.away import left_text, sat_out_text
from bot.discord.holdem.cards import send_hole_cards
from bot.discord.holdem.components import (
    DYNAMIC_ITEMS,
    HANDLERS,
    action_of,
    raise_modal,
    raise_submission,
)
from bot.discord.holdem.history import send_history
from bot.discord.holdem.ids import ActionRef, Move
from bot.discord.holdem.ledger import send_ledger
from bot.discord.holdem.opening import open_and_sit
from bot.discord.holdem.options import (
    buy_in_for,
    options_view,
    raise_amount,
    start_settings,
    table_settings,
    with_home_options,
)
from bot.discord.holdem.preactions import PreActionButton, answer_pre_action
from bot.discord.holdem.presenter import POST_LINGER_SECONDS, EventTap, TablePresenter
from bot.discord.holdem.rail import set_consent, toggle_watch
from bot.discord.holdem.replayer import (
    DEFAULT_HANDS,
    MAX_HANDS,
    ReplayButton,
    send_hands,
    send_replay,
)
from bot.discord.pacing import Pacer
from bot.discord.permissions import (
    guild_member,
    is_admin,
    refuse_bot_account,
    require_game_channel,
    require_table_permissions,
)
from bot.discord.replies import acknowledge, defer_first
from bot.discord.table_cog import TableCog
from bot.discord.tree import route_errors

# The one seam for bot players: swap this import when engine.bots lands.
from bot.holdem.bots import TABLE_BOTS as DEFAULT_BOTS
from bot.holdem.bots import TABLE_EQUITY as DEFAULT_EQUITY
from bot.holdem.hand_files import HandFormat
from bot.holdem.home_options import OPTIONS_TEXT_LIMIT, parse_changes
from bot.holdem.host import EquityFunction, HoldemTable
from bot.holdem.manager import HoldemTables
from bot.holdem.seating import BotFactory
from bot.tables.clock import Scheduler
from bot.tables.limits import (
    HOLDEM_MAX_BOTS,
    HOLDEM_MAX_SEATS,
    HOLDEM_MIN_SEATS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
)
from engine.holdem import RaiseTo
from storage import MAX_CHIPS, Storage

_log = logging.getLogger("felt.discord.holdem")

VOIDED_BY_RECOVERY = "Felt stopped during this hand"
"""At shutdown, how long the tables' last messages may take to go out."""

Chips = app_commands.Range[int, 1, MAX_CHIPS]


class Holdem(TableCog[TablePresenter]):
    """Hold'em tables: commands, buttons, the raise modal, and the tables' lifecycle."""

    game = "Hold'em"
    handlers = HANDLERS
    buttons = (*DYNAMIC_ITEMS, ReplayButton, PreActionButton)

    holdem = app_commands.Group(
        name="holdem", description="No-Limit Texas Hold'em tables, with bots in the empty chairs"
    )

    def __init__(
        self,
        bot: FeltBot,
        *,
        bots: BotFactory = DEFAULT_BOTS,
        equity: EquityFunction | None = DEFAULT_EQUITY,
        scheduler: Scheduler | None = None,
        rng: Callable[[], random.Random] | None = None,
        table_overrides: Mapping[str, Any] | None = None,
        pacer: Pacer | None = None,
        tap: EventTap | None = None,
        linger: float = POST_LINGER_SECONDS,
    ) -> None:
        super().__init__(bot, scheduler=scheduler, pacer=pacer, tap=tap, linger=linger)
        self.tables: HoldemTables | None = None
        self._bots = bots
        self._equity = equity
        self._rng = rng
        self._overrides = dict(table_overrides or {})
        self._opening: set[int] = set()

    # ----- lifecycle ---------------------------------------------------------------------------

    async def open_tables(self) -> None:
        self.tables = HoldemTables(
            storage=self.bot.storage,
            scheduler=self.scheduler,
            presenters=self._presenter_for,
            bots=self._bots,
            equity=self._equity,
            rng=self._rng,
        )
        recovery = self.bot.recovery
        voided = [
            (hand.table_id, hand.hand_id, VOIDED_BY_RECOVERY)
            for hand in (recovery.voided_hands if recovery is not None else ())
        ]
        restored = await self.tables.restore(voided)
        if restored:
            _log.info("restored Hold'em tables", extra={"tables": len(restored)})

    async def suspend_tables(self) -> None:
        """Void every unfinished hand: the tables come back at the next start."""
        if self.tables is not None:
            await self.tables.suspend_all()

    def _presenter_for(self, guild_id: int, channel_id: int) -> TablePresenter:
        presenter = TablePresenter(
            self.presenter_setup(guild_id, channel_id), on_closed=self.forget
        )
        return self.adopt(presenter)

    # ----- helpers -----------------------------------------------------------------------------

    @property
    def storage(self) -> Storage:
        return self.bot.storage

    def _manager(self) -> HoldemTables:
        if self.tables is None:
            raise Refusal("Hold'em is not available: Felt runs without its chip database.")
        return self.tables

    def _table_here(self, interaction: discord.Interaction[Any]) -> HoldemTable:
        assert interaction.channel_id is not None
        table = self._manager().get(interaction.channel_id)
        if table is None:
            raise Refusal("There is no Hold'em table in this channel. Start one: `/holdem start`")
        return table

    def _table_of_button(self, interaction: discord.Interaction[Any], table_id: int) -> HoldemTable:
        table = self._manager().get(interaction.channel_id or 0)
        if table is None or table.table_id != table_id:
            raise Refusal("This table is closed: its buttons no longer do anything.")
        return table

    async def _hole_cards_reply(
        self, interaction: discord.Interaction[Any], table: HoldemTable
    ) -> None:
        presenter = self.presenters.get(table.channel_id)
        await send_hole_cards(interaction, table, presenter, self._executor)

    # ----- buttons and the raise modal ---------------------------------------------------------

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        ref: ActionRef,
        move: Move,
        amount: int | None,
    ) -> None:
        table = self._table_of_button(interaction, ref.table_id)
        offer = table.check_offer(interaction.user.id, ref.hand_id, ref.action_count)
        if move is Move.RAISE:
            modal = raise_modal(ref, offer)
            await interaction.response.send_modal(modal)
            # The submit is handled by ``on_interaction`` from its custom_id alone (after a
            # restart too), so discord.py's modal store must not handle it a second time.
            modal.stop()
            return
        action = action_of(move, amount)
        await self.defer_click(interaction)
        await table.act(interaction.user.id, ref.hand_id, ref.action_count, action)

    async def on_my_cards(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self._hole_cards_reply(interaction, self._table_of_button(interaction, table_id))

    async def on_pre_action(
        self, interaction: discord.Interaction[Any], table_id: int, choice: str
    ) -> None:
        await answer_pre_action(interaction, self._table_of_button(interaction, table_id), choice)

    # ----- home-game buttons (homeopts) ---------------------------------------------------------

    async def on_runs(
        self, interaction: discord.Interaction[Any], table_id: int, hand_id: int, count: int
    ) -> None:
        table = self._table_of_button(interaction, table_id)
        await self.defer_click(interaction)
        await table.choose_runs(interaction.user.id, hand_id, count)

    async def on_after_hand(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        hand_id: int,
        what: ids.AfterHand,
    ) -> None:
        table = self._table_of_button(interaction, table_id)
        await self.defer_click(interaction)
        if what is ids.AfterHand.RABBIT_HUNT:
            await table.rabbit_hunt(interaction.user.id, hand_id)
        else:
            await table.show_cards(interaction.user.id, hand_id, what.cards)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        submitted = raise_submission(interaction)
        if submitted is None:
            return
        ref, typed = submitted
        async with route_errors(interaction, "holdem raise modal"):
            table = self._table_of_button(interaction, ref.table_id)
            offer = table.check_offer(interaction.user.id, ref.hand_id, ref.action_count)
            amount = raise_amount(typed, offer)
            await self.defer_click(interaction)
            await table.act(interaction.user.id, ref.hand_id, ref.action_count, RaiseTo(amount))

    # ----- commands ----------------------------------------------------------------------------

    @holdem.command(name="start", description="Open a Hold'em table in this channel.")
    @defer_first(ephemeral=True)  # before its storage reads: a busy database must not cost 3 s
    @app_commands.describe(
        small_blind="Small blind in chips (default: the server's; the big blind follows)",
        big_blind="Big blind in chips (default: twice the small blind)",
        buy_in="Your buy-in in chips (default: 100 big blinds within the table's limits)",
        seats=f"Seats at the table, {HOLDEM_MIN_SEATS} to {HOLDEM_MAX_SEATS}",
        bots="Most bot players seated at once, 0 for none (default: fill every empty chair)",
        turn_seconds=f"Seconds each player has to act, {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}",
        options="Home-game options as name=value, e.g. straddle=utg run_it_max=2",
    )
    async def start(
        self,
        interaction: discord.Interaction[FeltBot],
        small_blind: Chips | None = None,
        big_blind: Chips | None = None,
        buy_in: Chips | None = None,
        seats: app_commands.Range[int, HOLDEM_MIN_SEATS, HOLDEM_MAX_SEATS] | None = None,
        bots: app_commands.Range[int, 0, HOLDEM_MAX_BOTS] | None = None,
        turn_seconds: app_commands.Range[int, MIN_TURN_SECONDS, MAX_TURN_SECONDS] | None = None,
        options: app_commands.Range[str, 1, OPTIONS_TEXT_LIMIT] | None = None,
    ) -> None:
        member = guild_member(interaction)
        refuse_bot_account(member)
        await require_game_channel(interaction)
        require_table_permissions(interaction)
        manager = self._manager()
        channel_id = interaction.channel_id
        assert channel_id is not None
        if manager.get(channel_id) is not None or channel_id in self._opening:
            raise Refusal("This channel already has a table: `/holdem join` to sit down.")
        guild_id = member.guild.id
        config = self.bot.config
        base = table_settings(
            await holdem_defaults(self.storage, guild_id, config), self._overrides
        )
        settings = start_settings(
            base,
            small_blind=small_blind,
            big_blind=big_blind,
            seats=seats,
            bots=bots,
            turn_seconds=turn_seconds,
            bots_allowed=await bots_allowed(self.storage, guild_id, config),
        )
        settings = with_home_options(settings, options)
        amount = buy_in_for(settings, buy_in)
        self._opening.add(channel_id)
        try:
            manager, presenters = self._manager(), self.presenters
            await open_and_sit(
                interaction, member, settings, amount, self.storage, manager, presenters
            )
        finally:
            self._opening.discard(channel_id)
        await interaction.followup.send(
            f"Your table is open: you sit in seat 1 with {amount:,} chips. Your cards come by "
            "DM (or press **My cards** on the table message).",
            ephemeral=True,
        )

    @holdem.command(name="join", description="Sit down at this channel's table.")
    @defer_first(ephemeral=True)  # before its storage reads: a busy database must not cost 3 s
    @app_commands.describe(buy_in="Chips to bring (default: 100 big blinds within the limits)")
    async def join(
        self, interaction: discord.Interaction[FeltBot], buy_in: Chips | None = None
    ) -> None:
        member = guild_member(interaction)
        refuse_bot_account(member)
        await require_game_channel(interaction)
        table = self._table_here(interaction)
        amount = buy_in_for(table.settings, buy_in)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        seat_no = await table.join(
            member.id, member.display_name, amount, key=f"holdem:join:{interaction.id}"
        )
        if table.seat_of(member.id) is None:
            text = (
                f"The table is full, so you take a bot's chair (seat {seat_no}) from the next "
                f"hand, with {amount:,} chips."
            )
        else:
            text = f"You sit in seat {seat_no} with {amount:,} chips. Your cards come by DM."
        await interaction.followup.send(text, ephemeral=True)

    @holdem.command(name="leave", description="Leave the table and cash out (after this hand).")
    async def leave(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        table = self._table_here(interaction)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        done = await table.leave(member.id)
        await interaction.followup.send(left_text(table, done=done), ephemeral=True)

    @holdem.command(name="sitout", description="Keep your seat but skip the next hands.")
    async def sitout(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        table = self._table_here(interaction)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        await table.sit_out(member.id)
        await interaction.followup.send(sat_out_text(table), ephemeral=True)

    @holdem.command(name="back", description="Play again after sitting out.")
    async def back(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        table = self._table_here(interaction)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        await table.back(member.id)
        await interaction.followup.send(
            "You are back: you play from the next hand.", ephemeral=True
        )

    @holdem.command(name="rebuy", description="Add chips to your stack (up to the maximum buy-in).")
    @app_commands.describe(amount="Chips to add (default: up to the maximum buy-in)")
    async def rebuy(
        self, interaction: discord.Interaction[FeltBot], amount: Chips | None = None
    ) -> None:
        member = guild_member(interaction)
        table = self._table_here(interaction)
        if amount is not None:
            amount = checked_amount(amount, what="rebuy")
        await acknowledge(interaction, ephemeral=True, thinking=True)
        in_hand = table.hole_cards(member.id) is not None
        added = await table.rebuy(member.id, amount, key=f"holdem:rebuy:{interaction.id}")
        when = "after this hand" if in_hand else "now"
        await interaction.followup.send(
            f"{added:,} chips are added to your stack {when}.", ephemeral=True
        )

    @holdem.command(name="cards", description="See your hole cards (only you see them).")
    async def cards(self, interaction: discord.Interaction[FeltBot]) -> None:
        guild_member(interaction)
        await self._hole_cards_reply(interaction, self._table_here(interaction))

    @holdem.command(name="table", description="Post the table message again at the bottom.")
    async def table(self, interaction: discord.Interaction[FeltBot]) -> None:
        guild_member(interaction)
        table = self._table_here(interaction)
        presenter = self.presenters.get(table.channel_id)
        if presenter is None:
            raise Refusal("This table has no message to post yet; try again in a moment.")
        presenter.repost()
        await interaction.response.send_message("The table is posted again below.", ephemeral=True)

    # ----- home-game options (homeopts) -----------------------------------------------------------

    @holdem.command(name="options", description="See the table's options, or change them (host).")
    @app_commands.describe(change="Changes as name=value, e.g. straddle=utg bomb_pot_every=10")
    async def options(
        self,
        interaction: discord.Interaction[FeltBot],
        change: app_commands.Range[str, 1, OPTIONS_TEXT_LIMIT] | None = None,
    ) -> None:
        member = guild_member(interaction)
        table = self._table_here(interaction)
        can_change = member.id == table.host_user_id or await is_admin(interaction)
        if change is None:
            text = options_view(table.settings, can_change=can_change)
            await interaction.response.send_message(text, ephemeral=True)
            return
        changes = parse_changes(change)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        after = await table.change_options(member.id, changes, is_admin=can_change)
        await interaction.followup.send(options_view(after, can_change=True), ephemeral=True)

    @holdem.command(name="history", description="Download a finished hand as a PHH file.")
    @app_commands.describe(hand="The hand number at this channel's table (default: the last one)")
    async def history(
        self,
        interaction: discord.Interaction[FeltBot],
        hand: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
    ) -> None:
        guild_member(interaction)
        number = None if hand is None else checked_amount(hand, what="hand number")
        live = self._manager().get(interaction.channel_id or 0)
        await send_history(interaction, self.storage, live, number)

    @holdem.command(name="hand", description="Replay a hand you played, street by street.")
    @app_commands.describe(number="The hand number at this channel's table (default: your last)")
    async def hand(
        self,
        interaction: discord.Interaction[FeltBot],
        number: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
    ) -> None:
        guild_member(interaction)
        number = None if number is None else checked_amount(number, what="hand number")
        live = self._manager().get(interaction.channel_id or 0)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        await send_replay(interaction, self.storage, live, number)

    @holdem.command(name="hands", description="Your recent hands as a file for your tracker.")
    @app_commands.describe(
        count=f"How many of your latest hands (default {DEFAULT_HANDS})",
        file_format="pokerstars (trackers), phh or ohh (Open Hand History)",
    )
    @app_commands.rename(file_format="format")
    async def hands(
        self,
        interaction: discord.Interaction[FeltBot],
        count: app_commands.Range[int, 1, MAX_HANDS] = DEFAULT_HANDS,
        file_format: Literal["pokerstars", "phh", "ohh"] = "pokerstars",
    ) -> None:
        guild_member(interaction)
        self._manager()
        await acknowledge(interaction, ephemeral=True, thinking=True)
        await send_hands(interaction, self.storage, count, HandFormat(file_format))

    @holdem.command(name="ledger", description="The table session's ledger and who pays whom.")
    async def ledger(self, interaction: discord.Interaction[FeltBot]) -> None:
        await send_ledger(interaction, self.storage, self._manager())

    @holdem.command(name="watch", description="Watch this table from the rail (again: stop).")
    async def watch(self, interaction: discord.Interaction[FeltBot]) -> None:
        guild_member(interaction)
        await toggle_watch(interaction, self._table_here(interaction))

    @holdem.command(name="rail", description="Let the rail see your cards, hands later (or not).")
    @app_commands.describe(allow="True: watchers may see your cards of finished hands")
    async def rail(self, interaction: discord.Interaction[FeltBot], allow: bool) -> None:
        await set_consent(interaction, self.storage, allow)

    @holdem.command(name="stop", description="Close the table after this hand (host or admin).")
    async def stop(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        table = self._table_here(interaction)
        admin = await is_admin(interaction)
        await acknowledge(interaction, ephemeral=True, thinking=True)
        if await table.stop(member.id, is_admin=admin):
            text = "The table is closed and everyone was cashed out."
        else:
            text = "The table closes at the end of this hand; everyone is cashed out then."
        await interaction.followup.send(text, ephemeral=True)


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(Holdem(bot))
