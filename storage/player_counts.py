"""Poker and Blackjack statistics counters per guild, season, member and UTC day.

A settled hand or round adds its counts in the transaction that settles it (``add_holdem`` from
``storage/holdem.py``; ``add_blackjack_round`` from ``storage/blackjack.py``), so a command reads
running totals and never re-reads hands. What the counters mean is defined in
``engine/holdem/stats.py`` (``StyleCounts``) and ``engine/blackjack/stats.py`` (``RoundCounts``),
whose fields have these columns' names (a test holds them equal); the game layer computes a
hand's counts from its events and passes them in, as ``felt db stats rebuild`` does from the
stored PHH. Blackjack counts come from the round's own rows (bets by reason, payouts), by one
query for a settled round and for a rebuild alike.

Adding a statistic (say Blackjack basic-strategy accuracy): a migration adds its count columns
(``ALTER TABLE blackjack_counts ADD COLUMN ... NOT NULL DEFAULT 0``, both backends), the engine's
counts value gains fields of the same names and its ``RATIOS`` a line, the columns are appended
here (and, for Blackjack, to ``_BLACKJACK_ROWS``, from wherever the round stores them); /stats
and a /leaderboard board follow from ``RATIOS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from storage.backend import Transaction
from storage.errors import InvalidArgument, InvalidSettlement
from storage.ledger import Work
from storage.models import Game, LeaderboardEntry

HOLDEM_COLUMNS = (
    "hands",
    "vpip",
    "pfr",
    "three_bet_chances",
    "three_bets",
    "fold_to_three_bet_chances",
    "folds_to_three_bet",
    "cbet_chances",
    "cbets",
    "fold_to_cbet_chances",
    "folds_to_cbet",
    "postflop_aggressive",
    "postflop_calls",
    "postflop_folds",
    "saw_flop",
    "showdowns",
    "showdowns_won",
    "hands_won",
    "won_without_showdown",
    "net",
    "net_bb_hundredths",
    "biggest_pot",
    "max_raises_in_a_hand",
)
BLACKJACK_COLUMNS = (
    "rounds",
    "hands",
    "hands_won",
    "blackjacks",
    "staked",
    "net",
    "doubles",
    "splits",
    "insurances",
    "decisions",
    "correct_decisions",
    "expected_loss_milli",
)
MAXIMA = frozenset({"biggest_pot", "max_raises_in_a_hand"})
"""Columns that keep the larger value; every other column is a sum."""
SIGNED = frozenset({"net", "net_bb_hundredths"})
"""Columns that may be negative."""

COLUMNS = {Game.HOLDEM: HOLDEM_COLUMNS, Game.BLACKJACK: BLACKJACK_COLUMNS}
TABLES = {Game.HOLDEM: "holdem_counts", Game.BLACKJACK: "blackjack_counts"}
HANDS = {Game.HOLDEM: "hands", Game.BLACKJACK: "rounds"}
"""The column a minimum number of hands (or rounds) applies to."""
KEY_COLUMNS = ("season_id", "guild_id", "user_id", "day")


@dataclass(frozen=True, slots=True)
class PlayerCounts:
    """A member's counters (or the whole guild's, ``user_id`` None) for one game and span."""

    guild_id: int
    user_id: int | None
    game: Game
    season: int | None
    """The season number, or None for all time."""
    values: Mapping[str, int]
    """Every column of the game's counts table, 0 when nothing was played."""


@dataclass(frozen=True, slots=True)
class BankrollDay:
    """One UTC day of a member's results: net chips and hands (or rounds) that day."""

    day: str
    """``YYYY-MM-DD``."""
    net: int
    hands: int


@dataclass(frozen=True, slots=True)
class RatioBoard:
    """One page of a ranking by a ratio; values are hundredths of the shown unit."""

    guild_id: int
    game: Game
    season: int | None
    entries: tuple[LeaderboardEntry, ...]
    total: int


