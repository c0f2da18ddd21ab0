"""The table host deals with its home-game options: straddles, bomb pots, run it N times with
consent, the 7-2 bounty through storage, rabbit hunts and shows after the hand."""

from __future__ import annotations

import pytest

from bot.holdem.errors import InvalidActionError, NotSeatedError
from bot.holdem.events import HandFinished
from bot.holdem.home_events import BountyCollected, CardsRevealed, RabbitHuntDealt
from bot.holdem.host import HoldemTable
from bot.tables.clock import ManualScheduler
from bot.tables.errors import StaleActionError
from bot.tables.events import Notice
from engine.holdem import Call, Check, Fold, Phase, RaiseTo, Street
from storage import LedgerKind, Storage
from tests.bot.holdem.home_support import home_table
from tests.bot.holdem.support import ALICE, BOB, CAROL, GUILD
from tests.bot.recorder import HoldemRecorder

SEVEN_DEUCE = ({1: "7s2d", 2: "AhAc"}, "7c7d2hKsQs")
"""Alice's 7-2 makes sevens full of deuces against Bob's aces."""


async def play(table: HoldemTable, *, shove: int | None = None, fold: int | None = None) -> None:
    """Members act until no member is to act: ``shove`` goes all in, ``fold`` folds to a bet,
    everyone else checks or calls."""
    for _ in range(50):
        hand = table.hand
        if hand is None or hand.is_complete or hand.phase is not Phase.BETTING:
            return
        legal = hand.turn
        assert legal is not None
        seat = table.seats[table.order.seat(legal.player)]
        if seat.user_id is None:
            return
        if seat.user_id == shove and legal.max_raise_to is not None:
            action: object = RaiseTo(legal.max_raise_to)
        elif seat.user_id == fold and not legal.can_check:
            action = Fold()
        else:
            action = Check() if legal.can_check else Call()
        await table.act(seat.user_id, table.hand_id, hand.action_count, action)  # type: ignore[arg-type]
    raise AssertionError("the hand did not stop")


async def seat(table: HoldemTable, *members: int, buy_in: int = 500) -> None:
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    for member in members:
        await table.join(member, names[member], buy_in, key=f"join-{member}")


async def test_utg_straddle_and_re_straddle_are_posted_every_hand(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, bots=3, straddle="utg", max_straddles=2)
    await seat(table, ALICE)
    hand = table.hand
    assert hand is not None
    assert hand.stakes.blinds_or_straddles == (5, 10, 20, 40)
    assert hand.stakes.min_bet == 40  # the last straddle plays as the big blind
    assert hand.pot_total == 75


async def test_button_straddle_is_posted_by_the_button(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, bots=3, straddle="button")
    await seat(table, ALICE)
    hand = table.hand
    assert hand is not None and hand.stakes.blinds_or_straddles == (5, 10, 0, 20)


async def test_straddles_wait_for_three_players(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, seats=3, bots=0, straddle="utg")
    await seat(table, ALICE, BOB)
    hand = table.hand
    assert hand is not None and hand.stakes.blinds_or_straddles == (5, 10)


