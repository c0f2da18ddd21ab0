"""`check`: passes on an honest database, and names the account when something disagrees."""

from __future__ import annotations

from storage.models import ProblemKind
from storage.store import Storage
from tests.storage.support import Sql

GUILD = 10
ALICE, BOB = 1, 2


async def busy_guild(storage: Storage) -> int:
    table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key="a")
    await storage.buy_in(table, 1, BOB, 300, key="b")
    await storage.seat_bot(table, 2, "Ada", 300, key="c")
    await storage.start_hand(table, 1, {0: 300, 1: 300, 2: 300}, key="h1")
    await storage.settle_hand(table, 1, {0: 0, 1: 100, 2: 800}, phh="#", key="s1")
    dealt = await storage.open_round(GUILD, 2, {ALICE: 100}, key="r")
    await storage.transfer(GUILD, BOB, ALICE, 50, key="x")
    await storage.claim_daily(GUILD, BOB, key="d")
    return dealt.round_id


async def test_an_honest_database_passes(storage: Storage) -> None:
    await busy_guild(storage)

    report = await storage.check()

    assert report.ok, report.problems
    assert report.rounds_open == 1
    assert report.hands_in_progress == 0
    guild = report.guilds[0]
    assert guild.held == guild.minted - guild.burned == 2_250
    assert report.ledger_rows > 10


async def test_a_balance_changed_behind_the_ledgers_back_is_named(
    storage: Storage, sql: Sql
) -> None:
    await busy_guild(storage)
    account = sql("SELECT account_id FROM accounts WHERE kind = 'member' AND user_id = ?", BOB)[0][
        0
    ]
    sql("UPDATE accounts SET balance = balance + 1000 WHERE account_id = ?", account)

    report = await storage.check()

    kinds = {p.kind for p in report.problems}
    assert not report.ok
    assert kinds == {ProblemKind.BALANCE_MISMATCH, ProblemKind.MINT_MISMATCH}
    mismatch = next(p for p in report.problems if p.kind is ProblemKind.BALANCE_MISMATCH)
    assert mismatch.account_id == account
    assert f"member {BOB}" in mismatch.message


async def test_chips_invented_in_the_ledger_are_caught(storage: Storage, sql: Sql) -> None:
    await busy_guild(storage)
    account = sql("SELECT account_id FROM accounts WHERE kind = 'member' AND user_id = ?", ALICE)
    op = sql("SELECT MAX(op_id) FROM operations")[0][0]
    # A forged "transfer" row that credits Alice with nobody debited, balance kept in step.
    sql(
        "INSERT INTO ledger (op_id, guild_id, account_id, kind, delta, balance_after, created_at) "
        "VALUES (?, ?, ?, 'transfer', 500, 0, 'x')",
        op,
        GUILD,
        account[0][0],
    )
    sql("UPDATE accounts SET balance = balance + 500 WHERE account_id = ?", account[0][0])

    report = await storage.check()

    kinds = {p.kind for p in report.problems}
    assert ProblemKind.UNBALANCED_OPERATION in kinds
    assert ProblemKind.MINT_MISMATCH in kinds
    assert ProblemKind.RUNNING_BALANCE in kinds


async def test_chips_left_in_a_finished_rounds_escrow_are_stray(storage: Storage, sql: Sql) -> None:
    round_id = await busy_guild(storage)
    await storage.refund_round(round_id, reason="test", key="refund")
    escrow = sql("SELECT account_id FROM bj_players WHERE round_id = ?", round_id)[0][0]
    sql("UPDATE accounts SET balance = 7 WHERE account_id = ?", escrow)

    report = await storage.check()

    stray = [p for p in report.problems if p.kind is ProblemKind.STRAY_CHIPS]
    assert [p.account_id for p in stray] == [escrow]


async def test_a_ledger_row_filed_under_another_guild_than_its_accounts_is_named(
    storage: Storage, sql: Sql
) -> None:
    # PostgreSQL's ledger has no foreign key to guilds (migration 0011): this check is what
    # keeps a row's guild its account's.
    await busy_guild(storage)
    await storage.ensure_account(GUILD + 1, ALICE)
    account, balance = sql(
        "SELECT account_id, balance FROM accounts WHERE kind = 'member' AND user_id = ? "
        "AND guild_id = ?",
        ALICE,
        GUILD,
    )[0]
    op = sql("SELECT MAX(op_id) FROM operations")[0][0]
    # Two rows that cancel out (so balances, running balances and the operation still add up),
    # filed under the other guild.
    for delta, after in ((500, balance + 500), (-500, balance)):
        sql(
            "INSERT INTO ledger (op_id, guild_id, account_id, kind, delta, balance_after, "
            "created_at) VALUES (?, ?, ?, 'transfer', ?, ?, 'x')",
            op,
            GUILD + 1,
            account,
            delta,
            after,
        )

    report = await storage.check()

    assert [p.kind for p in report.problems] == [ProblemKind.SCHEMA, ProblemKind.SCHEMA]
    assert all(p.account_id == account for p in report.problems)
    assert "filed under guild 11" in report.problems[0].message
