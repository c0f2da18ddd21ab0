"""Settling a Hold'em hand: the rules in Python, the writes sent "blind", checked by the database.

A hand's dealt seats and starting stacks are fixed the moment it starts (``hand_seats``), so the
storage that started it knows them (:class:`storage.store.Storage` keeps them), and anyone else
reads them first (:func:`read_dealt`). :func:`plan_settlement` applies every rule to them and to
the final stacks, without the database, and computes the result. :func:`write_settlement` then
sends the whole settlement as about ten statements whose values and checks the database takes
from its own rows (``felt_check``, see ``storage/backend.py``): this operation's key is new, the
hand is in progress, its seats and starting stacks are the ones planned with, no balance leaves
its limits. Nothing sent depends on an answer, so on PostgreSQL the lock, the checks, the writes
and the commit travel in one pipeline: one round trip (``storage/postgres.py``). A check that
fails undoes the transaction and becomes the refusal it names (:func:`refusal`), or, for a
replayed key or other seats than planned, a careful second try that reads first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from storage import codec
from storage.backend import Answer, Transaction
from storage.errors import (
    AlreadySettled,
    BalanceLimitExceeded,
    CheckFailed,
    InsufficientChips,
    InvalidSettlement,
    StorageError,
    UnknownHand,
    UnknownTable,
)
from storage.ledger import Work, require_amount, require_text
from storage.models import MAX_CHIPS, Bounty, Game, LedgerKind, SeatResult, SettledHand
from storage.player_counts import add_holdem, check_counts
from storage.stats import add_hand_stats

MAX_PHH_CHARS = 1_000_000

RETRY_CHECKS = frozenset({"replayed", "stale"})
"""Checks whose failure means "read first and try again", not a refusal: the key was used
before (its stored result is replayed), or the hand is not the one the plan assumed."""


@dataclass(frozen=True, slots=True)
class SettlementPlan:
    """A settlement checked against the hand's dealt seats, ready to be written."""

    table_id: int
    hand_id: int
    dealt: Mapping[int, int]
    """The starting stack of each seat dealt in, as planned with (checked when written)."""
    phh: str
    results: tuple[tuple[int, int, int, int], ...]
    """``(seat_no, final_stack, won, pot_won)`` by seat; the final stack before bounties."""
    counts: tuple[tuple[int, tuple[int, ...]], ...]
    """The members' statistics rows by seat (bots' rows are dropped by the database)."""
    bounty_moves: tuple[tuple[int, int], ...]
    """``(seat_no, change)`` of each seat a bounty moved, payers first."""
    result: SettledHand


def plan_settlement(
    table_id: int,
    hand_id: int,
    dealt: Mapping[int, int],
    final_stacks: Mapping[int, int],
    *,
    phh: str,
    results: Mapping[int, SeatResult],
    counts: Mapping[int, Mapping[str, int]] | None,
    bounties: Sequence[Bounty],
) -> SettlementPlan:
    """Check a settlement against the hand's ``dealt`` seats (``seat_no: starting stack``).

    Refused when the final stacks name other seats than the hand was dealt to, or do not add
    up to the starting stacks; when results, statistics or bounties name a seat that was not in
    the hand or are malformed; when a seat pays more bounty than it holds."""
    require_text(phh, "The hand history", limit=MAX_PHH_CHARS)
    _check_stacks(hand_id, dealt, final_stacks, results)
    counted = _checked_counts(dealt, counts)
    stacks = dict(final_stacks)
    deltas = {seat_no: final_stacks[seat_no] - start for seat_no, start in sorted(dealt.items())}
    moves = bounty_changes(dealt, stacks, bounties)
    for seat_no, change in moves:
        stacks[seat_no] += change
        deltas[seat_no] += change
    rows = []
    for seat_no in sorted(dealt):
        result = results.get(seat_no, SeatResult())
        rows.append((seat_no, final_stacks[seat_no], int(result.won), result.pot_won))
    return SettlementPlan(
        table_id,
        hand_id,
        dict(dealt),
        phh,
        tuple(rows),
        tuple(counted),
        tuple(moves),
        SettledHand(table_id, hand_id, dict(sorted(stacks.items())), deltas),
    )


