"""The Hold'em host on the edges a first trial found: hands over when dealt, rebuys mid-hand,
leavers, the stage between hands, and chip movements re-sent after a lost answer."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.discord.holdem.formatting import turn_line
from bot.holdem.events import (
    ActionTaken,
    HandDealt,
    HandFinished,
    PlayerLeft,
)
from bot.holdem.host import HoldemTable
from bot.holdem.kinds import Stage
from bot.holdem.settings import HoldemSettings
from bot.holdem.view import table_view
from bot.tables.clock import ManualScheduler
from engine.holdem import Call, Check, Fold
from storage import DatabaseFailure, Storage
from tests.bot.holdem.support import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    TableFactory,
    calling_station,
    open_table,
)
from tests.bot.holdem.test_host import STARTING, play_out
from tests.bot.recorder import HoldemRecorder

ALL_IN_ON_THE_ANTES = HoldemSettings(
    small_blind=5, big_blind=10, ante=10, min_buy_in=10, max_buy_in=1000, seats=2, bots=0
)


async def open_edge_table(
    storage: Any, scheduler: ManualScheduler, recorder: HoldemRecorder, settings: HoldemSettings
) -> HoldemTable:
    return await open_table(
        storage, scheduler, recorder, settings, seed=3, name="Edge table", key="open-edge"
    )


async def test_host_settles_a_hand_that_is_over_as_soon_as_it_is_dealt(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await open_edge_table(storage, scheduler, recorder, ALL_IN_ON_THE_ANTES)
    await table.join(ALICE, "Alice", 10)
    await table.join(BOB, "Bob", 10)  # both all in on the antes: nobody ever acts
    assert [e.hand_id for e in recorder.of(HandDealt)] == [1]
    assert [e.hand_id for e in recorder.of(HandFinished)] == [1]
    assert table.hand is None
    record = await storage.get_hand(table.table_id, 1)
    assert record is not None and record.phh
    stacks = sorted(seat.stack for seat in table.seats.values())
    assert sum(stacks) == 20 and stacks in ([0, 20], [10, 10])
    assert (await storage.check()).ok


async def test_host_rebuy_after_an_instant_hand_applies_without_a_traceback(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await open_edge_table(storage, scheduler, recorder, ALL_IN_ON_THE_ANTES)
    await table.join(ALICE, "Alice", 10)
    await table.join(BOB, "Bob", 10)
    for user_id in (ALICE, BOB):
        assert await table.rebuy(user_id, 10) == 10  # never SeatInHand: the hand is settled
    assert not table.is_closed
    assert (await storage.check()).ok


async def test_host_settles_an_instant_hand_dealt_after_a_restore(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await open_edge_table(storage, scheduler, recorder, ALL_IN_ON_THE_ANTES)
    await table.join(ALICE, "Alice", 10)
    await table.sit_out(ALICE)
    await table.join(BOB, "Bob", 10)
    assert table.hand is None  # Alice sits out: nothing to deal
    await table.suspend()
    info = await storage.get_table(table.table_id)
    assert info is not None
    again_recorder = HoldemRecorder()
    again = await HoldemTable.restore(
        info,
        storage=storage,
        scheduler=ManualScheduler(),
        presenter=again_recorder,
        bots=calling_station,
        rng=random.Random(5),
    )
    await again.resume()  # sitting out is not kept: both are dealt in, all in on the antes
    assert [e.hand_id for e in again_recorder.of(HandFinished)] == [1]
    assert again.hand is None
    assert (await storage.check()).ok


async def test_host_mid_hand_rebuy_is_checked_against_the_stack_left_in_play(
    make_table: TableFactory, scheduler: ManualScheduler, storage: Storage
) -> None:
    table = await make_table(bots=1, seats=2)
    await storage.ensure_account(GUILD, ALICE)
    await storage.admin_grant(GUILD, ALICE, 1000, actor_id=1, key="grant")
    await table.join(ALICE, "Alice", 1000)  # the maximum buy-in; the blinds take some at once
    hand = table.hand
    assert hand is not None
    player = table.order.player(1)
    assert player is not None
    in_play = hand.stacks[player]
    assert in_play < 1000
    assert await table.rebuy(ALICE, 1000 - in_play) == 1000 - in_play
    await play_out(table, scheduler)
    stack = table.seats[1].stack
    assert stack <= 1000  # applied after the hand, never past the maximum
    assert await storage.balance(GUILD, ALICE) + stack <= 2 * STARTING + 1000
    assert (await storage.check()).ok


async def test_host_leaver_turns_are_played_at_once_by_the_timeout_rule(
    make_table: TableFactory, scheduler: ManualScheduler, storage: Storage, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=0)
    for user_id, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await table.join(user_id, name, 500)
    await play_out(table, scheduler)
    await scheduler.advance(2.0)
    hand = table.hand
    assert hand is not None and len(table.order) == 3
    to_act = table.snapshot().to_act_seat
    assert to_act is not None
    leaver = table.seats[to_act]
    assert leaver.user_id is not None
    before = len(recorder.of(ActionTaken))
    await table.leave(leaver.user_id)  # no time passes
    played = recorder.of(ActionTaken)[before:]
    assert played and played[0].seat_no == to_act and played[0].automatic
    assert played[0].kind.name in ("CHECK", "FOLD")
    await play_out(table, scheduler)
    assert [e.user_id for e in recorder.of(PlayerLeft)] == [leaver.user_id]
    assert (await storage.check()).ok


async def test_host_between_hands_shows_the_next_hand_not_waiting_for_players(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=2)
    await table.join(ALICE, "Alice", 500)
    await play_out(table, scheduler)
    snapshot = table.snapshot()
    assert snapshot.street is Stage.NEXT_HAND and snapshot.next_hand_at is not None
    line = turn_line(snapshot)
    assert line == f"Next hand in a moment (<t:{int(snapshot.next_hand_at)}:R>)."
    assert table_view(snapshot).street is Stage.NEXT_HAND


async def test_host_table_without_enough_players_waits_for_players(
    make_table: TableFactory, scheduler: ManualScheduler
) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 500)
    snapshot = table.snapshot()
    assert snapshot.street is Stage.WAITING and snapshot.next_hand_at is None
    assert turn_line(snapshot) == "Waiting for players: `/holdem join` to sit down."


async def test_host_hand_won_by_folds_is_not_called_a_showdown(
    make_table: TableFactory, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    snapshot = table.snapshot()
    actor = table.seats[snapshot.to_act_seat or 0].user_id
    assert actor is not None and table.hand is not None
    await table.act(actor, table.hand_id, table.hand.action_count, Fold())
    final = recorder.of(HandFinished)[-1].snapshot
    assert final.street is Stage.HAND_OVER
    assert table_view(final).street.label == "Hand over"


async def test_host_hand_that_reaches_showdown_is_called_a_showdown(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=1, seats=2)
    await table.join(ALICE, "Alice", 500)
    await play_out(table, scheduler)  # Alice checks and calls, the bot too: a showdown
    assert recorder.of(HandFinished)[-1].snapshot.street is Stage.SHOWDOWN


class LosesFirstAnswers:
    """Real storage whose first answer to each chip movement is lost after it was applied:
    the host's crash-and-retry case. Every other call goes straight through."""

    MOVES = frozenset(
        {"buy_in", "rebuy", "cash_out", "seat_bot", "start_hand", "settle_hand", "close_table"}
    )

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.lost: list[str] = []
        self._keys: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._storage, name)
        if name not in self.MOVES:
            return attribute
        call: Callable[..., Awaitable[Any]] = attribute

        async def applied_then_lost(*args: Any, key: str, **kwargs: Any) -> Any:
            result = await call(*args, key=key, **kwargs)
            if key not in self._keys:
                self._keys.add(key)
                self.lost.append(name)
                raise DatabaseFailure("the connection dropped after the commit")
            return result

        return applied_then_lost