@dataclass(frozen=True, slots=True)
class RatioQuery:
    """``scale * sum(numerator) / sum(denominator)`` per member, for members with at least
    ``minimum`` hands (rounds) and a denominator above 0; ranked highest first."""

    game: Game
    numerator: tuple[str, ...]
    denominator: tuple[str, ...]
    scale: int
    minimum: int

    def __post_init__(self) -> None:
        columns = COLUMNS[self.game]
        for name in (*self.numerator, *self.denominator):
            if name not in columns:
                raise InvalidArgument(f"{name!r} is not a {self.game.value} statistic.")
        if not self.numerator or not self.denominator:
            raise InvalidArgument("A ratio needs counts above and below.")
        if isinstance(self.minimum, bool) or not isinstance(self.minimum, int):
            raise InvalidArgument("The minimum number of hands must be a whole number.")
        if not 0 <= self.minimum <= 1_000_000_000:
            raise InvalidArgument("The minimum number of hands must be from 0 to 1,000,000,000.")


def day_of(stamp: str) -> str:
    """The UTC day of a stored time (``storage.ledger.stamp`` writes UTC ISO-8601)."""
    return stamp[:10]


def check_counts(game: Game, counts: object) -> tuple[int, ...]:
    """One hand's counts as a row in column order; refused unless every name is a column of
    the game's table and every value a whole number (non-negative unless signed)."""
    if not isinstance(counts, Mapping):
        raise InvalidSettlement("Statistics must be a mapping of counts by name.")
    columns = COLUMNS[game]
    unknown = sorted(set(counts) - set(columns), key=str)
    if unknown:
        raise InvalidSettlement(f"Unknown {game.value} statistics: {', '.join(map(str, unknown))}.")
    row = []
    for name in columns:
        value = counts.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidSettlement(f"The statistic {name} must be a whole number.")
        if value < 0 and name not in SIGNED:
            raise InvalidSettlement(f"The statistic {name} cannot be negative.")
        row.append(value)
    return tuple(row)


def _merge_sql(game: Game) -> str:
    """How a day's row takes one more hand's or round's counts (the upsert's conflict clause)."""
    table = TABLES[game]
    merged = ", ".join(
        f"{name} = CASE WHEN excluded.{name} > {table}.{name} THEN excluded.{name} "
        f"ELSE {table}.{name} END"
        if name in MAXIMA
        else f"{name} = {table}.{name} + excluded.{name}"
        for name in COLUMNS[game]
    )
    return f"ON CONFLICT (season_id, user_id, day) DO UPDATE SET {merged}"


def _upsert_sql(game: Game) -> str:
    table, columns = TABLES[game], COLUMNS[game]
    names = ", ".join((*KEY_COLUMNS, *columns))
    marks = ", ".join("?" * (len(KEY_COLUMNS) + len(columns)))
    return f"INSERT INTO {table} ({names}) VALUES ({marks}) {_merge_sql(game)}"


_UPSERT = {game: _upsert_sql(game) for game in Game}


def add_holdem(
    work: Work,
    table_id: int,
    hand_id: int,
    rows: Sequence[tuple[int, tuple[int, ...]]],
) -> None:
    """Add one settled hand's counts, ``(seat_no, row)`` each, to the day it settled on: the
    members' rows (a bot's seat keeps none), filed under the season the hand was settled in.
    The database finds each seat's member and the hand's guild and season itself, so nothing
    here was read first (call it after the hand is marked settled)."""
    if not rows:
        return
    columns = COLUMNS[Game.HOLDEM]
    width = 1 + len(columns)
    values = ", ".join(["(" + ", ".join("?" * width) + ")"] * len(rows))
    names = ", ".join((*KEY_COLUMNS, *columns))
    picked = ", ".join(f"v.column{n}" for n in range(2, width + 1))
    params: list[object] = [day_of(work.stamp)]
    for seat_no, row in rows:
        params.append(seat_no)
        params.extend(row)
    params.extend((table_id, hand_id))
    work.tx.send(
        f"INSERT INTO {TABLES[Game.HOLDEM]} ({names}) "
        f"SELECT h.season_id, h.guild_id, s.user_id, ?, {picked} FROM (VALUES {values}) AS v "
        "JOIN hands h ON h.table_id = ? AND h.hand_id = ? "
        "JOIN hand_seats hs ON hs.table_id = h.table_id AND hs.hand_id = h.hand_id "
        "AND hs.seat_no = v.column1 JOIN seats s ON s.seat_id = hs.seat_id "
        f"WHERE s.user_id IS NOT NULL {_merge_sql(Game.HOLDEM)}",
        params,
    )


