"""Stored results decode to exactly what the operation returned the first time."""

from __future__ import annotations

from datetime import UTC, date, datetime

from hypothesis import given
from hypothesis import strategies as st

from storage import codec
from storage.models import (
    Account,
    CashOut,
    ClosedTable,
    RecoveredHand,
    RecoveredRound,
    RecoveryReport,
    RoundState,
    RoundStatus,
    SettledHand,
)

ints = st.integers(min_value=-(2**53), max_value=2**53)
seat_maps = st.dictionaries(st.integers(0, 99), ints, max_size=10)


@given(stacks=seat_maps, deltas=seat_maps, table=ints, hand=ints)
def test_mappings_with_int_keys_survive(
    stacks: dict[int, int], deltas: dict[int, int], table: int, hand: int
) -> None:
    value = SettledHand(table, hand, stacks, deltas)

    assert codec.loads(SettledHand, codec.dumps(value)) == value


def test_nested_values_enums_optionals_and_times_survive() -> None:
    moment = datetime(2025, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)
    values = [
        Account(1, 2, 3, 4, 5, 6, date(2025, 3, 1), moment),
        Account(1, 2, 3, 4, 5, 0, None, moment),
        RoundState(7, 1, 2, RoundStatus.OPEN, {10: 5, 11: 6}, {10: 0, 11: 1}),
        ClosedTable(
            3, None, (CashOut(3, 0, 10, None, 50, 950), CashOut(3, 1, None, "Ada", 5, None))
        ),
        RecoveryReport(
            moment,
            (RecoveredHand(1, 2, 3, 4, {0: 100, 1: 200}),),
            (RecoveredRound(1, 5, 6, {10: 20}),),
        ),
    ]

    for value in values:
        assert codec.loads(type(value), codec.dumps(value)) == value


def test_fingerprints_ignore_mapping_order_but_not_values() -> None:
    one = codec.fingerprint("op", {"stacks": {1: 10, 2: 20}, "x": 1})
    same = codec.fingerprint("op", {"x": 1, "stacks": {2: 20, 1: 10}})
    other = codec.fingerprint("op", {"x": 1, "stacks": {2: 21, 1: 10}})
    renamed = codec.fingerprint("op2", {"x": 1, "stacks": {2: 20, 1: 10}})

    assert one == same
    assert len({one, other, renamed}) == 3


def test_encoding_is_pinned_so_stored_fingerprints_keep_matching() -> None:
    # Databases hold fingerprints computed by earlier versions: a replay after an upgrade must
    # still match, so the text (and digest) of every kind of value may never change.
    arguments = {
        "table_id": 7,
        "stacks": [[0, 990], [1, 1010]],
        "results": [[1, SettledHand(7, 3, {1: 1010, 0: 990}, {0: -10, 1: 10})]],
        "kinds": (RoundStatus.SETTLED, True, None, 1.5, "é"),
        "when": datetime(2025, 3, 1, 12, 30, tzinfo=UTC),
        "seats": frozenset({3, 1}),
        "mixed": {"b": 1, 2: "a"},
    }

    text = codec.dumps({"operation": "settle_hand", "arguments": arguments})

    assert text == (
        '[["arguments",[["kinds",["settled",true,null,1.5,"é"]],["mixed",[[2,"a"],["b",1]]],'
        '["results",[[1,{"deltas":[[0,-10],[1,10]],"hand_id":3,"stacks":[[0,990],[1,1010]],'
        '"table_id":7}]]],["seats",[1,3]],["stacks",[[0,990],[1,1010]]],'
        '["table_id",7],["when","2025-03-01T12:30:00+00:00"]]],["operation","settle_hand"]]'
    )
    assert codec.fingerprint("settle_hand", arguments) == (
        "5207001b3631f4397743251f11e141170c17d35cc48b9b00b075f0e1af9f19ae"
    )
