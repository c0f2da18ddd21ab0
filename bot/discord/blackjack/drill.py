"""``/blackjack drill``: the basic-strategy drill in an ephemeral message, answered with buttons.

No chips and no stored state: each answer button carries the rule preset, the question's seed
and the score (``ids.DRILL_TEMPLATE``), so a click is understood from its custom_id alone, after
a restart too. A click edits the member's own ephemeral message: the verdict on the answer
(with the chart cell and each action's expected value after a miss), the score and streak, and
the next question.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.blackjack.drill import Answer, Question, Score, answer, next_seed, question
from bot.blackjack.view import in_order, total_text
from bot.discord.blackjack import ids
from bot.discord.blackjack.ids import DrillRef
from bot.discord.errors import Refusal
from bot.discord.table_components import ButtonSpec, TableButton, build_view
from bot.render.cards import card_label
from engine.blackjack import PRESETS, Action, Phase, preset

_STYLES = {
    Action.HIT: discord.ButtonStyle.primary,
    Action.STAND: discord.ButtonStyle.success,
    Action.SURRENDER: discord.ButtonStyle.danger,
}


class DrillButton(TableButton, template=ids.DRILL_TEMPLATE):
    """An answer in the drill: graded, then the next question."""

    what = "blackjack drill button"

    def parse(self, match: re.Match[str]) -> None:
        self.ref = DrillRef(
            match["preset"],
            int(match["seed"]),
            int(match["asked"]),
            int(match["right"]),
            int(match["streak"]),
        )
        self.action = Action(match["action"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        content, view = answered(self.ref, self.action)
        await interaction.response.edit_message(content=content, view=view)


def start(preset_name: str, seed: int) -> tuple[str, discord.ui.View]:
    """The drill's first message: its rules and the first question."""
    rules = preset(preset_name)
    header = f"**Basic-strategy drill** ({preset_name}: {rules.describe()}). No chips involved."
    asked = question(rules, seed)
    return _message(header, asked, DrillRef(preset_name, seed, 0, 0, 0))


def answered(ref: DrillRef, action: Action) -> tuple[str, discord.ui.View]:
    """The message after ``action`` answered ``ref``'s question: the verdict and the next one."""
    if ref.preset not in PRESETS:
        raise Refusal("That drill's rules are no longer offered: start a new `/blackjack drill`.")
    rules = preset(ref.preset)
    asked = question(rules, ref.seed)
    if action not in asked.legal:
        raise Refusal(f"{action.label} is not a choice in this drill question.")
    graded = answer(rules, asked, action)
    score = Score(ref.asked, ref.right, ref.streak).after(graded.grade.correct)
    verdict = verdict_text(asked, action, graded)
    seed = next_seed(ref.seed)
    following = question(rules, seed)
    return _message(
        f"{verdict}\n{score.text}",
        following,
        DrillRef(ref.preset, seed, score.asked, score.right, score.streak),
    )


def verdict_text(asked: Question, action: Action, graded: Answer) -> str:
    """✅ or ❌ with the chart cell; after a miss, each action's expected value too."""
    hand = _hand_text(asked)
    if graded.grade.correct:
        return f"✅ {action.label} on {hand}: correct."
    values = " · ".join(
        f"{choice.label.lower()} {graded.values[choice]:+.2f}"
        for choice in in_order(asked.legal)
        if choice in graded.values
    )
    lines = [f"❌ {action.label} on {hand}: {graded.grade.text}.", f"Chart: {graded.advice.text}."]
    if values:
        lines.append(f"Expected value per bet: {values}.")
    return "\n".join(lines)


def _hand_text(asked: Question) -> str:
    decision = asked.decision
    cards = " ".join(card_label(card) for card in decision.cards)
    return f"{cards} ({total_text(decision.cards)}) against {card_label(decision.dealer_up)}"


def _message(head: str, asked: Question, ref: DrillRef) -> tuple[str, discord.ui.View]:
    kind = "Insurance?" if asked.decision.phase is Phase.INSURANCE else "Your play?"
    content = f"{head}\n\nYou hold {_hand_text(asked)}. {kind}"
    buttons = [
        ButtonSpec(
            ids.drill_id(ref, action),
            action.label,
            _STYLES.get(action, discord.ButtonStyle.secondary),
            0,
        )
        for action in in_order(asked.legal)
    ]
    view = build_view(buttons, (DrillButton,))
    assert view is not None  # every question has a choice
    return content, view
