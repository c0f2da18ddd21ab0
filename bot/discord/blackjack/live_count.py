"""``/blackjack count at_table:true``: the running count of a live table, asked at a random moment.

A member arms a question for this channel's table. After a random number of further cards
shown (``ASK_AFTER_CARDS``), at the next change of the table during a round, Felt asks them (only
them: an ephemeral followup of their own interaction) for the running count in their system, with
four answers as buttons; the answer is scored and the message offers to ask again.

Nothing a player should not know is ever used or shown. The count is worked out from the table's
public cards (``BlackjackTableState.public_count``: the finished rounds since the shuffle and the
face-up cards of the round in play, never a hole card still face down); the moment is chosen from
public events only (cards shown), so its timing says nothing about the cards to come; and the
buttons carry the question's number, not its right answer, which stays in memory here.

A question lives as long as Discord lets Felt follow up on the interaction that armed it
(``FOLLOWUP_SECONDS``); a restart forgets them all (the buttons then say so).
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.blackjack.counting import CountSystem, LiveQuestion, live_question
from bot.blackjack.drill import Score
from bot.blackjack.events import TableChanged, TableEvent, TablePhase
from bot.blackjack.state import BlackjackTableState
from bot.discord.blackjack import ids
from bot.discord.errors import Refusal
from bot.discord.table_components import ButtonSpec, Handlers, TableButton, build_view

_log = logging.getLogger("felt.discord.blackjack")

ASK_AFTER_CARDS = (3, 30)
"""A question comes after this many more cards are shown (chosen at random, both included)."""
FOLLOWUP_SECONDS = 14 * 60
"""Discord accepts followups for 15 minutes after an interaction; an armed question that has
not come by then is dropped."""


class LiveFront(Protocol):
    """What the live count buttons need from the Blackjack cog (registered in ``cog_load``)."""

    @property
    def live_counts(self) -> LiveCounts: ...

    async def arm_live_count(
        self, interaction: discord.Interaction[Any], system: CountSystem, score: Score
    ) -> None: ...


HANDLERS: Handlers[LiveFront] = Handlers("Blackjack")


@dataclass(slots=True)
class _Armed:
    """A member waiting for their question at one table."""

    user_id: int
    system: CountSystem
    followup: discord.Webhook
    table: BlackjackTableState
    ask_at: int
    """The table's ``cards_shown_total`` from which to ask."""
    expires: float
    score: Score


@dataclass(slots=True)
class _Asked:
    user_id: int
    question: LiveQuestion
    score: Score
    expires: float


