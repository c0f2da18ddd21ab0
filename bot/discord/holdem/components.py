"""The Hold'em table's buttons and raise modal: persistent, stateless, parsed from their custom_id.

Buttons are ``DynamicItem``s, so a click is understood from its custom_id alone, after a restart
too. They hold no game state: a click goes to the handler the cog registered (``HoldemFront``),
which checks who is asking against the table host and applies the action. The raise modal is
sent, then forgotten by discord.py's modal store; its submission is handled by the cog's
interaction listener, so it also works if Felt restarted while the modal was open.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.discord.errors import Refusal
from bot.discord.holdem import ids
from bot.discord.holdem.ids import ActionRef, Move
from bot.discord.table_components import ButtonSpec, Handlers, button_of, spec_of
from bot.discord.tree import route_errors
from bot.holdem.events import Offer

MODAL_TITLE_LIMIT = 45
AMOUNT_MAX_LENGTH = 20
"""Long enough for any "huge" number to reach the bot, which refuses it with a reason."""


class HoldemFront(Protocol):
    """What the buttons need from the Hold'em cog."""

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        ref: ActionRef,
        move: Move,
        amount: int | None,
    ) -> None: ...

    async def on_my_cards(self, interaction: discord.Interaction[Any], table_id: int) -> None: ...


HANDLERS: Handlers[HoldemFront] = Handlers("Hold'em")
"""The Hold'em cog registers itself here in ``cog_load``."""


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.ACTION_TEMPLATE):
    """Fold, Check, Call, Raise... or a quick raise, for one offer (table, hand, action)."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(button_of(spec))
        match = self.template.fullmatch(spec.custom_id)
        assert match is not None
        self.ref, self.move, self.amount = parse_action(match)

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
        async with route_errors(interaction, "holdem action button"):
            await HANDLERS.of(interaction).on_action(interaction, self.ref, self.move, self.amount)


class CardsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.CARDS_TEMPLATE):
    """ "My cards": the member's hole cards, ephemerally, for as long as the table lives."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(button_of(spec))
        match = self.template.fullmatch(spec.custom_id)
        assert match is not None
        self.table_id = int(match["table"])

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CardsButton:
        return cls(spec_of(item, match.group(0)))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with route_errors(interaction, "holdem my cards button"):
            await HANDLERS.of(interaction).on_my_cards(interaction, self.table_id)


def parse_action(match: re.Match[str]) -> tuple[ActionRef, Move, int | None]:
    ref = ActionRef(int(match["table"]), int(match["hand"]), int(match["count"]))
    amount = match["amount"]
    return ref, Move(match["move"]), int(amount) if amount is not None else None


def build_view(buttons: list[ButtonSpec]) -> discord.ui.View | None:
    """The discord.py view of the table message's buttons (None when there are none)."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for spec in buttons:
        if spec.custom_id.startswith("holdem:cards:"):
            view.add_item(CardsButton(spec))
        else:
            view.add_item(ActionButton(spec))
    return view


class RaiseModal(discord.ui.Modal):
    """Asks for the total to raise to; only builds the payload (the cog handles the submit)."""

    def __init__(self, ref: ActionRef, *, title: str, label: str, placeholder: str) -> None:
        super().__init__(title=title[:MODAL_TITLE_LIMIT], custom_id=ids.raise_modal_id(ref))
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=label[:45],
            custom_id=ids.AMOUNT_INPUT,
            placeholder=placeholder[:100],
            min_length=1,
            max_length=AMOUNT_MAX_LENGTH,
            required=True,
        )
        self.add_item(self.amount)


def raise_modal(ref: ActionRef, legal: Offer) -> RaiseModal:
    """The modal asking how much to bet or raise to, within what ``legal`` allows."""
    if legal.min_raise_to is None or legal.max_raise_to is None:
        raise Refusal("You cannot raise now.")
    verb = "Bet" if legal.is_bet else "Raise to"
    return RaiseModal(
        ref,
        title=f"{verb} — hand #{ref.hand_id}",
        label=f"{verb} ({legal.min_raise_to:,} to {legal.max_raise_to:,})",
        placeholder=f"A number from {legal.min_raise_to:,} to {legal.max_raise_to:,}, or all-in",
    )


def submitted_value(data: Any, custom_id: str) -> str | None:
    """The value typed into the text input ``custom_id`` of a modal submit's ``data``."""
    stack = list((data or {}).get("components") or [])
    while stack:
        component = stack.pop()
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            value = component.get("value")
            return value if isinstance(value, str) else None
        stack.extend(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            stack.append(component["component"])
    return None
