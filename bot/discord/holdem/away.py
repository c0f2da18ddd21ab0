"""What ``/holdem leave`` and ``/holdem sitout`` tell the member, by the kind of table: at a cash
table leaving cashes out and sitting out too long does; at a tournament table the seat stays
dealt in and is blinded away, and no chip goes to a wallet."""

from __future__ import annotations

from bot.holdem.host import HoldemTable


def left_text(table: HoldemTable, *, done: bool) -> str:
    """The reply to ``/holdem leave`` (``done``: left now, not at the end of the hand)."""
    if table.away_keeps_seat:
        return (
            "You left your tournament seat: it stays dealt in, posting the blinds and folding "
            "until its chips are gone (blinded away). `/holdem back` to play again."
        )
    if done:
        return "You left the table: your chips are back in your wallet."
    return "You leave at the end of this hand; your chips go back to your wallet then."


def sat_out_text(table: HoldemTable) -> str:
    """The reply to ``/holdem sitout``."""
    if table.away_keeps_seat:
        return (
            "You sit out from the next hand: you are still dealt in, post your blinds and fold "
            "until `/holdem back`."
        )
    hands = table.settings.max_sit_out_hands
    return (
        f"You sit out from the next hand. `/holdem back` to play again (after {hands} hands "
        "sitting out you are cashed out)."
    )
