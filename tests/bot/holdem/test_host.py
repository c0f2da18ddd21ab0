"""The Hold'em table host: seats, turns, timers, bots, settlement, leaving, restoring."""

from __future__ import annotations

import random

import pytest

from bot.holdem.errors import (
    AlreadySeatedError,
    BuyInError,
    InvalidActionError,
    NotSeatedError,
    OutOfTurnError,
    TableClosingError,
    TableError,
)
from bot.holdem.events import (
    ActionTaken,
    HandDealt,
    HandFinished,
    HandsTabled,
    HoldemTableClosed,
    HoleCards,
    PlayerLeft,
    PlayerSatOut,
    TableChanged,
    TurnStarted,
)
from bot.holdem.host import HoldemTable
from bot.render.models import SeatStatus
from bot.tables.clock import ManualScheduler
from bot.tables.errors import StaleActionError
from engine.holdem import Call, Check, Fold, RaiseTo
from storage import Storage
from tests.bot.holdem.support import ALICE, BOB, CAROL, GUILD, TableFactory, calling_station
from tests.bot.recorder import HoldemRecorder

STARTING = 1000  # storage's default starting grant


async def play_out(
    table: HoldemTable, scheduler: ManualScheduler, hands: int = 1, *, fold: bool = False
) -> None:
    """Let humans check/call (or check/fold) and time run until ``hands`` more hands finish."""
    target = table.hand_id + (hands - 1 if table.hand is not None else hands)
    for _ in range(500):
        if table.is_closed or (table.hand is None and table.hand_id >= target):
            return
        hand = table.hand
        if hand is not None and not hand.is_complete and hand.turn is not None:
            seat = table.seats[table.snapshot().to_act_seat or 0]
            if seat.user_id is not None:
                legal = hand.turn
                assert legal is not None
                action = Check() if legal.can_check else (Fold() if fold else Call())
                await table.act(seat.user_id, table.hand_id, hand.action_count, action)
                continue
        await scheduler.advance(1.0)
    raise AssertionError("the hands did not finish")


async def test_host_join_fills_bots_and_deals_privately(
    make_table: TableFactory, recorder: HoldemRecorder
) -> None:
    table = await make_table()
    seat = await table.join(ALICE, "Alice", 500, key="join-a")
    assert seat == 1
    snapshot = table.snapshot()
    assert [s.is_bot for s in snapshot.seats] == [False, True, True]
    assert table.hand is not None and table.hand_id == 1
    started = recorder.of(HandDealt)
    assert len(started) == 1 and len(started[0].seats) == 3
    holes = recorder.of(HoleCards)
    assert [(h.user_id, h.seat_no) for h in holes] == [(ALICE, 1)]  # bots get no private event
    assert table.hole_cards(ALICE) == (1, holes[0].cards)
    assert table.hole_cards(BOB) is None
    # No public event or snapshot carries a hidden card.
    for event in recorder.public():
        for seat_snapshot in getattr(getattr(event, "snapshot", None), "seats", ()):
            assert seat_snapshot.shown_cards == ()


async def test_host_buy_in_moves_chips_from_the_wallet(
    make_table: TableFactory, storage: Storage
) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 300, key="join-a")
    assert await storage.balance(GUILD, ALICE) == STARTING - 300
    await table.join(BOB, "Bob", 400, key="join-b")
    assert await storage.balance(GUILD, BOB) == STARTING - 400
    assert sum(s.stack for s in table.seats.values()) == 700
    assert (await storage.check()).ok


@pytest.mark.parametrize(
    ("amount", "message"),
    [(50, "100 to 1,000"), (5000, "100 to 1,000"), (0, "100 to 1,000"), (-5, "100 to 1,000")],
)
async def test_host_refuses_buy_ins_outside_the_limits(
    make_table: TableFactory, storage: Storage, amount: int, message: str
) -> None:
    table = await make_table()
    with pytest.raises(BuyInError, match=message):
        await table.join(ALICE, "Alice", amount)
    assert table.seats == {}
    assert await storage.get_account(GUILD, ALICE) is None  # refused before anything was opened


async def test_host_refuses_a_buy_in_above_the_balance(
    make_table: TableFactory, storage: Storage
) -> None:
    table = await make_table()
    await storage.ensure_account(GUILD, ALICE)
    await storage.admin_take(GUILD, ALICE, 950, actor_id=1, key="take")
    with pytest.raises(BuyInError, match="You have 50 chips"):
        await table.join(ALICE, "Alice", 100)
    assert table.seats == {} and await storage.balance(GUILD, ALICE) == 50