async def test_bomb_pot_every_second_hand_antes_and_starts_on_the_flop(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(
        storage, scheduler, recorder, bots=2, bomb_pot_every=2, bomb_pot_ante=30
    )
    await seat(table, ALICE)
    first = table.hand
    assert first is not None and not first.options.bomb_pot
    await play(table, fold=ALICE)
    while table.hand_id < 2 or table.hand is None:
        await play(table, fold=ALICE)
        await scheduler.advance(1.0)
    bomb = table.hand
    assert bomb.options.bomb_pot and bomb.street is Street.FLOP and len(bomb.board) == 3
    assert bomb.stakes.antes == (30, 30, 30) and bomb.pot_total == 90


async def test_bomb_pot_player_short_of_the_ante_is_all_in_for_what_they_have(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(
        storage, scheduler, recorder, bots=2, bomb_pot_every=1, bomb_pot_ante=150
    )
    await seat(table, ALICE, buy_in=100)
    hand = table.hand
    assert hand is not None and hand.options.bomb_pot
    alice = table.order.player(table.seat_of(ALICE) or 0)
    assert alice is not None and hand.is_all_in(alice)
    pots = hand.pots()
    assert [pot.amount for pot in pots] == [300, 100]  # Alice matched 100 of each ante
    assert alice in pots[0].eligible and alice not in pots[1].eligible


async def test_run_it_twice_when_every_member_all_in_agrees(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, seats=2, run_it_max=2)
    await seat(table, ALICE, BOB)
    await play(table, shove=ALICE)
    hand = table.hand
    assert hand is not None and hand.phase is Phase.RUN_COUNT
    ask = table.snapshot().run_count_ask
    assert ask is not None and set(ask.user_ids) == {ALICE, BOB} and ask.max_runs == 2
    assert table.snapshot().legal is None  # no betting buttons meanwhile
    with pytest.raises(NotSeatedError):
        await table.choose_runs(CAROL, table.hand_id, 2)
    with pytest.raises(InvalidActionError, match="Choose 1 to 2 runs"):
        await table.choose_runs(ALICE, table.hand_id, 3)
    with pytest.raises(StaleActionError):
        await table.choose_runs(ALICE, table.hand_id + 1, 2)
    await table.choose_runs(ALICE, table.hand_id, 2)
    with pytest.raises(InvalidActionError, match="already answered"):
        await table.choose_runs(ALICE, table.hand_id, 2)
    assert table.snapshot().run_count_ask.user_ids == (BOB,)  # type: ignore[union-attr]
    await table.choose_runs(BOB, table.hand_id, 2)
    finished = recorder.of(HandFinished)[-1]
    assert hand.run_count == 2 and len(finished.snapshot.run_boards) == 2
    assert {pot.board for pot in finished.pots} == {0, 1}
    assert sum(pot.amount for pot in finished.pots) == 1000
    notices = [n.text for n in recorder.of(Notice)]
    assert "Everyone agreed: the board runs twice." in notices
    info = await storage.get_table(table.table_id)
    assert info is not None and sum(s.stack for s in info.seats) == 1000


async def test_run_count_question_times_out_to_once(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, seats=2, run_it_max=2)
    await seat(table, ALICE, BOB)
    await play(table, shove=ALICE)
    hand = table.hand
    assert hand is not None and hand.phase is Phase.RUN_COUNT
    await table.choose_runs(ALICE, table.hand_id, 2)
    await scheduler.advance(14.0)
    assert not hand.is_complete
    await scheduler.advance(1.0)
    assert hand.is_complete and hand.run_count == 1
    assert "The board runs once." in [n.text for n in recorder.of(Notice)]


async def test_a_bot_all_in_agrees_to_the_most_runs_at_once(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(storage, scheduler, recorder, seats=2, bots=1, run_it_max=3)
    await seat(table, ALICE)
    await play(table, shove=ALICE)
    for _ in range(10):
        if table.hand is not None and table.hand.phase is Phase.RUN_COUNT:
            break
        await scheduler.advance(1.0)
        await play(table, shove=ALICE)
    hand = table.hand
    assert hand is not None and hand.phase is Phase.RUN_COUNT
    ask = table.snapshot().run_count_ask
    assert ask is not None and ask.user_ids == (ALICE,) and ask.max_runs == 3
    await table.choose_runs(ALICE, table.hand_id, 3)
    assert hand.is_complete and hand.run_count == 3


async def test_seven_deuce_bounty_at_showdown_moves_in_the_settlement(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(
        storage, scheduler, recorder, seats=2, seven_deuce_bounty=25, decks={1: SEVEN_DEUCE}
    )
    await seat(table, ALICE, BOB)
    hand = table.hand
    await play(table)
    assert hand is not None and hand.is_complete
    collected = recorder.of(BountyCollected)
    assert [(c.name, c.payments) for c in collected] == [("Alice", ((2, "Bob", 25),))]
    pot_won = hand.stacks[table.order.player(1) or 0] - 500
    assert table.seats[1].stack == 500 + pot_won + 25
    assert table.seats[2].stack == 500 - pot_won - 25
    rows = await storage.ledger(GUILD, user_id=BOB, limit=5)
    settle_rows = [r for r in rows if r.operation == "settle_hand"]
    assert sorted(r.delta for r in settle_rows) == sorted([-pot_won, -25])
    assert all(r.kind is LedgerKind.HAND_RESULT for r in settle_rows)
    assert (await storage.check()).problems == ()


async def test_showing_seven_deuce_after_a_fold_collects_the_bounty_later(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(
        storage, scheduler, recorder, seats=2, seven_deuce_bounty=25, decks={1: SEVEN_DEUCE}
    )
    await seat(table, ALICE, BOB)
    await play(table, shove=ALICE, fold=BOB)
    assert table.hand is None and recorder.of(BountyCollected) == []
    offer = table.snapshot().after_hand
    assert offer is not None and offer.can_show and not offer.can_rabbit_hunt
    before = table.seats[2].stack
    await table.show_cards(ALICE, 1, (0, 1))
    shown = recorder.of(CardsRevealed)
    assert [(s.name, "".join(map(str, s.cards))) for s in shown] == [("Alice", "7s2d")]
    assert [c.total for c in recorder.of(BountyCollected)] == [25]
    assert table.seats[2].stack == before - 25
    rows = await storage.ledger(GUILD, user_id=BOB, limit=1)
    assert rows[0].operation == "holdem_bounty" and rows[0].delta == -25
    with pytest.raises(InvalidActionError):
        await table.show_cards(ALICE, 1, (0,))  # already shown
    assert (await storage.check()).problems == ()


async def test_rabbit_hunt_after_a_fold_shows_the_rest_of_the_board_once(
    storage: Storage, scheduler: ManualScheduler, recorder: HoldemRecorder
) -> None:
    table = await home_table(
        storage, scheduler, recorder, seats=2, rabbit_hunt=True, decks={1: SEVEN_DEUCE}
    )
    await seat(table, ALICE, BOB)
    await play(table, shove=ALICE, fold=BOB)
    offer = table.snapshot().after_hand
    assert offer is not None and offer.can_rabbit_hunt
    stacks = {n: s.stack for n, s in table.seats.items()}
    with pytest.raises(NotSeatedError):
        await table.rabbit_hunt(CAROL, 1)
    await table.rabbit_hunt(BOB, 1)
    hunted = recorder.of(RabbitHuntDealt)
    assert [("".join(map(str, b)) for b in h.boards) for h in hunted]
    assert ["".join(map(str, hunted[0].boards[0]))] == ["7c7d2hKsQs"]
    assert {n: s.stack for n, s in table.seats.items()} == stacks
    with pytest.raises(InvalidActionError):
        await table.rabbit_hunt(ALICE, 1)
    await scheduler.advance(2.0)  # the next hand is dealt: the buttons close
    with pytest.raises(StaleActionError):
        await table.rabbit_hunt(ALICE, 1)
