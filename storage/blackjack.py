"""Blackjack rounds: bets move from the wallet into round escrow when they are made (at the deal,
and when a double, split or insurance adds to them), never "settled later" from the wallet; payouts
and refunds move escrow back, the house covering wins and taking losses.

A bot player's bets come from the house and go back to it (``join_round_bot``): it plays under a
negative player id (members' ids are snowflakes), its escrow is a member-less account, and it has
no stats.

A wallet holds at most ``MAX_CHIPS``. A payout or refund that would carry a wallet past it is paid
up to the limit and the rest goes to the house, in the same operation and with its own ledger
row (``_credit_member``), so settling never fails on a full wallet: the round closes, the chips
are accounted for, and the result (``payouts``/``refunds``) says what was actually paid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from storage.backend import Transaction
from storage.errors import (
    AlreadySettled,
    InvalidArgument,
    InvalidSettlement,
    NotInRound,
    UnknownRound,
)
from storage.ledger import Work, parse_time, require_amount, require_id, require_text
from storage.models import (
    MAX_CHIPS,
    MAX_SIDE_BET_PAYOUT,
    SIDE_BETS,
    AccountKind,
    BetReason,
    Game,
    LedgerKind,
    RefundedRound,
    RoundBet,
    RoundOutcome,
    RoundPlayer,
    RoundRecord,
    RoundState,
    RoundStatus,
    SettledRound,
)
from storage.player_counts import add_blackjack_round
from storage.stats import StatsLine, add_stats
from storage.trainer import DecisionGrades, check_grades

MAX_PAYOUT_MULTIPLE = 3
"""A payout may be at most this many times the chips a member had in the round: insurance pays
2:1 (3x its stake back) and a 3:2 blackjack 2.5x, so anything above is a caller's bug, and the
house does not pay it."""

MAX_HISTORY_CHARS = 200_000
MAX_PLAYERS = 16
MAX_BOT_SEATS = 7
MAX_BOT_NAME_CHARS = 64


def bot_player_id(seat: int) -> int:
    """The player id of the bot at ``seat`` (0-6) in a round: negative, so never a member's."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_BOT_SEATS:
        raise InvalidArgument(f"A bot's seat must be 0 to {MAX_BOT_SEATS - 1}, not {seat!r}.")
    return -1 - seat


def is_bot_player(user_id: int) -> bool:
    """Whether a round's player id is a bot's."""
    return user_id < 0


@dataclass(frozen=True, slots=True)
class _Round:
    round_id: int
    guild_id: int
    channel_id: int
    status: RoundStatus


@dataclass(frozen=True, slots=True)
class _Player:
    user_id: int
    account_id: int
    escrow: int
    bot_name: str | None


def _round(tx: Transaction, round_id: int, *, must_be_open: bool = True) -> _Round:
    row = tx.one(
        "SELECT guild_id, channel_id, status FROM bj_rounds WHERE round_id = ?", (round_id,)
    )
    if row is None:
        raise UnknownRound(round_id)
    found = _Round(round_id, int(row[0]), int(row[1]), RoundStatus(row[2]))
    if must_be_open and found.status is not RoundStatus.OPEN:
        raise AlreadySettled(f"Blackjack round {round_id}", found.status.value)
    return found


def _players(tx: Transaction, round_id: int) -> list[_Player]:
    rows = tx.all(
        "SELECT p.user_id, p.account_id, a.balance, p.bot_name FROM bj_players p "
        "JOIN accounts a ON a.account_id = p.account_id WHERE p.round_id = ? ORDER BY p.user_id",
        (round_id,),
    )
    return [_Player(int(r[0]), int(r[1]), int(r[2]), r[3]) for r in rows]


def _state(work: Work, found: _Round) -> RoundState:
    players = _players(work.tx, found.round_id)
    wallets = {}
    for player in players:
        if player.bot_name is None:
            wallets[player.user_id] = work.member(found.guild_id, player.user_id).balance
    return RoundState(
        found.round_id,
        found.guild_id,
        found.channel_id,
        RoundStatus.OPEN,
        {player.user_id: player.escrow for player in players},
        wallets,
    )


SideBets = Mapping[BetReason, int]
"""A member's side bets placed with their opening bet, by kind."""


