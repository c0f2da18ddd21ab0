"""BotPlayer: the same decision in the calling thread, a thread pool or a process pool, and a
safe fallback when a strategy fails."""

from __future__ import annotations

import random
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import ClassVar

from engine.bots.personality import Personality
from engine.bots.registry import make_strategy
from engine.bots.runner import BotPlayer, HandBot, decide_detached, make_hand_bot
from engine.bots.stats import TableStats
from engine.bots.view import SeatView
from engine.holdem import Action, Check, Fold, RaiseTo
from tests.engine.bots.helpers import act_all, spots, stacked


class Broken:
    name: ClassVar[str] = "broken"

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        raise RuntimeError("out of cheese")


class Cheater:
    name: ClassVar[str] = "cheater"

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        return RaiseTo(10**9)


class Counting:
    """A strategy with memory: the number of decisions it made."""

    name: ClassVar[str] = "counting"

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        self.decisions += 1
        return Check() if view.legal.can_check else Fold()


def views(count: int) -> list[SeatView]:
    return [view for _hand, view in spots(count, seed=21)]


def test_bot_player_gives_the_same_actions_in_threads_processes_and_inline() -> None:
    sample = views(40)
    inline = BotPlayer.from_spec("smart:hard", random.Random(5))
    threaded = BotPlayer.from_spec("smart:hard", random.Random(5))
    forked = BotPlayer.from_spec("smart:hard", random.Random(5))
    with ThreadPoolExecutor(max_workers=1) as threads, ProcessPoolExecutor(max_workers=1) as pool:
        expected = [inline.decide(view) for view in sample]
        in_threads = [threaded.submit(view, threads).result(timeout=60) for view in sample]
        in_processes = [forked.submit(view, pool).result(timeout=60) for view in sample]
    assert in_threads == expected
    assert in_processes == expected
    assert all(view.legal.allows(action) for view, action in zip(sample, expected, strict=True))
    assert inline.last_error is threaded.last_error is forked.last_error is None


def test_bot_player_keeps_the_strategy_memory_a_process_returns() -> None:
    bot = BotPlayer(Counting(), random.Random(1))
    with ProcessPoolExecutor(max_workers=1) as pool:
        for view in views(5):
            bot.submit(view, pool).result(timeout=60)
    assert isinstance(bot.strategy, Counting)
    assert bot.strategy.decisions == 5


def test_bot_player_falls_back_when_the_strategy_raises() -> None:
    hand = stacked(["AsAh", "KdKc"])
    act_all(hand, RaiseTo(6))
    view = SeatView.from_hand(hand, 0)
    bot = BotPlayer(Broken(), random.Random(1))
    assert bot.decide(view) == Fold()
    assert bot.last_error == "RuntimeError: out of cheese"
    assert bot.name == "broken"


def test_bot_player_falls_back_when_the_strategy_returns_an_illegal_action() -> None:
    hand = stacked(["AsAh", "KdKc"])
    act_all(hand, RaiseTo(6), RaiseTo(20), RaiseTo(60), RaiseTo(200))
    view = SeatView.from_hand(hand, hand.turn.player if hand.turn else 0)
    decision = decide_detached(Cheater(), view, seed=1)
    assert decision.action == Fold()
    assert decision.error is not None and "not legal" in decision.error


def test_bot_player_answers_even_if_the_worker_dies() -> None:
    class DeadExecutor(ThreadPoolExecutor):
        def submit(self, *args: object, **kwargs: object) -> Future[object]:  # type: ignore[override]
            future: Future[object] = Future()
            future.set_exception(RuntimeError("worker died"))
            return future

    hand = stacked(["AsAh", "KdKc"])
    view = SeatView.from_hand(hand, hand.turn.player if hand.turn else 0)
    bot = BotPlayer.from_spec("smart", random.Random(2))
    with DeadExecutor(max_workers=1) as executor:
        action = bot.submit(view, executor).result(timeout=5)
    assert action == Fold()
    assert bot.last_error == "RuntimeError: worker died"


def test_hand_bot_decides_from_the_hand_like_a_bot_player() -> None:
    personality = Personality("Turing", 0.01, -0.02)
    host_bot = make_hand_bot("Turing", "smart:hard", random.Random(8), personality)
    seat_bot = BotPlayer(make_strategy("smart:hard", personality=personality), random.Random(8))
    decisions = 0
    for hand, view in spots(30, seed=31, stats=False):
        assert host_bot.decide(hand, view.seat) == seat_bot.decide(view)
        decisions += 1
    assert decisions == 30
    assert host_bot.last_error is None


def folds_to_every_raise(key: str, hands: int) -> TableStats:
    """Table statistics in which ``key`` folded to a preflop raise in each of ``hands`` hands."""
    stats = TableStats()
    for _ in range(hands):
        hand = stacked(["AsAh", "7c2d"])
        raiser = hand.turn.player if hand.turn else 0
        act_all(hand, RaiseTo(6), Fold())
        keys = ["raiser", "raiser"]
        keys[1 - raiser] = key
        stats.record(hand.events, keys)
    return stats


def test_hand_bot_raises_smaller_against_an_opponent_its_table_stats_show_folding() -> None:
    stats = folds_to_every_raise("bob", hands=60)
    hand = stacked(["KdKc", "7c2d"])
    player = hand.turn.player if hand.turn else 0
    keys = ["bob", "bob"]
    keys[player] = "ann"

    reading = HandBot("smart", random.Random(19), stats=stats).decide(hand, player, keys=keys)
    priors = HandBot("smart", random.Random(19), stats=stats).decide(hand, player, keys=None)

    legal = SeatView.from_hand(hand, player).legal
    assert legal.allows(reading) and legal.allows(priors)
    assert isinstance(reading, RaiseTo) and isinstance(priors, RaiseTo)
    # Against a player who always folds, the cheapest raise takes the blinds just as well.
    assert reading.amount < priors.amount