def _send_check(tx: Transaction, plan: SettlementPlan, key: str) -> None:
    """Send the one check that comes before any write: its reasons tested in order, a replayed
    key first (its stored result is the answer), then the table, the hand and its status, then
    the seats and starting stacks the plan assumed."""
    table_id, hand_id = plan.table_id, plan.hand_id
    dealt = sorted(plan.dealt.items())
    tx.send(
        "SELECT felt_check(c.code = 'ok', c.code, c.status) FROM (SELECT CASE "
        "WHEN EXISTS (SELECT 1 FROM operations WHERE op_key = ?) THEN 'replayed' "
        "WHEN NOT EXISTS (SELECT 1 FROM poker_tables WHERE table_id = ?) THEN 'unknown_table' "
        "WHEN h.status IS NULL THEN 'unknown_hand' "
        "WHEN h.status <> 'in_progress' THEN 'already_settled' "
        "WHEN (SELECT COUNT(*) FROM hand_seats hs WHERE hs.table_id = ? AND hs.hand_id = ?) <> ? "
        "OR (SELECT COUNT(*) FROM hand_seats hs "
        f"JOIN (VALUES {_marks(len(dealt), 2)}) AS v "
        "ON v.column1 = hs.seat_no AND v.column2 = hs.start_stack "
        "WHERE hs.table_id = ? AND hs.hand_id = ?) <> ? THEN 'stale' "
        "ELSE 'ok' END AS code, COALESCE(h.status, '') AS status "
        "FROM (SELECT 1 AS one) AS k LEFT JOIN hands h ON h.table_id = ? AND h.hand_id = ?) AS c",
        (
            key,
            table_id,
            table_id,
            hand_id,
            len(dealt),
            *_flat(dealt),
            table_id,
            hand_id,
            len(dealt),
            table_id,
            hand_id,
        ),
    )


def write_settlement(work: Work, plan: SettlementPlan, name: str, key: str, print_: str) -> None:
    """Send the settlement ``plan`` as operation ``name`` under ``key`` (fingerprint
    ``print_``), its result stored with it; every statement is checked by the database, none
    waits for an answer. Call it with the table's guild locked."""
    tx, table_id, hand_id = work.tx, plan.table_id, plan.hand_id
    _send_check(tx, plan, key)
    tx.send(
        "INSERT INTO operations (op_key, name, fingerprint, result, guild_id, table_id, hand_id, "
        "created_at) SELECT ?, ?, ?, ?, guild_id, table_id, ?, ? FROM poker_tables "
        "WHERE table_id = ?",
        (key, name, print_, codec.dumps(plan.result), hand_id, work.stamp, table_id),
    )
    start = plan.dealt
    moved = [(seat_no, final - start[seat_no]) for seat_no, final, _, _ in plan.results]
    move_seats(work, plan, [(seat_no, delta) for seat_no, delta in moved if delta], key)
    tx.send(
        "UPDATE hand_seats SET final_stack = v.column2, won = v.column3, pot_won = v.column4 "
        f"FROM (VALUES {_marks(len(plan.results), 4)}) AS v WHERE hand_seats.table_id = ? "
        "AND hand_seats.hand_id = ? AND hand_seats.seat_no = v.column1",
        (*_flat(_final_rows(plan)), table_id, hand_id),
    )
    tx.send(
        "UPDATE hands SET status = 'settled', ended_at = ?, phh = ?, season_id = "
        "(SELECT s.season_id FROM seasons s WHERE s.guild_id = hands.guild_id "
        "AND s.ended_at IS NULL) WHERE table_id = ? AND hand_id = ?",
        (work.stamp, plan.phh, table_id, hand_id),
    )
    add_hand_stats(
        work,
        table_id,
        hand_id,
        [
            (seat_no, won, delta, pot_won if won else 0)
            for (seat_no, _, won, pot_won), (_, delta) in zip(plan.results, moved, strict=True)
        ],
    )
    add_holdem(work, table_id, hand_id, plan.counts)
    move_seats(work, plan, list(plan.bounty_moves), key)


