"""Wallets: starting grant, daily bonus and streaks, admin grant/take/set, transfers, amounts and
idempotency keys. Every refusal also proves the database did not change."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from storage.errors import (
    BalanceLimitExceeded,
    DailyAlreadyClaimed,
    DailyDisabled,
    IdempotencyConflict,
    InsufficientChips,
    InvalidAmount,
    InvalidArgument,
    InvalidTransfer,
    TransfersDisabled,
    UnknownAccount,
)
from storage.models import MAX_CHIPS, LedgerKind
from storage.settings import EconomySettings
from storage.store import Storage
from tests.storage.support import FakeClock, Sql, State

GUILD = 111_111_111_111_111_111
OTHER_GUILD = 222_222_222_222_222_222
ALICE = 1_001
BOB = 1_002
ADMIN = 9_999

BAD_AMOUNTS = [0, -1, -(2**60), 1.5, 100.0, "100", None, True, 2**53, 2**53 + 1, 2**64]


async def test_ensure_account_grants_the_starting_chips_once(storage: Storage, sql: Sql) -> None:
    first = await storage.ensure_account(GUILD, ALICE)
    again = await storage.ensure_account(GUILD, ALICE)

    assert first.balance == again.balance == 1_000
    assert sql("SELECT kind, delta FROM ledger") == [("starting_grant", 1_000)]


async def test_accounts_are_per_guild(storage: Storage) -> None:
    await storage.admin_grant(GUILD, ALICE, 500, actor_id=ADMIN, key="g1")

    other = await storage.ensure_account(OTHER_GUILD, ALICE)

    assert await storage.balance(GUILD, ALICE) == 1_500
    assert other.balance == 1_000


async def test_get_account_of_a_stranger_is_none_and_balance_refuses(storage: Storage) -> None:
    assert await storage.get_account(GUILD, ALICE) is None
    with pytest.raises(UnknownAccount) as refusal:
        await storage.balance(GUILD, ALICE)
    assert refusal.value.user_id == ALICE


async def test_starting_grant_follows_the_guild_setting(storage: Storage) -> None:
    await storage.set_setting(GUILD, "starting_chips", 5_000)
    await storage.set_setting(OTHER_GUILD, "starting_chips", 0)

    assert (await storage.ensure_account(GUILD, ALICE)).balance == 5_000
    assert (await storage.ensure_account(OTHER_GUILD, ALICE)).balance == 0


async def test_configured_economy_defaults_apply(database: str | Path, clock: FakeClock) -> None:
    economy = EconomySettings(starting_chips=42, daily_amount=7)
    async with await Storage.open(database, clock=clock, economy=economy) as storage:
        assert (await storage.ensure_account(GUILD, ALICE)).balance == 42
        assert (await storage.claim_daily(GUILD, ALICE, key="d")).amount == 7


# --- daily bonus ------------------------------------------------------------------------------


async def test_daily_claim_opens_account_and_adds_the_bonus(
    storage: Storage, clock: FakeClock
) -> None:
    claim = await storage.claim_daily(GUILD, ALICE, key="daily-1")

    assert (claim.amount, claim.streak, claim.balance) == (250, 1, 1_250)
    assert claim.next_claim_at == datetime(2025, 3, 2, tzinfo=UTC)


async def test_daily_twice_the_same_utc_day_is_refused_and_changes_nothing(
    storage: Storage, clock: FakeClock, state: State
) -> None:
    await storage.claim_daily(GUILD, ALICE, key="daily-1")
    clock.advance(hours=11, minutes=59)  # 23:59 UTC the same day
    before = state()

    with pytest.raises(DailyAlreadyClaimed) as refusal:
        await storage.claim_daily(GUILD, ALICE, key="daily-2")

    assert refusal.value.next_claim_at == datetime(2025, 3, 2, tzinfo=UTC)
    assert "2025-03-02T00:00:00+00:00" in str(refusal.value)
    assert state() == before


async def test_daily_streak_grows_caps_and_resets_after_a_missed_day(
    storage: Storage, clock: FakeClock
) -> None:
    amounts = []
    for day in range(9):
        claim = await storage.claim_daily(GUILD, ALICE, key=f"d{day}")
        amounts.append((claim.streak, claim.amount))
        clock.advance(days=1)
    clock.advance(days=1)  # a day missed
    after_gap = await storage.claim_daily(GUILD, ALICE, key="after-gap")

    assert amounts == [
        (1, 250),
        (2, 300),
        (3, 350),
        (4, 400),
        (5, 450),
        (6, 500),
        (7, 550),
        (8, 550),
        (9, 550),
    ]
    assert (after_gap.streak, after_gap.amount) == (1, 250)


async def test_daily_just_after_midnight_utc_counts_as_the_next_day(
    storage: Storage, clock: FakeClock
) -> None:
    clock.now = datetime(2025, 3, 1, 23, 59, 59, tzinfo=UTC)
    await storage.claim_daily(GUILD, ALICE, key="a")
    clock.now = datetime(2025, 3, 2, 0, 0, 1, tzinfo=UTC)

    claim = await storage.claim_daily(GUILD, ALICE, key="b")

    assert claim.streak == 2


async def test_daily_refused_when_the_clock_went_backwards(
    storage: Storage, clock: FakeClock, state: State
) -> None:
    await storage.claim_daily(GUILD, ALICE, key="a")
    clock.advance(days=-3)
    before = state()

    with pytest.raises(DailyAlreadyClaimed):
        await storage.claim_daily(GUILD, ALICE, key="b")
    assert state() == before


async def test_daily_disabled_by_the_guild(storage: Storage, state: State) -> None:
    await storage.set_setting(GUILD, "daily_amount", 0)
    before = state()

    with pytest.raises(DailyDisabled):
        await storage.claim_daily(GUILD, ALICE, key="a")
    assert state() == before


async def test_daily_same_key_twice_returns_the_first_claim(
    storage: Storage, clock: FakeClock, sql: Sql
) -> None:
    first = await storage.claim_daily(GUILD, ALICE, key="click")
    clock.advance(days=1)

    replay = await storage.claim_daily(GUILD, ALICE, key="click")

    assert replay == first
    assert sql("SELECT COUNT(*) FROM ledger WHERE kind = 'daily'") == [(1,)]


# --- admin ------------------------------------------------------------------------------------


async def test_admin_grant_take_and_set_are_minted_and_burned(storage: Storage, sql: Sql) -> None:
    granted = await storage.admin_grant(GUILD, ALICE, 500, actor_id=ADMIN, key="g")
    taken = await storage.admin_take(GUILD, ALICE, 200, actor_id=ADMIN, key="t")
    raised = await storage.admin_set(GUILD, ALICE, 10_000, actor_id=ADMIN, key="s1")
    lowered = await storage.admin_set(GUILD, ALICE, 0, actor_id=ADMIN, key="s2")
    unchanged = await storage.admin_set(GUILD, ALICE, 0, actor_id=ADMIN, key="s3")

    assert (granted.delta, granted.balance) == (500, 1_500)
    assert (taken.delta, taken.balance) == (-200, 1_300)
    assert (raised.delta, raised.balance) == (8_700, 10_000)
    assert (lowered.delta, lowered.balance) == (-10_000, 0)
    assert (unchanged.delta, unchanged.balance) == (0, 0)
    assert sql("SELECT kind, delta FROM ledger ORDER BY entry_id") == [
        ("starting_grant", 1_000),
        ("admin_grant", 500),
        ("admin_take", -200),
        ("admin_grant", 8_700),
        ("admin_take", -10_000),
    ]
    actors = sql("SELECT DISTINCT actor_id FROM operations WHERE name LIKE 'admin%'")
    assert actors == [(ADMIN,)]


async def test_admin_take_beyond_the_balance_is_refused(storage: Storage, state: State) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()

    with pytest.raises(InsufficientChips) as refusal:
        await storage.admin_take(GUILD, ALICE, 1_001, actor_id=ADMIN, key="t")

    assert (refusal.value.available, refusal.value.needed) == (1_000, 1_001)
    assert state() == before


async def test_admin_take_from_a_stranger_is_refused(storage: Storage, state: State) -> None:
    before = state()
    with pytest.raises(UnknownAccount):
        await storage.admin_take(GUILD, ALICE, 1, actor_id=ADMIN, key="t")
    assert state() == before


async def test_a_credit_beyond_the_chip_limit_is_refused(storage: Storage, state: State) -> None:
    await storage.admin_set(GUILD, ALICE, MAX_CHIPS - 10, actor_id=ADMIN, key="s")
    before = state()

    with pytest.raises(BalanceLimitExceeded):
        await storage.admin_grant(GUILD, ALICE, 11, actor_id=ADMIN, key="g")
    assert state() == before
    assert (await storage.admin_grant(GUILD, ALICE, 10, actor_id=ADMIN, key="g2")).balance == (
        MAX_CHIPS
    )


# --- transfers --------------------------------------------------------------------------------


async def test_transfer_moves_chips_between_members(storage: Storage, sql: Sql) -> None:
    await storage.ensure_account(GUILD, BOB)

    done = await storage.transfer(GUILD, ALICE, BOB, 300, key="t")

    assert (done.sender_balance, done.recipient_balance) == (700, 1_300)
    rows = sql("SELECT kind, delta, balance_after FROM ledger WHERE kind = 'transfer'")
    assert rows == [("transfer", -300, 700), ("transfer", 300, 1_300)]


async def test_transfer_to_a_member_without_account_is_refused(
    storage: Storage, state: State
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()

    with pytest.raises(UnknownAccount) as refusal:
        await storage.transfer(GUILD, ALICE, BOB, 10, key="t")

    assert refusal.value.user_id == BOB
    assert state() == before


async def test_transfer_to_oneself_is_refused(storage: Storage, state: State) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()
    with pytest.raises(InvalidTransfer):
        await storage.transfer(GUILD, ALICE, ALICE, 10, key="t")
    assert state() == before


async def test_transfer_beyond_the_balance_is_refused(storage: Storage, state: State) -> None:
    await storage.ensure_account(GUILD, ALICE)
    await storage.ensure_account(GUILD, BOB)
    before = state()

    with pytest.raises(InsufficientChips) as refusal:
        await storage.transfer(GUILD, ALICE, BOB, 1_001, key="t")

    assert refusal.value.user_id == ALICE
    assert "1,000" in str(refusal.value)
    assert state() == before


async def test_transfers_can_be_disabled_per_guild(storage: Storage, state: State) -> None:
    await storage.ensure_account(GUILD, ALICE)
    await storage.ensure_account(GUILD, BOB)
    await storage.set_setting(GUILD, "transfers_enabled", False)
    before = state()

    with pytest.raises(TransfersDisabled):
        await storage.transfer(GUILD, ALICE, BOB, 10, key="t")
    assert state() == before

    await storage.set_setting(GUILD, "transfers_enabled", True)
    assert (await storage.transfer(GUILD, ALICE, BOB, 10, key="t")).amount == 10


# --- amounts and keys -------------------------------------------------------------------------


@pytest.mark.parametrize("amount", BAD_AMOUNTS)
async def test_bad_amounts_are_refused_everywhere(
    storage: Storage, state: State, amount: Any
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    await storage.ensure_account(GUILD, BOB)
    before = state()

    with pytest.raises(InvalidAmount):
        await storage.transfer(GUILD, ALICE, BOB, amount, key="t")
    with pytest.raises(InvalidAmount):
        await storage.admin_grant(GUILD, ALICE, amount, actor_id=ADMIN, key="g")
    with pytest.raises(InvalidAmount):
        await storage.admin_take(GUILD, ALICE, amount, actor_id=ADMIN, key="k")
    assert state() == before


@pytest.mark.parametrize("balance", [-1, 1.0, "5", True, 2**53])
async def test_bad_balances_for_admin_set_are_refused(
    storage: Storage, state: State, balance: Any
) -> None:
    await storage.ensure_account(GUILD, ALICE)
    before = state()
    with pytest.raises(InvalidAmount):
        await storage.admin_set(GUILD, ALICE, balance, actor_id=ADMIN, key="s")
    assert state() == before


async def test_the_largest_amount_is_accepted(storage: Storage) -> None:
    change = await storage.admin_set(GUILD, ALICE, MAX_CHIPS, actor_id=ADMIN, key="s")
    assert change.balance == 2**53 - 1


async def test_a_key_reused_with_other_arguments_is_refused(storage: Storage, state: State) -> None:
    await storage.ensure_account(GUILD, BOB)
    await storage.transfer(GUILD, ALICE, BOB, 10, key="same")
    before = state()

    with pytest.raises(IdempotencyConflict):
        await storage.transfer(GUILD, ALICE, BOB, 20, key="same")
    with pytest.raises(IdempotencyConflict):
        await storage.admin_grant(GUILD, ALICE, 10, actor_id=ADMIN, key="same")
    assert state() == before


async def test_a_replay_returns_the_first_result_even_after_later_changes(
    storage: Storage, sql: Sql
) -> None:
    await storage.ensure_account(GUILD, BOB)
    first = await storage.transfer(GUILD, ALICE, BOB, 10, key="t1")
    await storage.transfer(GUILD, ALICE, BOB, 50, key="t2")

    replay = await storage.transfer(GUILD, ALICE, BOB, 10, key="t1")

    assert replay == first
    assert sql("SELECT COUNT(*) FROM ledger WHERE kind = 'transfer'") == [(4,)]


@pytest.mark.parametrize("key", ["", "has space", "é", "x" * 201, 12, None, "felt:account:1:2"])
async def test_malformed_or_reserved_keys_are_refused(
    storage: Storage, state: State, key: Any
) -> None:
    before = state()
    with pytest.raises(InvalidArgument):
        await storage.admin_grant(GUILD, ALICE, 10, actor_id=ADMIN, key=key)
    assert state() == before


@pytest.mark.parametrize("user_id", [-1, 2**64, "1001", 1.0, True])
async def test_malformed_ids_are_refused(storage: Storage, state: State, user_id: Any) -> None:
    before = state()
    with pytest.raises(InvalidArgument):
        await storage.claim_daily(GUILD, user_id, key="d")
    assert state() == before


async def test_a_refused_key_can_be_used_again_once_the_reason_is_gone(storage: Storage) -> None:
    await storage.ensure_account(GUILD, BOB)
    with pytest.raises(InsufficientChips):
        await storage.transfer(GUILD, ALICE, BOB, 5_000, key="t")
    await storage.admin_grant(GUILD, ALICE, 10_000, actor_id=ADMIN, key="g")

    done = await storage.transfer(GUILD, ALICE, BOB, 5_000, key="t")

    assert done.sender_balance == 6_000


async def test_every_ledger_row_names_its_kind_and_running_balance(
    storage: Storage, sql: Sql
) -> None:
    await storage.claim_daily(GUILD, ALICE, key="d")
    await storage.admin_take(GUILD, ALICE, 50, actor_id=ADMIN, key="t")

    rows = sql(
        "SELECT l.kind, l.delta, l.balance_after, o.op_key FROM ledger l "
        "JOIN operations o ON o.op_id = l.op_id ORDER BY l.entry_id"
    )

    assert rows == [
        (LedgerKind.STARTING_GRANT.value, 1_000, 1_000, f"felt:account:{GUILD}:{ALICE}"),
        (LedgerKind.DAILY.value, 250, 1_250, "d"),
        (LedgerKind.ADMIN_TAKE.value, -50, 1_200, "t"),
    ]


@pytest.mark.parametrize("guild_id", ["10", -5, None, 1.5])
async def test_malformed_guild_ids_are_refused_before_anything_is_written(
    storage: Storage, state: State, guild_id: Any
) -> None:
    before = state()
    with pytest.raises(InvalidArgument):
        await storage.admin_grant(guild_id, ALICE, 10, actor_id=ADMIN, key="g")
    with pytest.raises(InvalidArgument):
        await storage.transfer(guild_id, ALICE, BOB, 10, key="t")
    with pytest.raises(InvalidArgument):
        await storage.admin_set(GUILD, ALICE, 10, actor_id="admin", key="s")  # type: ignore[arg-type]  # an ill-typed id on purpose
    assert state() == before
