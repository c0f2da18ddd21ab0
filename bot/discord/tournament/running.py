"""Running tournaments in Discord: the director (``bot.tournament``) with each table in its own
thread of the lobby channel or channel of its own (``table_homes``), the tournament message, and
the deal and buy commands' work.

A tournament table is a Hold'em table: its thread (or channel) gets the Hold'em cog's
``TablePresenter`` and the table is hosted by the Hold'em cog's ``HoldemTables`` for it, so the
table message, hole-card DMs, action buttons and ``/holdem cards|sitout|back|leave`` work there
as at a cash table (``leave`` blinds the player away). Players moved by balancing, a table's
break or the final-table redraw are mentioned in their new thread or channel. At shutdown the
Hold'em cog suspends these tables with its own (their hands voided); at the next start,
``resume_all`` waits for the bot to be ready and resumes every running tournament in the threads
or channels it had, and its tournament message is edited again (``clock_message``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.holdem.presenter import TablePresenter
from bot.discord.tournament.bust_rebuy import answered_text, bust_rebuy_text, bust_rebuy_view
from bot.discord.tournament.clock_message import ClockMessage, ordinal
from bot.discord.tournament.deal import NO_DEAL, deal_text, deal_view
from bot.discord.tournament.table_homes import TableHomes, sweep_ended
from bot.holdem.bots import TABLE_BOTS
from bot.holdem.seating import BotFactory
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import AsyncioScheduler, HaltableScheduler, Scheduler
from bot.tournament.bust_rebuys import REBUY_WINDOW_SECONDS
from bot.tournament.deals import DealKind
from bot.tournament.director import TableHome, TournamentDirector
from bot.tournament.late import LateEntry, LateRegistration, late_registration
from bot.tournament.launch import TournamentDirectors
from bot.tournament.news import (
    ClockChanged,
    PlayerBusted,
    PlayerMoved,
    RebuyOffered,
    TournamentNews,
    TournamentOver,
)
from bot.tournament.reconcile import PaymentSettled
from bot.tournament.table import TournamentTable
from engine.tournament.seating import SeatReason
from storage.tournaments import EntryPayment, TournamentRow

_log = logging.getLogger("felt.discord.tournament")
LobbyChanged = Callable[[int], Awaitable[object]]
"""Redraws tournament ``id``'s lobby message."""
HOLDEM_COG = "Holdem"

WHY_MOVED = {
    SeatReason.BALANCE: "to balance the tables",
    SeatReason.BREAK: "because your table broke",
    SeatReason.FINAL_TABLE: "for the final table",
    SeatReason.DRAW: "by the draw",
}