def _final_rows(plan: SettlementPlan) -> list[tuple[int, int, int, int]]:
    """``hand_seats`` rows as they end: bounties included in the final stacks."""
    stacks = plan.result.stacks
    return [(seat_no, stacks[seat_no], won, pot) for seat_no, _, won, pot in plan.results]


def move_seats(
    work: Work, plan: SettlementPlan, moves: Sequence[tuple[int, int]], key: str
) -> None:
    """Change the escrow balances of the hand's seats, ``(seat_no, delta)`` each, and write
    their ledger rows (in the order given) under the operation ``key``; a balance that would
    leave 0..MAX_CHIPS fails the check ``insufficient`` or ``limit``."""
    if not moves:
        return
    tx, table_id, hand_id = work.tx, plan.table_id, plan.hand_id
    values = _marks(len(moves), 3)
    rows = [(seat_no, delta, order) for order, (seat_no, delta) in enumerate(moves)]
    seats = (
        f"FROM (VALUES {values}) AS v JOIN hand_seats hs ON hs.table_id = ? AND hs.hand_id = ? "
        "AND hs.seat_no = v.column1 JOIN seats s ON s.seat_id = hs.seat_id"
    )
    tx.send(
        # felt_check is called only for a balance out of bounds (CASE tests in order).
        "UPDATE accounts SET balance = CASE WHEN accounts.balance + m.delta BETWEEN 0 AND ? "
        "THEN accounts.balance + m.delta WHEN felt_check(FALSE, CASE WHEN m.delta < 0 "
        "THEN 'insufficient' ELSE 'limit' END, COALESCE(CAST(m.user_id AS TEXT), '') || ':' || "
        "CAST(-m.delta AS TEXT) || ':' || CAST(accounts.balance AS TEXT)) THEN NULL END "
        "FROM (SELECT s.account_id AS account_id, s.user_id AS user_id, v.column2 AS delta "
        f"{seats}) AS m WHERE accounts.account_id = m.account_id",
        (MAX_CHIPS, *_flat(rows), table_id, hand_id),
    )
    tx.send(
        "INSERT INTO ledger (op_id, guild_id, account_id, kind, delta, balance_after, "
        "created_at) SELECT o.op_id, o.guild_id, a.account_id, ?, v.column2, a.balance, ? "
        f"{seats} JOIN accounts a ON a.account_id = s.account_id "
        "JOIN operations o ON o.op_key = ? ORDER BY v.column3",
        (LedgerKind.HAND_RESULT.value, work.stamp, *_flat(rows), table_id, hand_id, key),
    )


def _marks(rows: int, width: int) -> str:
    row = "(" + ", ".join("?" * width) + ")"
    return ", ".join([row] * rows)


def _flat(rows: Sequence[tuple[int, ...]]) -> list[int]:
    return [value for row in rows for value in row]


def refusal(failed: CheckFailed, table_id: int, hand_id: int) -> StorageError:
    """The refusal a failed settlement check stands for (the check itself if it is none)."""
    detail = failed.check_detail
    match failed.code:
        case "unknown_table":
            return UnknownTable(table_id)
        case "unknown_hand":
            return UnknownHand(table_id, hand_id)
        case "already_settled":
            return AlreadySettled(f"Hand #{hand_id}", detail.replace("_", " "))
        case "insufficient":
            user, needed, available = detail.split(":")
            return InsufficientChips(int(user) if user else None, int(needed), int(available))
        case "limit":
            return BalanceLimitExceeded(MAX_CHIPS)
        case _:
            return failed


@dataclass(frozen=True, slots=True)
class DealtReads:
    """The reads of a careful settlement (:func:`ask_dealt`), started with the replay check."""

    status: Answer
    seats: Answer


def ask_dealt(tx: Transaction, table_id: int, hand_id: int) -> DealtReads:
    """Start reading whether the table and the hand exist, the hand's status and its dealt
    seats' starting stacks."""
    return DealtReads(
        tx.ask(
            "SELECT t.table_id, h.status FROM poker_tables t LEFT JOIN hands h "
            "ON h.table_id = t.table_id AND h.hand_id = ? WHERE t.table_id = ?",
            (hand_id, table_id),
        ),
        tx.ask(
            "SELECT seat_no, start_stack FROM hand_seats WHERE table_id = ? AND hand_id = ?",
            (table_id, hand_id),
        ),
    )


