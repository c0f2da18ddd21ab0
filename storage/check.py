"""``felt db check``: proof that no chip was lost or invented.

Verifies that every balance equals the sum of its ledger rows (and every row's running balance),
that no balance but the house's is negative, that each guild holds exactly what was minted minus
what was burned, that every non-minting operation's rows sum to zero, that no chips were left
behind in a seat somebody left or in the escrow of a finished round, and that every round's
escrow belongs to its player (a member's bet account, or a member-less account for a bot), and
that every tournament's pool holds what was paid in minus what was paid out. Also
lists the instances (living and recently ended) and what each owns, so an operator sees who hosts
what.
"""

from __future__ import annotations

from datetime import datetime

from storage.backend import Transaction
from storage.instances import instance_reports
from storage.models import (
    MINT_KINDS,
    CheckReport,
    GuildTotals,
    Problem,
    ProblemKind,
)
from storage.tournaments import pool_problems

PROBLEMS_PER_KIND = 50

_MINT_LIST = ", ".join(f"'{kind.value}'" for kind in sorted(MINT_KINDS))


def _describe(kind: str, user_id: object, guild_id: object, account_id: object) -> str:
    owner = f"member {user_id}" if user_id is not None else "bot or house"
    return f"account {account_id} ({kind}, {owner}, guild {guild_id})"


def run_check(tx: Transaction, schema_version: int, now: datetime | None = None) -> CheckReport:
    """Every check in one read snapshot, and (with ``now``) the instances and what each owns."""
    limit = (PROBLEMS_PER_KIND,)
    guilds, mint_problems = _guild_totals(tx)
    problems = [
        *_balance_mismatches(tx, limit),
        *_running_balances(tx, limit),
        *_negative_balances(tx, limit),
        *mint_problems,
        *_unbalanced_operations(tx, limit),
        *_stray_chips(tx, limit),
        *_misfiled_rows(tx, limit),
        *_misowned_round_escrows(tx, limit),
        *pool_problems(tx, PROBLEMS_PER_KIND),
    ]
    return CheckReport(
        schema_version=schema_version,
        guilds=tuple(guilds),
        accounts_checked=int(tx.value("SELECT COUNT(*) FROM accounts")),
        ledger_rows=int(tx.value("SELECT COUNT(*) FROM ledger")),
        hands_in_progress=int(tx.value("SELECT COUNT(*) FROM hands WHERE status = 'in_progress'")),
        rounds_open=int(tx.value("SELECT COUNT(*) FROM bj_rounds WHERE status = 'open'")),
        problems=tuple(problems),
        instances=() if now is None else tuple(instance_reports(tx, now)),
    )