async def test_host_refuses_a_second_seat(make_table: TableFactory) -> None:
    table = await make_table()
    await table.join(ALICE, "Alice", 200)
    with pytest.raises(AlreadySeatedError):
        await table.join(ALICE, "Alice", 200)


async def test_host_only_the_player_to_act_may_act_and_a_click_applies_once(
    make_table: TableFactory, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    hand = table.hand
    assert hand is not None
    snapshot = table.snapshot()
    actor = table.seats[snapshot.to_act_seat or 0].user_id
    assert actor is not None  # no bots at this table
    other = BOB if actor == ALICE else ALICE
    count = hand.action_count
    with pytest.raises(OutOfTurnError):
        await table.act(other, table.hand_id, count, Call())
    with pytest.raises(NotSeatedError):
        await table.act(CAROL, table.hand_id, count, Call())
    with pytest.raises(StaleActionError):
        await table.act(actor, table.hand_id - 1, count, Call())
    with pytest.raises(InvalidActionError, match="must call"):
        await table.act(actor, table.hand_id, count, Check())
    assert hand.action_count == count  # refusals changed nothing
    await table.act(actor, table.hand_id, count, Call())
    with pytest.raises((StaleActionError, OutOfTurnError)):
        await table.act(actor, table.hand_id, count, Call())  # the double click
    assert len([e for e in recorder.of(ActionTaken) if e.text.endswith("calls 5")]) == 1


async def test_host_timeout_checks_or_folds_and_two_in_a_row_sit_out(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=1, seats=2)
    await table.join(ALICE, "Alice", 500)
    assert table.hand is not None
    turns = recorder.of(TurnStarted)
    assert turns and turns[-1].user_id == ALICE
    assert turns[-1].deadline == scheduler.now() + 30
    # Alice never acts: every time her turn comes, the clock runs out.
    for _ in range(200):
        if recorder.of(PlayerSatOut):
            break
        await scheduler.advance(1.0)
    # The second timeout is told right after she is put away (sitting out); her later turns
    # in the hand are played at once, with no timer, and are not counted here.
    away_at = next(i for i, e in enumerate(recorder.events) if isinstance(e, PlayerSatOut))
    told = recorder.events[: away_at + 2]
    timed_out = [e for e in told if isinstance(e, ActionTaken) and e.automatic]
    assert isinstance(told[-1], ActionTaken) and told[-1].automatic
    assert len(timed_out) == 2
    assert timed_out[0].text.startswith("Alice") and timed_out[0].text.endswith("(timed out)")
    assert recorder.of(PlayerSatOut)[0].reason == "timed out twice in a row"
    await play_out(table, scheduler)
    seat = table.snapshot().seat(1)
    assert seat is not None and seat.status is SeatStatus.SITTING_OUT


async def test_host_settles_every_hand_and_conserves_chips(
    make_table: TableFactory, scheduler: ManualScheduler, storage: Storage, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=2)
    await table.join(ALICE, "Alice", 500)
    await play_out(table, scheduler, hands=5)
    finished = recorder.of(HandFinished)
    assert len(finished) >= 5
    for result in finished:
        assert sum(delta for _, _, delta in result.net) == 0
    record = await storage.get_hand(table.table_id, finished[0].hand_id)
    assert record is not None and record.phh is not None and 'variant = "NT"' in record.phh
    assert (await storage.check()).ok
    at_table = sum(seat.stack for seat in table.seats.values())
    assert await storage.balance(GUILD, ALICE) + table.seats[1].stack == STARTING or at_table > 0


async def test_host_never_publishes_face_up_cards_before_the_hands_result(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    """Calling stations check every hand down to a showdown: no table picture may show a face-up
    card of a hand before that hand's cards were tabled (all-in) or its result published."""
    table = await make_table(bots=3)
    await table.join(ALICE, "Alice", 500)
    await play_out(table, scheduler, hands=4)
    public: set[int] = set()
    showed_cards = 0
    for event in recorder.events:
        if isinstance(event, HandsTabled | HandFinished):
            public.add(event.hand_id)
        if isinstance(event, TableChanged | HandFinished) and event.snapshot.hand_id is not None:
            face_up = [seat for seat in event.snapshot.seats if seat.shown_cards]
            showed_cards += bool(face_up)
            assert not face_up or event.snapshot.hand_id in public, event
    assert showed_cards >= 4  # every hand ended in a showdown the table showed


async def test_host_leave_mid_hand_cashes_out_after_it(
    make_table: TableFactory, scheduler: ManualScheduler, storage: Storage, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 500)
    await table.join(CAROL, "Carol", 500)
    await table.join(BOB, "Bob", 500)  # waits for the next hand
    await play_out(table, scheduler)
    await scheduler.advance(2.0)
    assert table.hand is not None and table.seat_of(BOB) in table.order
    await table.leave(BOB)
    await table.leave(CAROL)
    await play_out(table, scheduler)
    left = recorder.of(PlayerLeft)
    assert len(left) == 2 and {e.user_id for e in left} == {BOB, CAROL}
    assert table.seat_of(BOB) is None and table.seat_of(ALICE) == 1
    assert table.hand is None and not table.is_closed  # Alice waits for company
    assert await table.leave(ALICE) is True
    assert table.is_closed
    wallets = [await storage.balance(GUILD, who) for who in (ALICE, BOB, CAROL)]
    assert sum(wallets) == 3 * STARTING
    assert (await storage.check()).ok


async def test_host_table_with_no_humans_closes_and_bots_return_chips_to_the_house(
    make_table: TableFactory, scheduler: ManualScheduler, storage: Storage, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=2)
    await table.join(ALICE, "Alice", 500)
    assert await table.leave(ALICE) is False  # in a hand: leaves at its end
    await play_out(table, scheduler)
    assert table.is_closed
    closed = recorder.of(HoldemTableClosed)
    assert len(closed) == 1 and closed[0].reason == "no players are left"
    bots_back = [amount for name, user, amount in closed[0].cash_outs if user is None]
    assert len(bots_back) == 2 and all(amount > 0 for amount in bots_back)
    info = await storage.get_table(table.table_id)
    assert info is not None and info.seats == ()
    assert (await storage.check()).ok


async def test_host_stop_is_for_the_host_or_an_admin(make_table: TableFactory) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    with pytest.raises(TableError, match="Only the player who opened"):
        await table.stop(BOB)
    assert await table.stop(BOB, is_admin=True) is False
    with pytest.raises(TableClosingError):
        await table.join(CAROL, "Carol", 200)


async def test_host_a_joiner_takes_a_bots_seat_from_the_next_hand(
    make_table: TableFactory, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await make_table(seats=3, bots=2)
    await table.join(ALICE, "Alice", 500)
    assert table.hand is not None and sum(s.is_bot for s in table.seats.values()) == 2
    seat = await table.join(BOB, "Bob", 300)
    assert table.seats[seat].is_bot  # still the bot's until the hand ends
    await play_out(table, scheduler)
    await scheduler.advance(5)
    assert table.seats[seat].user_id == BOB
    assert sum(s.is_bot for s in table.seats.values()) == 1


async def test_host_rebuy_refuses_strangers_amounts_over_the_maximum_and_non_positive_ones(
    make_table: TableFactory, storage: Storage
) -> None:
    table = await make_table(bots=0)
    await table.join(ALICE, "Alice", 900)
    with pytest.raises(NotSeatedError):
        await table.rebuy(BOB, 100)
    with pytest.raises(BuyInError, match="at most"):
        await table.rebuy(ALICE, 500)
    with pytest.raises(BuyInError, match="positive"):
        await table.rebuy(ALICE, 0)
    assert await table.rebuy(ALICE, 100) == 100
    assert table.seats[1].stack == 1000
    assert await storage.balance(GUILD, ALICE) == 0
    with pytest.raises(BuyInError, match="maximum buy-in"):
        await table.rebuy(ALICE)


async def test_host_restore_after_a_crash_mid_hand_voids_it(
    make_table: TableFactory, storage: Storage, scheduler: ManualScheduler
) -> None:
    table = await make_table(bots=1)
    await table.join(ALICE, "Alice", 500)
    hand = table.hand
    assert hand is not None
    start = {seat.seat_no: seat.stack for seat in table.seats.values()}
    legal = hand.turn
    assert legal is not None
    if table.snapshot().to_act_seat == 1:
        await table.act(ALICE, table.hand_id, hand.action_count, RaiseTo(legal.min_raise_to or 0))
    # The process dies here. On restart, recovery voids the hand and the table is rebuilt.
    report = await storage.recover()
    assert [v.hand_id for v in report.voided_hands] == [table.hand_id]
    info = await storage.get_table(table.table_id)
    assert info is not None
    again = await HoldemTable.restore(
        info,
        storage=storage,
        scheduler=ManualScheduler(),
        presenter=HoldemRecorder(),
        bots=calling_station,
        rng=random.Random(1),
    )
    assert {n: s.stack for n, s in again.seats.items()} == start
    assert again.hand_id == table.hand_id
    assert again.seats[1].user_id == ALICE and again.seats[2].is_bot
    assert (await storage.check()).ok


async def test_host_suspend_voids_the_hand_and_keeps_the_seats_for_restore(
    make_table: TableFactory, storage: Storage, recorder: HoldemRecorder
) -> None:
    table = await make_table(bots=1)
    await table.join(ALICE, "Alice", 500)
    assert table.hand is not None
    start = {seat.seat_no: seat.stack for seat in table.seats.values()}
    await table.suspend("Felt is restarting")
    assert table.hand is None and not table.is_closed
    assert {n: s.stack for n, s in table.seats.items()} == start
    info = await storage.get_table(table.table_id)
    assert info is not None and info.hand_in_progress is None
    assert {seat.seat_no: seat.stack for seat in info.seats} == start
    assert (await storage.recover()).is_empty  # nothing left for recovery to fix
    assert (await storage.check()).ok


async def test_host_with_real_smart_bots_plays_and_records_opponent_stats(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    from bot.holdem.bots import TABLE_BOTS, TABLE_EQUITY
    from bot.holdem.settings import HoldemSettings

    table = await HoldemTable.create(
        storage=storage,
        guild_id=GUILD,
        channel_id=7,
        host_user_id=ALICE,
        name="Smart table",
        settings=HoldemSettings(
            seats=4, bots=3, min_buy_in=100, bot_strategy="smart:easy", between_hands_seconds=1
        ),
        key="open-smart",
        scheduler=scheduler,
        presenter=recorder,
        bots=TABLE_BOTS,
        equity=TABLE_EQUITY,
        rng=random.Random(3),
    )
    await table.join(ALICE, "Alice", 500)
    await play_out(table, scheduler, hands=4, fold=True)
    assert len(recorder.of(HandFinished)) >= 4
    assert table.stats.get(("user", ALICE)).hands >= 4
    bot_actions = [e for e in recorder.of(ActionTaken) if e.name.startswith("🤖")]
    assert len(bot_actions) >= 4
    assert (await storage.check()).ok


async def test_host_tables_hands_with_equities_on_a_preflop_all_in(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    from bot.holdem.bots import TABLE_EQUITY
    from bot.holdem.events import HandsTabled
    from bot.holdem.settings import HoldemSettings

    table = await HoldemTable.create(
        storage=storage,
        guild_id=GUILD,
        channel_id=8,
        host_user_id=ALICE,
        name="All-in",
        settings=HoldemSettings(bots=0, min_buy_in=100),
        key="open-allin",
        scheduler=scheduler,
        presenter=recorder,
        bots=calling_station,
        equity=TABLE_EQUITY,
        rng=random.Random(5),
    )
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    for _ in range(2):  # whoever acts first shoves, the other calls
        hand = table.hand
        assert hand is not None
        legal = hand.turn
        assert legal is not None
        actor = table.seats[table.snapshot().to_act_seat or 0].user_id
        assert actor is not None
        action = RaiseTo(legal.max_raise_to) if legal.max_raise_to else Call()
        await table.act(actor, table.hand_id, hand.action_count, action)
    tabled = recorder.of(HandsTabled)
    assert len(tabled) == 1
    assert tabled[0].board == () and len(tabled[0].hands) == 2
    assert abs(sum(chance for _, chance in tabled[0].equities) - 1) < 1e-9
    assert recorder.of(HandFinished)


async def test_clock_haltable_scheduler_calls_off_every_timer() -> None:
    from bot.tables.clock import HaltableScheduler

    inner = ManualScheduler()
    scheduler = HaltableScheduler(inner)
    fired: list[str] = []

    async def note(name: str) -> None:
        fired.append(name)

    scheduler.call_later(1, lambda: note("before"))
    scheduler.halt()
    scheduler.call_later(1, lambda: note("after"))
    await inner.advance(5)
    assert fired == []
    assert scheduler.now() == inner.now()
