"""Moves sent without waiting for their answer (``Work.send_move``): the same guards as a move,
and a guard that refuses on the server undoes the whole operation (PostgreSQL pipelines them
with the commit, so the answer comes too late to look at)."""

from __future__ import annotations

import pytest

from storage import Storage
from storage.errors import DatabaseFailure, InsufficientChips
from storage.ledger import Work
from storage.models import LedgerKind
from tests.storage.support import State

GUILD = 31
ALICE = 5


async def test_a_sent_move_the_server_guard_refuses_undoes_the_whole_operation(
    storage: Storage, state: State
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()

    def body(work: Work) -> None:
        member = work.member(GUILD, ALICE)
        # Told the account holds more than it does: the check here passes, the server's fails.
        claimed = member.balance + 1_000
        work.send_move(GUILD, member.account_id, claimed, -claimed, LedgerKind.ADMIN_TAKE, ALICE)
        work.record("test_take", "test-take", "fingerprint", "{}")

    with pytest.raises(DatabaseFailure):
        await storage._write(body, guild=None)
    assert state() == before


async def test_a_sent_move_beyond_the_balance_read_is_refused_before_anything_is_sent(
    storage: Storage, state: State
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()

    def body(work: Work) -> None:
        member = work.member(GUILD, ALICE)
        work.send_move(
            GUILD, member.account_id, member.balance, -member.balance - 1, LedgerKind.ADMIN_TAKE
        )

    with pytest.raises(InsufficientChips):
        await storage._write(body, guild=None)
    assert state() == before


async def test_a_sent_move_writes_its_ledger_row_with_the_balance_it_left(
    storage: Storage,
) -> None:
    account = await storage.ensure_account(GUILD, ALICE)

    def body(work: Work) -> int:
        member = work.member(GUILD, ALICE)
        after = work.send_move(GUILD, member.account_id, member.balance, -7, LedgerKind.ADMIN_TAKE)
        work.guild_id = GUILD
        work.record("test_take", "test-take", "fingerprint", "{}")
        return after

    after = await storage._write(body, guild=None)
    entries = await storage.ledger(GUILD, user_id=ALICE, limit=1)
    assert after == account.balance - 7
    assert await storage.balance(GUILD, ALICE) == after
    assert (entries[0].delta, entries[0].balance_after, entries[0].key) == (-7, after, "test-take")
