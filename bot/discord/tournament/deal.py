"""``/tournament deal``: the ICM and chip-chop splits offered to the players left as a message
with buttons; a split applies only once every remaining member has accepted it (the director
decides: ``TournamentDirector.accept_deal``). Buttons are persistent ``DynamicItem``s
(``tournament:deal:{id}:{choice}``); an offer does not survive a restart, so a click after one
is told the deal is no longer on offer."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.discord.table_components import ButtonSpec, Handlers, TableButton, build_view
from bot.tournament.deals import DealKind, DealOffer

DEAL_TEMPLATE = r"tournament:deal:(?P<tournament>[0-9]{1,20}):(?P<choice>icm|chop|none)"
NO_DEAL = "none"
LABELS = {DealKind.ICM: "ICM", DealKind.CHIP_CHOP: "Chip-chop"}


class DealClicks(Protocol):
    """What handles a deal button (the running tournaments)."""

    async def on_deal_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, choice: str
    ) -> None: ...


DEAL_HANDLERS: Handlers[DealClicks] = Handlers("tournament deal")


class DealButton(TableButton, template=DEAL_TEMPLATE):
    """Accept a split, or refuse the deal."""

    what = "tournament deal button"

    def parse(self, match: re.Match[str]) -> None:
        self.tournament_id = int(match["tournament"])
        self.choice = match["choice"]

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        handler = DEAL_HANDLERS.of(interaction)
        await handler.on_deal_click(interaction, self.tournament_id, self.choice)


def deal_text(offer: DealOffer, name: str) -> str:
    """The offer: each player's stack and what each split pays them."""
    icm, chop = offer.split(DealKind.ICM), offer.split(DealKind.CHIP_CHOP)
    lines = [f"🤝 **A deal in {name}?** Play is paused. Every player still in must accept."]
    for k, player in enumerate(offer.names):
        lines.append(
            f"{player}: {offer.stacks[k]:,} chips → ICM {icm.amounts[k]:,} · "
            f"chip-chop {chop.amounts[k]:,}"
        )
    if not offer.bots_accept(DealKind.CHIP_CHOP):
        lines.append("The bots still in accept ICM only.")
    return "\n".join(lines)


def deal_view(tournament_id: int, offer: DealOffer) -> discord.ui.View:
    """Accept ICM, Accept chip-chop (when the bots allow it), No deal."""
    kinds = [kind for kind in DealKind if offer.bots_accept(kind)]
    specs = [
        ButtonSpec(
            f"tournament:deal:{tournament_id}:{kind.value}",
            f"Accept {LABELS[kind]}",
            discord.ButtonStyle.success,
            0,
        )
        for kind in kinds
    ]
    specs.append(
        ButtonSpec(
            f"tournament:deal:{tournament_id}:{NO_DEAL}", "No deal", discord.ButtonStyle.danger, 0
        )
    )
    view = build_view(specs, (DealButton,))
    assert view is not None  # "No deal" is always there
    return view