async def test_host_movements_resent_after_a_lost_answer_apply_exactly_once(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    flaky = LosesFirstAnswers(storage)
    settings = HoldemSettings(min_buy_in=100, max_buy_in=1000, seats=4, bots=2)
    table = await open_edge_table(flaky, scheduler, recorder, settings)
    await table.join(ALICE, "Alice", 500, key="join-alice")
    await table.join(BOB, "Bob", 300, key="join-bob")
    await play_out(table, scheduler, hands=3)
    await table.rebuy(BOB, 100, key="rebuy-bob")
    await play_out(table, scheduler, hands=1)
    await table.leave(BOB)
    await table.leave(ALICE)
    await play_out(table, scheduler)
    assert table.is_closed
    assert {"buy_in", "seat_bot", "start_hand", "settle_hand", "cash_out"} <= set(flaky.lost)
    wallets = [await storage.balance(GUILD, who) for who in (ALICE, BOB)]
    left = {e.user_id: e.cashed_out for e in recorder.of(PlayerLeft) if e.user_id}
    assert wallets == [STARTING - 500 + left[ALICE], STARTING - 400 + left[BOB]]
    assert (await storage.check()).ok


async def test_host_acts_only_on_offers_it_made(make_table: TableFactory) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    hand = table.hand
    assert hand is not None
    seat = table.snapshot().to_act_seat
    assert seat is not None
    actor = table.seats[seat].user_id
    assert actor is not None
    offer = table.check_offer(actor, table.hand_id, hand.action_count)
    assert offer.seat_no == seat and offer.allows(Call()) and not offer.allows(Check())
    assert table.snapshot().legal == offer


async def test_host_settles_instant_hands_dealt_by_the_timer_and_by_coming_back(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await open_edge_table(storage, scheduler, recorder, ALL_IN_ON_THE_ANTES)
    await table.join(ALICE, "Alice", 10)
    await table.sit_out(ALICE)
    await table.join(BOB, "Bob", 10)
    await table.back(ALICE)  # dealt by coming back
    for user_id in (ALICE, BOB):
        stack = table.seats[table.seat_of(user_id) or 0].stack
        if stack < 10:
            await table.rebuy(user_id, 10 - stack)
        if table.seats[table.seat_of(user_id) or 0].sitting_out:
            await table.back(user_id)
    await scheduler.advance(ALL_IN_ON_THE_ANTES.between_hands_seconds)  # dealt by the timer
    assert [e.hand_id for e in recorder.of(HandFinished)] == [1, 2]
    assert table.hand is None
    assert (await storage.check()).ok
