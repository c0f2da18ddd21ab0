"""Dealing a hand with the table's home-game options, and running it N times with consent.

The rules the table host plays by (tested in tests/bot/holdem/test_home_dealing.py):

- **Straddles are posted, not offered.** A table that plays straddles posts them every hand
  with three or more players dealt in: under the gun, the seats after the big blind post the
  straddle and its re-straddles (each twice the last) up to ``max_straddles`` and never more
  than the players after the blinds; on the button, the button posts one straddle. No member or
  bot decides, so nobody waits on a straddle question (``felt sim holdem`` plays them alike).
  A seat short of its straddle posts what it has and is all in.
- **Bomb pots** are every ``bomb_pot_every``th hand of the table (hand ids counted from 1):
  everyone dealt in antes ``bomb_pot_ante`` and the hand starts on the flop. A player with
  fewer chips than the ante puts in all they have and is all in for that much; antes above it
  form a side pot (the engine collects antes like bets), so the short player can only win what
  they matched.
- **Run it N times**: when everyone still in is all in before the river, each member all in is
  asked (buttons on the table message) for 1 to N runs; the question times out after
  ``RUN_COUNT_SECONDS`` (or the turn time, if shorter) and no answer counts as once. A bot, or a
  member leaving or away, answers at once: a bot agrees to the most runs offered (running more
  times keeps every player's expectation and only lowers the swings, so a bot never blocks a
  member's wish), a member who is leaving or away answers once. The board runs N times only
  if every answer is N.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from bot.holdem.errors import InvalidActionError, NotSeatedError
from bot.holdem.events import TableSnapshot
from bot.holdem.home_events import RunCountAsk
from bot.holdem.settings import HoldemSettings
from bot.tables.clock import TimerHandle
from bot.tables.errors import StaleActionError
from bot.tables.events import Notice
from engine.holdem import (
    ChooseRunCount,
    Event,
    Hand,
    HandOptions,
    Phase,
    RunCountChosen,
    RunCountSettled,
    Stakes,
    StraddleKind,
)

if TYPE_CHECKING:
    from bot.holdem.flow import HandLifecycle

RUN_COUNT_SECONDS = 15
"""How long members all in have to answer "run it twice?" (no answer = once)."""

RUN_WORDS = {1: "once", 2: "twice", 3: "three times", 4: "four times"}


def hand_setup(settings: HoldemSettings, hand_id: int, players: int) -> tuple[Stakes, HandOptions]:
    """The forced bets and options of hand ``hand_id`` with ``players`` dealt in."""
    home = settings.home_game
    straddles = 0
    if home.straddle is not StraddleKind.OFF and players >= 3 and not home.is_bomb_pot(hand_id):
        straddles = min(home.max_straddles, players - 2)
    stakes = home.stakes(
        hand_id,
        players,
        settings.small_blind,
        settings.big_blind,
        settings.ante,
        straddles=straddles,
    )
    return stakes, home.hand_options(hand_id)


@dataclass
class RunConsent:
    """The run-count question of the hand in progress: who was asked, and its timer."""

    ask: RunCountAsk | None = None
    timer: TimerHandle | None = field(default=None, repr=False)

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.ask, self.timer = None, None


def still_to_answer(hand: Hand) -> list[int]:
    """The players the engine still waits on for a run count (every player still in, less
    those who answered)."""
    if hand.phase is not Phase.RUN_COUNT:
        return []
    answered = {e.player for e in hand.events if isinstance(e, RunCountChosen)}
    return [p for p in range(hand.player_count) if hand.live[p] and p not in answered]


def run_words(events: list[Event], table: HandLifecycle) -> list[str]:
    """What the channel is told of run-count answers and the agreed count."""
    lines = []
    for event in events:
        if isinstance(event, RunCountChosen):
            name = table.seats[table.order.seat(event.player)].name
            lines.append(f"{name} chooses to run it {RUN_WORDS.get(event.count, event.count)}.")
        elif isinstance(event, RunCountSettled):
            if event.count > 1:
                lines.append(f"Everyone agreed: the board runs {RUN_WORDS[event.count]}.")
            else:
                lines.append("The board runs once.")
    return lines


async def announce(table: HandLifecycle, events: list[Event]) -> None:
    """Tell the channel of run-count answers and the agreed count among ``events``."""
    for line in run_words(events, table):
        await table.publish(Notice(line))


async def ask_run_counts(table: HandLifecycle) -> None:
    """The hand waits on run counts (lock held): bots, leavers and the away answer now; the
    other members are asked once, with one timer for all of them."""
    hand = table.hand
    assert hand is not None and hand.phase is Phase.RUN_COUNT
    table._cancel_turn_timer()  # the last bettor's timer: nobody bets any more
    turn = hand.turn
    assert turn is not None and turn.max_run_count > 1
    most = turn.max_run_count
    for player in still_to_answer(hand):
        seat = table.seats[table.order.seat(player)]
        if seat.user_id is None or seat.plays_itself:
            count = most if seat.user_id is None else 1
            events = hand.act(player, ChooseRunCount(count))
            await table._after_events(events, automatic=True)
            return  # the call above asks again for whoever is left
    consent = table.run_consent
    if consent.ask is not None and consent.ask.hand_id == table.hand_id:
        waiting = {table.seats[table.order.seat(p)].user_id for p in still_to_answer(hand)}
        consent.ask = RunCountAsk(
            consent.ask.hand_id,
            hand.action_count,
            tuple(u for u in consent.ask.user_ids if u in waiting),
            most,
            consent.ask.deadline,
        )
        await table._publish_table()
        return
    members = [table.seats[table.order.seat(p)].user_id for p in still_to_answer(hand)]
    seconds = min(RUN_COUNT_SECONDS, table.settings.turn_seconds)
    hand_id = table.hand_id
    ask = RunCountAsk(
        hand_id,
        hand.action_count,
        tuple(u for u in members if u is not None),
        most,
        table._scheduler.now() + seconds,
    )
    consent.ask = ask

    async def time_out() -> None:
        async with table._lock:
            await _run_once_for_the_rest(table, hand_id)

    consent.timer = table._scheduler.call_later(seconds, time_out)
    await table._publish_table()


async def _run_once_for_the_rest(table: HandLifecycle, hand_id: int) -> None:
    hand = table.hand
    if hand is None or hand_id != table.hand_id or hand.phase is not Phase.RUN_COUNT:
        return
    table.run_consent.timer = None
    waiting = still_to_answer(hand)
    for player in waiting[:-1]:
        for line in run_words(hand.act(player, ChooseRunCount(1)), table):
            await table.publish(Notice(line))
    events = hand.act(waiting[-1], ChooseRunCount(1))
    await table._after_events(events, automatic=True)


async def choose_runs(table: HandLifecycle, user_id: int, hand_id: int, count: int) -> None:
    """A member's answer to the run-count question (lock held)."""
    hand = table.hand
    if hand is None or hand_id != table.hand_id or hand.phase is not Phase.RUN_COUNT:
        raise StaleActionError("That question is over.")
    seat_no = table.seat_of(user_id)
    player = table.order.player(seat_no) if seat_no is not None else None
    if player is None:
        raise NotSeatedError("Only the players all in choose how many times to run it.")
    if player not in still_to_answer(hand):
        raise InvalidActionError("You have already answered.")
    turn = hand.turn
    assert turn is not None
    if not 1 <= count <= turn.max_run_count:
        raise InvalidActionError(f"Choose 1 to {turn.max_run_count} runs.")
    events = hand.act(player, ChooseRunCount(count))
    await table._after_events(events, automatic=False)


def decorate(snapshot: TableSnapshot, table: HandLifecycle) -> TableSnapshot:
    """A bomb pot has no blinds to mark; while the run count is asked, the table shows the
    question and no one to act."""
    hand = table.hand
    if hand is not None and hand.options.bomb_pot:
        unmarked = (replace(s, is_small_blind=False, is_big_blind=False) for s in snapshot.seats)
        snapshot = replace(snapshot, seats=tuple(unmarked))
    ask = table.run_consent.ask
    if hand is None or hand.phase is not Phase.RUN_COUNT or ask is None:
        return snapshot
    seats = tuple(replace(seat, is_to_act=False) for seat in snapshot.seats)
    return replace(
        snapshot,
        to_act_seat=None,
        legal=None,
        deadline=ask.deadline,
        seats=seats,
        run_count_ask=ask,
    )