def open_round(
    work: Work,
    guild_id: int,
    channel_id: int,
    bets: Mapping[int, int],
    side_bets: Mapping[int, SideBets] | None = None,
) -> RoundState:
    """Deal a round: every member's bet (and side bets) moves from their wallet into the
    round's escrow."""
    if not isinstance(bets, Mapping) or not 1 <= len(bets) <= MAX_PLAYERS:
        raise InvalidArgument(f"A round needs between 1 and {MAX_PLAYERS} bets.")
    for user_id, amount in bets.items():
        require_id(user_id, "A user id")
        require_amount(amount, what="bet")
    sides = {user_id: _checked_side_bets(side) for user_id, side in (side_bets or {}).items()}
    if set(sides) - set(bets):
        raise InvalidArgument("Side bets need an opening bet from the same member.")
    work.guild(guild_id)
    round_id = int(
        work.tx.value(
            "INSERT INTO bj_rounds (guild_id, channel_id, status, opened_at, instance_id) "
            "VALUES (?, ?, 'open', ?, ?) RETURNING round_id",
            (guild_id, channel_id, work.stamp, work.instance_id),
        )
    )
    work.guild_id, work.round_id = guild_id, round_id
    if len(bets) == 1:
        work.actor_id = next(iter(bets))
    for user_id, amount in sorted(bets.items()):
        wallet = work.open_member(guild_id, user_id)
        escrow = work.new_account(guild_id, AccountKind.BET, user_id)
        work.tx.execute(
            "INSERT INTO bj_players (round_id, user_id, account_id, total_bet) VALUES (?, ?, ?, ?)",
            (round_id, user_id, escrow, amount),
        )
        work.tx.execute(
            "INSERT INTO bj_bets (round_id, user_id, reason, amount, created_at) "
            "VALUES (?, ?, 'initial', ?, ?)",
            (round_id, user_id, amount, work.stamp),
        )
        work.transfer(guild_id, wallet.account_id, escrow, amount, LedgerKind.BET, user_id=user_id)
        _escrow_side_bets(
            work, guild_id, round_id, user_id, wallet.account_id, escrow, sides.get(user_id)
        )
    return _state(work, _Round(round_id, guild_id, channel_id, RoundStatus.OPEN))


def _checked_side_bets(side_bets: object) -> dict[BetReason, int]:
    if not isinstance(side_bets, Mapping) or not set(side_bets) <= SIDE_BETS:
        raise InvalidArgument("Side bets are 21+3 and Perfect Pairs only.")
    return {reason: require_amount(amount, what="side bet") for reason, amount in side_bets.items()}


def _escrow_side_bets(
    work: Work,
    guild_id: int,
    round_id: int,
    user_id: int,
    wallet: int,
    escrow: int,
    side_bets: Mapping[BetReason, int] | None,
) -> None:
    """Move a member's side bets into their round escrow with the opening bet."""
    for reason, amount in sorted((side_bets or {}).items()):
        work.transfer(guild_id, wallet, escrow, amount, LedgerKind.BET, user_id=user_id)
        work.tx.execute(
            "UPDATE bj_players SET total_bet = total_bet + ? WHERE round_id = ? AND user_id = ?",
            (amount, round_id, user_id),
        )
        work.tx.execute(
            "INSERT INTO bj_bets (round_id, user_id, reason, amount, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (round_id, user_id, reason.value, amount, work.stamp),
        )


def join_round(
    work: Work, round_id: int, user_id: int, amount: int, side_bets: SideBets | None = None
) -> RoundState:
    """A member joins an open round with an opening bet (and side bets), moved from their wallet
    now (the betting window: the table host calls this only before the cards are dealt)."""
    require_id(user_id, "A user id")
    require_amount(amount, what="bet")
    sides = _checked_side_bets(side_bets or {})
    found = _round(work.tx, round_id)
    work.guild_id, work.actor_id, work.round_id = found.guild_id, user_id, round_id
    players = _players(work.tx, round_id)
    if any(player.user_id == user_id for player in players):
        raise InvalidArgument(f"User {user_id} already has a bet in round {round_id}.")
    if len(players) >= MAX_PLAYERS:
        raise InvalidArgument(f"A round takes at most {MAX_PLAYERS} players.")
    wallet = work.open_member(found.guild_id, user_id)
    escrow = work.new_account(found.guild_id, AccountKind.BET, user_id)
    work.tx.execute(
        "INSERT INTO bj_players (round_id, user_id, account_id, total_bet) VALUES (?, ?, ?, ?)",
        (round_id, user_id, escrow, amount),
    )
    work.tx.execute(
        "INSERT INTO bj_bets (round_id, user_id, reason, amount, created_at) "
        "VALUES (?, ?, 'initial', ?, ?)",
        (round_id, user_id, amount, work.stamp),
    )
    work.transfer(
        found.guild_id, wallet.account_id, escrow, amount, LedgerKind.BET, user_id=user_id
    )
    _escrow_side_bets(work, found.guild_id, round_id, user_id, wallet.account_id, escrow, sides)
    return _state(work, found)


