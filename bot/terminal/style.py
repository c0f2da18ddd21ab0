"""How the terminal draws cards and chips with rich: cards look like little cards, red suits red.

Plain terminals (``TERM=dumb``, output to a file) get the same text without colours.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from bot.render.assets import chips_text
from bot.render.cards import card_label
from engine.cards import Card

RED_CARD = "bold red3 on grey93"
BLACK_CARD = "bold grey7 on grey93"
HIDDEN_CARD = "bold white on dark_blue"
HIDDEN_LABEL = "??"
TO_ACT = "▶"


def card_text(card: Card) -> Text:
    """One card, ``" A♠ "``, red or black on a light face."""
    return Text(f"{card_label(card):>3} ", style=RED_CARD if card.suit.is_red else BLACK_CARD)


def cards_text(cards: Iterable[Card], *, hidden: int = 0, empty: str = "—") -> Text:
    """A row of cards separated by spaces, then ``hidden`` face-down cards."""
    parts = [card_text(card) for card in cards]
    parts += [Text(f"{HIDDEN_LABEL:>3} ", style=HIDDEN_CARD) for _ in range(hidden)]
    if not parts:
        return Text(empty, style="dim")
    return Text(" ").join(parts)


def chips(amount: int) -> str:
    """A chip count for people: ``1,250``."""
    return chips_text(amount)


def signed(amount: int) -> Text:
    """A win or loss: ``+120`` in green, ``-40`` in red, ``±0`` dim."""
    if amount > 0:
        return Text(f"+{chips(amount)}", style="bold green")
    if amount < 0:
        return Text(f"-{chips(-amount)}", style="bold red")
    return Text("±0", style="dim")