@dataclass(slots=True)
class LiveCounts:
    """The armed and asked live count questions of every table (in memory only)."""

    now: Callable[[], float]
    rng: random.Random
    _armed: dict[tuple[int, int], _Armed] = field(default_factory=dict)
    _asked: dict[int, _Asked] = field(default_factory=dict)
    _numbers: int = 0
    _sending: set[asyncio.Task[Any]] = field(default_factory=set)

    def arm(
        self,
        table: BlackjackTableState,
        user_id: int,
        system: CountSystem,
        followup: discord.Webhook,
        score: Score,
    ) -> None:
        """Ask ``user_id`` for ``table``'s count at a random moment (replacing a question they
        were already waiting for there)."""
        self._forget_expired()
        low, high = ASK_AFTER_CARDS
        self._armed[(table.channel_id, user_id)] = _Armed(
            user_id,
            system,
            followup,
            table,
            table.cards_shown_total + self.rng.randint(low, high),
            self.now() + FOLLOWUP_SECONDS,
            score,
        )

    def _forget_expired(self) -> None:
        """Drop the questions nobody can be asked or answer any more (they would only pile up
        at tables that stopped playing)."""
        now = self.now()
        for key in [key for key, armed in self._armed.items() if armed.expires <= now]:
            del self._armed[key]
        for number in [n for n, asked in self._asked.items() if asked.expires <= now]:
            del self._asked[number]

    def waiting(self, channel_id: int) -> list[int]:
        """The members waiting for a question at ``channel_id``'s table."""
        return [user for (channel, user) in self._armed if channel == channel_id]

    def watch(self, table: BlackjackTableState, event: TableEvent) -> None:
        """Called with each event of ``table`` as it happens: ask whoever's moment has come.

        Synchronous, so the count is the table's at exactly this event."""
        if not isinstance(event, TableChanged) or event.snapshot.phase is not TablePhase.PLAYING:
            return
        now = self.now()
        for key, armed in list(self._armed.items()):
            if key[0] != table.channel_id:
                continue
            if armed.expires <= now:
                del self._armed[key]
                continue
            if armed.table is not table:  # the table was remade between rounds: a new shoe
                armed.table, armed.ask_at = table, table.cards_shown_total + 1
            elif table.cards_shown_total >= armed.ask_at:
                del self._armed[key]
                self._ask(table, armed)

    def _ask(self, table: BlackjackTableState, armed: _Armed) -> None:
        question = live_question(
            table.public_count(armed.system), table.shoe_state().shuffled_round, self.rng
        )
        self._numbers += 1
        number = self._numbers
        self._asked[number] = _Asked(
            armed.user_id, question, armed.score, self.now() + FOLLOWUP_SECONDS
        )
        content, view = _question_message(number, question)
        self._spawn(armed.followup.send(content, view=view, ephemeral=True, wait=False))

    def _spawn(self, sending: Coroutine[Any, Any, Any]) -> None:
        async def send() -> None:
            try:
                await sending
            except discord.HTTPException:  # the member's interaction expired: nobody to ask
                _log.info("could not send a live count question", exc_info=True)

        task = asyncio.get_running_loop().create_task(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def answer(self, number: int, user_id: int, answer: int) -> tuple[str, discord.ui.View]:
        """Score ``answer`` to question ``number``: the verdict, and a button to be asked again."""
        asked = self._asked.get(number)
        if asked is None:
            raise Refusal(
                "That question has expired: `/blackjack count at_table:true` to be asked again."
            )
        if asked.user_id != user_id:
            raise Refusal("That question was for someone else.")
        question = asked.question
        if answer not in question.choices:
            raise Refusal(f"{answer:+d} is not one of the answers to this question.")
        del self._asked[number]
        right = answer == question.right
        score = asked.score.after(right)
        verdict = (
            f"✅ {answer:+d}: correct."
            if right
            else f"❌ {answer:+d}: the running count was **{question.right:+d}**."
        )
        content = f"{verdict} ({question.system.label}: {question.explanation()}.)\n{score.text}"
        again = ButtonSpec(
            ids.live_again_id(question.system.value, score.asked, score.right, score.streak),
            "Ask me again",
            discord.ButtonStyle.primary,
            0,
        )
        view = build_view([again], LIVE_BUTTONS)
        assert view is not None
        return content, view

    async def aclose(self) -> None:
        """Forget every question and stop sending."""
        self._armed.clear()
        self._asked.clear()
        for task in list(self._sending):
            task.cancel()


def armed_text(system: CountSystem) -> str:
    """What a member reads when their question is armed."""
    return (
        f"**Live count** ({system.label}): at a random moment of play at this table, Felt will "
        "ask you (and only you) for the running count of every card shown since the last "
        "shuffle. Keep counting. No chips involved."
    )


def _question_message(number: int, question: LiveQuestion) -> tuple[str, discord.ui.View]:
    content = (
        f"**Live count** ({question.system.label}): what is the running count of every card "
        "shown at this table since the last shuffle, right now?"
    )
    buttons = [
        ButtonSpec(ids.live_id(number, choice), f"{choice:+d}", discord.ButtonStyle.secondary, 0)
        for choice in question.choices
    ]
    view = build_view(buttons, LIVE_BUTTONS)
    assert view is not None
    return content, view


class LiveAnswerButton(TableButton, template=ids.LIVE_TEMPLATE):
    """An answer to a live count question."""

    what = "blackjack live count button"

    def parse(self, match: re.Match[str]) -> None:
        self.number = int(match["question"])
        self.answer = int(match["answer"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        live = HANDLERS.of(interaction).live_counts
        content, view = live.answer(self.number, interaction.user.id, self.answer)
        await interaction.response.edit_message(content=content, view=view)


class LiveAgainButton(TableButton, template=ids.LIVE_AGAIN_TEMPLATE):
    """ "Ask me again": arms another live question at this channel's table."""

    what = "blackjack live count again button"

    def parse(self, match: re.Match[str]) -> None:
        self.system = match["system"]
        self.score = Score(int(match["asked"]), int(match["right"]), int(match["streak"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        front = HANDLERS.of(interaction)
        try:
            system = CountSystem(self.system)
        except ValueError:
            raise Refusal("That counting system is no longer offered.") from None
        await front.arm_live_count(interaction, system, self.score)


LIVE_BUTTONS: tuple[type[TableButton], ...] = (LiveAnswerButton, LiveAgainButton)