# One round's (or every settled round's) Blackjack counts per member and day, from its rows.
_BLACKJACK_ROWS = (
    "SELECT r.season_id, r.guild_id, p.user_id, SUBSTR(r.ended_at, 1, 10), 1, p.hands_played, "
    "p.hands_won, p.blackjacks, p.total_bet, p.payout - p.total_bet, "
    "(SELECT COUNT(*) FROM bj_bets b WHERE b.round_id = p.round_id AND b.user_id = p.user_id "
    "AND b.reason = 'double'), "
    "(SELECT COUNT(*) FROM bj_bets b WHERE b.round_id = p.round_id AND b.user_id = p.user_id "
    "AND b.reason = 'split'), "
    "(SELECT COUNT(*) FROM bj_bets b WHERE b.round_id = p.round_id AND b.user_id = p.user_id "
    "AND b.reason = 'insurance'), "
    "p.decisions, p.correct_decisions, p.expected_loss_milli "
    "FROM bj_rounds r JOIN bj_players p ON p.round_id = r.round_id "
    "WHERE r.status = 'settled' AND p.bot_name IS NULL"  # the house's bots have no statistics
)


def add_blackjack_round(work: Work, round_id: int) -> None:
    """Add a round's counts once it is marked settled (same transaction)."""
    rows = work.tx.all(_BLACKJACK_ROWS + " AND r.round_id = ?", (round_id,))
    work.tx.executemany(
        _UPSERT[Game.BLACKJACK],
        [(int(r[0]), int(r[1]), int(r[2]), str(r[3]), *(int(v) for v in r[4:])) for r in rows],
    )


# --- reading ---------------------------------------------------------------------------------


def _totals(game: Game) -> str:
    return ", ".join(
        f"COALESCE({'MAX' if name in MAXIMA else 'SUM'}({name}), 0)" for name in COLUMNS[game]
    )


def read_counts(
    tx: Transaction, game: Game, guild_id: int, user_id: int | None, season_id: int | None
) -> dict[str, int]:
    """A member's counters (every member's, pooled, when ``user_id`` is None)."""
    sql = f"SELECT {_totals(game)} FROM {TABLES[game]} WHERE guild_id = ?"
    params: list[object] = [guild_id]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    if season_id is not None:
        sql += " AND season_id = ?"
        params.append(season_id)
    row = tx.one(sql, params)
    assert row is not None
    return {name: int(value) for name, value in zip(COLUMNS[game], row, strict=True)}