def join_round_bot(work: Work, round_id: int, seat: int, name: str, amount: int) -> RoundState:
    """Seat a named bot in an open round with an opening bet from the guild's house."""
    bot_id = bot_player_id(seat)
    require_text(name, "The bot's name", limit=MAX_BOT_NAME_CHARS)
    require_amount(amount, what="bet")
    found = _round(work.tx, round_id)
    work.guild_id, work.round_id, work.note = found.guild_id, round_id, f"bot {name}"
    players = _players(work.tx, round_id)
    if any(player.user_id == bot_id for player in players):
        raise InvalidArgument(f"Round {round_id} already has a bot at seat {seat}.")
    if len(players) >= MAX_PLAYERS:
        raise InvalidArgument(f"A round takes at most {MAX_PLAYERS} players.")
    house = work.guild(found.guild_id).house_account_id
    escrow = work.new_account(found.guild_id, AccountKind.SEAT, None)
    work.tx.execute(
        "INSERT INTO bj_players (round_id, user_id, account_id, total_bet, bot_name) "
        "VALUES (?, ?, ?, ?, ?)",
        (round_id, bot_id, escrow, amount, name),
    )
    work.tx.execute(
        "INSERT INTO bj_bets (round_id, user_id, reason, amount, created_at) "
        "VALUES (?, ?, 'initial', ?, ?)",
        (round_id, bot_id, amount, work.stamp),
    )
    work.transfer(found.guild_id, house, escrow, amount, LedgerKind.BET)
    return _state(work, found)


def _source(work: Work, guild_id: int, player: _Player) -> int:
    """The account a player's chips come from and go back to: a member's wallet, or the house
    for a bot."""
    if player.bot_name is not None:
        return work.guild(guild_id).house_account_id
    return work.member(guild_id, player.user_id).account_id


def add_bet(work: Work, round_id: int, user_id: int, amount: int, reason: BetReason) -> RoundState:
    """Grow a member's stake in an open round (double, split or insurance), paid from the
    wallet at this moment."""
    require_amount(amount, what="bet")
    if not isinstance(reason, BetReason) or reason is BetReason.INITIAL or reason in SIDE_BETS:
        raise InvalidArgument("A bet in play can only grow by a double, a split or insurance.")
    found = _round(work.tx, round_id)
    work.guild_id, work.round_id = found.guild_id, round_id
    work.actor_id = None if is_bot_player(user_id) else user_id
    player = next((p for p in _players(work.tx, round_id) if p.user_id == user_id), None)
    if player is None:
        raise NotInRound(round_id, user_id)
    work.transfer(
        found.guild_id,
        _source(work, found.guild_id, player),
        player.account_id,
        amount,
        LedgerKind.BET,
        user_id=user_id,
    )
    work.tx.execute(
        "UPDATE bj_players SET total_bet = total_bet + ? WHERE round_id = ? AND user_id = ?",
        (amount, round_id, user_id),
    )
    work.tx.execute(
        "INSERT INTO bj_bets (round_id, user_id, reason, amount, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (round_id, user_id, reason.value, amount, work.stamp),
    )
    return _state(work, found)


def _check_outcome(user_id: int, outcome: object, escrow: int, side: int) -> RoundOutcome:
    """``outcome`` checked against the ``escrow`` a player had in the round, ``side`` of it in
    side bets (which may pay up to ``MAX_SIDE_BET_PAYOUT`` times themselves)."""
    if not isinstance(outcome, RoundOutcome):
        raise InvalidSettlement("Round outcomes must be RoundOutcome values.")
    require_amount(outcome.payout, what="payout", allow_zero=True)
    most = MAX_PAYOUT_MULTIPLE * (escrow - side) + MAX_SIDE_BET_PAYOUT * side
    if outcome.payout > most:
        limit = (
            f"{MAX_PAYOUT_MULTIPLE} times the {escrow:,} chips they had in the round"
            if not side
            else f"the {most:,} that {escrow:,} chips ({side:,} in side bets) can win"
        )
        raise InvalidSettlement(
            f"A payout of {outcome.payout:,} to user {user_id} is more than {limit}."
        )
    counts = (outcome.hands_played, outcome.hands_won, outcome.blackjacks)
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise InvalidSettlement("Hand counts must be whole numbers of zero or more.")
    if outcome.hands_won > outcome.hands_played or outcome.blackjacks > outcome.hands_played:
        raise InvalidSettlement("A member cannot win more hands than they played.")
    return outcome


