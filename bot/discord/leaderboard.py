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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.chips import signed
from bot.discord.errors import Refusal
from bot.discord.replies import acknowledge
from bot.discord.tree import route_errors
from engine.blackjack import stats as blackjack_stats
from engine.holdem import stats as holdem_stats
from engine.ratios import Ratio
from storage import (
    Game,
    Leaderboard,
    LeaderboardEntry,
    Metric,
    Period,
    RatioBoard,
    RatioQuery,
    SeasonSelector,
    Storage,
)

PAGE_SIZE = 10
CUSTOM_ID_PREFIX = "felt:lb"
ALL_TIME = 0
"""The season number that means "all time" in the command option and the custom_id."""


@dataclass(frozen=True, slots=True)
class Board:
    """One choice of the ``board`` option of /leaderboard: a storage metric (chips, winnings,
    biggest pot), or a statistic of one game (``ratio``), ranked among members with at least a
    minimum number of hands (rounds)."""

    key: str
    heading: str
    metric: Metric | None = None
    game: Game | None = None
    """The game a statistic board belongs to (None for the metric boards)."""
    ratio: Ratio | None = None
    tournaments: bool = False
    """The tournament winnings board (prizes minus buy-ins and fees, storage/tournaments.py)."""

    @property
    def choice_name(self) -> str:
        return self.heading if self.game is None else f"{self.heading} ({GAME_NAMES[self.game]})"


GAME_NAMES = {Game.HOLDEM: "Hold'em", Game.BLACKJACK: "Blackjack"}
CHIPS = Board("chips", "Chips", metric=Metric.BALANCE)
"""Chips held now (wallet, tables, bets); not per game."""
WINNINGS = Board("winnings", "Winnings", metric=Metric.NET)
BIGGEST_POT = Board("biggest_pot", "Biggest pot", metric=Metric.BIGGEST_POT)
"""The biggest pot (or blackjack round profit) won."""
TOURNAMENTS = Board("tournaments", "Tournament winnings", game=Game.HOLDEM, tournaments=True)
"""Net tournament prizes (prizes minus buy-ins, fees, rebuys) of tournaments finished in the
season: winnings, not points."""
BOARDS: dict[str, Board] = {
    board.key: board
    for board in (
        CHIPS,
        WINNINGS,
        BIGGEST_POT,
        *(Board(r.key, r.label, game=Game.HOLDEM, ratio=r) for r in holdem_stats.RATIOS),
        *(Board(r.key, r.label, game=Game.BLACKJACK, ratio=r) for r in blackjack_stats.RATIOS),
        TOURNAMENTS,
    )
}
"""Every board by its option value: a statistic added to a game's ``RATIOS`` gets one."""
DEFAULT_MIN_HANDS = 100
"""A statistic board ranks members with at least this many hands (rounds) unless asked."""
MAX_MIN_HANDS = 1_000_000


def ratio_text(ratio: Ratio, value: float | None) -> str:
    """A statistic's value as /stats and the boards show it ("23.5%", "+4.20 bb/100")."""
    if value is None:
        return "–"
    if ratio.percent:
        return f"{value:.1f}%"
    if ratio.key == "bb_per_100":
        return f"{value:+.2f}"
    if ratio.key == "return_per_round":
        return f"{value:+,.2f} chips"
    return f"{value:.2f}"


@dataclass(frozen=True, slots=True)
class PageRequest:
    """Which page of which ranking, for whom."""

    guild_id: int
    board: Board
    game: Game | None
    season: SeasonSelector
    page: int
    owner_id: int
    minimum: int = DEFAULT_MIN_HANDS
    """Hands (rounds) a member needs to be on a statistic board."""

    @property
    def query(self) -> RatioQuery | None:
        ratio, game = self.board.ratio, self.board.game
        if ratio is None or game is None:
            return None
        return RatioQuery(game, ratio.numerator, ratio.denominator, ratio.scale, self.minimum)


def season_selector(number: int | None) -> SeasonSelector:
    """The option value as storage's selector: None the current season, 0 all time."""
    if number is None:
        return Period.CURRENT_SEASON
    return Period.ALL_TIME if number == ALL_TIME else number


Ranking = Leaderboard | RatioBoard


async def _ranking(storage: Storage, request: PageRequest, offset: int) -> Ranking:
    if request.board.tournaments:
        return await storage.tournament_board(
            request.guild_id, season=request.season, limit=PAGE_SIZE, offset=offset
        )
    query = request.query
    if query is not None:
        return await storage.ratio_leaderboard(
            request.guild_id, query, season=request.season, limit=PAGE_SIZE, offset=offset
        )
    assert request.board.metric is not None
    return await storage.leaderboard(
        request.guild_id,
        request.board.metric,
        game=request.game,
        season=request.season,
        limit=PAGE_SIZE,
        offset=offset,
    )


async def _position(storage: Storage, request: PageRequest) -> LeaderboardEntry | None:
    if request.board.tournaments:
        return await storage.tournament_position(
            request.guild_id, request.owner_id, season=request.season
        )
    query = request.query
    if query is not None:
        return await storage.ratio_position(
            request.guild_id, request.owner_id, query, season=request.season
        )
    assert request.board.metric is not None
    return await storage.leaderboard_position(
        request.guild_id,
        request.owner_id,
        request.board.metric,
        game=request.game,
        season=request.season,
    )