def bankroll(
    tx: Transaction, game: Game, guild_id: int, user_id: int, season_id: int | None
) -> list[BankrollDay]:
    """A member's net result and hands (rounds) per UTC day, oldest first."""
    sql = (
        f"SELECT day, SUM(net), SUM({HANDS[game]}) FROM {TABLES[game]} "
        "WHERE guild_id = ? AND user_id = ?"
    )
    params: list[object] = [guild_id, user_id]
    if season_id is not None:
        sql += " AND season_id = ?"
        params.append(season_id)
    rows = tx.all(sql + " GROUP BY day ORDER BY day", params)
    return [BankrollDay(str(day), int(net), int(hands)) for day, net, hands in rows]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One settled hand's (or round's) net result for a member, and when it settled."""

    ended_at: str
    net: int


def recent_results(
    tx: Transaction,
    game: Game,
    guild_id: int,
    user_id: int,
    season_id: int | None,
    limit: int,
) -> list[HandResult]:
    """A member's last ``limit`` settled hands (rounds), oldest first: for a bankroll graph by
    hand when the member has played few (the caller knows how many from the counters)."""
    if game is Game.HOLDEM:
        sql = (
            "SELECT h.ended_at, hs.final_stack - hs.start_stack FROM seats s "
            "JOIN hand_seats hs ON hs.seat_id = s.seat_id "
            "JOIN hands h ON h.table_id = hs.table_id AND h.hand_id = hs.hand_id "
            "WHERE s.user_id = ? AND h.guild_id = ? AND h.status = 'settled'"
        )
        season_column = "h.season_id"
    else:
        sql = (
            "SELECT r.ended_at, p.payout - p.total_bet FROM bj_players p "
            "JOIN bj_rounds r ON r.round_id = p.round_id "
            "WHERE p.user_id = ? AND r.guild_id = ? AND r.status = 'settled'"
        )
        season_column = "r.season_id"
    params: list[object] = [user_id, guild_id]
    if season_id is not None:
        sql += f" AND {season_column} = ?"
        params.append(season_id)
    rows = tx.all(sql + " ORDER BY 1 DESC LIMIT ?", [*params, limit])
    return [HandResult(str(ended), int(net)) for ended, net in reversed(rows)]


def _ratio_source(
    query: RatioQuery, guild_id: int, season_id: int | None
) -> tuple[str, list[object]]:
    above = " + ".join(f"SUM({name})" for name in query.numerator)
    below = " + ".join(f"SUM({name})" for name in query.denominator)
    # Hundredths of the shown unit, truncated toward zero the same way on both backends.
    sql = (
        f"SELECT user_id, ({above}) * {100 * query.scale} / ({below}) AS value "
        f"FROM {TABLES[query.game]} WHERE guild_id = ?"
    )
    params: list[object] = [guild_id]
    if season_id is not None:
        sql += " AND season_id = ?"
        params.append(season_id)
    sql += f" GROUP BY user_id HAVING SUM({HANDS[query.game]}) >= ? AND ({below}) > 0"
    params.append(query.minimum)
    return sql, params


def ratio_board(
    tx: Transaction,
    query: RatioQuery,
    guild_id: int,
    season: tuple[int, int] | None,
    *,
    limit: int,
    offset: int,
) -> RatioBoard:
    """One page of a ranking by a ratio; equal values share a rank."""
    source, params = _ratio_source(query, guild_id, None if season is None else season[0])
    total = int(tx.value(f"SELECT COUNT(*) FROM ({source}) ranked", params))
    rows = tx.all(
        f"SELECT RANK() OVER (ORDER BY value DESC), user_id, value FROM ({source}) ranked "
        "ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    entries = tuple(LeaderboardEntry(int(r), int(u), int(v)) for r, u, v in rows)
    return RatioBoard(guild_id, query.game, None if season is None else season[1], entries, total)


def ratio_position(
    tx: Transaction,
    query: RatioQuery,
    guild_id: int,
    user_id: int,
    season: tuple[int, int] | None,
) -> LeaderboardEntry | None:
    """Where one member stands on a ratio ranking, or None when not ranked."""
    source, params = _ratio_source(query, guild_id, None if season is None else season[0])
    row = tx.one(
        f"SELECT rank, user_id, value FROM (SELECT RANK() OVER (ORDER BY value DESC) AS rank, "
        f"user_id, value FROM ({source}) ranked) positions WHERE user_id = ?",
        [*params, user_id],
    )
    return None if row is None else LeaderboardEntry(int(row[0]), int(row[1]), int(row[2]))


# --- rebuilding and checking -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A settled hand as a rebuild reads it: where it counts, its PHH and who sat where."""

    table_id: int
    hand_id: int
    guild_id: int
    season_id: int
    day: str
    phh: str
    users: Mapping[int, int]
    """Member by seat number (bots' seats are left out)."""


CountsKey = tuple[Game, int, int, int, str]
"""``(game, season_id, guild_id, user_id, day)``: one counts row."""


def settled_hands(tx: Transaction, after: tuple[int, int], limit: int) -> list[StoredHand]:
    """Up to ``limit`` settled hands after ``(table_id, hand_id)``, in that order."""
    rows = tx.all(
        "SELECT table_id, hand_id, guild_id, season_id, ended_at, phh FROM hands "
        "WHERE status = 'settled' AND (table_id > ? OR (table_id = ? AND hand_id > ?)) "
        "ORDER BY table_id, hand_id LIMIT ?",
        (after[0], after[0], after[1], limit),
    )
    if not rows:
        return []
    first, last = (int(rows[0][0]), int(rows[0][1])), (int(rows[-1][0]), int(rows[-1][1]))
    users: dict[tuple[int, int], dict[int, int]] = {}
    for table_id, hand_id, seat_no, user_id in tx.all(
        "SELECT hs.table_id, hs.hand_id, hs.seat_no, s.user_id FROM hand_seats hs "
        "JOIN seats s ON s.seat_id = hs.seat_id WHERE s.user_id IS NOT NULL "
        "AND (hs.table_id > ? OR (hs.table_id = ? AND hs.hand_id >= ?)) "
        "AND (hs.table_id < ? OR (hs.table_id = ? AND hs.hand_id <= ?))",
        (first[0], first[0], first[1], last[0], last[0], last[1]),
    ):
        users.setdefault((int(table_id), int(hand_id)), {})[int(seat_no)] = int(user_id)
    return [
        StoredHand(
            int(t), int(h), int(g), int(s), day_of(str(ended)), str(phh), users.get((t, h), {})
        )
        for t, h, g, s, ended, phh in rows
    ]