class ThreadFront:
    """One tournament's Discord presence: a thread or channel per table (``table_homes``),
    messages in the lobby channel."""

    def __init__(
        self,
        client: FeltBot,
        row: TournamentRow,
        scheduler: Scheduler,
        lobby_changed: LobbyChanged | None = None,
    ) -> None:
        self.client = client
        self.row = row
        self.threads: dict[int, int] = {}
        """Each open table's thread or channel, by table number."""
        self.rebuy_offers: dict[int, discord.Message] = {}
        """Each member's open rebuy offer message (closed when it ends; not after a restart,
        where a late click is refused instead)."""
        self.homes = TableHomes(client, row, scheduler)
        self.clock = ClockMessage(client, row, scheduler)
        self._lobby_changed = lobby_changed
        self._late_open: bool | None = None
        """Late registration as the lobby message last showed it (None: not shown yet)."""

    def _holdem(self) -> Any:
        # The Hold'em cog draws and routes every Hold'em table; tournament tables are no other.
        # Found by name, not class: an extension reloaded is a new module with a new class.
        cog = self.client.get_cog(HOLDEM_COG)
        if cog is None or not hasattr(cog, "presenter_setup"):
            raise RuntimeError("tournament tables need the Hold'em cog")
        return cog

    async def open_table(self, table_no: int, known: tuple[int, int] | None) -> TableHome:
        holdem = self._holdem()
        channel_id = await self.homes.open(table_no, known[1] if known is not None else None)
        self.threads[table_no] = channel_id
        setup = holdem.presenter_setup(self.row.guild_id, channel_id)

        def closed(presenter: TablePresenter) -> None:
            holdem.forget(presenter)
            self.homes.closed(table_no)

        presenter = holdem.adopt(TablePresenter(setup, on_closed=closed))
        return TableHome(channel_id, channel_id, presenter)

    def hosted(self, table: TournamentTable) -> None:
        manager = self._holdem().tables
        if manager is not None:
            manager.host(table)

    async def publish(self, news: TournamentNews) -> None:
        match news:
            case ClockChanged(view=view):
                self.homes.sweep()  # every table is open by the first view
                await self.clock.show(view)
                await self._follow_late_registration(view.late)
            case LateEntry():
                await self._late_entry(news)
            case PlayerMoved(user_id=user_id, table=table, seat=seat, reason=reason):
                if user_id is None:
                    return
                where = self.threads.get(table, self.row.channel_id)
                await self._post(
                    where,
                    f"<@{user_id}> you were moved here {WHY_MOVED[reason]}: table {table}, "
                    f"seat {seat}. Your seat is ready.",
                )
            case RebuyOffered():
                await self._offer_rebuy(news)
            case PaymentSettled(user_id=user_id):
                await self._post(self.row.channel_id, f"<@{user_id}> {news.line}")
            case PlayerBusted(name=name, user_id=user_id, place=place):
                await self._close_offer(user_id, f"The rebuy offer ended: {ordinal(place)}.")
                await self._post(self.row.channel_id, f"{name} finishes {ordinal(place)}.")
            case TournamentOver(placings=placings, by_deal=by_deal):
                paid = [p for p in placings if p.prize]
                lines = [f"🥇 **{self.row.name}** is over" + (" by a deal." if by_deal else ".")]
                lines += [f"{ordinal(p.place)}: {p.name} — {p.prize:,} chips" for p in paid]
                await self._post(self.row.channel_id, "\n".join(lines))

    async def _follow_late_registration(self, late: LateRegistration | None) -> None:
        """Redraw the lobby message when late registration opens or closes (its Register
        button goes with it)."""
        is_open = late is not None and late.open
        if is_open == self._late_open or self._lobby_changed is None:
            return
        self._late_open = is_open
        try:
            await self._lobby_changed(self.row.tournament_id)
        except Exception:
            _log.warning("could not redraw a tournament's lobby message", exc_info=True)

    async def _late_entry(self, news: LateEntry) -> None:
        what = "re-entry" if news.re_entry else "late registration"
        await self._post(
            self.row.channel_id,
            f"{news.name} joins by {what}: table {news.table} (entries: {news.entries}).",
        )
        if news.user_id is None:
            return
        joined = "re-entered" if news.re_entry else "registered late"
        await self._post(
            self.threads.get(news.table, self.row.channel_id),
            f"<@{news.user_id}> you {joined}: table {news.table}, seat {news.seat}. "
            "Your seat is ready.",
        )

    async def _post(self, channel_id: int, text: str) -> None:
        channel = self.client.get_partial_messageable(channel_id, guild_id=self.row.guild_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException:
            _log.warning("could not post tournament news", exc_info=True)

    async def _close_offer(self, user_id: int | None, text: str) -> None:
        """Take the buttons off a member's offer that ended unanswered."""
        message = self.rebuy_offers.pop(user_id, None) if user_id is not None else None
        if message is None:
            return
        try:
            await message.edit(content=text, view=None)
        except discord.HTTPException:
            _log.info("could not close a rebuy offer", exc_info=True)

    async def _offer_rebuy(self, offer: RebuyOffered) -> None:
        """The offer in a DM (only its member can answer); in the table's thread, mentioning
        them, when their DMs are closed."""
        row = self.row
        text = bust_rebuy_text(offer, row.name, row.cost)
        view = bust_rebuy_view(row.tournament_id, offer, row.cost)
        try:
            dm = await self.client.create_dm(discord.Object(offer.user_id))
            self.rebuy_offers[offer.user_id] = await dm.send(text, view=view)
            return
        except discord.HTTPException:
            _log.info("rebuy offer DM refused; posting in the table thread")
        thread = self.client.get_partial_messageable(
            self.threads.get(offer.table, row.channel_id), guild_id=row.guild_id
        )
        try:
            self.rebuy_offers[offer.user_id] = await thread.send(
                f"<@{offer.user_id}> {text}",
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(offer.user_id)]),
            )
        except discord.HTTPException:
            _log.warning("could not post a rebuy offer", exc_info=True)


