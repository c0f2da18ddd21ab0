"""The Hold'em table's buttons and raise modal: persistent, stateless, parsed from their custom_id.

Buttons are ``DynamicItem``s, so a click is understood from its custom_id alone, after a restart
too. They hold no game state: a click goes to the handler the cog registered (``HoldemFront``),
which checks who is asking against the table host and applies the action. The raise modal is
sent, then forgotten by discord.py's modal store; its submission is handled by the cog's
interaction listener, so it also works if Felt restarted while the modal was open.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.discord import table_components
from bot.discord.errors import Refusal
from bot.discord.holdem import ids
from bot.discord.holdem.ids import ActionRef, Move
from bot.discord.table_components import ButtonSpec, Handlers, TableButton
from bot.holdem.events import Offer
from engine.holdem import Action, Call, Check, Fold, RaiseTo

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

    async def on_pre_action(
        self, interaction: discord.Interaction[Any], table_id: int, choice: str
    ) -> None: ...

    async def on_runs(
        self, interaction: discord.Interaction[Any], table_id: int, hand_id: int, count: int
    ) -> None: ...

    async def on_after_hand(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        hand_id: int,
        what: ids.AfterHand,
    ) -> None: ...


HANDLERS: Handlers[HoldemFront] = Handlers("Hold'em")
"""The Hold'em cog registers itself here in ``cog_load``."""


class ActionButton(TableButton, template=ids.ACTION_TEMPLATE):
    """Fold, Check, Call, Raise... or a quick raise, for one offer (table, hand, action)."""

    what = "holdem action button"

    def parse(self, match: re.Match[str]) -> None:
        self.ref, self.move, self.amount = parse_action(match)

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_action(interaction, self.ref, self.move, self.amount)


class CardsButton(TableButton, template=ids.CARDS_TEMPLATE):
    """ "My cards": the member's hole cards, ephemerally, for as long as the table lives."""

    what = "holdem my cards button"

    def parse(self, match: re.Match[str]) -> None:
        self.table_id = int(match["table"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_my_cards(interaction, self.table_id)


class RunsButton(TableButton, template=ids.RUNS_TEMPLATE):
    """ "Run once" / "Run twice"...: an all-in member's answer to the run-count question."""

    what = "holdem run count button"

    def parse(self, match: re.Match[str]) -> None:
        self.table_id, self.hand_id = int(match["table"]), int(match["hand"])
        self.count = int(match["count"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        front = HANDLERS.of(interaction)
        await front.on_runs(interaction, self.table_id, self.hand_id, self.count)


class AfterHandButton(TableButton, template=ids.AFTER_TEMPLATE):
    """ "Rabbit hunt" and "Show…" after a hand, until the next one is dealt."""

    what = "holdem after-hand button"

    def parse(self, match: re.Match[str]) -> None:
        self.table_id, self.hand_id = int(match["table"]), int(match["hand"])
        self.choice = ids.AfterHand(match["what"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        front = HANDLERS.of(interaction)
        await front.on_after_hand(interaction, self.table_id, self.hand_id, self.choice)


DYNAMIC_ITEMS: tuple[type[TableButton], ...] = (
    ActionButton,
    CardsButton,
    RunsButton,
    AfterHandButton,
)
"""What the cog registers with ``bot.add_dynamic_items``."""


def parse_action(match: re.Match[str]) -> tuple[ActionRef, Move, int | None]:
    ref = ActionRef(int(match["table"]), int(match["hand"]), int(match["count"]))
    amount = match["amount"]
    return ref, Move(match["move"]), int(amount) if amount is not None else None


def build_view(buttons: list[ButtonSpec]) -> discord.ui.View | None:
    """The discord.py view of the table message's buttons (None when there are none)."""
    return table_components.build_view(buttons, DYNAMIC_ITEMS)


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


def action_of(move: Move, amount: int | None) -> Action:
    """The engine action of a Fold, Check, Call or quick-raise button (Raise… opens a modal)."""
    match move:
        case Move.FOLD:
            return Fold()
        case Move.CHECK:
            return Check()
        case Move.CALL:
            return Call()
        case _:
            if amount is None:
                raise Refusal("That button is broken; use Raise… instead.")
            return RaiseTo(amount)


RAISE_MODAL = re.compile(ids.RAISE_MODAL_TEMPLATE)


def raise_submission(interaction: discord.Interaction[Any]) -> tuple[ActionRef, str | None] | None:
    """The offer a submitted raise modal answers and the text typed in it; None for any other
    interaction."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: Mapping[str, Any] = interaction.data or {}
    match = RAISE_MODAL.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    ref = ActionRef(int(match["table"]), int(match["hand"]), int(match["count"]))
    return ref, submitted_value(data, ids.AMOUNT_INPUT)
