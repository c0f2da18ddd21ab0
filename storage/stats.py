"""Stats per member, game and season; leaderboards; seasons and their archived standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.backend import Transaction
from storage.errors import SeasonResetBlocked, UnknownSeason
from storage.ledger import Work, parse_time, require_amount, require_text
from storage.models import (
    Game,
    Leaderboard,
    LeaderboardEntry,
    LedgerKind,
    Metric,
    Period,
    Season,
    SeasonSelector,
    SeasonStarted,
    Stats,
)


@dataclass(frozen=True, slots=True)
class StatsLine:
    """What one finished hand or round adds to a member's stats."""

    user_id: int
    net: int
    hands_played: int = 0
    hands_won: int = 0
    rounds_played: int = 0
    blackjacks: int = 0
    biggest_pot: int = 0


_STATS_ROW = (
    "season_id, guild_id, user_id, game, hands_played, hands_won, rounds_played, blackjacks, "
    "net, biggest_pot"
)
_STATS_MERGE = (
    "ON CONFLICT (season_id, user_id, game) DO UPDATE SET "
    "hands_played = member_stats.hands_played + excluded.hands_played, "
    "hands_won = member_stats.hands_won + excluded.hands_won, "
    "rounds_played = member_stats.rounds_played + excluded.rounds_played, "
    "blackjacks = member_stats.blackjacks + excluded.blackjacks, "
    "net = member_stats.net + excluded.net, "
    "biggest_pot = CASE WHEN excluded.biggest_pot > member_stats.biggest_pot "
    "THEN excluded.biggest_pot ELSE member_stats.biggest_pot END"
)


def add_hand_stats(
    work: Work, table_id: int, hand_id: int, seats: Sequence[tuple[int, int, int, int]]
) -> None:
    """Fold a settled hand into its members' Hold'em stats, one ``(seat_no, won, net,
    biggest_pot)`` per seat: the database finds each seat's member (a bot's seat keeps none)
    and the hand's guild and season itself (call it after the hand is marked settled)."""
    if not seats:
        return
    values = ", ".join(["(?, ?, ?, ?)"] * len(seats))
    params: list[object] = [Game.HOLDEM.value]
    for row in seats:
        params.extend(row)
    params.extend((table_id, hand_id))
    work.tx.send(
        f"INSERT INTO member_stats ({_STATS_ROW}) "
        "SELECT h.season_id, h.guild_id, s.user_id, ?, 1, v.column2, 0, 0, v.column3, v.column4 "
        f"FROM (VALUES {values}) AS v JOIN hands h ON h.table_id = ? AND h.hand_id = ? "
        "JOIN hand_seats hs ON hs.table_id = h.table_id AND hs.hand_id = h.hand_id "
        "AND hs.seat_no = v.column1 JOIN seats s ON s.seat_id = hs.seat_id "
        "WHERE s.user_id IS NOT NULL " + _STATS_MERGE,
        params,
    )


def add_stats(
    work: Work, guild_id: int, season_id: int, game: Game, lines: list[StatsLine]
) -> None:
    """Fold finished hands or rounds into each member's stats for the season."""
    if not lines:
        return
    work.tx.executemany(
        f"INSERT INTO member_stats ({_STATS_ROW}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        + _STATS_MERGE,
        [
            (
                season_id,
                guild_id,
                line.user_id,
                game.value,
                line.hands_played,
                line.hands_won,
                line.rounds_played,
                line.blackjacks,
                line.net,
                line.biggest_pot,
            )
            for line in lines
        ],
    )


# --- seasons -------------------------------------------------------------------------------


def _season(row: tuple[object, ...], guild_id: int) -> Season:
    return Season(
        guild_id=guild_id,
        number=int(row[0]),  # type: ignore[call-overload]
        name=str(row[1]),
        started_at=parse_time(str(row[2])),
        ended_at=None if row[3] is None else parse_time(str(row[3])),
    )


def current_season(work: Work, guild_id: int) -> Season:
    guild = work.guild(guild_id)
    row = work.tx.one(
        "SELECT number, name, started_at, ended_at FROM seasons WHERE season_id = ?",
        (guild.season_id,),
    )
    assert row is not None
    return _season(row, guild_id)