async def render_page(
    storage: Storage, request: PageRequest
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed of one page and its buttons (None when everything fits on one page)."""
    first = await _ranking(storage, request, 0)
    pages = max(1, math.ceil(first.total / PAGE_SIZE))
    page = min(max(request.page, 0), pages - 1)
    board = first if not page else await _ranking(storage, request, page * PAGE_SIZE)
    mine = await _position(storage, request)
    losses = await _expected_losses(storage, request, board)
    embed = _embed(request, board, page, pages, mine, losses)
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
                minimum=request.minimum if request.query is not None else None,
                label=label,
                disabled=not 0 <= target < pages,
            )
        )
    return embed, view


async def _expected_losses(
    storage: Storage, request: PageRequest, ranking: Ranking
) -> dict[int, float]:
    """On the accuracy board, each ranked member's expected chips lost to their mistakes over the
    same span (shown, never ranked: that board would put the worst player first)."""
    if request.board.key != "accuracy" or not isinstance(ranking, RatioBoard):
        return {}
    span: SeasonSelector = Period.ALL_TIME if ranking.season is None else ranking.season
    return {
        entry.user_id: (
            await storage.decision_grades(ranking.guild_id, entry.user_id, season=span)
        ).expected_loss
        for entry in ranking.entries
    }


def _embed(
    request: PageRequest,
    ranking: Ranking,
    page: int,
    pages: int,
    mine: LeaderboardEntry | None,
    losses: Mapping[int, float] | None = None,
) -> discord.Embed:
    board = request.board
    game = GAME_NAMES[ranking.game] if ranking.game is not None else "all games"
    season = "all time" if ranking.season is None else f"season {ranking.season}"
    title = f"{board.heading} leaderboard · {game} · {season}"
    if board is CHIPS:
        title = f"Chips leaderboard · {season}"
    lost = losses or {}
    lines = [
        f"**{entry.rank}.** <@{entry.user_id}> · {_value(board, entry.value)}"
        + (
            f" · ~{lost[entry.user_id]:,.2f} chips lost to mistakes"
            if entry.user_id in lost
            else ""
        )
        for entry in ranking.entries
    ]
    embed = discord.Embed(
        title=title,
        description="\n".join(lines) if lines else "Nobody is on this board yet.",
        colour=discord.Colour.gold(),
    )
    footer = f"Page {page + 1} of {pages} · {ranking.total:,} ranked"
    if request.query is not None:
        unit = "rounds" if board.game is Game.BLACKJACK else "hands"
        footer += f" · {request.minimum:,}+ {unit}"
    if mine is not None:
        footer += f" · You: #{mine.rank} ({_value(board, mine.value)})"
    embed.set_footer(text=footer)
    return embed


def _value(board: Board, value: int) -> str:
    if board.ratio is not None:
        return ratio_text(board.ratio, value / 100)  # storage ranks in hundredths
    return signed(value) if board in (WINNINGS, TOURNAMENTS) else f"{value:,}"


_TEMPLATE = (
    re.escape(CUSTOM_ID_PREFIX)
    + r":(?P<board>[a-z0-9_]{1,40}):(?P<game>all|holdem|blackjack)"
    + r":(?P<season>\d{1,9}):(?P<page>\d{1,9}):(?P<owner>\d{1,20})(?::(?P<minimum>\d{1,9}))?"
)


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TEMPLATE):
    """A button that shows another page of a leaderboard message."""

    def __init__(
        self,
        board: Board | None,
        game: Game | None,
        season: int,
        page: int,
        owner_id: int,
        *,
        minimum: int | None = None,
        board_key: str = "",
        label: str = "Page",
        disabled: bool = False,
    ) -> None:
        game_part = game.value if game is not None else "all"
        # "Previous" on the first page is disabled and points at page 0 itself, which keeps its
        # custom_id well-formed and different from "Next" (page 1).
        shown = max(page, 0)
        key = board.key if board is not None else board_key
        suffix = "" if minimum is None else f":{minimum}"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"{CUSTOM_ID_PREFIX}:{key}:{game_part}:{season}:{shown}:"
                f"{owner_id}{suffix}",
            )
        )
        self.board = board
        """None for a board this version of Felt does not have (refused when clicked)."""
        self.game = game
        self.season = season
        self.page = shown
        self.owner_id = owner_id
        self.minimum = DEFAULT_MIN_HANDS if minimum is None else minimum

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardPage:
        game = None if match["game"] == "all" else Game(match["game"])
        minimum = None if match["minimum"] is None else int(match["minimum"])
        return cls(
            BOARDS.get(match["board"]),
            game,
            int(match["season"]),
            int(match["page"]),
            int(match["owner"]),
            minimum=minimum,
            board_key=match["board"],
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
            if guild_id is None or not isinstance(storage, Storage) or self.board is None:
                raise Refusal("This leaderboard cannot be shown here.")
            await acknowledge(interaction)
            request = PageRequest(
                guild_id,
                self.board,
                self.game,
                Period.ALL_TIME if self.season == ALL_TIME else self.season,
                self.page,
                self.owner_id,
                self.minimum,
            )
            embed, view = await render_page(storage, request)
            await interaction.edit_original_response(embed=embed, view=view)
