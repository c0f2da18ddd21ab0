"""The rebuy offered to a member at their bust (``bot.tournament.bust_rebuys``): a direct
message with **Rebuy N chips for X** and **No thanks** buttons and a live countdown to the
offer's end. The buttons are persistent ``DynamicItem``s
(``tournament:bustrebuy:{id}:{user}:{take|pass}``), so an offer still open after a restart
can still be answered; a click after the offer ended is told so and changes nothing."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.discord.table_components import ButtonSpec, Handlers, TableButton, build_view
from bot.tournament.news import RebuyOffered

BUST_REBUY_TEMPLATE = (
    r"tournament:bustrebuy:(?P<tournament>[0-9]{1,20}):(?P<user>[0-9]{1,20}):(?P<choice>take|pass)"
)
TAKE, PASS = "take", "pass"


class BustRebuyClicks(Protocol):
    """What handles a bust-rebuy button (the running tournaments)."""

    async def on_bust_rebuy_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, user_id: int, take: bool
    ) -> None: ...


BUST_REBUY_HANDLERS: Handlers[BustRebuyClicks] = Handlers("tournament bust rebuy")


class BustRebuyButton(TableButton, template=BUST_REBUY_TEMPLATE):
    """Take, or decline, the rebuy offered at a bust."""

    what = "tournament bust rebuy button"

    def parse(self, match: re.Match[str]) -> None:
        self.tournament_id = int(match["tournament"])
        self.user_id = int(match["user"])
        self.take = match["choice"] == TAKE

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        handler = BUST_REBUY_HANDLERS.of(interaction)
        await handler.on_bust_rebuy_click(interaction, self.tournament_id, self.user_id, self.take)


def bust_rebuy_text(offer: RebuyOffered, tournament: str, cost: int) -> str:
    """The offer, with the time left as a live Discord countdown."""
    return (
        f"💥 You are out of chips in **{discord.utils.escape_markdown(tournament)}** "
        f"(table {offer.table}), but rebuys are open: {offer.chips:,} chips for {cost:,} "
        f"from your wallet. The offer ends <t:{int(offer.until)}:R>; your table plays on "
        "meanwhile."
    )


def bust_rebuy_view(tournament_id: int, offer: RebuyOffered, cost: int) -> discord.ui.View:
    """**Rebuy N chips for X** and **No thanks**."""
    prefix = f"tournament:bustrebuy:{tournament_id}:{offer.user_id}"
    specs = [
        ButtonSpec(
            f"{prefix}:{TAKE}",
            f"Rebuy {offer.chips:,} chips for {cost:,}",
            discord.ButtonStyle.success,
            0,
        ),
        ButtonSpec(f"{prefix}:{PASS}", "No thanks", discord.ButtonStyle.secondary, 0),
    ]
    view = build_view(specs, (BustRebuyButton,))
    assert view is not None  # two buttons
    return view


def answered_text(name: str, take: bool, stack: int) -> str:
    """What the offer message says once answered (its buttons removed)."""
    if take:
        return f"✅ {name} rebuys: {stack:,} chips, back at the table."
    return f"{name} declines the rebuy and is out."
