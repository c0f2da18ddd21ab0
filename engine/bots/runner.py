"""A bot in a seat at a live table: decisions that never stall the table or its event loop.

``BotPlayer`` holds a seat's strategy and its own random generator. ``decide(view)`` is a plain
blocking call, safe from any thread (one decision per seat at a time); ``submit(view, executor)``
runs the decision in a ``concurrent.futures`` executor and returns a ``Future``. This module
never imports asyncio; the async table host awaits either way:

    action = await asyncio.to_thread(bot.decide, view)                  # a worker thread
    action = await asyncio.wrap_future(bot.submit(view, process_pool))  # another process

A thread keeps the event loop responsive (the evaluator's C calls are short and Python switches
threads every few milliseconds); a process pool (``ProcessPoolExecutor``) takes the equity work
off the loop's core entirely. Both paths give the same action for the same generator state:
every decision draws one 64-bit seed from the seat's generator and runs the strategy with a
fresh ``random.Random(seed)`` wherever it runs, and the strategy object (with whatever memory it
keeps) comes back from the worker and replaces the seat's copy.

A strategy that raises or returns an illegal action never blocks the table: the seat checks if
it can, else folds, and ``last_error`` says what went wrong so the host can log it.

``HandBot`` (and ``make_hand_bot``, a ``BotFactory`` for ``bot.holdem.host``) serves hosts that
hand the bot the live ``Hand``: it copies out the ``SeatView`` first, so the strategy still sees
only what its seat may, then decides like ``BotPlayer``. It carries the seat's ``Personality``,
which the host stores with the seat and hands back after a restart.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Hashable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass

from engine.bots.personality import NEUTRAL, Personality
from engine.bots.registry import LEVELLED, BotSpec, make_strategy
from engine.bots.stats import TableStats
from engine.bots.strategy import Strategy, check_or_fold
from engine.bots.view import SeatView
from engine.holdem.actions import Action
from engine.holdem.hand import Hand


@dataclass(frozen=True, slots=True)
class DetachedDecision:
    """A decision made away from the seat: the action, the strategy afterwards, and what went
    wrong if the strategy failed (the action is then the safe fallback)."""

    action: Action
    strategy: Strategy
    error: str | None


def decide_detached(strategy: Strategy, view: SeatView, seed: int) -> DetachedDecision:
    """Run one decision with ``random.Random(seed)``; picklable, for process pools."""
    rng = random.Random(seed)
    try:
        action = strategy.decide(view, rng)
    except Exception as error:  # a broken strategy must not stall a live table
        return DetachedDecision(
            check_or_fold(view.legal), strategy, f"{type(error).__name__}: {error}"
        )
    if not view.legal.allows(action):
        return DetachedDecision(
            check_or_fold(view.legal),
            strategy,
            f"{strategy.name} chose {action!r}, which is not legal: {view.legal}",
        )
    return DetachedDecision(action, strategy, None)


class BotPlayer:
    """One seat's bot: a strategy, its generator, and a lock so decisions do not overlap."""

    def __init__(self, strategy: Strategy, rng: random.Random | None = None) -> None:
        self.strategy = strategy
        self._rng = rng if rng is not None else random.Random(secrets.randbits(64))
        self._lock = threading.Lock()
        self.last_error: str | None = None
        """Why the last decision fell back to check/fold, or ``None`` if it did not."""

    @classmethod
    def from_spec(cls, spec: BotSpec | str, rng: random.Random | None = None) -> BotPlayer:
        """A bot playing ``spec`` (``"smart:hard"``, a ``BotSpec``, ...)."""
        return cls(make_strategy(spec), rng)

    @property
    def name(self) -> str:
        """The strategy's name."""
        return self.strategy.name

    def decide(self, view: SeatView) -> Action:
        """The bot's legal action for ``view``, computed in the calling thread."""
        with self._lock:
            seed = self._rng.getrandbits(64)
            decision = decide_detached(self.strategy, view, seed)
            self.strategy = decision.strategy
            self.last_error = decision.error
            return decision.action

    def submit(self, view: SeatView, executor: Executor) -> Future[Action]:
        """Run the decision in ``executor`` (threads or processes); the future's result is the
        legal action. A worker that dies gives the fallback action, with ``last_error`` set."""
        with self._lock:
            seed = self._rng.getrandbits(64)
            strategy = self.strategy
        outcome: Future[Action] = Future()
        work = executor.submit(decide_detached, strategy, view, seed)

        def finished(done: Future[DetachedDecision]) -> None:
            try:
                decision = done.result()
            except BaseException as error:  # e.g. BrokenProcessPool: still answer the table
                decision = DetachedDecision(
                    check_or_fold(view.legal), strategy, f"{type(error).__name__}: {error}"
                )
            with self._lock:
                self.strategy = decision.strategy
                self.last_error = decision.error
            outcome.set_result(decision.action)

        work.add_done_callback(finished)
        return outcome


class HandBot:
    """A bot for a host that passes the live hand: ``decide(hand, player)``.

    The view is copied out of the hand first (call it under the table's lock, as
    ``bot.holdem.host`` does, or from a worker thread while the hand is not changing). With a
    ``TableStats`` and the players' stable keys in PHH order (``keys``), the bot reads its
    opponents; without them it plays them by its priors.
    """

    def __init__(
        self,
        spec: BotSpec | str,
        rng: random.Random | None = None,
        *,
        stats: TableStats | None = None,
        personality: Personality | None = None,
    ) -> None:
        parsed = BotSpec.parse(spec) if isinstance(spec, str) else spec
        self.personality = personality if personality is not None else NEUTRAL
        """How this seat plays within its level, and its name (neutral if none was given)."""
        self.player = BotPlayer(make_strategy(parsed, personality=self.personality), rng)
        self.stats = stats

    @property
    def last_error(self) -> str | None:
        """Why the last decision fell back to check/fold, if it did."""
        return self.player.last_error

    def decide(self, hand: Hand, player: int, keys: Sequence[Hashable] | None = None) -> Action:
        """The bot's legal action as PHH player ``player`` of ``hand``."""
        snapshot = (
            self.stats.snapshot(keys) if self.stats is not None and keys is not None else None
        )
        return self.player.decide(SeatView.from_hand(hand, player, stats=snapshot))


def make_hand_bot(
    name: str, strategy: str, rng: random.Random, personality: Personality | None = None
) -> HandBot:
    """A ``HandBot`` named ``name`` playing ``strategy`` (``"smart"``, ``"smart:hard"``, ...)
    with ``personality`` (the one stored with its seat, after a restart), or a new one drawn
    from ``rng`` within its level's ranges when a bot sits down. The simple strategies have
    no traits: their personality only names them. Matches ``bot.holdem.seating.BotFactory``."""
    spec = BotSpec.parse(strategy)
    if personality is None:
        if spec.strategy in LEVELLED:
            seed = rng.getrandbits(64)
            personality = Personality.draw(spec.difficulty, seed, name=name)
        else:
            personality = Personality(name)
    return HandBot(spec, rng, personality=personality)
