"""Every way storage can refuse a round's settlement (or a stake during play) leaves the table free
and the chips accounted for: a wallet at the chip limit is paid up to it, a round closed elsewhere
is let go, a database that refuses the settlement and the refund leaves the chips held for
recovery, and a bot whose extra stake is refused plays on without it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.blackjack.errors import ActionRefused
from bot.blackjack.events import ActionTaken, RoundFinished, RoundRefunded, TablePhase
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.tables.clock import ManualScheduler
from engine.blackjack import CASINO, Action, StackedShoe
from storage import MAX_CHIPS, DatabaseFailure, Storage
from tests.bot.blackjack.test_host import ALICE, GUILD, START, table
from tests.bot.recorder import BlackjackRecorder

ALICE_WINS = "Th 9c Td 7c Ts"
"""Alice 20 against the dealer's 9 and 7, who draws a ten and busts."""
ADMIN = 99


class Refuses:
    """Real storage whose database refuses every call to the ``refused`` operations: nothing
    is applied."""

    def __init__(self, storage: Storage, *refused: str) -> None:
        self._storage = storage
        self._refused = set(refused)

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
    refusing: Any = Refuses(storage, "settle_round")
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
    refusing: Any = Refuses(storage, "settle_round", "refund_round")
    game = table(refusing, scheduler, recorder, ALICE_WINS + " " + "2c " * 10)
    round_id = await stand_to_the_end(game, scheduler)

    (refunded,) = recorder.of(RoundRefunded)
    assert (refunded.round_id, refunded.held) == (round_id, True)
    record = await storage.get_round(round_id)
    assert record is not None and record.status.value == "open"  # its chips wait in escrow
    report = await storage.check()
    assert report.ok and report.rounds_open == 1
    await plays_again(game, storage, START - 100)


# Alice 6♥ 5♣ (hard 11, she may double) against the dealer's 6♦, hole 9♣.
ELEVEN_V_SIX = "6h 6d 5c 9c 2h Ts 2c 2d 2s"


async def test_a_double_into_a_round_closed_elsewhere_frees_the_table(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, ELEVEN_V_SIX)
    await game.bet(ALICE, "Alice", 100)
    await scheduler.advance(10)
    round_id = game.round_id
    assert round_id is not None
    await storage.refund_round(round_id, reason="recovered", key="elsewhere")

    with pytest.raises(ActionRefused, match="This round was cancelled"):
        await game.act(ALICE, round_id, game.snapshot().step, Action.DOUBLE)
    assert [event.round_id for event in recorder.of(RoundRefunded)] == [round_id]
    assert await storage.balance(GUILD, ALICE) == START
    assert (await storage.check()).ok
    await plays_again(game, storage, START)


async def test_a_bot_whose_double_storage_refuses_stands_and_the_round_is_settled(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    refusing: Any = Refuses(storage, "add_bet")
    # Alice 9♥ against the 6♦; the bot (seat 6) 6♣ 5♠ = 11 doubles by basic strategy; hole 9♣.
    game = BlackjackTable(
        storage=refusing,
        guild_id=GUILD,
        channel_id=3000,
        name="#blackjack",
        settings=BlackjackSettings(
            rules=CASINO, betting_seconds=10, turn_seconds=20, bot_seats=1, bot_delay_seconds=1
        ),
        scheduler=scheduler,
        presenter=recorder,
        shoe=StackedShoe.of("9h 6c 6d Th 5s 9c Ts 2c 2d"),
    )
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)
    assert game.round_id is not None
    await game.act(ALICE, game.round_id, game.snapshot().step, Action.STAND)
    await scheduler.advance(1)

    bot_moves = [(e.action, e.automatic) for e in recorder.of(ActionTaken) if e.user_id < 0]
    assert bot_moves == [(Action.STAND, True)]  # it could not double: it stood on 11
    assert len(recorder.of(RoundFinished)) == 1
    assert (await storage.check()).ok