def settle_round(
    work: Work,
    round_id: int,
    outcomes: Mapping[int, RoundOutcome],
    history: str,
    grades: Mapping[int, DecisionGrades] | None = None,
) -> SettledRound:
    """Pay a finished round out: escrow to wallets, the house paying or taking the difference
    (a bot's whole payout is the house's own); ``grades`` by member go to the trainer's record."""
    found = _round(work.tx, round_id)
    work.guild_id, work.round_id = found.guild_id, round_id
    require_text(history, "The round history", limit=MAX_HISTORY_CHARS)
    players = _players(work.tx, round_id)
    checked = _checked_outcomes(work.tx, round_id, players, outcomes)
    members = {p.user_id for p in players if p.bot_name is None}
    graded = check_grades({} if grades is None else grades, members)
    house = work.guild(found.guild_id).house_account_id
    house_delta = 0
    payouts: dict[int, int] = {}
    nets: dict[int, int] = {}
    wallets: dict[int, int] = {}
    lines: list[StatsLine] = []
    for player in players:
        outcome = checked[player.user_id]
        if player.escrow:
            work.move(
                found.guild_id, player.account_id, -player.escrow, LedgerKind.PAYOUT, player.user_id
            )
        if player.bot_name is not None:
            house_delta += player.escrow
            payouts[player.user_id] = outcome.payout
            nets[player.user_id] = outcome.payout - player.escrow
            _record_player(work, round_id, player.user_id, outcome, nets[player.user_id])
            continue
        paid, wallets[player.user_id] = _credit_member(
            work, found.guild_id, player.user_id, outcome.payout, LedgerKind.PAYOUT
        )
        house_delta += player.escrow - paid
        payouts[player.user_id], nets[player.user_id] = paid, paid - player.escrow
        paid_outcome = replace(outcome, payout=paid)
        lines.append(
            _record_player(work, round_id, player.user_id, paid_outcome, paid - player.escrow)
        )
    if house_delta:
        work.move(found.guild_id, house, house_delta, LedgerKind.PAYOUT)
    season_id = work.guild(found.guild_id).season_id
    work.tx.execute(
        "UPDATE bj_rounds SET status = 'settled', ended_at = ?, history = ?, season_id = ? "
        "WHERE round_id = ?",
        (work.stamp, history, season_id, round_id),
    )
    add_stats(work, found.guild_id, season_id, Game.BLACKJACK, lines)
    _record_grades(work.tx, round_id, graded)
    add_blackjack_round(work, round_id)
    return SettledRound(round_id, payouts, nets, wallets)


def _credit_member(
    work: Work, guild_id: int, user_id: int, amount: int, kind: LedgerKind
) -> tuple[int, int]:
    """Credit up to ``amount`` to a member's wallet, never past ``MAX_CHIPS``: (chips paid,
    the wallet's balance). The caller sends what was not paid to the house."""
    wallet = work.member(guild_id, user_id)
    paid = min(amount, MAX_CHIPS - wallet.balance)
    if paid <= 0:
        return 0, wallet.balance
    return paid, work.move(guild_id, wallet.account_id, paid, kind, user_id)


def _checked_outcomes(
    tx: Transaction, round_id: int, players: list[_Player], outcomes: Mapping[int, RoundOutcome]
) -> dict[int, RoundOutcome]:
    """Each player's outcome, checked against what they staked (main and side bets)."""
    if not isinstance(outcomes, Mapping) or set(outcomes) != {p.user_id for p in players}:
        raise InvalidSettlement(
            "A settlement must give an outcome for exactly the round's players."
        )
    sides = _side_stakes(tx, round_id)
    return {
        p.user_id: _check_outcome(p.user_id, outcomes[p.user_id], p.escrow, sides.get(p.user_id, 0))
        for p in players
    }


def _record_grades(tx: Transaction, round_id: int, graded: Mapping[int, DecisionGrades]) -> None:
    """The trainer's grades of each member's decisions, on their row of the round."""
    for user_id, grade in graded.items():
        tx.execute(
            "UPDATE bj_players SET decisions = ?, correct_decisions = ?, expected_loss_milli = ? "
            "WHERE round_id = ? AND user_id = ?",
            (grade.decisions, grade.correct, grade.expected_loss_milli, round_id, user_id),
        )


