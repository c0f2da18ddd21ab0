"""The Blackjack table host: one channel's table between the engine, storage and a front.

A round goes IDLE -> BETTING -> PLAYING -> IDLE. The first ``bet`` opens a round in storage (its
chips move to escrow at once) and a betting window; others join with their own bets (escrowed at
once too) until the window closes or a bettor presses Deal now. Then the engine deals, offers
insurance, runs each player's turn (with a timer: a hand that times out stands) and plays the
dealer. Doubles, splits and insurance are escrowed through storage *before* the engine applies
them, so nothing is ever "settled later" from the wallet. The round is settled in storage in one
transaction. Every decision carries the round id and the step it was offered at, so stale and
double clicks are refused. No Discord import: a front calls these methods and receives events.

House bots (``settings.bot_seats``) are dealt in at the deal, in the seats members left free,
with bets escrowed from the house; they play basic strategy, or (``bot_strategy`` hilo) count
the table's public cards and play the Hi-Lo index plays with a bet ramp by the true count
(``bot_spread``), after a human pause (``bot_delay_seconds``, on the injected scheduler) and
decide insurance at once. Every decision
a member makes is graded against basic strategy (``bot.blackjack.grading``); the grades are
stored with the round's settlement, in the same transaction.

A round cut short by a restart is refunded by storage's recovery; the table itself holds no
chips between rounds, so there is nothing else to restore.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.blackjack.errors import (
    ActionRefused,
    BetRefused,
    NotInRoundError,
)
from bot.blackjack.events import (
    ActionTaken,
    BetPlaced,
    BettingOpened,
    RoundFinished,
    RoundRefunded,
    ShoeReshuffled,
    TableChanged,
    TableEvent,
    TablePhase,
    TurnStarted,
)
from bot.blackjack.seats import (
    Bettor,
    BlackjackSettings,
    BotStrategy,
    bot_bettors,
    check_bet,
    check_side_bets,
)
from bot.blackjack.settlement import paid_results, settle
from bot.blackjack.state import BlackjackTableState
from bot.tables.errors import StaleActionError
from bot.tables.moves import move_chips
from engine.blackjack import (
    SEATS,
    Action,
    Phase,
    Round,
    ShoeShuffled,
)
from engine.blackjack.counting import cards_shown
from engine.errors import EngineError
from storage import (
    AlreadySettled,
    BalanceLimitExceeded,
    BetReason,
    InsufficientChips,
    InvalidAmount,
    StorageError,
    UnknownRound,
)
from storage import InvalidArgument as StorageInvalidArgument

_log = logging.getLogger("felt.blackjack")

_REASONS = {
    Action.DOUBLE: BetReason.DOUBLE,
    Action.SPLIT: BetReason.SPLIT,
    Action.INSURE: BetReason.INSURANCE,
}


__all__ = ["BlackjackSettings", "BlackjackTable"]


class BlackjackTable(BlackjackTableState):
    """One channel's Blackjack table."""

    # ------------------------------------------------------------------------ betting

    async def bet(
        self,
        user_id: int,
        name: str,
        amount: int,
        *,
        key: str | None = None,
        side_bets: Mapping[BetReason, int] | None = None,
    ) -> int:
        """Place a bet (and side bets): it leaves the wallet now. Opens a round and its betting
        window if none.

        Returns the seat (0-6) the member plays at this round.
        """
        async with self._lock:
            check_bet(amount, self.settings)
            sides = check_side_bets(side_bets or {}, self.settings)
            await self.storage.ensure_account(self.guild_id, user_id)
            request = key or await self._bet_key(user_id)
            if self.phase is TablePhase.PLAYING:
                raise BetRefused("A round is being played. Bet again when it is over.")
            if user_id in self._bettors:
                raise BetRefused(f"You already bet {self._bettors[user_id].bet:,} on this round.")
            if sum(not b.bot for b in self._bettors.values()) >= SEATS:
                raise BetRefused(f"This round is full ({SEATS} players). Join the next one.")
            try:
                if self.phase is TablePhase.IDLE:
                    await self._open_round(user_id, amount, request, sides)
                else:
                    joining = self.round_id
                    assert joining is not None
                    await move_chips(
                        "bet",
                        lambda: self.storage.join_round(
                            joining, user_id, amount, key=request, side_bets=sides or None
                        ),
                    )
            except InsufficientChips:
                balance = await self._balance(user_id)
                total = amount + sum(sides.values())
                raise BetRefused(f"You have {balance:,} chips, not enough for {total:,}.") from None
            except (InvalidAmount, BalanceLimitExceeded, StorageInvalidArgument) as error:
                raise BetRefused(str(error)) from None
            seat = min(set(range(SEATS)) - {b.seat for b in self._bettors.values()})
            self._bettors[user_id] = Bettor(seat, user_id, name, amount, side_bets=sides)
            await self._publish(BetPlaced(user_id, name, amount, sides))
            await self._publish_table()
            return seat

    async def _open_round(
        self, user_id: int, amount: int, request: str, sides: Mapping[BetReason, int]
    ) -> None:
        """The first bet opens a round in storage and its betting window (under the lock)."""
        opened = await move_chips(
            "bet",
            lambda: self.storage.open_round(
                self.guild_id,
                self.channel_id,
                {user_id: amount},
                key=request,
                side_bets={user_id: sides} if sides else None,
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
        await self._seat_bots()
        bets = {b.seat: b.bet for b in self._bettors.values()}
        self.phase = TablePhase.PLAYING
        # The round deals at once, and reshuffles the shoe itself when the cut card came out
        # last round.
        self.round = Round(self.settings.rules, self._shoe, bets)
        if any(isinstance(event, ShoeShuffled) for event in self.round.events):
            assert self.round_id is not None
            self._shuffled = (self.round_id, self._scheduler.now())
            self._bot_counter.shuffle()  # a fresh shoe: the bots' count starts over
            self._shown.clear()
            if not self.settings.rules.reshuffle_every_round:
                await self._publish(ShoeReshuffled(self.round_id, self.shoe_state()))
        await self._publish_table()
        await self._advance()

    async def _seat_bots(self) -> None:
        """Deal the house's bots in, in the seats members left free, bets from the house."""
        round_id = self.round_id
        assert round_id is not None
        taken = {b.seat for b in self._bettors.values()}
        for bot in bot_bettors(taken, self.settings.bot_seats, self._bot_bet()):
            try:
                await move_chips(
                    "bot bet",
                    lambda bot=bot: self.storage.join_round_bot(  # type: ignore[misc]
                        round_id, bot.seat, bot.name, bot.bet, key=f"bj:{round_id}:bot:{bot.seat}"
                    ),
                )
            except StorageError:  # the round goes on without this bot; nothing moved
                _log.exception("could not seat a bot", extra={"round_id": round_id})
                continue
            self._bettors[bot.user_id] = bot

    def _bot_bet(self) -> int:
        """What each bot bets this round: the minimum, or (counting bots) the ramp's bet at the
        public true count, caught up with every card of the finished rounds (all shown)."""
        if self.settings.bot_strategy is BotStrategy.BASIC:
            return self.settings.min_bet
        self._bot_counter.observe(self._shoe)
        if self._shoe.needs_shuffle or self._bot_counter.cards_left <= 0:
            return self.settings.bot_bet(0.0)  # the round starts a fresh shoe
        return self.settings.bot_bet(self._bot_counter.true_count)

    # ------------------------------------------------------------------------ playing

    async def act(self, user_id: int, round_id: int, step: int, action: Action) -> None:
        """Apply a member's decision offered at (``round_id``, ``step``)."""
        async with self._lock:
            self.check_offer(user_id, round_id, step, action)
            bettor = self._bettors[user_id]
            game = self.round
            assert game is not None
            # Graded before the decision changes the round, kept unless it is refused (the
            # round may be settled inside _apply, so the grade must be there first).
            bettor.grades.append(self._grader.grade(game.decision(bettor.seat), action, bettor.bet))
            try:
                await self._apply(bettor, action, automatic=False)
            except ActionRefused:
                bettor.grades.pop()
                raise

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

    async def _apply(self, bettor: Bettor, action: Action, *, automatic: bool) -> None:
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
            except (AlreadySettled, UnknownRound):  # closed elsewhere: the table lets it go
                await self._void(round_id, "the round was closed elsewhere")
                raise ActionRefused("This round was cancelled.") from None
            except StorageError:
                _log.exception("could not add to a bet", extra={"round_id": round_id})
                raise ActionRefused(f"{action.label} could not be placed: try again.") from None
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
        if bettor.bot:
            self._timer = self._scheduler.call_later(
                self.settings.bot_delay_seconds, lambda: self._bot_turn(round_id, step)
            )
            await self._publish_table()
            return
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
        """Take at once the next decision of a player who left (no insurance, stand) or a bot's
        insurance decision (basic strategy); True if one was taken (the round has moved on)."""
        for seat in game.pending_insurance:
            bettor = self._by_seat(seat)
            if bettor.bot:
                await self._bot_play(
                    bettor, self._bot_strategy.choose(game.decision(seat), self._rng)
                )
                return True
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

    async def _bot_turn(self, round_id: int, step: int) -> None:
        """A bot's decision, after its pause: basic strategy."""
        async with self._lock:
            game = self.round
            if game is None or game.is_complete or round_id != self.round_id or step != self._step:
                return
            who = game.to_act
            if who is None or not self._by_seat(who[0]).bot:
                return
            choice = self._bot_strategy.choose(game.decision(who[0]), self._rng)
            await self._bot_play(self._by_seat(who[0]), choice)

    async def _bot_play(self, bot: Bettor, choice: Action) -> None:
        """A bot's decision; if storage will not take its extra stake, it plays on without."""
        game = self.round
        try:
            await self._apply(bot, choice, automatic=False)
        except ActionRefused:
            if game is not None and self.round is game and not game.is_complete:
                safe = Action.NO_INSURANCE if game.phase is Phase.INSURANCE else Action.STAND
                await self._apply(bot, safe, automatic=True)

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
        bettors = sorted(self._bettors.values(), key=lambda b: b.seat)
        settled = settle(game, bettors, self.settings.rules.describe())
        round_id = self.round_id
        try:
            stored = await move_chips(
                "settlement",
                lambda: self.storage.settle_round(
                    round_id,
                    settled.outcomes,
                    history=settled.history,
                    key=f"bj:{round_id}:settle",
                    grades=settled.grades,
                ),
            )
        except StorageError:
            # Whatever the refusal, the round must not stay in play: it is voided and refunded.
            _log.exception("could not settle a round; refunding it", extra={"round_id": round_id})
            await self._void(round_id, "it could not be settled")
            return
        results = paid_results(settled.results, stored.payouts)
        finished = RoundFinished(round_id, results, self.snapshot())
        self.rounds_played += 1
        self._reset_round()
        await self._publish(finished)
        await self._publish_table()

    async def _void(self, round_id: int, reason: str) -> None:
        """Refund ``round_id`` and free the table. If storage refuses the refund too, its chips
        stay in the round's escrow (``db check`` counts them there) and recovery refunds it
        at the next start; the table is free either way."""
        held = False
        try:
            await move_chips(
                "refund",
                lambda: self.storage.refund_round(
                    round_id, reason=reason, key=f"bj:{round_id}:refund"
                ),
            )
        except AlreadySettled:
            pass  # closed elsewhere (recovery by another instance): nothing is left to move
        except StorageError:
            _log.exception("could not refund a round", extra={"round_id": round_id})
            held = True
        self._reset_round()
        await self._publish(RoundRefunded(round_id, reason, held=held))
        await self._publish_table()

    def _reset_round(self) -> None:
        if self.round is not None:  # what the round showed stays counted until the shuffle
            shown = cards_shown(self.round.view())
            self._shown.extend(shown)
            self._shown_before += len(shown)
        self._cancel_timer()
        self.phase = TablePhase.IDLE
        self.round = None
        self.round_id = None
        self._bettors.clear()

    # ------------------------------------------------------------------------ shutdown

    async def suspend(self, reason: str = "Felt is restarting") -> None:
        """For a shutdown: refund the round in progress (every bet back to its wallet)."""
        async with self._lock:
            self._suspended = True
            self._cancel_timer()
            if self.round_id is not None:
                await self._void(self.round_id, reason)

    # ------------------------------------------------------------------------ helpers

    async def _bet_key(self, user_id: int) -> str:
        """A bet's key when the front gave none: the member's next round at this table,
        named by the last round they played (so a bet re-sent after a lost answer applies once)."""
        rounds = await self.storage.list_rounds(self.guild_id, user_id=user_id, limit=1)
        last = rounds[0].round_id if rounds else 0
        where = self.round_id if self.round_id is not None else "new"
        return f"bj:{self.channel_id}:bet:{user_id}:after-round:{last}:round:{where}"

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