HandCounter = Callable[[StoredHand], Mapping[int, Mapping[str, int]] | None]
"""A settled hand's statistics by seat, as ``settle_hand`` takes them (None: unreadable)."""


@dataclass(frozen=True, slots=True)
class Recount:
    """Every counts row recomputed from the stored hands and rounds."""

    rows: dict[CountsKey, tuple[int, ...]]
    hands: int
    """Settled hands read."""
    unreadable: tuple[tuple[int, int], ...]
    """``(table_id, hand_id)`` of settled hands whose PHH could not be counted (left out)."""


def _merge(
    game: Game, into: dict[CountsKey, tuple[int, ...]], key: CountsKey, row: tuple[int, ...]
) -> None:
    found = into.get(key)
    if found is None:
        into[key] = row
        return
    into[key] = tuple(
        max(a, b) if name in MAXIMA else a + b
        for name, a, b in zip(COLUMNS[game], found, row, strict=True)
    )


def recount(tx: Transaction, count: HandCounter, *, batch: int = 500) -> Recount:
    """Both games' counts rows from scratch: every settled hand through ``count``, every
    settled round by its rows (what the settlements added, if nothing was lost)."""
    rows: dict[CountsKey, tuple[int, ...]] = dict(recount_blackjack(tx))
    hands, unreadable = 0, []
    after = (0, 0)
    while found := settled_hands(tx, after, batch):
        for hand in found:
            hands += 1
            counted = count(hand)
            if counted is None:
                unreadable.append((hand.table_id, hand.hand_id))
                continue
            for seat_no, user_id in hand.users.items():
                if seat_no in counted:
                    key = (Game.HOLDEM, hand.season_id, hand.guild_id, user_id, hand.day)
                    _merge(Game.HOLDEM, rows, key, check_counts(Game.HOLDEM, counted[seat_no]))
        after = (found[-1].table_id, found[-1].hand_id)
    return Recount(rows, hands, tuple(unreadable))


def rebuild(tx: Transaction, count: HandCounter) -> Recount:
    """Replace every counts row with a recount, in this one transaction."""
    result = recount(tx, count)
    for game in Game:
        replace_counts(tx, game, {k: v for k, v in result.rows.items() if k[0] is game})
    return result


def recount_blackjack(tx: Transaction) -> dict[CountsKey, tuple[int, ...]]:
    """Every Blackjack counts row as the settled rounds' own rows give it."""
    rows: dict[CountsKey, list[int]] = {}
    for row in tx.all(_BLACKJACK_ROWS):
        season, guild, user, day, *values = row
        key = (Game.BLACKJACK, int(season), int(guild), int(user), str(day))
        found = rows.setdefault(key, [0] * len(BLACKJACK_COLUMNS))
        for index, value in enumerate(values):
            found[index] += int(value)
    return {key: tuple(values) for key, values in rows.items()}


def replace_counts(tx: Transaction, game: Game, rows: Mapping[CountsKey, tuple[int, ...]]) -> int:
    """Replace every counts row of ``game`` with ``rows`` (a rebuild); how many were written."""
    table, columns = TABLES[game], COLUMNS[game]
    tx.execute(f"DELETE FROM {table}")
    names = ", ".join((*KEY_COLUMNS, *columns))
    marks = ", ".join("?" * (len(KEY_COLUMNS) + len(columns)))
    tx.executemany(
        f"INSERT INTO {table} ({names}) VALUES ({marks})",
        [(season, guild, user, day, *row) for (_, season, guild, user, day), row in rows.items()],
    )
    return len(rows)


def all_counts(tx: Transaction) -> dict[CountsKey, tuple[int, ...]]:
    """Every stored counts row, both games (what a rebuild is compared with)."""
    result: dict[CountsKey, tuple[int, ...]] = {}
    for game in Game:
        names = ", ".join((*KEY_COLUMNS, *COLUMNS[game]))
        for row in tx.all(f"SELECT {names} FROM {TABLES[game]}"):
            season, guild, user, day, *values = row
            key = (game, int(season), int(guild), int(user), str(day))
            result[key] = tuple(int(v) for v in values)
    return result
