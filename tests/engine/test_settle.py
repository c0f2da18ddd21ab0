"""Settling up: the fewest transfers (checked against an independent search), at most n - 1,
always balancing to zero; the PokerNow ledger CSV and the who-pays-whom CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.settle import (
    EXACT_LIMIT,
    LEDGER_COLUMNS,
    LedgerRow,
    SettleError,
    Transfer,
    _greedy,
    ledger_csv,
    nets_by_player,
    settle,
    transfers_csv,
)


def balanced(values: Sequence[int]) -> dict[str, int]:
    return {f"p{i:02d}": value for i, value in enumerate([*values, -sum(values)])}


def after(nets: dict[str, int], transfers: Sequence[Transfer]) -> dict[str, int]:
    left = dict(nets)
    for transfer in transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return left


def most_zero_sum_groups(values: list[int]) -> int:
    """An independent, slow answer: try every way to take a zero-sum group with the first."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for mask in range(1 << len(rest)):
        chosen = [v for i, v in enumerate(rest) if mask >> i & 1]
        if first + sum(chosen) == 0:
            left = [v for i, v in enumerate(rest) if not mask >> i & 1]
            best = max(best, 1 + most_zero_sum_groups(left))
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-500, 500), max_size=25))
def test_settle_balances_every_net_with_at_most_n_minus_1_transfers(values: list[int]) -> None:
    nets = balanced(values)
    transfers = settle(nets)
    assert all(amount == 0 for amount in after(nets, transfers).values())
    playing = sum(1 for net in nets.values() if net)
    assert len(transfers) <= max(playing - 1, 0)
    assert all(t.amount > 0 and t.payer != t.payee for t in transfers)
    assert all(nets[t.payer] < 0 < nets[t.payee] for t in transfers)  # losers pay winners


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([-30, -20, -10, -5, 5, 10, 15, 20, 30]), max_size=7))
def test_settle_uses_the_fewest_transfers_for_small_tables(values: list[int]) -> None:
    nets = balanced(values)
    nonzero = [net for net in nets.values() if net]
    assert len(settle(nets)) == len(nonzero) - most_zero_sum_groups(nonzero)


def test_settle_finds_zero_sum_groups_the_greedy_rule_misses() -> None:
    nets = {"ann": -4, "bob": -6, "cat": 3, "dan": 3, "eve": 2, "fay": 2}
    transfers = settle(nets)
    assert sorted(transfers, key=lambda t: (t.payer, t.payee)) == [
        Transfer("ann", "eve", 2),
        Transfer("ann", "fay", 2),
        Transfer("bob", "cat", 3),
        Transfer("bob", "dan", 3),
    ]
    assert len(_greedy(nets)) == 5  # what the biggest-pays-biggest rule alone would take


def test_settle_is_greedy_beyond_the_exact_limit_and_still_within_n_minus_1() -> None:
    values = [(-1) ** i * (i + 1) for i in range(EXACT_LIMIT + 5)]
    nets = balanced(values)
    transfers = settle(nets)
    assert all(amount == 0 for amount in after(nets, transfers).values())
    assert len(transfers) <= len(nets) - 1


def test_settle_refuses_nets_that_do_not_balance_or_are_not_chips() -> None:
    with pytest.raises(SettleError, match="sum to \\+5"):
        settle({"ann": 10, "bob": -5})
    with pytest.raises(SettleError, match="whole number"):
        settle({"ann": 1.5, "bob": -1.5})  # type: ignore[dict-item]
    assert settle({}) == [] and settle({"ann": 0}) == []


def test_ledger_csv_has_pokernows_columns_and_nets() -> None:
    start = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    plus_one = timezone(timedelta(hours=1))
    rows = [
        LedgerRow("Ann", "u1", start, start + timedelta(hours=3), 200, 350, 0),
        LedgerRow("Bob, Jr", "u2", start.astimezone(plus_one), None, 400, None, 250),
    ]
    text = ledger_csv(rows)
    parsed = list(csv.reader(io.StringIO(text)))
    assert tuple(parsed[0]) == LEDGER_COLUMNS
    assert parsed[1] == [
        "Ann", "u1", "2026-11-24T20:00:00.000Z", "2026-11-24T23:00:00.000Z", "200", "350", "0",
        "150",
    ]  # fmt: skip
    assert parsed[2] == ["Bob, Jr", "u2", "2026-11-24T20:00:00.000Z", "", "400", "", "250", "-150"]
    assert nets_by_player([*rows, LedgerRow("Ann", "u1", start, None, 100, None, 100)]) == {
        "Ann": 150,
        "Bob, Jr": -150,
    }
    with pytest.raises(SettleError, match="time zone"):
        ledger_csv([LedgerRow("Cat", "u3", datetime(2026, 1, 1), None, 1, None, 1)])


def test_transfers_csv_lists_who_pays_whom() -> None:
    text = transfers_csv(settle({"Ann": 150, "Bob": -100, "Cat": -50}))
    assert text == "payer,payee,amount\nBob,Ann,100\nCat,Ann,50\n"
