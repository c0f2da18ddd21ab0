"""A Blackjack table's state and the questions it answers without changing anything: the public
snapshot, the shoe's state, a member's hint, and whether a click may apply now. The table host
(``bot.blackjack.host``) adds everything that changes the table."""

from __future__ import annotations

import asyncio
import random
import secrets

from bot.blackjack.errors import ActionRefused, NoDecisionError, NotInRoundError
from bot.blackjack.events import (
    BlackjackSnapshot,
    Player,
    ShoeState,
    TableEvent,
    TablePhase,
)
from bot.blackjack.grading import Grader
from bot.blackjack.seats import Bettor, BlackjackSettings, BotStrategy
from bot.blackjack.view import in_order
from bot.tables.clock import Scheduler, TimerHandle
from bot.tables.errors import STALE_BUTTON, StaleActionError
from bot.tables.presenter import Presenter
from engine.blackjack import (
    INSURANCE_ACTIONS,
    Action,
    Advice,
    BasicStrategy,
    BlackjackStrategy,
    Phase,
    Round,
    Shoe,
)
from engine.blackjack.counting import Counter, CountSystem, ShoeCount, cards_shown, shown_count
from engine.blackjack.hilo import HiLoStrategy
from engine.cards import Card
from storage import Storage


class BlackjackTableState:
    """One channel's Blackjack table: its state and its read-only questions."""

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
        # The bots' count is the table's public one: every card of a finished round (the hole
        # card is turned over at the end of each) since the shuffle, caught up after each round.
        self._bot_counter = Counter(CountSystem.HILO, settings.rules.decks)
        self._bot_strategy: BlackjackStrategy = (
            HiLoStrategy(settings.rules, self._bot_counter)
            if settings.bot_strategy is BotStrategy.HILO
            else self._strategy
        )
        self._grader = Grader(settings.rules)
        self._lock = asyncio.Lock()
        self._bettors: dict[int, Bettor] = {}
        self._shuffled: tuple[int, float] | None = None
        self._timer: TimerHandle | None = None
        self._deadline: float | None = None
        self._step = 0
        self._suspended = False
        self._shown: list[Card] = []
        """The cards of the finished rounds since the last shuffle (every one turned over)."""
        self._shown_before = 0
        """Cards shown at this table in the finished rounds, since it opened."""

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
        players = self._players()
        offers: dict[int, frozenset[Action]] = {}
        if game is not None and not game.is_complete:
            for b in self._bettors.values():
                choices = game.legal_actions(b.seat)
                if choices and not b.bot:
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
            shoe=self.shoe_state(),
        )

    def shoe_state(self) -> ShoeState:
        """The shoe's public state: cards left, the discards, the last reshuffle."""
        return ShoeState.of(self._shoe, self.settings.rules, self._shuffled)

    def public_cards(self) -> tuple[Card, ...]:
        """Every card shown since the last shuffle, in the order shown: the finished rounds'
        and what the round in play shows (``cards_shown`` of its public view, so never a hole
        card still face down)."""
        current = cards_shown(self.round.view()) if self.round is not None else ()
        return (*self._shown, *current)

    def public_count(self, system: CountSystem) -> ShoeCount:
        """The running count of the cards shown since the last shuffle, as a player counting
        at this table has it now."""
        return shown_count(self.public_cards(), system, self.settings.rules.decks)

    @property
    def cards_shown_total(self) -> int:
        """Cards shown at this table since it opened (a clock that ticks with the cards)."""
        current = len(cards_shown(self.round.view())) if self.round is not None else 0
        return self._shown_before + current

    def _players(self) -> tuple[Player, ...]:
        return tuple(b.player for b in sorted(self._bettors.values(), key=lambda b: b.seat))

    def hint(self, user_id: int) -> Advice:
        """What basic strategy says for the member's current decision (for their eyes)."""
        game = self.round
        bettor = self._bettors.get(user_id)
        if bettor is None or game is None or game.is_complete:
            raise NotInRoundError("You have no hand in play.")
        if not game.legal_actions(bettor.seat):
            raise NoDecisionError("You have no decision to make right now.")
        return self._strategy.advice(game.decision(bettor.seat))

    # ------------------------------------------------------------------------ offers

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
        offers = game.legal_actions(bettor.seat) if not bettor.bot else frozenset()
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

    def _by_seat(self, seat: int) -> Bettor:
        return next(b for b in self._bettors.values() if b.seat == seat)
