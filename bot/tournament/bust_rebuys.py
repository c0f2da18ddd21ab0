"""Rebuys offered at the bust: which busts the director holds for a decision and until when,
the bots' rule, and taking (paid into the pool through storage first) or declining one.

Nothing here waits for an answer. ``TournamentDirector.settle`` hands the engine the busts to
hold (``held_at_bust``) and the table plays on at once without them; the offer is news to the
front (``RebuyOffered``); the answer arrives later as its own call
(``TournamentDirector.decide_rebuy``: a click, a bot's turn of the scheduler, or nobody, when the
director's timer reaches the deadline and the engine eliminates the entry in the place its bust
gave it). The deadline is in the saved engine state, so a restart resumes the offer with the
time it had left (a deadline that passed while the bot was down ends the offer at the first
tick).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from bot.tables.clock import Callback, Scheduler
from bot.tournament.errors import TournamentRefusal
from bot.tournament.memory import Memory, user_of
from bot.tournament.news import RebuyOffered, TournamentNews
from engine.tournament.events import TournamentEvent
from engine.tournament.tournament import Phase, Tournament
from storage import Storage
from storage.errors import StorageError
from storage.tournaments import EntryPayment

_log = logging.getLogger("felt.tournament")

REBUY_WINDOW_SECONDS = 60.0
"""How long a busted player has to take the rebuy (never past the end of the rebuy period)."""

NO_OFFER = "That rebuy is no longer on offer."


def held_at_bust(
    engine: Tournament, stacks: Mapping[int, int], now: float, window: float
) -> dict[int, float]:
    """The busts in ``stacks`` (entry -> stack after the hand) the rules sell a rebuy now, each
    with its deadline: ``window`` seconds from ``now``, or the end of the rebuy period if that
    comes first. Members and bots alike (a bot answers at once, ``bot_takes_rebuy``)."""
    until = now + window
    period_end = engine.rebuy_period_ends_at
    if period_end is not None:
        until = min(until, period_end)
    return {
        entry: until
        for entry, stack in sorted(stacks.items())
        if stack == 0 and engine.may_rebuy(entry, stack=0)
    }


def bot_takes_rebuy(engine: Tournament, entry: int) -> bool:
    """The bots' rule: a bot takes every rebuy the rules still sell it (as in ``felt sim
    tournament --rebuys``, so the simulator's figures describe these bots); the house pays, as
    it paid the bot's entry. If the house cannot pay, the bot is eliminated."""
    return engine.can_rebuy_held(entry)


def offer_news(engine: Tournament, memory: Memory, entry: int) -> RebuyOffered | None:
    """What the front shows a member whose bust is held (None for a bot: it answers itself)."""
    player = engine.entries[entry].player
    user = user_of(player)
    if user is None:
        return None
    held = engine.held[entry]
    name = memory.names.get(player, player)
    return RebuyOffered(user, name, entry, held.table, engine.structure.rebuy_chips, held.until)


def rebuy_key(tournament_id: int, entry: int, number: int) -> str:
    """The idempotency key of ``entry``'s rebuy number ``number``: a double click, or a retry
    after a crash, pays once."""
    return f"tournament:{tournament_id}:entry:{entry}:rebuy:{number}"


async def decide(
    storage: Storage, tournament_id: int, engine: Tournament, player: str, take: bool
) -> list[TournamentEvent]:
    """``player``'s answer to their held bust: the rebuy paid into the pool and taken, or the
    elimination. Refused (nothing changed) when no offer is open; a member's wallet that cannot
    pay raises the storage refusal and leaves the offer open."""
    if engine.phase is not Phase.RUNNING:
        raise TournamentRefusal("The tournament is over: no rebuy now.")
    entry = engine.held_entry_of(player)
    if entry is None:
        raise TournamentRefusal(NO_OFFER)
    if not take:
        return engine.decline_held(entry)
    if not engine.can_rebuy_held(entry):
        raise TournamentRefusal(NO_OFFER)
    user = user_of(player)
    payer: int | str = user if user is not None else player[1:]
    key = rebuy_key(tournament_id, entry, engine.entries[entry].rebuys + 1)
    try:
        await storage.pay_tournament_entry(tournament_id, payer, EntryPayment.REBUY, key=key)
    except StorageError:
        if user is not None:
            raise
        _log.warning("the house could not pay a bot's rebuy", exc_info=True)
        return engine.decline_held(entry)
    return engine.rebuy_held(entry)


class Director(Protocol):
    """What the desk needs of the tournament's director."""

    storage: Storage
    tournament_id: int
    engine: Tournament
    memory: Memory

    async def decide_rebuy(self, player: str, take: bool) -> None: ...


class BustRebuyDesk:
    """One tournament's rebuys at the bust, for its director: the busts to hold, the offers
    told, the bots' answers, and the decisions (the director holds its lock around each)."""

    def __init__(
        self,
        director: Director,
        scheduler: Scheduler,
        news: Callable[[TournamentNews], Awaitable[None]],
        window: float = REBUY_WINDOW_SECONDS,
    ) -> None:
        self._director = director
        self._scheduler = scheduler
        self._news = news
        self.window = window

    def hold(self, stacks: Mapping[int, int]) -> dict[int, float]:
        """The busts of a hand's result to hold, with their deadlines (``held_at_bust``)."""
        engine = self._director.engine
        return held_at_bust(engine, stacks, self._scheduler.now(), self.window)

    async def offered(self, entry: int) -> None:
        """A bust was held: a member is told (``RebuyOffered``), a bot answers at the
        scheduler's next turn, never inside the hand's settlement."""
        director = self._director
        if entry not in director.engine.held:
            return  # the same result ended the rebuy period
        news = offer_news(director.engine, director.memory, entry)
        if news is not None:
            await self._news(news)
        else:
            self._scheduler.call_later(0.0, self._bot_answer(entry))

    def resume(self) -> None:
        """After a restart: the bots whose busts were held answer (members' offers stand,
        their deadlines in the saved state)."""
        engine = self._director.engine
        for entry in sorted(engine.held):
            if user_of(engine.entries[entry].player) is None:
                self._scheduler.call_later(0.0, self._bot_answer(entry))

    def _bot_answer(self, entry: int) -> Callback:
        director = self._director
        player = director.engine.entries[entry].player

        async def answer() -> None:
            # A refusal: decided already (the deadline, the end of the period or tournament).
            with contextlib.suppress(TournamentRefusal):
                await director.decide_rebuy(player, bot_takes_rebuy(director.engine, entry))

        return answer

    async def decide(self, player: str, take: bool) -> list[TournamentEvent]:
        """``decide`` for this tournament (the director's lock held)."""
        director = self._director
        return await decide(director.storage, director.tournament_id, director.engine, player, take)
