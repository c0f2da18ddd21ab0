"""Home-game flow at the table host: the session ledger posted at closing, time banks, away,
pre-actions and the rail (``bot/holdem/home_flow.py`` and the rule modules it uses)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.holdem.errors import PreActionError, RailError
from bot.holdem.events import ActionTaken, HoldemTableClosed, HoleCards, PlayerSatOut
from bot.holdem.host import HoldemTable
from bot.holdem.kinds import SeatStatus
from bot.holdem.preactions import PreAction
from bot.holdem.rail import RailCards
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import ManualScheduler
from bot.tables.errors import TableError
from bot.tables.events import Notice
from engine.holdem import ActionKind, Call, Check, RaiseTo
from storage import Storage
from tests.bot.holdem.support import ALICE, BOB, CAROL, GUILD, TableFactory, calling_station
from tests.bot.holdem.support import open_table as open_test_table
from tests.bot.holdem.test_host import play_out
from tests.bot.recorder import HoldemRecorder

DAVE = 14
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def actions_of(recorder: HoldemRecorder, user_id: int) -> list[ActionTaken]:
    return [e for e in recorder.of(ActionTaken) if e.name == NAMES[user_id]]


async def home_table(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder, **options: Any
) -> HoldemTable:
    """Alice's table: 3 seats, no bots unless asked, 30 s turns, the options given."""
    key = options.pop("key", "open-1")
    settings = HoldemSettings(
        small_blind=5,
        big_blind=10,
        min_buy_in=100,
        max_buy_in=1000,
        seats=options.pop("seats", 3),
        bots=options.pop("bots", 0),
        bot_delay_seconds=0.0,
        turn_seconds=30,
        between_hands_seconds=2.0,
    ).with_changes(**options)
    return await open_test_table(storage, scheduler, recorder, settings, key=key)


def to_act(table: HoldemTable) -> int | None:
    """The user id of the member to act, if a member is to act."""
    seat_no = table.snapshot().to_act_seat
    return None if seat_no is None else table.seats[seat_no].user_id


async def until_turn_of(table: HoldemTable, scheduler: ManualScheduler, user_id: int) -> None:
    """Let the others check or call until it is ``user_id``'s turn."""
    for _ in range(100):
        who = to_act(table)
        if who == user_id:
            return
        hand = table.hand
        if who is not None and hand is not None and hand.turn is not None:
            action = Check() if hand.turn.can_check else Call()
            await table.act(who, table.hand_id, hand.action_count, action)
        else:
            await scheduler.advance(1.0)
    raise AssertionError(f"never the turn of {user_id}")


# ----- the session ledger -----------------------------------------------------------------------


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
    owed = dict.fromkeys(by_label, 0)
    for transfer in settled.transfers:
        owed[transfer.payer] += transfer.amount
        owed[transfer.payee] -= transfer.amount
    assert all(owed[label] == -player.net for label, player in by_label.items())
    assert settled.ledger_csv().splitlines()[0].startswith("player_nickname,player_id,")


# ----- time banks --------------------------------------------------------------------------------


async def test_time_bank_starts_when_the_turn_timer_runs_out_and_charges_the_seconds_used(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, time_bank=20)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    await until_turn_of(table, scheduler, ALICE)
    hand = table.hand
    assert hand is not None
    count = hand.action_count

    await scheduler.advance(30.0)
    # The turn timer ran out: not folded, the bank counts down instead.
    snapshot = table.snapshot()
    assert hand.action_count == count and not [e for e in recorder.of(ActionTaken) if e.automatic]
    assert snapshot.time_bank and snapshot.deadline == scheduler.now() + 20
    assert [n.text for n in recorder.of(Notice)] == ["Alice is on their time bank (20 s)."]
    await scheduler.advance(4.5)
    legal = hand.turn
    assert legal is not None
    await table.act(ALICE, table.hand_id, count, Check() if legal.can_check else Call())

    assert table.time_banks.left(ALICE, table.settings) == 15  # 4.5 s rounds up to 5
    assert table.time_banks.running is None and not table.snapshot().time_bank