def _balance_mismatches(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    return [
        Problem(
            ProblemKind.BALANCE_MISMATCH,
            f"{_describe(kind, user_id, guild_id, account_id)} holds {balance:,} chips but "
            f"its ledger rows add up to {total:,}",
            int(guild_id),
            int(account_id),
        )
        for account_id, guild_id, kind, user_id, balance, total in tx.all(
            "SELECT a.account_id, a.guild_id, a.kind, a.user_id, a.balance, COALESCE(l.total, 0) "
            "FROM accounts a LEFT JOIN (SELECT account_id, SUM(delta) AS total FROM ledger "
            "GROUP BY account_id) l ON l.account_id = a.account_id "
            "WHERE a.balance <> COALESCE(l.total, 0) ORDER BY a.account_id LIMIT ?",
            limit,
        )
    ]


def _running_balances(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    return [
        Problem(
            ProblemKind.RUNNING_BALANCE,
            f"ledger row {entry_id} says account {account_id} then held {after:,} chips, "
            f"but the rows up to it add up to {running:,}",
            int(guild_id),
            int(account_id),
        )
        for entry_id, account_id, guild_id, after, running in tx.all(
            "SELECT entry_id, account_id, guild_id, balance_after, running FROM ("
            "SELECT entry_id, account_id, guild_id, balance_after, SUM(delta) OVER ("
            "PARTITION BY account_id ORDER BY entry_id ROWS UNBOUNDED PRECEDING) AS running "
            "FROM ledger) rows_so_far WHERE running <> balance_after ORDER BY entry_id LIMIT ?",
            limit,
        )
    ]


def _negative_balances(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    return [
        Problem(
            ProblemKind.NEGATIVE_BALANCE,
            f"{_describe(kind, user_id, guild_id, account_id)} is negative ({balance:,})",
            int(guild_id),
            int(account_id),
        )
        for account_id, guild_id, kind, user_id, balance in tx.all(
            "SELECT account_id, guild_id, kind, user_id, balance FROM accounts "
            "WHERE balance < 0 AND kind <> 'house' ORDER BY account_id LIMIT ?",
            limit,
        )
    ]


def _guild_totals(tx: Transaction) -> tuple[list[GuildTotals], list[Problem]]:
    """Each guild's chips against what was minted and burned in it."""
    held: dict[int, int] = {
        int(guild): int(total)
        for guild, total in tx.all("SELECT guild_id, SUM(balance) FROM accounts GROUP BY guild_id")
    }
    counts: dict[int, int] = {
        int(guild): int(count)
        for guild, count in tx.all("SELECT guild_id, COUNT(*) FROM accounts GROUP BY guild_id")
    }
    minted: dict[int, tuple[int, int]] = {
        int(guild): (int(up), int(down))
        for guild, up, down in tx.all(
            "SELECT guild_id, COALESCE(SUM(CASE WHEN delta > 0 THEN delta ELSE 0 END), 0), "
            "COALESCE(SUM(CASE WHEN delta < 0 THEN -delta ELSE 0 END), 0) FROM ledger "
            f"WHERE kind IN ({_MINT_LIST}) GROUP BY guild_id"
        )
    }
    guilds: list[GuildTotals] = []
    problems: list[Problem] = []
    for guild_id in sorted(set(held) | set(minted)):
        total = held.get(guild_id, 0)
        up, down = minted.get(guild_id, (0, 0))
        guilds.append(GuildTotals(guild_id, counts.get(guild_id, 0), total, up, down))
        if total != up - down:
            problems.append(
                Problem(
                    ProblemKind.MINT_MISMATCH,
                    f"guild {guild_id} holds {total:,} chips in all, but {up:,} were minted and "
                    f"{down:,} burned (a difference of {total - (up - down):+,})",
                    int(guild_id),
                )
            )
    return guilds, problems


def _unbalanced_operations(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    return [
        Problem(
            ProblemKind.UNBALANCED_OPERATION,
            f"operation {op_id} ({name}, key {key}) moved chips that do not add up to zero "
            f"({total:+,})",
            None if guild_id is None else int(guild_id),
        )
        for op_id, guild_id, name, key, total in tx.all(
            "SELECT o.op_id, o.guild_id, o.name, o.op_key, SUM(l.delta) FROM ledger l "
            "JOIN operations o ON o.op_id = l.op_id "
            f"WHERE l.kind NOT IN ({_MINT_LIST}) "
            "GROUP BY o.op_id, o.guild_id, o.name, o.op_key HAVING SUM(l.delta) <> 0 "
            "ORDER BY o.op_id LIMIT ?",
            limit,
        )
    ]


def _stray_chips(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    return [
        Problem(
            ProblemKind.STRAY_CHIPS,
            f"account {account_id} (member {user_id}) has {balance:,} chips in {where}",
            int(guild_id),
            int(account_id),
        )
        for account_id, guild_id, user_id, balance, where in tx.all(
            "SELECT a.account_id, a.guild_id, a.user_id, a.balance, 'a seat that was left' "
            "FROM seats s JOIN accounts a ON a.account_id = s.account_id "
            "WHERE s.left_at IS NOT NULL AND a.balance <> 0 "
            "UNION ALL "
            "SELECT a.account_id, a.guild_id, a.user_id, a.balance, 'a seat at a closed table' "
            "FROM seats s JOIN accounts a ON a.account_id = s.account_id "
            "JOIN poker_tables t ON t.table_id = s.table_id "
            "WHERE t.status = 'closed' AND s.left_at IS NULL "
            "UNION ALL "
            "SELECT a.account_id, a.guild_id, a.user_id, a.balance, 'a finished round''s escrow' "
            "FROM bj_players p JOIN accounts a ON a.account_id = p.account_id "
            "JOIN bj_rounds r ON r.round_id = p.round_id "
            "WHERE r.status <> 'open' AND a.balance <> 0 "
            "ORDER BY 1 LIMIT ?",
            limit,
        )
    ]


def _misfiled_rows(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    return [
        Problem(
            ProblemKind.SCHEMA,
            f"ledger row {entry_id} is filed under guild {guild_id} but its account "
            f"{account_id} belongs to another guild",
            int(guild_id),
            int(account_id),
        )
        for guild_id, account_id, entry_id in tx.all(
            "SELECT l.guild_id, l.account_id, l.entry_id FROM ledger l "
            "JOIN accounts a ON a.account_id = l.account_id WHERE a.guild_id <> l.guild_id "
            "ORDER BY l.entry_id LIMIT ?",
            limit,
        )
    ]


def _misowned_round_escrows(tx: Transaction, limit: tuple[int]) -> list[Problem]:
    """A round's escrow must be its member's bet account, or for a bot (negative player id) a
    member-less seat account: anything else would let chips reach the wrong wallet."""
    return [
        Problem(
            ProblemKind.SCHEMA,
            f"round {round_id}'s player {user_id} keeps its escrow in "
            f"{_describe(kind, owner, guild_id, account_id)}, which is not "
            + ("a bot's" if bot_name is not None else "that member's bet account"),
            int(guild_id),
            int(account_id),
        )
        for round_id, user_id, bot_name, account_id, guild_id, kind, owner in tx.all(
            "SELECT p.round_id, p.user_id, p.bot_name, a.account_id, a.guild_id, a.kind, a.user_id "
            "FROM bj_players p JOIN accounts a ON a.account_id = p.account_id WHERE "
            "(p.bot_name IS NULL AND (a.kind <> 'bet' OR a.user_id IS NULL "
            "OR a.user_id <> p.user_id OR p.user_id < 0)) OR (p.bot_name IS NOT NULL AND "
            "(a.kind <> 'seat' OR a.user_id IS NOT NULL)) ORDER BY p.round_id, p.user_id LIMIT ?",
            limit,
        )
    ]
