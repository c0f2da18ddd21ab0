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

from bot.discord.blackjack import ids
from bot.discord.blackjack.ids import ActionRef
from bot.discord.table_components import ButtonSpec, Handlers, button_of, spec_of
from bot.discord.tree import route_errors
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


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.ACTION_TEMPLATE):
    """Hit, Stand, Double down, Split, Surrender, Insurance, Even money or No insurance, for one
    offer (round, step)."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(button_of(spec))
        match = self.template.fullmatch(spec.custom_id)
        assert match is not None
        self.ref = ActionRef(int(match["round"]), int(match["step"]))
        self.action = Action(match["action"])

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        return cls(spec_of(item, match.group(0)))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with route_errors(interaction, "blackjack action button"):
            await HANDLERS.of(interaction).on_action(interaction, self.ref, self.action)


class DealButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.DEAL_TEMPLATE):
    """ "Deal now": closes the betting window early (players with a bet only)."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(button_of(spec))
        match = self.template.fullmatch(spec.custom_id)
        assert match is not None
        self.round_id = int(match["round"])

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DealButton:
        return cls(spec_of(item, match.group(0)))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with route_errors(interaction, "blackjack deal now button"):
            await HANDLERS.of(interaction).on_deal_now(interaction, self.round_id)


class HintButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.HINT_TEMPLATE):
    """ "Hint": what basic strategy says, for the clicking player's eyes only."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(button_of(spec))
        match = self.template.fullmatch(spec.custom_id)
        assert match is not None
        self.round_id = int(match["round"])

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HintButton:
        return cls(spec_of(item, match.group(0)))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with route_errors(interaction, "blackjack hint button"):
            await HANDLERS.of(interaction).on_hint(interaction, self.round_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton,
    DealButton,
    HintButton,
)
"""What the cog registers with ``bot.add_dynamic_items``."""

_KINDS: tuple[tuple[re.Pattern[str], type[discord.ui.DynamicItem[Any]]], ...] = (
    (re.compile(ids.ACTION_TEMPLATE), ActionButton),
    (re.compile(ids.DEAL_TEMPLATE), DealButton),
    (re.compile(ids.HINT_TEMPLATE), HintButton),
)


def build_view(buttons: list[ButtonSpec]) -> discord.ui.View | None:
    """The discord.py view of the table message's buttons (None when there are none)."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for spec in buttons:
        kind = next(kind for pattern, kind in _KINDS if pattern.fullmatch(spec.custom_id))
        view.add_item(kind(spec))
    return view