def _side_stakes(tx: Transaction, round_id: int) -> dict[int, int]:
    """Chips each player has in side bets in the round."""
    reasons = tuple(reason.value for reason in sorted(SIDE_BETS))
    return {
        int(user_id): int(total)
        for user_id, total in tx.all(
            "SELECT user_id, SUM(amount) FROM bj_bets WHERE round_id = ? AND reason IN (?, ?) "
            "GROUP BY user_id",
            (round_id, *reasons),
        )
    }


def _record_player(
    work: Work, round_id: int, user_id: int, outcome: RoundOutcome, net: int
) -> StatsLine:
    """Store a player's outcome in the round; the stats line it adds."""
    work.tx.execute(
        "UPDATE bj_players SET payout = ?, hands_played = ?, hands_won = ?, blackjacks = ? "
        "WHERE round_id = ? AND user_id = ?",
        (
            outcome.payout,
            outcome.hands_played,
            outcome.hands_won,
            outcome.blackjacks,
            round_id,
            user_id,
        ),
    )
    return StatsLine(
        user_id,
        net,
        hands_played=outcome.hands_played,
        hands_won=outcome.hands_won,
        rounds_played=1,
        blackjacks=outcome.blackjacks,
        biggest_pot=max(net, 0),
    )


def refund_round(work: Work, round_id: int, reason: str) -> RefundedRound:
    """Cancel an open round: every member's escrow goes back to their wallet."""
    require_text(reason, "The reason", limit=500)
    found = _round(work.tx, round_id)
    work.guild_id, work.round_id, work.note = found.guild_id, round_id, reason
    refunds: dict[int, int] = {}
    wallets: dict[int, int] = {}
    house = work.guild(found.guild_id).house_account_id
    to_house = 0
    for player in _players(work.tx, round_id):
        if player.escrow:
            work.move(
                found.guild_id, player.account_id, -player.escrow, LedgerKind.REFUND, player.user_id
            )
        if player.bot_name is not None:  # a bot's chips go back to the house
            to_house += player.escrow
            continue
        refunds[player.user_id], wallets[player.user_id] = _credit_member(
            work, found.guild_id, player.user_id, player.escrow, LedgerKind.REFUND
        )
        to_house += player.escrow - refunds[player.user_id]
    if to_house:
        work.move(found.guild_id, house, to_house, LedgerKind.REFUND)
    work.tx.execute(
        "UPDATE bj_rounds SET status = 'refunded', ended_at = ?, refund_reason = ? "
        "WHERE round_id = ?",
        (work.stamp, reason, round_id),
    )
    return RefundedRound(round_id, refunds, wallets, reason)


def read_round(tx: Transaction, round_id: int) -> RoundRecord | None:
    row = tx.one(
        "SELECT guild_id, channel_id, status, opened_at, ended_at, history, refund_reason "
        "FROM bj_rounds WHERE round_id = ?",
        (round_id,),
    )
    if row is None:
        return None
    players = tx.all(
        "SELECT user_id, total_bet, payout, hands_played, hands_won, blackjacks, bot_name "
        "FROM bj_players WHERE round_id = ? ORDER BY user_id",
        (round_id,),
    )
    bets = tx.all(
        "SELECT user_id, reason, amount FROM bj_bets WHERE round_id = ? ORDER BY bet_id",
        (round_id,),
    )
    return RoundRecord(
        round_id=round_id,
        guild_id=int(row[0]),
        channel_id=int(row[1]),
        status=RoundStatus(row[2]),
        opened_at=parse_time(row[3]),
        ended_at=None if row[4] is None else parse_time(row[4]),
        history=row[5],
        refund_reason=row[6],
        players=tuple(
            RoundPlayer(
                int(p[0]),
                int(p[1]),
                None if p[2] is None else int(p[2]),
                int(p[3]),
                int(p[4]),
                int(p[5]),
                p[6],
            )
            for p in players
        ),
        bets=tuple(RoundBet(int(b[0]), BetReason(b[1]), int(b[2])) for b in bets),
    )


def list_rounds(
    tx: Transaction, guild_id: int, user_id: int | None, limit: int, offset: int
) -> list[RoundRecord]:
    """Rounds newest first, optionally only those a member played."""
    sql = "SELECT r.round_id FROM bj_rounds r"
    params: list[object] = []
    if user_id is not None:
        sql += " JOIN bj_players p ON p.round_id = r.round_id AND p.user_id = ?"
        params.append(user_id)
    sql += " WHERE r.guild_id = ? ORDER BY r.opened_at DESC, r.round_id DESC LIMIT ? OFFSET ?"
    params.extend([guild_id, limit, offset])
    records = [read_round(tx, int(row[0])) for row in tx.all(sql, params)]
    return [record for record in records if record is not None]
