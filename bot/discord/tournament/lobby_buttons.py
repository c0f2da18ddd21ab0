"""The lobby message's Register and Unregister buttons: persistent ``DynamicItem``s whose
custom_id (``tournament:{id}:register``) is all a click needs, so they work after a restart."""

from __future__ import annotations

import enum
import re
from typing import Any, Protocol

import discord

from bot.discord.table_components import ButtonSpec, Handlers, TableButton, build_view

LOBBY_TEMPLATE = r"tournament:(?P<tournament>[0-9]{1,20}):(?P<action>register|unregister)"


class LobbyAction(enum.StrEnum):
    REGISTER = "register"
    UNREGISTER = "unregister"


class LobbyClicks(Protocol):
    """What handles a lobby button (the tournament cog)."""

    async def on_lobby_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, action: LobbyAction
    ) -> None: ...


HANDLERS: Handlers[LobbyClicks] = Handlers("tournament")


class LobbyButton(TableButton, template=LOBBY_TEMPLATE):
    """Register or Unregister under a lobby message."""

    what = "tournament lobby button"

    def parse(self, match: re.Match[str]) -> None:
        self.tournament_id = int(match["tournament"])
        self.action = LobbyAction(match["action"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await HANDLERS.of(interaction).on_lobby_click(interaction, self.tournament_id, self.action)


def lobby_view(
    tournament_id: int, *, open_for_registration: bool, started: bool = False
) -> discord.ui.View | None:
    """The buttons under a lobby message: both while registration is open before the start,
    Register alone during late registration (an entry is not withdrawn once it plays), none
    after."""
    if not open_for_registration:
        return None
    specs = [
        ButtonSpec(
            f"tournament:{tournament_id}:{LobbyAction.REGISTER}",
            "Register",
            discord.ButtonStyle.success,
            0,
        ),
    ]
    if not started:
        specs.append(
            ButtonSpec(
                f"tournament:{tournament_id}:{LobbyAction.UNREGISTER}",
                "Unregister",
                discord.ButtonStyle.secondary,
                0,
            )
        )
    return build_view(specs, (LobbyButton,))
