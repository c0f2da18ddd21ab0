"""Leaderboards as embeds with Previous/Next buttons that keep working after a restart.

Everything a page needs (board, game, season, page, who asked) is in the buttons' custom_id, so
nothing is kept in memory and a click is answered whenever it comes. Only the member who asked
turns the pages of their message: it is posted in the channel, and a shared message whose page
jumps around under the reader would help nobody. Anyone else gets a short refusal telling them
to run ``/leaderboard`` for their own copy.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from bot.discord.chips import signed
from bot.discord.errors import Refusal
from bot.discord.replies import acknowledge
from bot.discord.tree import route_errors
from storage import Game, Leaderboard, LeaderboardEntry, Metric, Period, SeasonSelector, Storage

PAGE_SIZE = 10
CUSTOM_ID_PREFIX = "felt:lb"
ALL_TIME = 0
"""The season number that means "all time" in the command option and the custom_id."""


class Board(StrEnum):
    """The ``board`` option of /leaderboard."""

    CHIPS = "chips"
    """Chips held now (wallet, tables, bets); not per game."""
    WINNINGS = "winnings"
    """Net winnings from games."""
    BIGGEST_POT = "biggest_pot"
    """The biggest pot (or blackjack round profit) won."""

    @property
    def metric(self) -> Metric:
        return {
            Board.CHIPS: Metric.BALANCE,
            Board.WINNINGS: Metric.NET,
            Board.BIGGEST_POT: Metric.BIGGEST_POT,
        }[self]

    @property
    def heading(self) -> str:
        return {
            Board.CHIPS: "Chips",
            Board.WINNINGS: "Winnings",
            Board.BIGGEST_POT: "Biggest pot",
        }[self]


GAME_NAMES = {Game.HOLDEM: "Hold'em", Game.BLACKJACK: "Blackjack"}


@dataclass(frozen=True, slots=True)
class PageRequest:
    """Which page of which ranking, for whom."""

    guild_id: int
    board: Board
    game: Game | None
    season: SeasonSelector
    page: int
    owner_id: int


def season_selector(number: int | None) -> SeasonSelector:
    """The option value as storage's selector: None the current season, 0 all time."""
    if number is None:
        return Period.CURRENT_SEASON
    return Period.ALL_TIME if number == ALL_TIME else number


async def render_page(
    storage: Storage, request: PageRequest
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed of one page and its buttons (None when everything fits on one page)."""
    first = await storage.leaderboard(
        request.guild_id,
        request.board.metric,
        game=request.game,
        season=request.season,
        limit=PAGE_SIZE,
        offset=0,
    )
    pages = max(1, math.ceil(first.total / PAGE_SIZE))
    page = min(max(request.page, 0), pages - 1)
    board = first
    if page:
        board = await storage.leaderboard(
            request.guild_id,
            request.board.metric,
            game=request.game,
            season=request.season,
            limit=PAGE_SIZE,
            offset=page * PAGE_SIZE,
        )
    mine = await storage.leaderboard_position(
        request.guild_id,
        request.owner_id,
        request.board.metric,
        game=request.game,
        season=request.season,
    )
    embed = _embed(request.board, board, page, pages, mine)
    if pages == 1:
        return embed, None
    # Pin the season number so that a new season starting meanwhile does not change the board.
    season = ALL_TIME if board.season is None else board.season
    view = discord.ui.View(timeout=None)
    for target, label in ((page - 1, "◀ Previous"), (page + 1, "Next ▶")):
        view.add_item(
            LeaderboardPage(
                request.board,
                request.game,
                season,
                target,
                request.owner_id,
                label=label,
                disabled=not 0 <= target < pages,
            )
        )
    return embed, view


def _embed(
    board: Board, ranking: Leaderboard, page: int, pages: int, mine: LeaderboardEntry | None
) -> discord.Embed:
    game = GAME_NAMES[ranking.game] if ranking.game is not None else "all games"
    season = "all time" if ranking.season is None else f"season {ranking.season}"
    title = f"{board.heading} leaderboard · {game} · {season}"
    if board is Board.CHIPS:
        title = f"Chips leaderboard · {season}"
    lines = [
        f"**{entry.rank}.** <@{entry.user_id}> · {_value(board, entry.value)}"
        for entry in ranking.entries
    ]
    embed = discord.Embed(
        title=title,
        description="\n".join(lines) if lines else "Nobody is on this board yet.",
        colour=discord.Colour.gold(),
    )
    footer = f"Page {page + 1} of {pages} · {ranking.total:,} ranked"
    if mine is not None:
        footer += f" · You: #{mine.rank} ({_value(board, mine.value)})"
    embed.set_footer(text=footer)
    return embed


def _value(board: Board, value: int) -> str:
    return signed(value) if board is Board.WINNINGS else f"{value:,}"


_TEMPLATE = (
    re.escape(CUSTOM_ID_PREFIX)
    + r":(?P<board>chips|winnings|biggest_pot):(?P<game>all|holdem|blackjack)"
    + r":(?P<season>\d{1,9}):(?P<page>\d{1,9}):(?P<owner>\d{1,20})"
)


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TEMPLATE):
    """A button that shows another page of a leaderboard message."""

    def __init__(
        self,
        board: Board,
        game: Game | None,
        season: int,
        page: int,
        owner_id: int,
        *,
        label: str = "Page",
        disabled: bool = False,
    ) -> None:
        game_part = game.value if game is not None else "all"
        # "Previous" on the first page is disabled and points at page 0 itself, which keeps its
        # custom_id well-formed and different from "Next" (page 1).
        shown = max(page, 0)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"{CUSTOM_ID_PREFIX}:{board.value}:{game_part}:{season}:{shown}:"
                f"{owner_id}",
            )
        )
        self.board = board
        self.game = game
        self.season = season
        self.page = shown
        self.owner_id = owner_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardPage:
        game = None if match["game"] == "all" else Game(match["game"])
        return cls(
            Board(match["board"]),
            game,
            int(match["season"]),
            int(match["page"]),
            int(match["owner"]),
            label=getattr(item, "label", None) or "Page",
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with route_errors(interaction, "leaderboard page"):
            if interaction.user.id != self.owner_id:
                raise Refusal(
                    f"These buttons turn the pages for <@{self.owner_id}>. "
                    "Use /leaderboard to get your own copy."
                )
            guild_id = interaction.guild_id
            storage = getattr(interaction.client, "storage", None)
            if guild_id is None or not isinstance(storage, Storage):
                raise Refusal("This leaderboard cannot be shown here.")
            await acknowledge(interaction)
            request = PageRequest(
                guild_id,
                self.board,
                self.game,
                Period.ALL_TIME if self.season == ALL_TIME else self.season,
                self.page,
                self.owner_id,
            )
            embed, view = await render_page(storage, request)
            await interaction.edit_original_response(embed=embed, view=view)
