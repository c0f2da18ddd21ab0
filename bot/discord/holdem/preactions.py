"""The private panel under "My cards": pre-action toggles and Away / Back, for one member's eyes.

"My cards" (and ``/holdem cards``) answer ephemerally with the member's hole cards and this
panel: "Check/Fold", "Check" and "Call any" tick or untick a pre-action for their next turn in
this hand (``bot.holdem.preactions`` has the rules), "Away" sits them out (their turns in this
hand play at once) and "Back" deals them in again. A click edits the panel in place; only the
member sees it, and a refusal is one private line.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord import table_components
from bot.discord.holdem import ids
from bot.discord.holdem.components import HANDLERS
from bot.discord.table_components import ButtonSpec, TableButton
from bot.holdem.host import HoldemTable
from bot.holdem.preactions import PreAction

AWAY, BACK = "away", "back"


class PreActionButton(TableButton, template=ids.PRE_ACTION_TEMPLATE):
    """A toggle of the private panel: a pre-action, Away or Back."""

    what = "holdem pre-action button"

    def parse(self, match: re.Match[str]) -> None:
        self.table_id, self.choice = int(match["table"]), match["choice"]

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_pre_action(interaction, self.table_id, self.choice)


def panel_text(table: HoldemTable, user_id: int) -> str:
    """What the panel says: the pre-action that stands, or that the member is away."""
    seat_no = table.seat_of(user_id)
    if seat_no is not None and table.seats[seat_no].sitting_out:
        return "You are **away**: your turns are checked or folded at once. **Back** to play."
    armed = table.pre_action_of(user_id)
    if armed is None:
        return "Pre-action: none (tick one to play it the moment your turn comes)."
    return f"Pre-action: **{armed.label}** ✓ (click it again to untick)."


def panel_view(table: HoldemTable, user_id: int) -> discord.ui.View | None:
    """The panel's buttons: the three pre-actions (the ticked one green) and Away or Back."""
    seat_no = table.seat_of(user_id)
    if seat_no is None:
        return None
    away = table.seats[seat_no].sitting_out
    armed = table.pre_action_of(user_id)
    specs = [
        ButtonSpec(
            ids.pre_action_id(table.table_id, choice.value),
            choice.label,
            discord.ButtonStyle.success if choice is armed else discord.ButtonStyle.secondary,
            row=0,
            disabled=away,
        )
        for choice in PreAction
    ]
    toggle = BACK if away else AWAY
    specs.append(
        ButtonSpec(
            ids.pre_action_id(table.table_id, toggle),
            toggle.capitalize(),
            discord.ButtonStyle.primary if away else discord.ButtonStyle.danger,
            row=1,
        )
    )
    return table_components.build_view(specs, (PreActionButton,))


async def answer_pre_action(
    interaction: discord.Interaction[Any], table: HoldemTable, choice: str
) -> None:
    """Apply a panel click, then show the panel as it stands now."""
    user_id = interaction.user.id
    if choice == AWAY:
        await table.sit_out(user_id)
    elif choice == BACK:
        await table.back(user_id)
    else:
        wanted = PreAction(choice)
        await table.pre_act(user_id, None if table.pre_action_of(user_id) is wanted else wanted)
    await interaction.response.edit_message(
        content=panel_text(table, user_id), view=panel_view(table, user_id)
    )