def read_dealt(reads: DealtReads, table_id: int, hand_id: int) -> dict[int, int]:
    """The dealt seats' starting stacks; refused unless the hand exists and is in progress."""
    found = reads.status.one()
    if found is None:
        raise UnknownTable(table_id)
    if found[1] is None:
        raise UnknownHand(table_id, hand_id)
    if found[1] != "in_progress":
        raise AlreadySettled(f"Hand #{hand_id}", str(found[1]).replace("_", " "))
    return {int(row[0]): int(row[1]) for row in reads.seats.all()}


def bounty_changes(
    dealt: Mapping[int, object], stacks: Mapping[int, int], bounties: Sequence[Bounty]
) -> list[tuple[int, int]]:
    """Check ``bounties`` between the seats of ``dealt`` holding ``stacks``; each seat's
    change, ``(seat_no, change)``, payers first (so no escrow is ever credited chips that are
    not yet debited elsewhere)."""
    change: dict[int, int] = {}
    for bounty in bounties:
        if not isinstance(bounty, Bounty):
            raise InvalidSettlement("Bounties must be Bounty values.")
        if bounty.payer not in dealt or bounty.winner not in dealt:
            raise InvalidSettlement("A bounty names a seat that was not in the hand.")
        if bounty.payer == bounty.winner:
            raise InvalidSettlement("A bounty winner does not pay themselves.")
        require_amount(bounty.amount, what="bounty")
        change[bounty.payer] = change.get(bounty.payer, 0) - bounty.amount
        change[bounty.winner] = change.get(bounty.winner, 0) + bounty.amount
    for seat_no, amount in change.items():
        if stacks[seat_no] + amount < 0:
            raise InvalidSettlement(f"Seat {seat_no} cannot pay more bounty than it holds.")
    return [item for item in sorted(change.items(), key=lambda item: item[1]) if item[1]]


def _check_stacks(
    hand_id: int,
    dealt: Mapping[int, int],
    final_stacks: Mapping[int, int],
    results: Mapping[int, SeatResult],
) -> None:
    """Refuse final stacks for other seats than were dealt in, or that do not add up."""
    if not isinstance(final_stacks, Mapping) or set(final_stacks) != set(dealt):
        seats = ", ".join(str(seat_no) for seat_no in sorted(dealt))
        raise InvalidSettlement(
            f"Hand #{hand_id} was dealt to seats {seats}; the final stacks must name exactly those."
        )
    for stack in final_stacks.values():
        require_amount(stack, what="final stack", allow_zero=True)
    started = sum(dealt.values())
    finished = sum(final_stacks.values())
    if finished != started:
        raise InvalidSettlement(
            f"Hand #{hand_id} started with {started:,} chips but the final stacks add up to "
            f"{finished:,}."
        )
    if not isinstance(results, Mapping) or not set(results) <= set(final_stacks):
        raise InvalidSettlement("Seat results name a seat that was not in the hand.")
    for result in results.values():
        if not isinstance(result, SeatResult):
            raise InvalidSettlement("Seat results must be SeatResult values.")
        require_amount(result.pot_won, what="pot won", allow_zero=True)
        if result.pot_won > started:
            raise InvalidSettlement("A pot cannot be bigger than all the chips in the hand.")


def _checked_counts(
    dealt: Mapping[int, int], counts: Mapping[int, Mapping[str, int]] | None
) -> list[tuple[int, tuple[int, ...]]]:
    """The statistics rows by seat, ``(seat_no, row)``; refused for a seat not in the hand."""
    if counts is None:
        return []
    if not isinstance(counts, Mapping) or not set(counts) <= set(dealt):
        raise InvalidSettlement("Statistics name a seat that was not in the hand.")
    return [
        (seat_no, check_counts(Game.HOLDEM, counts[seat_no]))
        for seat_no in sorted(dealt)
        if seat_no in counts
    ]