def list_seasons(tx: Transaction, guild_id: int) -> list[Season]:
    rows = tx.all(
        "SELECT number, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number",
        (guild_id,),
    )
    return [_season(row, guild_id) for row in rows]


def resolve_season(
    tx: Transaction, guild_id: int, season: SeasonSelector
) -> tuple[int, int] | None:
    """``(season_id, number)`` for a selector, or None for all time (or an unknown guild)."""
    if season is Period.ALL_TIME:
        return None
    if season is Period.CURRENT_SEASON:
        row = tx.one(
            "SELECT season_id, number FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
            (guild_id,),
        )
        return None if row is None else (int(row[0]), int(row[1]))
    if isinstance(season, bool) or not isinstance(season, int):
        raise TypeError("season must be a season number or a Period")
    row = tx.one(
        "SELECT season_id, number FROM seasons WHERE guild_id = ? AND number = ?",
        (guild_id, season),
    )
    if row is None:
        raise UnknownSeason(guild_id, season)
    return int(row[0]), int(row[1])


def start_season(
    work: Work, guild_id: int, name: str | None, reset_to: int | None, actor_id: int | None
) -> SeasonStarted:
    """Archive the current season's balances, end it, and start the next one.

    With ``reset_to``, every wallet is set to that amount (``season_reset`` ledger rows); refused
    while any member has chips at a table or in an unfinished round, so nobody can shelter chips
    from the reset.
    """
    require_text(name, "The season name", limit=100, optional=True)
    if reset_to is not None:
        require_amount(reset_to, what="reset balance", allow_zero=True)
    work.guild_id, work.actor_id = guild_id, actor_id
    guild = work.guild(guild_id)
    previous = current_season(work, guild_id)
    if reset_to is not None:
        _require_no_chips_in_play(work, guild_id)
    work.tx.execute(
        "INSERT INTO season_balances (season_id, user_id, balance) "
        "SELECT ?, user_id, SUM(balance) FROM accounts "
        "WHERE guild_id = ? AND user_id IS NOT NULL GROUP BY user_id",
        (guild.season_id, guild_id),
    )
    work.tx.execute(
        "UPDATE seasons SET ended_at = ? WHERE season_id = ?", (work.stamp, guild.season_id)
    )
    number = guild.season_number + 1
    work.tx.execute(
        "INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?, ?, ?, ?)",
        (guild_id, number, name or f"Season {number}", work.stamp),
    )
    work.forget_guild(guild_id)
    changed = 0 if reset_to is None else _reset_wallets(work, guild_id, reset_to)
    ended = Season(guild_id, previous.number, previous.name, previous.started_at, work.now)
    return SeasonStarted(ended, current_season(work, guild_id), reset_to, changed)


def _require_no_chips_in_play(work: Work, guild_id: int) -> None:
    """Refuse a reset while members have chips at a table or in an unfinished round."""
    seats = int(
        work.tx.value(
            "SELECT COUNT(*) FROM seats s JOIN poker_tables t ON t.table_id = s.table_id "
            "WHERE t.guild_id = ? AND s.left_at IS NULL AND s.user_id IS NOT NULL",
            (guild_id,),
        )
    )
    rounds = int(
        work.tx.value(
            "SELECT COUNT(*) FROM bj_rounds WHERE guild_id = ? AND status = 'open'", (guild_id,)
        )
    )
    if seats or rounds:
        raise SeasonResetBlocked(seats, rounds)


def _reset_wallets(work: Work, guild_id: int, reset_to: int) -> int:
    """Set every member's wallet to ``reset_to`` (``season_reset`` rows); how many changed."""
    wallets = work.tx.all(
        "SELECT account_id, user_id, balance FROM accounts "
        "WHERE guild_id = ? AND kind = 'member' AND balance <> ?",
        (guild_id, reset_to),
    )
    for account_id, user_id, balance in wallets:
        work.move(
            guild_id,
            int(account_id),
            reset_to - int(balance),
            LedgerKind.SEASON_RESET,
            int(user_id),
        )
    return len(wallets)


# --- stats and leaderboards ----------------------------------------------------------------

