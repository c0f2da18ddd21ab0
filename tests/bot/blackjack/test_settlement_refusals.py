"""Every way storage can refuse a round's settlement leaves the table free and the chips accounted
for: a wallet at the chip limit is paid up to it, a round closed elsewhere is let go, and a
database that refuses the settlement and the refund leaves the chips held for recovery."""

from __future__ import annotations

from typing import Any

from bot.blackjack.events import RoundFinished, RoundRefunded, TablePhase
from bot.blackjack.host import BlackjackTable
from bot.tables.clock import ManualScheduler
from engine.blackjack import Action
from storage import MAX_CHIPS, DatabaseFailure, Storage
from tests.bot.blackjack.test_host import ALICE, GUILD, START, table
from tests.bot.recorder import BlackjackRecorder

ALICE_WINS = "Th 9c Td 7c Ts"
"""Alice 20 against the dealer's 9 and 7, who draws a ten and busts."""
ADMIN = 99


class RefusesSettling:
    """Real storage whose settlements (and, with ``refunds``, refunds) the database refuses
    every time: nothing is applied."""

    def __init__(self, storage: Storage, *, refunds: bool) -> None:
        self._storage = storage
        self._refused = {"settle_round", "refund_round"} if refunds else {"settle_round"}

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._storage, name)
        if name not in self._refused:
            return attribute

        async def refused(*args: Any, **kwargs: Any) -> Any:
            raise DatabaseFailure("the database refused the write")

        return refused


async def stand_to_the_end(game: BlackjackTable, scheduler: ManualScheduler) -> int:
    await game.bet(ALICE, "Alice", 100)
    await scheduler.advance(10)
    round_id = game.round_id
    assert round_id is not None
    await game.act(ALICE, round_id, game.snapshot().step, Action.STAND)
    return round_id


async def plays_again(game: BlackjackTable, storage: Storage, before: int) -> None:
    """The table takes the next bet: it is free."""
    assert game.snapshot().phase is TablePhase.IDLE and game.round_id is None
    await game.bet(ALICE, "Alice", 10)
    assert game.snapshot().phase is TablePhase.BETTING
    assert await storage.balance(GUILD, ALICE) == before - 10


async def test_a_winner_at_the_chip_limit_is_paid_up_to_it_and_the_table_plays_on(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, ALICE_WINS + " " + "2c " * 10)
    await game.bet(ALICE, "Alice", 100)
    await storage.admin_set(GUILD, ALICE, MAX_CHIPS - 30, actor_id=ADMIN, key="fill")
    await scheduler.advance(10)
    assert game.round_id is not None
    await game.act(ALICE, game.round_id, game.snapshot().step, Action.STAND)

    (finished,) = recorder.of(RoundFinished)
    (alice,) = finished.results
    assert (alice.payout, alice.net) == (30, -70)
    assert alice.lines[-1] == "170 chips not paid: the wallet is at the chip limit"
    assert await storage.balance(GUILD, ALICE) == MAX_CHIPS
    assert (await storage.check()).ok
    await storage.admin_set(GUILD, ALICE, START, actor_id=ADMIN, key="empty")
    await plays_again(game, storage, START)


async def test_a_round_closed_elsewhere_mid_play_frees_the_table(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, ALICE_WINS + " " + "2c " * 10)
    await game.bet(ALICE, "Alice", 100)
    await scheduler.advance(10)
    round_id = game.round_id
    assert round_id is not None
    # Another instance's recovery (or an operator) refunds the round while it is in play.
    await storage.refund_round(round_id, reason="recovered", key="elsewhere")
    await game.act(ALICE, round_id, game.snapshot().step, Action.STAND)

    assert recorder.of(RoundFinished) == []
    (refunded,) = recorder.of(RoundRefunded)
    assert (refunded.round_id, refunded.held) == (round_id, False)
    assert await storage.balance(GUILD, ALICE) == START
    assert (await storage.check()).ok
    await plays_again(game, storage, START)


async def test_a_settlement_the_database_refuses_is_refunded(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    refusing: Any = RefusesSettling(storage, refunds=False)
    game = table(refusing, scheduler, recorder, ALICE_WINS + " " + "2c " * 10)
    round_id = await stand_to_the_end(game, scheduler)

    (refunded,) = recorder.of(RoundRefunded)
    assert (refunded.round_id, refunded.reason, refunded.held) == (
        round_id,
        "it could not be settled",
        False,
    )
    assert await storage.balance(GUILD, ALICE) == START
    assert (await storage.check()).ok
    await plays_again(game, storage, START)


async def test_a_round_the_database_will_neither_settle_nor_refund_is_held_for_recovery(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    refusing: Any = RefusesSettling(storage, refunds=True)
    game = table(refusing, scheduler, recorder, ALICE_WINS + " " + "2c " * 10)
    round_id = await stand_to_the_end(game, scheduler)

    (refunded,) = recorder.of(RoundRefunded)
    assert (refunded.round_id, refunded.held) == (round_id, True)
    record = await storage.get_round(round_id)
    assert record is not None and record.status.value == "open"  # its chips wait in escrow
    report = await storage.check()
    assert report.ok and report.rounds_open == 1
    await plays_again(game, storage, START - 100)
