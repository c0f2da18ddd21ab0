"""``/stats`` and ``/leaderboard``: a member's statistics with a picture, and the rankings.

/stats reads the running counters settlement keeps (``storage/player_counts.py``), never the
hands, and answers privately with an embed and a PNG drawn in a worker thread (the bankroll
graph and, for poker, tendencies against the server's average). The picture is kept per member
and span until that member plays again. A leaderboard is posted for everyone.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.attachments import attachment
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.leaderboard import (
    BOARDS,
    CHIPS,
    DEFAULT_MIN_HANDS,
    MAX_MIN_HANDS,
    LeaderboardPage,
    PageRequest,
    render_page,
    season_selector,
)
from bot.discord.permissions import guild_member
from bot.discord.replies import acknowledge
from bot.discord.stats_report import (
    BY_HAND_LIMIT,
    PICTURE_NAME,
    MemberStats,
    by_day,
    by_hand,
    stats_embed,
    stats_picture,
)
from bot.render.stats_chart import StatsPicture, render_stats_picture
from engine.blackjack.stats import RoundCounts
from engine.holdem.stats import StyleCounts
from storage import Game, Period, SeasonSelector, Storage

MAX_SEASON = 1_000_000
CACHED_PICTURES = 256
"""Pictures kept (the least recently shown are dropped first)."""
GAME_CHOICES = [
    app_commands.Choice(name="Hold'em", value=Game.HOLDEM.value),
    app_commands.Choice(name="Blackjack", value=Game.BLACKJACK.value),
]

PictureKey = tuple[int, int, tuple[Game, ...], int | None]
"""``(guild, member, games, season number or None for all time)``."""


def _game(value: str | None) -> Game | None:
    if value is None:
        return None
    try:
        return Game(value)
    except ValueError:
        names = ", ".join(game.value for game in Game)
        raise Refusal(f"Unknown game {value!r}: choose {names}.") from None


def _season(value: int | None, *, zero_is: str) -> None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEASON
    ):
        raise Refusal(f"The season must be a number from 1 to {MAX_SEASON:,}, or 0 {zero_is}.")


class Stats(commands.Cog):
    """A member's statistics and the server's rankings."""

    def __init__(self, bot: FeltBot) -> None:
        self.bot = bot
        self._executor: ThreadPoolExecutor | None = None
        self._pictures: OrderedDict[PictureKey, tuple[tuple[int, ...], bytes]] = OrderedDict()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardPage)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="felt-stats-render")

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardPage)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        guild_member(interaction)  # refuses a DM sent by a client that ignored the contexts
        return True

    @property
    def storage(self) -> Storage:
        return self.bot.storage

    @property
    def pictures_kept(self) -> int:
        """How many /stats pictures are kept for reuse."""
        return len(self._pictures)

    # ----- /stats ------------------------------------------------------------------------------

    @app_commands.command(name="stats", description="Your statistics and bankroll graph.")
    @app_commands.describe(
        member="Whose statistics to show (default: yours)",
        game="Only this game (default: both)",
        season="Season number (default: all time)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[FeltBot],
        member: discord.Member | None = None,
        game: str | None = None,
        season: app_commands.Range[int, 1, MAX_SEASON] | None = None,
    ) -> None:
        me = guild_member(interaction)
        target = member or me
        if target.bot:
            raise Refusal("Bots keep no statistics.")
        chosen = _game(game)
        _season(season, zero_is="for all time")
        await acknowledge(interaction, ephemeral=True, thinking=True)
        selector: SeasonSelector = season if season else Period.ALL_TIME
        games = (chosen,) if chosen is not None else (Game.HOLDEM, Game.BLACKJACK)
        found = await self._read(me.guild.id, target, games, selector)
        if not found.played:
            who = "You have" if target.id == me.id else f"{target.mention} has"
            what = " or ".join(f"a {_unit(g)}" for g in games)
            raise Refusal(f"{who} not played {what} here {_in(found.span)}yet.")
        picture = await self._picture((me.guild.id, target.id, games, season or None), found)
        await interaction.followup.send(
            embed=stats_embed(found),
            file=attachment(picture, filename=PICTURE_NAME),
            ephemeral=True,
        )

    async def _read(
        self,
        guild_id: int,
        target: discord.Member | discord.User,
        games: tuple[Game, ...],
        season: SeasonSelector,
    ) -> MemberStats:
        holdem = await self.storage.counts(guild_id, target.id, Game.HOLDEM, season=season)
        server = await self.storage.counts(guild_id, None, Game.HOLDEM, season=season)
        blackjack = await self.storage.counts(guild_id, target.id, Game.BLACKJACK, season=season)
        found = MemberStats(
            name=target.display_name,
            span="all time" if holdem.season is None else f"season {holdem.season}",
            games=games,
            holdem=StyleCounts(**holdem.values),
            holdem_server=StyleCounts(**server.values),
            blackjack=RoundCounts(**blackjack.values),
            bankroll=(),
            tournaments=(
                await self.storage.tournament_results(guild_id, target.id, season=season)
                if Game.HOLDEM in games
                else None
            ),
        )
        if sum(found.hands(game) for game in games) <= BY_HAND_LIMIT:
            results = [
                await self.storage.recent_results(
                    guild_id, target.id, game, season=season, limit=BY_HAND_LIMIT
                )
                for game in games
            ]
            return replace(found, bankroll=by_hand(*results))
        days = [await self.storage.bankroll(guild_id, target.id, g, season=season) for g in games]
        return replace(found, bankroll=by_day(*days))

    async def _picture(self, key: PictureKey, found: MemberStats) -> bytes:
        """The picture, drawn in the render thread unless the member has not played since."""
        version = (
            found.holdem.hands,
            found.blackjack.rounds,
            found.holdem.net,
            found.blackjack.net,
        )
        cached = self._pictures.get(key)
        if cached is not None and cached[0] == version:
            self._pictures.move_to_end(key)
            return cached[1]
        view: StatsPicture = stats_picture(found)
        loop = asyncio.get_running_loop()
        drawn = await loop.run_in_executor(self._executor, render_stats_picture, view)
        self._pictures[key] = (version, drawn)
        while len(self._pictures) > CACHED_PICTURES:
            self._pictures.popitem(last=False)
        return drawn

    # ----- /leaderboard ------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="Who holds the most chips, wins most...")
    @app_commands.describe(
        board="What to rank by (default: chips held)",
        game="Only this game (winnings and biggest pot; a statistic is its own game's)",
        season="Season number; 0 for all time (default: the current season)",
        min_hands=f"Statistic boards: hands (rounds) needed to be ranked (default "
        f"{DEFAULT_MIN_HANDS})",
    )
    @app_commands.choices(
        board=[app_commands.Choice(name=b.choice_name, value=b.key) for b in BOARDS.values()],
        game=GAME_CHOICES,
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[FeltBot],
        board: str = CHIPS.key,
        game: str | None = None,
        season: app_commands.Range[int, 0, MAX_SEASON] | None = None,
        min_hands: app_commands.Range[int, 0, MAX_MIN_HANDS] | None = None,
    ) -> None:
        me = guild_member(interaction)
        chosen = BOARDS.get(board)
        if chosen is None:
            raise Refusal(f"Unknown board {board!r}: choose {', '.join(BOARDS)}.")
        chosen_game = _game(game)
        if chosen is CHIPS and chosen_game is not None:
            raise Refusal(
                "The chips board counts chips from every game; pick winnings or biggest_pot "
                "to rank one game."
            )
        if chosen.game is not None and chosen_game not in (None, chosen.game):
            raise Refusal(f"The {chosen.key} board ranks {chosen.game.value} only.")
        if chosen.ratio is None and min_hands is not None:
            raise Refusal("min_hands applies to the statistic boards only.")
        if min_hands is not None and not 0 <= min_hands <= MAX_MIN_HANDS:
            raise Refusal(f"min_hands must be a number from 0 to {MAX_MIN_HANDS:,}.")
        _season(season, zero_is="for all time")
        await acknowledge(interaction, thinking=True)
        request = PageRequest(
            me.guild.id,
            chosen,
            chosen.game or chosen_game,
            season_selector(season),
            0,
            me.id,
            DEFAULT_MIN_HANDS if min_hands is None else min_hands,
        )
        embed, view = await render_page(self.storage, request)
        if view is None:
            await interaction.followup.send(embed=embed)
        else:
            await interaction.followup.send(embed=embed, view=view)


def _unit(game: Game) -> str:
    return "hand" if game is Game.HOLDEM else "Blackjack round"


def _in(span: str) -> str:
    return "" if span == "all time" else f"in {span} "


async def setup(bot: FeltBot) -> None:
    await bot.add_cog(Stats(bot))
