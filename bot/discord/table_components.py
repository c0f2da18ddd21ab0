"""What both games' table buttons share: their spec, and the handler each game's cog registers.

Buttons are persistent ``DynamicItem``s understood from their custom_id alone. A click goes to
the handler the game's cog registered for this client in ``cog_load`` (never a cog looked up
by name), so the path of a click runs one way: interaction -> button -> handler -> table.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

import discord

from bot.discord.errors import ShuttingDown
from bot.discord.interaction_edits import release
from bot.discord.tree import route_errors

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
            # Only a click already on its way while the cog unloads (the bot is stopping) gets
            # here: the member is told to try again, as for any command during a shutdown.
            raise ShuttingDown()
        return handler


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A table button: built from its spec, and again from a click's custom_id after a restart.

    Each game's button gives its own ``template`` (this base's matches nothing, so it is never
    registered), reads the parts of its custom_id in :meth:`parse`, and says in :meth:`clicked`
    which handler a click goes to.
    """

    what: ClassVar[str]
    """What the button is, for the error log (``"blackjack hint button"``)."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(button_of(spec))
        match = self.template.fullmatch(spec.custom_id)
        assert match is not None
        self.parse(match)

    def parse(self, match: re.Match[str]) -> None:
        """Keep what the click needs from the custom_id's groups."""
        raise NotImplementedError

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the handler the game's cog registered."""
        raise NotImplementedError

    @classmethod
    def matches(cls, custom_id: str) -> bool:
        """Whether ``custom_id`` is one of this kind of button's."""
        return cls.__discord_ui_compiled_template__.fullmatch(custom_id) is not None

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(spec_of(item, match.group(0)))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            async with route_errors(interaction, self.what):
                await self.clicked(interaction)
        finally:
            # The click is handled: its reference cycles end here, so that reference counting
            # frees them (``release``; the view discord.py built from the clicked message).
            release(interaction)
            let_go(self.view)


class SentView(discord.ui.View):
    """A view that discord.py sends but does not keep.

    Its buttons are ``DynamicItem``s, which a click reaches by its custom_id through the classes
    the cogs registered (``add_dynamic_items``), not through a view kept for the message. A kept
    view would live until the message's next edit, and a view is a reference cycle (it holds its
    buttons, each button holds it): one that lived through a full garbage collection is frozen
    there (``collector.short_pauses``) and, once replaced, waited for the hourly thaw. A
    thousand tables, each edited every few seconds, grew the bot by megabytes a minute.
    """

    def is_dispatchable(self) -> bool:
        return False  # discord.py keeps (``store_view``) only views that say they are


def let_go(view: object) -> None:
    """End the reference cycle of a view that was sent or clicked (its buttons and it point at
    each other), so that reference counting frees it as soon as nothing else holds it. Anything
    but a view (None, ``MISSING``) is left as it is."""
    if isinstance(view, discord.ui.View):
        view.clear_items()


def build_view(
    buttons: Sequence[ButtonSpec], kinds: Sequence[type[TableButton]]
) -> discord.ui.View | None:
    """The discord.py view of a table message's buttons (None when there are none); each spec
    becomes the one of ``kinds`` whose template its custom_id matches."""
    if not buttons:
        return None
    view = SentView(timeout=None)
    for spec in buttons:
        kind = next(
            kind
            for kind in kinds
            if kind.__discord_ui_compiled_template__.fullmatch(spec.custom_id)
        )
        view.add_item(kind(spec))
    return view
