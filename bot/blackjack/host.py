"""The Blackjack table host: one channel's table between the engine, storage and a front.

A round goes IDLE -> BETTING -> PLAYING -> IDLE. The first ``bet`` opens a round in storage (its
chips move to escrow at once) and a betting window; others join with their own bets (escrowed at
once too) until the window closes or a bettor presses Deal now. Then the engine deals, offers
insurance, runs each player's turn (with a timer: a hand that times out stands) and plays the
dealer. Doubles, splits and insurance are escrowed through storage *before* the engine applies
them, so nothing is ever "settled later" from the wallet. The round is settled in storage in one
transaction. Every decision carries the round id and the step it was offered at, so stale and
double clicks are refused. No Discord import: a front calls these methods and receives events.

A round cut short by a restart is refunded by storage's recovery; the table itself holds no
chips between rounds, so there is nothing else to restore.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from dataclasses import dataclass

from bot.blackjack.errors import (
    ActionRefused,
    BetRefused,
    NoDecisionError,
    NotInRoundError,
)
from bot.blackjack.events import (
    ActionTaken,
    BetPlaced,
    BettingOpened,
    BlackjackSnapshot,
    Player,
    RoundFinished,
    RoundRefunded,
    TableChanged,
    TableEvent,
    TablePhase,
    TurnStarted,
)
from bot.blackjack.settlement import settle
from bot.blackjack.view import in_order
from bot.tables.clock import Scheduler, TimerHandle
from bot.tables.errors import STALE_BUTTON, StaleActionError
from bot.tables.moves import move_chips
from bot.tables.presenter import Presenter
from engine.blackjack import (
    INSURANCE_ACTIONS,
    SEATS,
    Action,
    Advice,
    BasicStrategy,
    Phase,
    Round,
    Rules,
    Shoe,
)
from engine.errors import EngineError
from storage import (
    BalanceLimitExceeded,
    BetReason,
    InsufficientChips,
    InvalidAmount,
    Storage,
)
from storage import InvalidArgument as StorageInvalidArgument

_log = logging.getLogger("felt.blackjack")

_REASONS = {
    Action.DOUBLE: BetReason.DOUBLE,
    Action.SPLIT: BetReason.SPLIT,
    Action.INSURE: BetReason.INSURANCE,
}


@dataclass(frozen=True, slots=True)
class BlackjackSettings:
    """How a Blackjack table plays."""

    rules: Rules
    min_bet: int = 10
    max_bet: int = 500
    betting_seconds: float = 12.0
    turn_seconds: float = 30.0
    hints: bool = True


@dataclass(slots=True)
class _Bettor:
    seat: int
    user_id: int
    name: str
    bet: int
    leaving: bool = False
    """Left mid-round: every decision of theirs is taken at once (stand, no insurance)."""


class BlackjackTable:
    """One channel's Blackjack table."""

    def __init__(
        self,
        *,
        storage: Storage,
        guild_id: int,
        channel_id: int,
        name: str,
        settings: BlackjackSettings,
        scheduler: Scheduler,
        presenter: Presenter[TableEvent],
        rng: random.Random | None = None,
        shoe: Shoe | None = None,
    ) -> None:
        self.storage = storage
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.name = name
        self.settings = settings
        self.phase = TablePhase.IDLE
        self.round_id: int | None = None
        self.rounds_played = 0
        self.round: Round | None = None
        self._scheduler = scheduler
        self._presenter = presenter
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self._shoe = shoe if shoe is not None else Shoe.for_rules(settings.rules, rng=self._rng)
        self._strategy = BasicStrategy(settings.rules)
        self._lock = asyncio.Lock()
        self._bettors: dict[int, _Bettor] = {}
        self._timer: TimerHandle | None = None
        self._deadline: float | None = None
        self._step = 0
        self._suspended = False

    # ------------------------------------------------------------------------ queries

    def snapshot(self) -> BlackjackSnapshot:
        """The table as everyone may see it (the dealer's hole card hidden until revealed)."""
        game = self.round
        to_act_user: int | None = None
        legal: frozenset[Action] = frozenset()
        if game is not None and not game.is_complete and game.to_act is not None:
            seat = game.to_act[0]
            bettor = self._by_seat(seat)
            to_act_user = bettor.user_id
            legal = game.legal_actions(seat)
        players = tuple(
            Player(b.seat, b.user_id, b.name, b.bet)
            for b in sorted(self._bettors.values(), key=lambda b: b.seat)
        )
        offers: dict[int, frozenset[Action]] = {}
        if game is not None and not game.is_complete:
            for b in self._bettors.values():
                choices = game.legal_actions(b.seat)
                if choices:
                    offers[b.user_id] = choices
        return BlackjackSnapshot(
            table_name=self.name,
            phase=self.phase,
            round_id=self.round_id,
            round_number=self.rounds_played + (self.phase is not TablePhase.IDLE),
            players=players,
            view=game.view() if game is not None else None,
            deadline=self._deadline,
            to_act_user=to_act_user,
            legal=legal,
            step=self._step,
            min_bet=self.settings.min_bet,
            max_bet=self.settings.max_bet,
            offers=offers,
        )

    def hint(self, user_id: int) -> Advice:
        """What basic strategy says for the member's current decision (for their eyes)."""
        game = self.round
        bettor = self._bettors.get(user_id)
        if bettor is None or game is None or game.is_complete:
            raise NotInRoundError("You have no hand in play.")
        if not game.legal_actions(bettor.seat):
            raise NoDecisionError("You have no decision to make right now.")
        return self._strategy.advice(game.decision(bettor.seat))

    # ------------------------------------------------------------------------ betting

    async def bet(self, user_id: int, name: str, amount: int, *, key: str | None = None) -> int:
        """Place a bet: it leaves the wallet now. Opens a round and its betting window if none.

        Returns the seat (0-6) the member plays at this round.
        """
        async with self._lock:
            self._check_bet(amount)
            await self.storage.ensure_account(self.guild_id, user_id)
            request = key or await self._bet_key(user_id)
            if self.phase is TablePhase.PLAYING:
                raise BetRefused("A round is being played. Bet again when it is over.")
            if user_id in self._bettors:
                raise BetRefused(f"You already bet {self._bettors[user_id].bet:,} on this round.")
            if len(self._bettors) >= SEATS:
                raise BetRefused(f"This round is full ({SEATS} players). Join the next one.")
            try:
                if self.phase is TablePhase.IDLE:
                    opened = await move_chips(
                        "bet",
                        lambda: self.storage.open_round(
                            self.guild_id, self.channel_id, {user_id: amount}, key=request
                        ),
                    )
                    self.round_id = opened.round_id
                    self.phase = TablePhase.BETTING
                    self._step = 0
                    self._deadline = self._scheduler.now() + self.settings.betting_seconds
                    round_id = opened.round_id
                    self._timer = self._scheduler.call_later(
                        self.settings.betting_seconds, lambda: self._window_closed(round_id)
                    )
                    await self._publish(BettingOpened(round_id, self._deadline))
                else:
                    joining = self.round_id
                    assert joining is not None
                    await move_chips(
                        "bet",
                        lambda: self.storage.join_round(joining, user_id, amount, key=request),
                    )
            except InsufficientChips:
                balance = await self._balance(user_id)
                raise BetRefused(
                    f"You have {balance:,} chips, not enough for {amount:,}."
                ) from None
            except (InvalidAmount, BalanceLimitExceeded, StorageInvalidArgument) as error:
                raise BetRefused(str(error)) from None
            seat = min(set(range(SEATS)) - {b.seat for b in self._bettors.values()})
            self._bettors[user_id] = _Bettor(seat, user_id, name, amount)
            await self._publish(BetPlaced(user_id, name, amount))
            await self._publish_table()
            return seat

    async def deal_now(self, user_id: int) -> None:
        """Close the betting window early (only someone with a bet may)."""
        async with self._lock:
            if self.phase is not TablePhase.BETTING:
                raise StaleActionError("There is no betting window open.")
            if user_id not in self._bettors:
                raise NotInRoundError("Only players with a bet in this round can deal.")
            await self._deal()

    async def _window_closed(self, round_id: int) -> None:
        async with self._lock:
            if self.phase is TablePhase.BETTING and self.round_id == round_id:
                await self._deal()

    async def _deal(self) -> None:
        self._cancel_timer()
        if self._suspended:
            return
        bets = {b.seat: b.bet for b in self._bettors.values()}
        self.phase = TablePhase.PLAYING
        # The round deals at once, and reshuffles the shoe itself when the cut card came out
        # last round.
        self.round = Round(self.settings.rules, self._shoe, bets)
        await self._publish_table()
        await self._advance()

    # ------------------------------------------------------------------------ playing

    def check_offer(self, user_id: int, round_id: int, step: int, action: Action) -> int:
        """The step at which ``action``, offered at (``round_id``, ``step``), applies now.

        Pure and read-only: fronts call it to refuse a click at once, ``act`` calls it under
        the lock. Each refusal has one wording.
        """
        game = self.round
        if game is None or game.is_complete or round_id != self.round_id:
            raise StaleActionError("That round is over: its buttons no longer do anything.")
        bettor = self._bettors.get(user_id)
        if bettor is None:
            raise NotInRoundError(
                "You have no bet in this round: `/blackjack deal` to join the next one."
            )
        offers = game.legal_actions(bettor.seat)
        # Insurance is decided by every player at once, in any order: any of this round's
        # insurance buttons means that one decision, taken at the current step.
        insurance = game.phase is Phase.INSURANCE and action in INSURANCE_ACTIONS
        if not (insurance and offers & INSURANCE_ACTIONS) and step != self._step:
            raise StaleActionError(STALE_BUTTON)
        if not offers:
            raise NoDecisionError("It is not your turn.")
        if action not in offers:
            choices = " or ".join(f"**{choice.label}**" for choice in in_order(offers))
            raise ActionRefused(f"{action.label} is not on offer for you now: {choices}.")
        return self._step

    async def act(self, user_id: int, round_id: int, step: int, action: Action) -> None:
        """Apply a member's decision offered at (``round_id``, ``step``)."""
        async with self._lock:
            self.check_offer(user_id, round_id, step, action)
            await self._apply(self._bettors[user_id], action, automatic=False)

    async def leave(self, user_id: int) -> bool:
        """Leave the table: with a bet in play, every remaining decision is taken at once (stand,
        no insurance) and the round is settled as played, not refunded. True if the member had
        no bet in play."""
        async with self._lock:
            bettor = self._bettors.get(user_id)
            if bettor is None:
                return True
            bettor.leaving = True
            if self.phase is TablePhase.PLAYING and self.round is not None:
                await self._advance()
            return False

    async def _apply(self, bettor: _Bettor, action: Action, *, automatic: bool) -> None:
        game = self.round
        assert game is not None and self.round_id is not None
        extra = game.extra_stake(bettor.seat, action)
        if extra:
            try:
                round_id, key = self.round_id, f"bj:{self.round_id}:{self._step}:{action.value}"
                await move_chips(
                    "extra bet",
                    lambda: self.storage.add_bet(
                        round_id, bettor.user_id, extra, reason=_REASONS[action], key=key
                    ),
                )
            except InsufficientChips:
                balance = await self._balance(bettor.user_id)
                raise ActionRefused(
                    f"{action.label} needs {extra:,} more chips; you have {balance:,}."
                ) from None
        try:
            game.act(bettor.seat, action)
        except EngineError as error:  # pragma: no cover - legality was checked above
            raise ActionRefused(str(error)) from None
        self._step += 1
        text = f"{bettor.name}: {action.label}" + (" (timed out)" if automatic else "")
        await self._publish(ActionTaken(bettor.user_id, bettor.name, action, automatic, text))
        await self._publish_table()
        await self._advance()

    async def _advance(self) -> None:
        game = self.round
        assert game is not None
        self._cancel_timer()
        if game.is_complete:
            await self._settle()
            return
        if await self._decide_for_leavers(game):
            return
        who = game.to_act
        if who is None:  # pragma: no cover - the engine always runs on to a decision or the end
            return
        seat, hand = who
        bettor = self._by_seat(seat)
        round_id, step = self.round_id, self._step
        assert round_id is not None
        self._deadline = self._scheduler.now() + self.settings.turn_seconds
        self._timer = self._scheduler.call_later(
            self.settings.turn_seconds, lambda: self._timeout(round_id, step)
        )
        await self._publish(
            TurnStarted(
                round_id,
                step,
                bettor.user_id,
                seat,
                hand,
                game.legal_actions(seat),
                self._deadline,
            )
        )
        await self._publish_table()

    async def _decide_for_leavers(self, game: Round) -> bool:
        """Take at once the next decision of a player who left (no insurance, stand); True if
        one was taken (the round has moved on from there)."""
        for seat in game.pending_insurance:
            bettor = self._by_seat(seat)
            if bettor.leaving:
                await self._apply(bettor, Action.NO_INSURANCE, automatic=True)
                return True
        who = game.to_act
        if game.phase is not Phase.INSURANCE and who is not None:
            bettor = self._by_seat(who[0])
            if bettor.leaving:
                await self._apply(bettor, Action.STAND, automatic=True)
                return True
        return False

    async def _timeout(self, round_id: int, step: int) -> None:
        async with self._lock:
            game = self.round
            if game is None or game.is_complete or round_id != self.round_id or step != self._step:
                return
            # Insurance declined for everyone still deciding; a hand in play stands.
            pending = list(game.pending_insurance)
            if pending:
                for seat in pending:
                    await self._apply(self._by_seat(seat), Action.NO_INSURANCE, automatic=True)
                    if self.round is not game or game.is_complete:
                        return
                return
            who = game.to_act
            if who is not None:
                await self._apply(self._by_seat(who[0]), Action.STAND, automatic=True)

    async def _settle(self) -> None:
        game = self.round
        assert game is not None and self.round_id is not None
        players = sorted(
            (Player(b.seat, b.user_id, b.name, b.bet) for b in self._bettors.values()),
            key=lambda p: p.seat,
        )
        settled = settle(game, players, self.settings.rules.describe())
        round_id = self.round_id
        await move_chips(
            "settlement",
            lambda: self.storage.settle_round(
                round_id, settled.outcomes, history=settled.history, key=f"bj:{round_id}:settle"
            ),
        )
        finished = RoundFinished(round_id, settled.results, self.snapshot())
        self.rounds_played += 1
        self.phase = TablePhase.IDLE
        self.round = None
        self.round_id = None
        self._bettors.clear()
        self._deadline = None
        await self._publish(finished)
        await self._publish_table()

    # ------------------------------------------------------------------------ shutdown

    async def suspend(self, reason: str = "Felt is restarting") -> None:
        """For a shutdown: refund the round in progress (every bet back to its wallet)."""
        async with self._lock:
            self._suspended = True
            self._cancel_timer()
            if self.round_id is not None:
                round_id = self.round_id
                await self.storage.refund_round(
                    round_id, reason=reason, key=f"bj:{round_id}:refund"
                )
                self.phase = TablePhase.IDLE
                self.round = None
                self.round_id = None
                self._bettors.clear()
                await self._publish(RoundRefunded(round_id, reason))

    # ------------------------------------------------------------------------ helpers

    def _check_bet(self, amount: int) -> None:
        s = self.settings
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BetRefused("A bet must be a whole number of chips.")
        if not s.min_bet <= amount <= s.max_bet:
            raise BetRefused(f"Bets at this table are {s.min_bet:,} to {s.max_bet:,} chips.")

    async def _bet_key(self, user_id: int) -> str:
        """A bet's key when the front gave none: the member's next round at this table,
        named by the last round they played (so a bet re-sent after a lost answer applies once)."""
        rounds = await self.storage.list_rounds(self.guild_id, user_id=user_id, limit=1)
        last = rounds[0].round_id if rounds else 0
        where = self.round_id if self.round_id is not None else "new"
        return f"bj:{self.channel_id}:bet:{user_id}:after-round:{last}:round:{where}"

    def _by_seat(self, seat: int) -> _Bettor:
        return next(b for b in self._bettors.values() if b.seat == seat)

    async def _balance(self, user_id: int) -> int:
        account = await self.storage.get_account(self.guild_id, user_id)
        return account.balance if account is not None else 0

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None

    async def _publish(self, event: TableEvent) -> None:
        try:
            await self._presenter.publish(event)
        except Exception:  # a front's failure must never break the game or lose chips
            _log.exception("presenter failed on %s", type(event).__name__)

    async def _publish_table(self) -> None:
        await self._publish(TableChanged(self.snapshot()))