class DiscordTournaments:
    """The ``TournamentRunner`` the tournament cog is given: every running tournament here."""

    def __init__(
        self,
        client: FeltBot,
        *,
        bots: BotFactory = TABLE_BOTS,
        scheduler: Scheduler | None = None,
        settings: HoldemSettings | None = None,
        rebuy_window: float = REBUY_WINDOW_SECONDS,
    ) -> None:
        self.client = client
        self.scheduler = HaltableScheduler(scheduler or AsyncioScheduler())
        self._bots = bots
        self._settings = settings
        self._rebuy_window = rebuy_window
        self.fronts: dict[int, ThreadFront] = {}
        self._directors: TournamentDirectors | None = None
        self.lobby_changed: LobbyChanged | None = None
        """Redraws a tournament's lobby message (the tournament cog sets it)."""

    @property
    def directors(self) -> TournamentDirectors:
        if self._directors is None:
            self._directors = TournamentDirectors(
                storage=self.client.storage,
                scheduler=self.scheduler,
                fronts=self._front,
                bots=self._bots,
                names=self._name,
                settings=self._settings,
                rebuy_window=self._rebuy_window,
            )
        return self._directors

    def _front(self, row: TournamentRow) -> ThreadFront:
        front = ThreadFront(self.client, row, self.scheduler, self._redraw_lobby)
        self.fronts[row.tournament_id] = front
        return front

    def _name(self, guild_id: int, user_id: int) -> str:
        guild = self.client.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        return member.display_name if member is not None else f"Player {user_id}"

    async def start(self, tournament_id: int) -> None:
        await self.directors.start(tournament_id)

    async def resume_all(self) -> None:
        """After a restart: once the bot is ready (the Hold'em cog loaded), resume them all."""
        await self.client.wait_until_ready()
        resumed = await self.directors.resume_all()
        if resumed:
            _log.info("resumed tournaments", extra={"tournaments": resumed})
        swept = await sweep_ended(self.client)
        if swept:
            _log.info("deleted ended tournaments' table channels", extra={"channels": swept})

    def halt(self) -> None:
        self.scheduler.halt()

    def director(self, tournament_id: int) -> TournamentDirector:
        director = self.directors.running.get(tournament_id)
        if director is None or director.done.is_set():
            raise Refusal(f"Tournament #{tournament_id} is not running here.")
        return director

    # ----- /tournament buy and /tournament deal ------------------------------------------------

    async def _redraw_lobby(self, tournament_id: int) -> None:
        if self.lobby_changed is not None:
            await self.lobby_changed(tournament_id)

    async def on_bust_rebuy_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, user_id: int, take: bool
    ) -> None:
        if interaction.user.id != user_id:
            raise Refusal("This rebuy is offered to another player.")
        director = self.director(tournament_id)
        await interaction.response.defer()  # a decline may finish and pay the tournament first
        await director.decide_rebuy(f"u{user_id}", take)
        front = self.fronts.get(tournament_id)
        if front is not None:
            front.rebuy_offers.pop(user_id, None)  # answered: this reply closes it
        entry = director.engine.entry_of(f"u{user_id}")
        stack = entry.stack if entry is not None else 0
        await interaction.edit_original_response(
            content=answered_text(interaction.user.display_name, take, stack), view=None
        )

    async def buy(self, tournament_id: int, user_id: int, what: str) -> str:
        return await self.director(tournament_id).buy(user_id, EntryPayment(what))

    # ----- late registration and re-entry (bot/tournament/late.py) -----------------------------

    async def enter_late(self, tournament_id: int, guild_id: int, user_id: int) -> LateEntry:
        """A member's late registration or re-entry in a running tournament."""
        director = self.director(tournament_id)
        return await director.enter_late(user_id, self._name(guild_id, user_id))

    def late_registration(self, tournament_id: int) -> LateRegistration | None:
        """A running tournament's late registration as its director sees it (None: not
        running here, or its structure has none)."""
        director = self.directors.running.get(tournament_id)
        if director is None or director.done.is_set():
            return None
        return late_registration(director.engine)

    async def offer_deal(self, interaction: discord.Interaction[Any], tournament_id: int) -> None:
        director = self.director(tournament_id)
        user = interaction.user.id
        if director.engine.entry_of(f"u{user}") is None:
            raise Refusal("Only a player still in can ask for a deal.")
        offer = await director.offer_deal()
        await interaction.response.send_message(
            deal_text(offer, director.engine.config.name),
            view=deal_view(tournament_id, offer),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_deal_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, choice: str
    ) -> None:
        director = self.director(tournament_id)
        offer = director.deal_offer
        user = interaction.user.id
        if offer is None:
            raise Refusal("That deal is no longer on offer.")
        if user not in offer.members:
            raise Refusal("Only the players still in can answer a deal.")
        if choice == NO_DEAL:
            await director.call_off_deal()
            await interaction.response.edit_message(
                content=f"No deal ({interaction.user.display_name} declined): play goes on.",
                view=None,
            )
            return
        kind = DealKind(choice)
        await interaction.response.defer()  # the last acceptance pays every prize first
        if await director.accept_deal(offer, user, kind):
            await interaction.edit_original_response(
                content=deal_text(offer, director.engine.config.name)
                + f"\n✅ Everyone accepted the {kind.value} split: prizes are paid.",
                view=None,
            )
            return
        await interaction.followup.send(
            "You accept. The deal applies when every player still in accepts it.",
            ephemeral=True,
        )
