"""Reading the ledger back, and the CSV ledger export per guild or member."""

from __future__ import annotations

import csv
import io

import pytest

from storage import store as store_module
from storage.errors import InvalidArgument
from storage.models import AccountKind, LedgerKind
from storage.store import Storage

GUILD, OTHER_GUILD = 10, 20
ALICE, BOB = 1, 2


async def test_recent_ledger_newest_first_with_paging(storage: Storage) -> None:
    await storage.ensure_account(GUILD, ALICE)
    for n in range(5):
        await storage.admin_grant(GUILD, ALICE, n + 1, actor_id=9, key=f"g{n}")

    page = await storage.ledger(GUILD, user_id=ALICE, limit=3)
    older = await storage.ledger(GUILD, user_id=ALICE, limit=3, before=page[-1].entry_id)

    assert [e.delta for e in page] == [5, 4, 3]
    assert [e.delta for e in older] == [2, 1, 1_000]
    assert page[0].kind is LedgerKind.ADMIN_GRANT
    assert page[0].actor_id == 9
    assert page[0].account_kind is AccountKind.MEMBER
    assert page[0].key == "g4"
    with pytest.raises(InvalidArgument):
        await storage.ledger(GUILD, limit=1_000)


async def test_ledger_csv_for_a_guild_and_for_a_member(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "EXPORT_BATCH", 2)  # several batches
    table = (await storage.open_table(GUILD, 1, settings={}, key="t")).table_id
    await storage.buy_in(table, 0, ALICE, 300, key="a")
    await storage.transfer(GUILD, BOB, ALICE, 25, key="x")
    await storage.ensure_account(OTHER_GUILD, ALICE)

    everything = io.StringIO()
    alices = io.StringIO()
    total = await storage.export_ledger_csv(everything, GUILD)
    mine = await storage.export_ledger_csv(alices, GUILD, user_id=ALICE)

    rows = list(csv.DictReader(io.StringIO(everything.getvalue())))
    my_rows = list(csv.DictReader(io.StringIO(alices.getvalue())))
    assert total == len(rows) == 6
    assert mine == len(my_rows) == 4
    assert {row["user_id"] for row in my_rows} == {str(ALICE)}
    assert [(r["account"], r["kind"], r["delta"]) for r in my_rows] == [
        ("member", "starting_grant", "1000"),
        ("member", "buy_in", "-300"),
        ("seat", "buy_in", "300"),
        ("member", "transfer", "25"),
    ]
    assert my_rows[1]["table_id"] == str(table)
    assert sum(int(r["delta"]) for r in rows) == 2_000
    assert [int(r["entry_id"]) for r in rows] == sorted(int(r["entry_id"]) for r in rows)
