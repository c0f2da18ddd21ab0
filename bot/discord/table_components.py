"""What both games' table buttons share: their spec, and the handler each game's cog registers.

Buttons are persistent ``DynamicItem``s understood from their custom_id alone. A click goes to
the handler the game's cog registered for this client in ``cog_load`` (never a cog looked up
by name), so the path of a click runs one way: interaction -> button -> handler -> table.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

H = TypeVar("H")


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button of a table message, before it becomes a discord.py item."""

    custom_id: str
    label: str
    style: discord.ButtonStyle
    row: int
    disabled: bool = False


def button_of(spec: ButtonSpec) -> discord.ui.Button[Any]:
    """The discord.py button for ``spec``."""
    return discord.ui.Button(
        label=spec.label,
        style=spec.style,
        custom_id=spec.custom_id,
        row=spec.row,
        disabled=spec.disabled,
    )


def spec_of(item: discord.ui.Item[Any], custom_id: str) -> ButtonSpec:
    """The spec of a clicked button, rebuilt from what Discord sent back."""
    label = str(getattr(item, "label", None) or "")
    style = getattr(item, "style", None)
    if not isinstance(style, discord.ButtonStyle):
        style = discord.ButtonStyle.secondary
    return ButtonSpec(custom_id, label, style, 0)


class Handlers(Generic[H]):
    """The handler of one game's buttons, registered by its cog for each client."""

    def __init__(self, game: str) -> None:
        self._game = game
        self._by_client: weakref.WeakKeyDictionary[Any, H] = weakref.WeakKeyDictionary()

    def register(self, client: Any, handler: H) -> None:
        """Called by the game's cog in ``cog_load``."""
        self._by_client[client] = handler

    def unregister(self, client: Any) -> None:
        """Called by the game's cog in ``cog_unload``."""
        self._by_client.pop(client, None)

    def of(self, interaction: discord.Interaction[Any]) -> H:
        """The handler for a click that reached ``interaction.client``."""
        handler = self._by_client.get(interaction.client)
        if handler is None:
            raise RuntimeError(f"the {self._game} buttons have no handler on this client")
        return handler