_STATS_COLUMNS = (
    "COALESCE(SUM(hands_played), 0), COALESCE(SUM(hands_won), 0), "
    "COALESCE(SUM(rounds_played), 0), COALESCE(SUM(blackjacks), 0), "
    "COALESCE(SUM(net), 0), COALESCE(MAX(biggest_pot), 0)"
)


def read_stats(
    tx: Transaction, guild_id: int, user_id: int, game: Game | None, season: SeasonSelector
) -> Stats:
    """A member's stats; a member who never played gets zeros."""
    resolved = resolve_season(tx, guild_id, season)
    sql = f"SELECT {_STATS_COLUMNS} FROM member_stats WHERE guild_id = ? AND user_id = ?"
    params: list[object] = [guild_id, user_id]
    if game is not None:
        sql += " AND game = ?"
        params.append(game.value)
    if resolved is not None:
        sql += " AND season_id = ?"
        params.append(resolved[0])
    row = tx.one(sql, params)
    assert row is not None
    return Stats(
        guild_id,
        user_id,
        game,
        None if resolved is None else resolved[1],
        *(int(value) for value in row),
    )


def leaderboard(
    tx: Transaction,
    guild_id: int,
    metric: Metric,
    *,
    game: Game | None,
    season: SeasonSelector,
    limit: int,
    offset: int,
) -> Leaderboard:
    """One page of a ranking; equal values share a rank; members with nothing to rank are left
    out (no stats row, or no chips for the balance board)."""
    resolved = resolve_season(tx, guild_id, season)
    number = None if resolved is None else resolved[1]
    source, params = _ranking_source(tx, guild_id, metric, game, resolved)
    total = int(tx.value(f"SELECT COUNT(*) FROM ({source}) ranked", params))
    rows = tx.all(
        f"SELECT RANK() OVER (ORDER BY value DESC), user_id, value FROM ({source}) ranked "
        "ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    entries = tuple(
        LeaderboardEntry(int(rank), int(user), int(value)) for rank, user, value in rows
    )
    return Leaderboard(guild_id, metric, game, number, entries, total)


def leaderboard_position(
    tx: Transaction,
    guild_id: int,
    user_id: int,
    metric: Metric,
    *,
    game: Game | None,
    season: SeasonSelector,
) -> LeaderboardEntry | None:
    """Where one member stands on a ranking, or None when not ranked."""
    resolved = resolve_season(tx, guild_id, season)
    source, params = _ranking_source(tx, guild_id, metric, game, resolved)
    row = tx.one(
        f"SELECT rank, user_id, value FROM (SELECT RANK() OVER (ORDER BY value DESC) AS rank, "
        f"user_id, value FROM ({source}) ranked) positions WHERE user_id = ?",
        [*params, user_id],
    )
    return None if row is None else LeaderboardEntry(int(row[0]), int(row[1]), int(row[2]))


def _ranking_source(
    tx: Transaction,
    guild_id: int,
    metric: Metric,
    game: Game | None,
    resolved: tuple[int, int] | None,
) -> tuple[str, list[object]]:
    """A subquery of ``(user_id, value)`` rows for a ranking."""
    if metric is Metric.BALANCE:
        if game is not None:
            raise ValueError("the balance leaderboard is not per game")
        current = tx.value(
            "SELECT season_id FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        )
        if resolved is None or resolved[0] == current:
            return (
                "SELECT user_id, SUM(balance) AS value FROM accounts "
                "WHERE guild_id = ? AND user_id IS NOT NULL GROUP BY user_id "
                "HAVING SUM(balance) > 0",
                [guild_id],
            )
        return (
            "SELECT user_id, balance AS value FROM season_balances WHERE season_id = ? "
            "AND balance > 0",
            [resolved[0]],
        )
    aggregate = "SUM(net)" if metric is Metric.NET else "MAX(biggest_pot)"
    sql = f"SELECT user_id, {aggregate} AS value FROM member_stats WHERE guild_id = ?"
    params: list[object] = [guild_id]
    if game is not None:
        sql += " AND game = ?"
        params.append(game.value)
    if resolved is not None:
        sql += " AND season_id = ?"
        params.append(resolved[0])
    sql += " GROUP BY user_id"
    if metric is Metric.BIGGEST_POT:
        sql += " HAVING MAX(biggest_pot) > 0"
    return sql, params
