"""Home-game flow at the table host: the session ledger posted at closing (and, later in this
file, the time bank, pre-actions, away mode and the rail)."""

from __future__ import annotations

from bot.holdem.events import HoldemTableClosed
from bot.tables.clock import ManualScheduler
from tests.bot.holdem.support import ALICE, BOB, TableFactory
from tests.bot.holdem.test_host import play_out
from tests.bot.recorder import HoldemRecorder


async def test_closing_publishes_the_session_ledger_whose_nets_sum_to_zero(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=1, seats=3)
    await table.join(ALICE, "Alice", 300)
    await table.join(BOB, "Bob", 200)
    await table.rebuy(BOB, 100)
    await play_out(table, scheduler, hands=3)
    await table.stop(ALICE)
    await play_out(table, scheduler)

    closed = recorder.of(HoldemTableClosed)
    assert len(closed) == 1 and closed[0].settle_up is not None
    settled = closed[0].settle_up
    by_label = {settled.label(p): p for p in settled.players}
    assert set(by_label) == {"Alice", "Bob", next(n for n in by_label if n.endswith("(bot)"))}
    assert (by_label["Bob"].buy_in, by_label["Bob"].rebuys) == (200, 100)
    assert all(p.stack == 0 for p in settled.players)  # everyone was cashed out
    assert sum(p.net for p in settled.players) == 0
    assert len(settled.transfers) <= len(settled.players) - 1
    owed = {label: 0 for label in by_label}
    for transfer in settled.transfers:
        owed[transfer.payer] += transfer.amount
        owed[transfer.payee] -= transfer.amount
    assert all(owed[label] == -player.net for label, player in by_label.items())
    assert settled.ledger_csv().splitlines()[0].startswith("player_nickname,player_id,")
