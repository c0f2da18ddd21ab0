"""What /stats shows: a member's counters as an embed, and the view its picture is drawn from.

Each game is one block built from its counts and its ``RATIOS`` (``engine.holdem.stats``,
``engine.blackjack.stats``), so a statistic added there (say basic-strategy accuracy) appears
here without touching this module. The picture is a bankroll graph by day and, for poker, the
member's percentages against the server's pooled average.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.discord.chips import signed
from bot.discord.leaderboard import GAME_NAMES, ratio_text
from bot.render.stats_chart import BankrollPoint, StatsPicture, Tendency
from engine.blackjack.stats import RATIOS as BLACKJACK_RATIOS
from engine.blackjack.stats import RoundCounts
from engine.holdem.stats import RATIOS as HOLDEM_RATIOS
from engine.holdem.stats import StyleCounts
from storage import BankrollDay, Game, HandResult
from storage.tournaments import TournamentResults

PICTURE_NAME = "stats.png"
TENDENCY_LABELS = {
    "vpip": "VPIP",
    "pfr": "PFR",
    "three_bet": "3-bet",
    "fold_to_three_bet": "F 3-bet",
    "cbet": "C-bet",
    "fold_to_cbet": "F c-bet",
    "afq": "AFq",
    "wtsd": "WTSD",
    "wsd": "W$SD",
    "won_without_showdown": "WWSD",
}
"""The percentages the picture compares with the server, with their short labels."""


BY_HAND_LIMIT = 300
"""Up to this many hands and rounds in the span, the bankroll graph goes hand by hand (one
bounded read of the member's results); beyond, day by day from the counters."""


@dataclass(frozen=True, slots=True)
class Step:
    """One point of the bankroll graph: what the member won or lost in it."""

    label: str
    net: int


@dataclass(frozen=True, slots=True)
class MemberStats:
    """Everything /stats shows about one member for one span (counts are zero when unplayed)."""

    name: str
    span: str
    """"all time" or "season N"."""
    games: tuple[Game, ...]
    """The games asked about, in the order shown."""
    holdem: StyleCounts
    holdem_server: StyleCounts
    blackjack: RoundCounts
    bankroll: tuple[Step, ...]
    """Oldest first: by hand when the member played few, else by day."""
    tournaments: TournamentResults | None = None
    """Finished tournaments (with Hold'em only)."""

    @property
    def played(self) -> bool:
        entered = self.tournaments is not None and self.tournaments.played > 0
        return entered or any(self.hands(game) for game in self.games)

    def hands(self, game: Game) -> int:
        return self.holdem.hands if game is Game.HOLDEM else self.blackjack.rounds


def holdem_block(counts: StyleCounts) -> str:
    """The Hold'em block: results, then every ratio (bb/100 first)."""
    results = (
        f"Hands: {counts.hands:,} · Net: {signed(counts.net)} · Biggest pot: {counts.biggest_pot:,}"
    )
    ratios = [f"{ratio.label}: {ratio_text(ratio, ratio.of(counts))}" for ratio in HOLDEM_RATIOS]
    return "\n".join([results, *_rows(ratios, per_row=3)])


def blackjack_block(counts: RoundCounts) -> str:
    """The Blackjack block: results, what was taken, then every ratio."""
    results = (
        f"Rounds: {counts.rounds:,} · Hands: {counts.hands:,} · Net: {signed(counts.net)}\n"
        f"Blackjacks: {counts.blackjacks:,} · Doubles taken: {counts.doubles:,} · "
        f"Splits taken: {counts.splits:,} · Insurance: {counts.insurances:,}"
    )
    ratios = [f"{ratio.label}: {ratio_text(ratio, ratio.of(counts))}" for ratio in BLACKJACK_RATIOS]
    return "\n".join([results, *_rows(ratios, per_row=3), *trainer_line(counts)])


def trainer_line(counts: RoundCounts) -> list[str]:
    """The trainer's record: decisions graded and the expected chips lost to the others."""
    if not counts.decisions:
        return []
    lost = counts.expected_loss_milli / 1000
    return [
        f"Decisions graded: {counts.decisions:,} · Expected chips lost to mistakes: ~{lost:,.2f}"
    ]


def _rows(items: Sequence[str], *, per_row: int) -> list[str]:
    return [" · ".join(items[i : i + per_row]) for i in range(0, len(items), per_row)]


def tournament_block(results: TournamentResults) -> str:
    """Tournaments played, in the money, won, and the net of prizes against buy-ins."""
    in_money = 100 * results.in_the_money / results.played
    return (
        f"Played: {results.played:,} · In the money: {results.in_the_money:,} "
        f"({in_money:.0f}%) · Wins: {results.wins:,} · Net prize: {signed(results.net)}"
    )


def stats_embed(stats: MemberStats) -> discord.Embed:
    """The embed, its image the attached picture."""
    embed = discord.Embed(
        title=f"Stats for {stats.name} · {stats.span}", colour=discord.Colour.blue()
    )
    for game in stats.games:
        if game is Game.HOLDEM:
            embed.add_field(name="Hold'em", value=holdem_block(stats.holdem), inline=False)
        else:
            embed.add_field(name="Blackjack", value=blackjack_block(stats.blackjack), inline=False)
    if stats.tournaments is not None and stats.tournaments.played:
        embed.add_field(name="Tournaments", value=tournament_block(stats.tournaments), inline=False)
    embed.set_image(url=f"attachment://{PICTURE_NAME}")
    embed.set_footer(text="Definitions: see the README's Statistics section. /leaderboard ranks.")
    return embed


def stats_picture(stats: MemberStats) -> StatsPicture:
    """The picture's view: chips won by day over the span, and poker tendencies if played."""
    total = 0
    points = []
    for step in stats.bankroll:
        total += step.net
        points.append(BankrollPoint(step.label, total))
    games = " + ".join(GAME_NAMES[game] for game in stats.games)
    tendencies: tuple[Tendency, ...] = ()
    if Game.HOLDEM in stats.games and stats.holdem.hands:
        tendencies = tuple(
            Tendency(TENDENCY_LABELS[r.key], r.of(stats.holdem), r.of(stats.holdem_server))
            for r in HOLDEM_RATIOS
            if r.key in TENDENCY_LABELS
        )
    return StatsPicture(f"{stats.name} · {games} · {stats.span}", tuple(points), tendencies)


def by_day(*games: Sequence[BankrollDay]) -> tuple[Step, ...]:
    """Several games' days as one series: the nets of the same day added."""
    days: dict[str, int] = {}
    for series in games:
        for day in series:
            days[day.day] = days.get(day.day, 0) + day.net
    return tuple(Step(day, net) for day, net in sorted(days.items()))


def by_hand(*games: Sequence[HandResult]) -> tuple[Step, ...]:
    """Several games' hands and rounds as one series in the order they settled."""
    merged = sorted((result for series in games for result in series), key=lambda r: r.ended_at)
    return tuple(Step(f"hand {number}", r.net) for number, r in enumerate(merged, start=1))