async def test_an_empty_time_bank_times_out_and_banks_are_saved_refilled_and_restored(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(
        storage, scheduler, recorder, time_bank=10, time_bank_refill=4, time_bank_every=2
    )
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    await until_turn_of(table, scheduler, ALICE)
    await scheduler.advance(30.0)
    await scheduler.advance(10.0)  # the whole bank: the timeout rule plays

    timed_out = [e for e in recorder.of(ActionTaken) if e.automatic]
    assert [e.name for e in timed_out] == ["Alice"]
    assert table.time_banks.left(ALICE, table.settings) == 0
    await play_out(table, scheduler)  # hand 1 ends: saved, no refill yet
    assert await storage.time_banks(table.table_id) == {ALICE: 0, BOB: 10}
    await play_out(table, scheduler)  # hand 2 ends: 4 s each, never above 10
    assert await storage.time_banks(table.table_id) == {ALICE: 4, BOB: 10}

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
    assert again.time_banks.left(ALICE, again.settings) == 4


# ----- away --------------------------------------------------------------------------------------


async def test_away_plays_the_members_turns_at_once_and_is_the_one_sit_out(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    await until_turn_of(table, scheduler, ALICE)
    now = scheduler.now()

    await table.sit_out(ALICE)  # away, on her own turn

    assert scheduler.now() == now  # no timer waited on
    played = [e for e in recorder.of(ActionTaken) if e.name == "Alice"]
    assert (
        played and played[-1].automatic and played[-1].kind in (ActionKind.CHECK, ActionKind.FOLD)
    )
    assert [e.reason for e in recorder.of(PlayerSatOut)] == ["by choice"]
    await play_out(table, scheduler)
    seat = table.snapshot().seat(table.seat_of(ALICE) or 0)
    assert seat is not None and seat.status is SeatStatus.SITTING_OUT  # shown "away"
    await table.back(ALICE)
    assert not table.seats[table.seat_of(ALICE) or 0].sitting_out


async def test_a_member_is_put_away_after_the_tables_number_of_missed_turns(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, away_after=3)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    for _ in range(400):
        if recorder.of(PlayerSatOut):
            break
        if to_act(table) == BOB:
            await until_turn_of(table, scheduler, ALICE)
        else:
            await scheduler.advance(1.0)

    away_at = next(i for i, e in enumerate(recorder.events) if isinstance(e, PlayerSatOut))
    told = recorder.events[: away_at + 2]
    assert len([e for e in told if isinstance(e, ActionTaken) and e.automatic]) == 3
    assert recorder.of(PlayerSatOut)[0].reason == "timed out 3 times in a row"


# ----- pre-actions -------------------------------------------------------------------------------


async def test_check_fold_plays_at_the_turn_and_check_is_cleared_by_a_bet(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, seats=3)
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await table.join(user, name, 500)
    await play_out(table, scheduler)  # to the flop of a later hand, where checking is possible
    for _ in range(100):
        hand = table.hand
        if hand is not None and hand.street > 0:
            break
        who = to_act(table)
        if who is not None and hand is not None and hand.turn is not None:
            action = Check() if hand.turn.can_check else Call()
            await table.act(who, table.hand_id, hand.action_count, action)
        else:
            await scheduler.advance(1.0)
    hand = table.hand
    assert hand is not None and hand.turn is not None
    first = to_act(table)
    assert first is not None
    rest = [u for u in (ALICE, BOB, CAROL) if u != first]
    assert await table.pre_act(rest[0], PreAction.CHECK) is PreAction.CHECK
    assert await table.pre_act(rest[1], PreAction.CHECK_FOLD) is PreAction.CHECK_FOLD
    with pytest.raises(PreActionError, match="your turn"):
        await table.pre_act(first, PreAction.CHECK)
    legal = hand.turn
    assert legal.min_raise_to is not None
    await table.act(first, table.hand_id, hand.action_count, RaiseTo(legal.min_raise_to))

    # Check was cleared by the bet: the member gets their turn. Check/Fold folds at once later.
    assert table.pre_action_of(rest[0]) is None
    assert to_act(table) == rest[0]
    await table.act(rest[0], table.hand_id, hand.action_count, Call())
    folded = [
        e
        for e in recorder.of(ActionTaken)
        if e.name == table.seats[table.seat_of(rest[1]) or 0].name
    ]
    assert folded[-1].kind is ActionKind.FOLD and not folded[-1].automatic


async def test_call_any_survives_a_raise_and_is_refused_when_not_in_the_hand(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, seats=3)
    with pytest.raises(TableError, match="not seated"):
        await table.pre_act(ALICE, PreAction.CALL_ANY)
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await table.join(user, name, 500)
    await play_out(table, scheduler)  # Carol joined during hand 1: hand 2 deals all three
    await scheduler.advance(2.0)
    hand = table.hand
    assert hand is not None and hand.turn is not None and len(table.order) == 3
    first = to_act(table)
    assert first is not None
    # The small blind (first in PHH order) owes half a blind; the button acts first.
    target = table.seats[next(iter(table.order))].user_id
    assert target is not None and target != first
    with pytest.raises(PreActionError, match="face a bet"):
        await table.pre_act(target, PreAction.CHECK)  # preflop: everyone but the big blind owes
    await table.pre_act(target, PreAction.CALL_ANY)
    legal = hand.turn
    assert legal.min_raise_to is not None
    await table.act(first, table.hand_id, hand.action_count, RaiseTo(legal.min_raise_to + 20))
    if to_act(table) != target:
        await table.act(to_act(table) or 0, table.hand_id, hand.action_count, Call())
    calls = [
        e
        for e in recorder.of(ActionTaken)
        if e.name == table.seats[table.seat_of(target) or 0].name
    ]
    assert calls and calls[-1].kind is ActionKind.CALL and not calls[-1].automatic
    assert table.pre_action_of(target) is None  # used up


# ----- the rail ----------------------------------------------------------------------------------


async def test_the_rail_gets_only_settled_hands_of_players_who_allowed_it(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    off = await home_table(storage, scheduler, recorder)
    await off.join(ALICE, "Alice", 500)
    with pytest.raises(RailError, match="rail is off"):
        await off.watch(DAVE, "Dave")
    await off.close("test")

    table = await home_table(storage, scheduler, recorder, rail_delay=2, bots=1, key="open-2")
    await storage.set_rail_consent(GUILD, ALICE, True)
    await table.join(ALICE, "Alice", 500)
    await table.join(BOB, "Bob", 500)
    with pytest.raises(RailError, match="You play at this table"):
        await table.watch(BOB, "Bob")
    assert await table.watch(DAVE, "Dave") is True
    assert table.snapshot().rail == ("Dave",)

    await play_out(table, scheduler, hands=3)

    sent = recorder.of(RailCards)
    assert [r.hand_id for r in sent] == [1, 2]  # after hands 2 and 3: two hands behind
    for rail in sent:
        assert rail.watcher_id == DAVE
        names = {seat.name for seat in rail.seats}
        assert "Alice" in names and "Bob" not in names
        assert len(names) == 2  # Alice and the bot
        alice = next(s for s in rail.seats if s.name == "Alice")
        dealt = next(
            e for e in recorder.of(HoleCards) if e.user_id == ALICE and e.hand_id == rail.hand_id
        )
        assert alice.cards == dealt.cards
    assert sent[1].hidden == ("Bob",)  # Bob played hand 2 (he joined during hand 1)
    assert await table.watch(DAVE, "Dave") is False  # stops
    assert table.snapshot().rail == ()
