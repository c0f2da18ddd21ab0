"""``/tournament``: create a tournament, register and unregister (commands or the lobby
message's buttons), see one or all, cancel one before it starts, and export its hands.

The cog checks who is asking and hands chips to storage (``storage/tournaments.py``: buy-ins are
escrowed in the tournament's pool and refunded on cancel); the lobby (``bot/discord/tournament/
lobby.py``) decides when a tournament starts and hands it to the director, the
``TournamentRunner`` given to the cog. Without a director, creating a tournament is refused, so
no tournament can start that nothing would run.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot.discord.chips import checked_amount, chips
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.guild_settings import bots_allowed, tournament_settings
from bot.discord.permissions import guild_member, is_admin, require_game_channel
from bot.discord.replies import acknowledge, send_ephemeral
from bot.discord.tournament.bust_rebuy import BUST_REBUY_HANDLERS, BustRebuyButton
from bot.discord.tournament.clock_message import UNKNOWN_MESSAGE
from bot.discord.tournament.deal import DEAL_HANDLERS, DealButton
from bot.discord.tournament.formatting import (
    describe_tournament_refusal,
    list_line,
    lobby_text,
)
from bot.discord.tournament.hands import send_tournament_hands
from bot.discord.tournament.lobby import Lobby
from bot.discord.tournament.lobby_buttons import HANDLERS, LobbyAction, LobbyButton, lobby_view
from bot.discord.tournament.options import plan_tournament
from bot.discord.tournament.running import DiscordTournaments
from bot.discord.tournament.table_homes import chosen_tables
from bot.holdem.hand_files import HandFormat
from bot.tables.clock import AsyncioScheduler, HaltableScheduler, Scheduler
from bot.tournament.late import LateRegistration
from bot.tournament.lobby_hooks import TournamentRunner
from engine.tournament.structure import PRESET_NAMES
from storage import MAX_CHIPS, Storage
from storage.tournament_messages import TableHomeKind
from storage.tournaments import (
    TournamentEntry,
    TournamentError,
    TournamentNotOpen,
    TournamentRow,
    TournamentStatus,
)

_log = logging.getLogger("felt.discord.tournament")

NO_DIRECTOR = "Tournaments cannot run on this Felt yet: it has no tournament director."
OPEN = (TournamentStatus.REGISTERING,)
LISTED = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
MAX_LISTED = 20


class Tournaments(commands.Cog):
    """The tournament lobby: commands, buttons and the lobby messages."""

    tournament = app_commands.Group(
        name="tournament", description="Sit & Go and multi-table poker tournaments"
    )

    def __init__(
        self,
        bot: FeltBot,
        *,
        runner: TournamentRunner | None = None,
        scheduler: Scheduler | None = None,
    ) -> None:
        self.bot = bot
        self.runner = runner
        self.scheduler = HaltableScheduler(scheduler or AsyncioScheduler())
        self.lobby: Lobby | None = None
        self._resuming: asyncio.Task[None] | None = None

    @property
    def storage(self) -> Storage:
        return self.bot.storage

    async def cog_load(self) -> None:
        HANDLERS.register(self.bot, self)
        self.bot.add_dynamic_items(LobbyButton, DealButton, BustRebuyButton)
        if isinstance(self.runner, DiscordTournaments) and self.bot.has_storage:
            DEAL_HANDLERS.register(self.bot, self.runner)
            BUST_REBUY_HANDLERS.register(self.bot, self.runner)
            self._resuming = asyncio.create_task(self.runner.resume_all())
        self.bot.error_router.register_refusal(TournamentError, describe_tournament_refusal)
        if self.runner is not None and self.bot.has_storage:
            self.lobby = Lobby(self.storage, self.scheduler, self.runner, self)
            if isinstance(self.runner, DiscordTournaments):
                self.runner.lobby_changed = self.lobby.refresh
            await self.lobby.restore()

    async def cog_unload(self) -> None:
        HANDLERS.unregister(self.bot)
        DEAL_HANDLERS.unregister(self.bot)
        BUST_REBUY_HANDLERS.unregister(self.bot)
        self.bot.remove_dynamic_items(LobbyButton, DealButton, BustRebuyButton)
        if isinstance(self.runner, DiscordTournaments):
            self.runner.halt()
        if self.lobby is not None:
            self.lobby.stop()
        self.scheduler.halt()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        guild_member(interaction)
        return True

    def _lobby(self) -> Lobby:
        if self.lobby is None:
            raise Refusal(NO_DIRECTOR)
        return self.lobby

    # ----- the lobby message (LobbyBoard) -------------------------------------------------------

    async def show(self, row: TournamentRow, entries: Sequence[TournamentEntry]) -> None:
        """Edit the tournament's lobby message (posted by ``create``)."""
        if row.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        message = channel.get_partial_message(row.lobby_message_id)
        late = self._late(row)
        started = row.status is TournamentStatus.RUNNING
        taking = row.status is TournamentStatus.REGISTERING or (
            started and late is not None and late.open
        )
        view = lobby_view(row.tournament_id, open_for_registration=taking, started=started)
        try:
            try:
                await message.edit(content=lobby_text(row, entries, late), view=view)
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                # Deleted by someone: post it again, and edit the new one from now on.
                again = await channel.send(lobby_text(row, entries, late), view=view or MISSING)
                await self.storage.set_tournament_lobby_message(row.tournament_id, again.id)
        except discord.HTTPException:
            _log.warning(
                "could not edit a tournament's lobby message",
                extra={"tournament_id": row.tournament_id},
                exc_info=True,
            )

    def _late(self, row: TournamentRow) -> LateRegistration | None:
        """A running tournament's late registration, from its director."""
        if row.status is not TournamentStatus.RUNNING or not isinstance(
            self.runner, DiscordTournaments
        ):
            return None
        return self.runner.late_registration(row.tournament_id)

    # ----- /tournament create ---------------------------------------------------------------------

    @tournament.command(name="create", description="Open a tournament's registration here.")
    @app_commands.describe(
        name="What to call it",
        type="sng: one table, starts when full (or at a time); mtt: many tables, starts at a time",
        buy_in="Wallet chips each entry costs (the prize pool is every buy-in)",
        preset="The blind structure",
        seats="Players per table (default 9)",
        max_entries="Most entries (a Sit & Go: at most its seats)",
        start="full, a Discord timestamp like <t:1767225600:R>, in 1h30m, or 2026-12-31 20:00",
        bots="Fill a Sit & Go's empty seats with bots at the start time",
        rebuys="Sell rebuys for the first six levels and an add-on at the break after them",
        tables="Where tables play: a thread each, or a channel each (default: the server's)",
    )
    @app_commands.choices(
        type=[
            app_commands.Choice(name="Sit & Go", value="sng"),
            app_commands.Choice(name="Multi-table", value="mtt"),
        ],
        preset=[app_commands.Choice(name=name, value=name) for name in PRESET_NAMES],
        tables=[app_commands.Choice(name=kind.value, value=kind.value) for kind in TableHomeKind],
    )
    async def create(
        self,
        interaction: discord.Interaction[FeltBot],
        name: app_commands.Range[str, 1, 100],
        type: str,
        buy_in: app_commands.Range[int, 1, MAX_CHIPS],
        preset: str = "turbo",
        seats: app_commands.Range[int, 2, 10] | None = None,
        max_entries: app_commands.Range[int, 2, 1000] | None = None,
        start: app_commands.Range[str, 1, 60] | None = None,
        bots: bool = False,
        rebuys: bool = False,
        tables: str | None = None,
    ) -> None:
        member = guild_member(interaction)
        lobby = self._lobby()
        await require_game_channel(interaction)
        members_create, fee_percent = await tournament_settings(
            self.storage, member.guild.id, self.bot.config
        )
        if not members_create and not await is_admin(interaction):
            raise Refusal("Only Felt admins can create tournaments on this server.")
        if bots and not await bots_allowed(self.storage, member.guild.id, self.bot.config):
            raise Refusal("Bots are turned off on this server.")
        plan = plan_tournament(
            name=name,
            kind=type,
            buy_in=checked_amount(buy_in, what="buy-in"),
            preset_name=preset,
            seats=seats,
            max_entries=max_entries,
            start=start,
            bots=bots,
            fee_percent=fee_percent,
            now=lobby.now(),
            rebuys=rebuys,
        )
        where = await chosen_tables(interaction, tables)
        assert interaction.channel_id is not None
        await acknowledge(interaction)
        row = await self.storage.create_tournament(
            member.guild.id,
            interaction.channel_id,
            member.id,
            plan.name,
            plan.kind,
            plan.buy_in,
            plan.fee,
            json.dumps(plan.structure.to_mapping()),
            plan.seats_per_table,
            plan.max_entries,
            plan.starts_at,
            plan.bots_fill,
            key=f"tournament-create:{interaction.id}",
        )
        await self.storage.set_tournament_tables(row.tournament_id, where)
        await self._post_lobby(interaction, row)
        lobby.schedule(row)

    async def _post_lobby(self, interaction: discord.Interaction[Any], row: TournamentRow) -> None:
        """Post a new tournament's lobby message and remember it (to edit it from now on)."""
        message = await interaction.followup.send(
            lobby_text(row, ()),
            view=lobby_view(row.tournament_id, open_for_registration=True) or MISSING,
            wait=True,
        )
        await self.storage.set_tournament_lobby_message(row.tournament_id, message.id)

    # ----- registering ----------------------------------------------------------------------------

    @tournament.command(
        name="register",
        description="Enter a tournament, or late or again while it allows (pays a buy-in).",
    )
    @app_commands.describe(tournament="The tournament's number (default: the one open here)")
    async def register(
        self, interaction: discord.Interaction[FeltBot], tournament: int | None = None
    ) -> None:
        await self._register(interaction, tournament, LobbyAction.REGISTER)

    @tournament.command(name="unregister", description="Leave a tournament before it starts.")
    @app_commands.describe(tournament="The tournament's number (default: the one open here)")
    async def unregister(
        self, interaction: discord.Interaction[FeltBot], tournament: int | None = None
    ) -> None:
        await self._register(interaction, tournament, LobbyAction.UNREGISTER)

    async def on_lobby_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, action: LobbyAction
    ) -> None:
        await self._register(interaction, tournament_id, action)

    async def _register(
        self, interaction: discord.Interaction[Any], tournament: int | None, action: LobbyAction
    ) -> None:
        member = guild_member(interaction)
        if member.bot:
            raise Refusal("Bots cannot enter tournaments this way.")
        lobby = self._lobby()
        # Unregistering names a running tournament too, so that its refusal says why.
        wanted = self._taking if action is LobbyAction.REGISTER else None
        row = await self._chosen(member.guild.id, tournament, LISTED, wanted)
        if row.status is TournamentStatus.RUNNING:
            if action is LobbyAction.UNREGISTER:
                raise Refusal(
                    f"**{row.name}** (#{row.tournament_id}) has started: "
                    "an entry cannot be withdrawn once the tournament is running."
                )
            await self._register_late(interaction, row)
            await lobby.changed(row.tournament_id)
            return
        await acknowledge(interaction, ephemeral=True, thinking=True)
        key = f"tournament-{action.value}:{interaction.id}"
        if action is LobbyAction.REGISTER:
            done = await self.storage.register_tournament(row.tournament_id, member.id, key=key)
            text = (
                f"You are registered in **{row.name}** (#{row.tournament_id}): "
                f"{chips(row.cost)} moved from your wallet, which now holds "
                f"{chips(done.wallet_balance or 0)}."
            )
        else:
            refunds = await self.storage.unregister_tournament(
                row.tournament_id, member.id, key=key
            )
            text = (
                f"You left **{row.name}** (#{row.tournament_id}): "
                f"{chips(refunds.total)} went back to your wallet."
            )
        await interaction.followup.send(text, ephemeral=True)
        await lobby.changed(row.tournament_id)

    async def _register_late(
        self, interaction: discord.Interaction[Any], row: TournamentRow
    ) -> None:
        """Late registration or re-entry (``bot/tournament/late.py``): the director refuses in
        one sentence or takes the buy-in and seats the entry."""
        running = self._running()
        running.director(row.tournament_id)  # refused before anything if it is not running here
        await acknowledge(interaction, ephemeral=True, thinking=True)
        entry = await running.enter_late(row.tournament_id, row.guild_id, interaction.user.id)
        how = "re-entered" if entry.re_entry else "registered late in"
        await interaction.followup.send(
            f"You {how} **{row.name}** (#{row.tournament_id}): {chips(row.cost)} moved from "
            f"your wallet. Your seat: table {entry.table}, seat {entry.seat}.",
            ephemeral=True,
        )

    def _taking(self, row: TournamentRow) -> bool:
        """Whether a tournament takes registrations now (before the start, or late)."""
        late = self._late(row)
        return row.status is TournamentStatus.REGISTERING or (late is not None and late.open)

    async def _chosen(
        self,
        guild_id: int,
        tournament: int | None,
        statuses: Sequence[TournamentStatus],
        wanted: Callable[[TournamentRow], bool] | None = None,
    ) -> TournamentRow:
        """The tournament a member named (of this server), or the only one in ``statuses``
        (that ``wanted`` accepts)."""
        if tournament is not None:
            if isinstance(tournament, bool) or not 1 <= tournament <= 2**63 - 1:
                raise Refusal("A tournament's number is a whole number from 1.")
            row = await self.storage.get_tournament(tournament)
            if row is None or row.guild_id != guild_id:
                raise Refusal(f"There is no tournament #{tournament} here.")
            return row
        rows = await self.storage.list_tournaments(guild_id, tuple(statuses))
        rows = [row for row in rows if wanted is None or wanted(row)]
        if not rows:
            raise Refusal("No tournament is open for registration here.")
        if len(rows) > 1:
            numbers = ", ".join(f"#{row.tournament_id}" for row in rows[:MAX_LISTED])
            raise Refusal(f"Several tournaments are open ({numbers}): give its number.")
        return rows[0]

    # ----- seeing and cancelling ---------------------------------------------------------------

    @tournament.command(name="info", description="A tournament's structure, entries and prizes.")
    @app_commands.describe(tournament="The tournament's number (default: the one open here)")
    async def info(
        self, interaction: discord.Interaction[FeltBot], tournament: int | None = None
    ) -> None:
        member = guild_member(interaction)
        row = await self._chosen(member.guild.id, tournament, LISTED)
        entries = await self.storage.tournament_entries(row.tournament_id)
        await send_ephemeral(interaction, lobby_text(row, entries, self._late(row)))

    @tournament.command(name="list", description="The tournaments open or running here.")
    async def list_(self, interaction: discord.Interaction[FeltBot]) -> None:
        member = guild_member(interaction)
        rows = await self.storage.list_tournaments(member.guild.id, LISTED)
        if not rows:
            await send_ephemeral(interaction, "No tournament is open or running here.")
            return
        lines = [list_line(row) for row in rows[:MAX_LISTED]]
        if len(rows) > MAX_LISTED:
            lines.append(f"…and {len(rows) - MAX_LISTED} more.")
        await send_ephemeral(interaction, "\n".join(lines))

    @tournament.command(name="cancel", description="Cancel a tournament before it starts.")
    @app_commands.describe(tournament="The tournament's number (default: the one open here)")
    async def cancel(
        self, interaction: discord.Interaction[FeltBot], tournament: int | None = None
    ) -> None:
        member = guild_member(interaction)
        lobby = self._lobby()
        row = await self._chosen(member.guild.id, tournament, OPEN)
        if row.created_by != member.id and not await is_admin(interaction):
            raise Refusal("Only its organiser or a Felt admin can cancel a tournament.")
        if row.status is not TournamentStatus.REGISTERING:
            raise TournamentNotOpen(row.tournament_id, row.status, "registering")
        await acknowledge(interaction, ephemeral=True, thinking=True)
        refunds = await self.storage.cancel_tournament(
            row.tournament_id,
            reason=f"cancelled by {member.id}",
            actor_id=member.id,
            key=f"tournament-cancel:{interaction.id}",
        )
        count = len(refunds.refunds)
        await interaction.followup.send(
            f"**{row.name}** (#{row.tournament_id}) is cancelled: {chips(refunds.total)} "
            f"refunded to {count} entr{'y' if count == 1 else 'ies'}.",
            ephemeral=True,
        )
        await lobby.refresh(row.tournament_id)

    # ----- the running tournament (bot/discord/tournament/running.py) ---------------------------

    def _running(self) -> DiscordTournaments:
        if not isinstance(self.runner, DiscordTournaments):
            raise Refusal(NO_DIRECTOR)
        return self.runner

    @tournament.command(name="buy", description="Rebuy, add-on or re-entry (pays a buy-in).")
    @app_commands.describe(
        what="rebuy (stack at or below the start), addon (at the add-on break), reentry",
        tournament="The tournament's number (default: the one running here)",
    )
    async def buy(
        self,
        interaction: discord.Interaction[FeltBot],
        what: Literal["rebuy", "addon", "reentry"],
        tournament: int | None = None,
    ) -> None:
        member = guild_member(interaction)
        running = self._running()
        row = await self._chosen(member.guild.id, tournament, (TournamentStatus.RUNNING,))
        await acknowledge(interaction, ephemeral=True, thinking=True)
        said = await running.buy(row.tournament_id, member.id, what)
        await interaction.followup.send(said, ephemeral=True)

    @tournament.command(name="deal", description="Offer the players left an ICM or chip-chop deal.")
    @app_commands.describe(tournament="The tournament's number (default: the one running here)")
    async def deal(
        self, interaction: discord.Interaction[FeltBot], tournament: int | None = None
    ) -> None:
        member = guild_member(interaction)
        running = self._running()
        row = await self._chosen(member.guild.id, tournament, (TournamentStatus.RUNNING,))
        await running.offer_deal(interaction, row.tournament_id)

    @tournament.command(name="hands", description="Every hand of a tournament, as a file.")
    @app_commands.describe(
        tournament="The tournament's number",
        file_format="pokerstars (trackers), phh or ohh (Open Hand History)",
    )
    @app_commands.rename(file_format="format")
    async def hands(
        self,
        interaction: discord.Interaction[FeltBot],
        tournament: int,
        file_format: Literal["pokerstars", "phh", "ohh"] = "pokerstars",
    ) -> None:
        member = guild_member(interaction)
        row = await self._chosen(member.guild.id, tournament, ())
        await acknowledge(interaction, ephemeral=True, thinking=True)
        await send_tournament_hands(interaction, self.storage, row, HandFormat(file_format))


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(Tournaments(bot, runner=DiscordTournaments(bot)))
