"""The Blackjack table's buttons: persistent, stateless, parsed from their custom_id.

Buttons are ``DynamicItem``s, so a click is understood from its custom_id alone, after a restart
too. They hold no game state: a click goes to the handler the cog registered
(``BlackjackFront``), which checks who is asking against the table host and applies the
decision. What both games' buttons share is in ``bot.discord.table_components``.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.discord import table_components
from bot.discord.blackjack import ids
from bot.discord.blackjack.count import CountButton
from bot.discord.blackjack.drill import DrillButton
from bot.discord.blackjack.ids import ActionRef
from bot.discord.blackjack.live_count import LIVE_BUTTONS
from bot.discord.table_components import ButtonSpec, Handlers, TableButton
from engine.blackjack import Action


class BlackjackFront(Protocol):
    """What the buttons need from the Blackjack cog."""

    async def on_action(
        self, interaction: discord.Interaction[Any], ref: ActionRef, action: Action
    ) -> None: ...

    async def on_deal_now(self, interaction: discord.Interaction[Any], round_id: int) -> None: ...

    async def on_hint(self, interaction: discord.Interaction[Any], round_id: int) -> None: ...


HANDLERS: Handlers[BlackjackFront] = Handlers("Blackjack")
"""The Blackjack cog registers itself here in ``cog_load``."""


class ActionButton(TableButton, template=ids.ACTION_TEMPLATE):
    """Hit, Stand, Double down, Split, Surrender, Insurance, Even money or No insurance, for one
    offer (round, step)."""

    what = "blackjack action button"

    def parse(self, match: re.Match[str]) -> None:
        self.ref = ActionRef(int(match["round"]), int(match["step"]))
        self.action = Action(match["action"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_action(interaction, self.ref, self.action)


class DealButton(TableButton, template=ids.DEAL_TEMPLATE):
    """ "Deal now": closes the betting window early (players with a bet only)."""

    what = "blackjack deal now button"

    def parse(self, match: re.Match[str]) -> None:
        self.round_id = int(match["round"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_deal_now(interaction, self.round_id)


class HintButton(TableButton, template=ids.HINT_TEMPLATE):
    """ "Hint": what basic strategy says, for the clicking player's eyes only."""

    what = "blackjack hint button"

    def parse(self, match: re.Match[str]) -> None:
        self.round_id = int(match["round"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_hint(interaction, self.round_id)


DYNAMIC_ITEMS: tuple[type[TableButton], ...] = (
    ActionButton,
    DealButton,
    HintButton,
    DrillButton,
    CountButton,
    *LIVE_BUTTONS,
)
"""What the cog registers with ``bot.add_dynamic_items``."""


def build_view(buttons: list[ButtonSpec]) -> discord.ui.View | None:
    """The discord.py view of the table message's buttons (None when there are none)."""
    return table_components.build_view(buttons, DYNAMIC_ITEMS)
