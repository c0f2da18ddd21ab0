"""``/blackjack count``: the counting-speed drill in an ephemeral message (opt-in per server).

A sequence of cards, then "what is the running count?" with four answers as buttons. Like the
strategy drill it is stateless: each button carries the system, the length, the seed and the
score (``ids.COUNT_TEMPLATE``); the right answer is worked out again from the seed on a click.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.blackjack.counting import CountQuestion, CountSystem, count_question
from bot.blackjack.drill import Score, next_seed
from bot.discord.blackjack import ids
from bot.discord.blackjack.ids import CountRef
from bot.discord.errors import Refusal
from bot.discord.table_components import ButtonSpec, TableButton, build_view
from bot.render.cards import card_label


class CountButton(TableButton, template=ids.COUNT_TEMPLATE):
    """An answer in the counting drill: scored, then the next sequence."""

    what = "blackjack count button"

    def parse(self, match: re.Match[str]) -> None:
        self.ref = CountRef(
            match["system"],
            int(match["cards"]),
            int(match["seed"]),
            int(match["asked"]),
            int(match["right"]),
            int(match["streak"]),
        )
        self.answer = int(match["answer"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        content, view = answered(self.ref, self.answer)
        await interaction.response.edit_message(content=content, view=view)


def start(system: CountSystem, cards: int, seed: int) -> tuple[str, discord.ui.View]:
    """The drill's first message."""
    head = (
        f"**Counting drill** ({system.label}, {cards} cards from a fresh shoe, so the count "
        "starts at 0). No chips involved."
    )
    return _message(
        head, count_question(system, cards, seed), CountRef(system, cards, seed, 0, 0, 0)
    )


def answered(ref: CountRef, answer: int) -> tuple[str, discord.ui.View]:
    """The message after ``answer``: the verdict with each card's tag, and the next sequence."""
    try:
        system = CountSystem(ref.system)
        asked = count_question(system, ref.cards, ref.seed)
    except ValueError:
        raise Refusal("That drill is no longer offered: start a new `/blackjack count`.") from None
    if answer not in asked.choices:
        raise Refusal(f"{answer:+d} is not one of the answers to this question.")
    right = answer == asked.count
    score = Score(ref.asked, ref.right, ref.streak).after(right)
    verdict = (
        f"✅ {asked.count:+d}: correct."
        if right
        else f"❌ {answer:+d}: the count was **{asked.count:+d}** ({asked.explanation()})."
    )
    seed = next_seed(ref.seed)
    following = count_question(system, ref.cards, seed)
    return _message(
        f"{verdict}\n{score.text}",
        following,
        CountRef(system, ref.cards, seed, score.asked, score.right, score.streak),
    )


def _message(head: str, asked: CountQuestion, ref: CountRef) -> tuple[str, discord.ui.View]:
    cards = " ".join(card_label(card) for card in asked.cards)
    content = f"{head}\n\n{cards}\nWhat is the running count ({asked.system.label})?"
    buttons = [
        ButtonSpec(ids.count_id(ref, choice), f"{choice:+d}", discord.ButtonStyle.secondary, 0)
        for choice in asked.choices
    ]
    view = build_view(buttons, (CountButton,))
    assert view is not None
    return content, view
