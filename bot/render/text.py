"""Text fallbacks of the table views, for embed descriptions and terminals.

Compact, with suit symbols, names cut to ``NAME_LIMIT`` characters, and never longer than
Discord's embed description limit. ``markdown=True`` (the default) bolds the player to act,
strikes folded players and escapes Discord markdown in names; ``markdown=False`` gives plain text
for terminals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.render.assets import chips_text, clean_text
from bot.render.cards import card_label
from bot.render.models import (
    BlackjackHandView,
    BlackjackSeatView,
    BlackjackTableView,
    HoldemSeatView,
    HoldemTableView,
    SeatStatus,
    Stage,
)
from engine.cards import Card

EMBED_DESCRIPTION_LIMIT = 4096
"""Discord's limit on an embed description, in characters."""
NAME_LIMIT = 24
TABLE_NAME_LIMIT = 64
NOTE_LIMIT = 48
TO_ACT = "▶"
HIDDEN_CARD_MARKDOWN = "🂠"
HIDDEN_CARD_PLAIN = "[?]"

_MARKDOWN = re.compile(r"([\\*_~`|<>\[\]()])")


def shorten(text: str, limit: int) -> str:
    """``text`` cleaned of control characters and cut to ``limit`` characters with an
    ellipsis."""
    cleaned = clean_text(text)
    if len(cleaned) <= limit:
        return cleaned
    return cleaned[: limit - 1].rstrip() + "…"


class _Style:
    """Markdown or plain text."""

    def __init__(self, markdown: bool) -> None:
        self.markdown = markdown

    def escape(self, text: str) -> str:
        return _MARKDOWN.sub(r"\\\1", text) if self.markdown else text

    def name(self, text: str, limit: int = NAME_LIMIT, fallback: str = "Player") -> str:
        return self.escape(shorten(text, limit) or fallback)

    def bold(self, text: str) -> str:
        return f"**{text}**" if self.markdown else text

    def strike(self, text: str) -> str:
        return f"~~{text}~~" if self.markdown else text

    @property
    def hidden_card(self) -> str:
        return HIDDEN_CARD_MARKDOWN if self.markdown else HIDDEN_CARD_PLAIN


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card_label(card) for card in cards)


def _cap(lines: list[str]) -> str:
    """The lines joined, dropping whole lines from the end if the text would pass the limit."""
    text = "\n".join(lines)
    if len(text) <= EMBED_DESCRIPTION_LIMIT:
        return text
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > EMBED_DESCRIPTION_LIMIT - 2:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join([*kept, "…"])


def _holdem_seat_line(seat: HoldemSeatView, street: Stage, style: _Style) -> str:
    if seat.status is SeatStatus.EMPTY:
        return f"#{seat.seat} · empty seat"
    name = style.name(seat.name)
    if seat.is_to_act:
        name = style.bold(name)
    elif seat.status is SeatStatus.FOLDED:
        name = style.strike(name)
    head = f"{TO_ACT} " if seat.is_to_act else ""
    head += f"#{seat.seat} {name}" + (" [bot]" if seat.is_bot else "")
    parts = [chips_text(seat.stack)]
    if seat.positions:
        parts.append(seat.positions)
    if seat.bet:
        parts.append(f"bet {chips_text(seat.bet)}")
    status = {
        SeatStatus.FOLDED: "folded",
        SeatStatus.ALL_IN: "all in",
        SeatStatus.SITTING_OUT: "away",
        SeatStatus.WAITING: "waiting",
    }.get(seat.status)
    if status:
        parts.append(status)
    if seat.is_to_act:
        parts.append("to act")
    elif (
        seat.last_action
        and not street.is_over
        and seat.status is SeatStatus.ACTIVE
        and not seat.bet
    ):
        # A bet already says what a bet, call or raise did; a check or a note does not.
        parts.append(style.escape(shorten(seat.last_action, NOTE_LIMIT)))
    if seat.shown_cards:
        shows = f"shows {_cards(seat.shown_cards)}"
        if seat.hand_description:
            shows += f" ({style.escape(shorten(seat.hand_description, NOTE_LIMIT))})"
        parts.append(shows)
    if seat.amount_won:
        parts.append(style.bold(f"wins {chips_text(seat.amount_won)}"))
    return f"{head} — " + " · ".join(parts)


def holdem_table_text(view: HoldemTableView, *, markdown: bool = True) -> str:
    """The table in a few lines: header, board, pots, then one line per seat.

    Built from the public view only, so it cannot contain a hidden hole card. At most
    ``EMBED_DESCRIPTION_LIMIT`` characters.
    """
    style = _Style(markdown)
    header = [style.bold(style.name(view.table_name, TABLE_NAME_LIMIT, "Hold'em"))]
    if view.hand_number:
        header.append(f"Hand #{view.hand_number}")
    header.append(view.street.label)
    if view.big_blind:
        header.append(f"Blinds {chips_text(view.small_blind)}/{chips_text(view.big_blind)}")
    lines = [" · ".join(header)]
    if view.street.has_hand:
        lines.append(f"Board: {_cards(view.board) if view.board else '—'}")
    pots = [(index, amount) for index, amount in enumerate(view.pots) if amount > 0]
    if len(pots) == 1 or (pots and len(view.pots) == 1):
        lines.append(f"Pot: {chips_text(view.total_pot)}")
    elif pots:
        named = [
            f"{'main' if index == 0 else f'side {index}'} {chips_text(amount)}"
            for index, amount in pots
        ]
        lines.append(f"Pots: {' · '.join(named)} (total {chips_text(view.total_pot)})")
    lines.append("")
    lines.extend(_holdem_seat_line(seat, view.street, style) for seat in view.seats)
    return _cap(lines)


def _blackjack_hand(hand: BlackjackHandView, style: _Style) -> str:
    parts = [_cards(hand.cards) or "—"]
    if hand.total:
        parts[0] += f" ({style.escape(shorten(hand.total, 16))})"
    if hand.bet:
        parts.append(f"bet {chips_text(hand.bet)}" + (" doubled" if hand.is_doubled else ""))
    if hand.result is not None:
        result = hand.result.label
        if hand.net:
            result += f" {'+' if hand.net > 0 else ''}{chips_text(hand.net)}"
        parts.append(style.bold(result))
    return " · ".join(parts)


def _blackjack_seat_lines(seat: BlackjackSeatView, style: _Style) -> list[str]:
    acting = seat.hand_to_act is not None
    name = style.name(seat.name)
    head = (
        (f"{TO_ACT} " if acting else "") + f"#{seat.seat} " + (style.bold(name) if acting else name)
    )
    head += " [bot]" if seat.is_bot else ""
    extras = []
    if seat.insurance:
        extras.append(f"insurance {chips_text(seat.insurance)}")
    if len(seat.hands) == 1:
        line = f"{head} — {_blackjack_hand(seat.hands[0], style)}"
        return [" · ".join([line, *extras, *(["to act"] if acting else [])])]
    summary = [f"bet {chips_text(seat.bet)}"] if seat.bet else []
    summary += extras
    if acting:
        summary.append("to act")
    lines = [f"{head} — " + " · ".join(summary) if summary else head]
    for index, hand in enumerate(seat.hands):
        marker = f"{TO_ACT} " if seat.hand_to_act == index else ""
        lines.append(f"  ↳ {marker}hand {index + 1}: {_blackjack_hand(hand, style)}")
    return lines


def blackjack_table_text(view: BlackjackTableView, *, markdown: bool = True) -> str:
    """The table in a few lines: header, dealer, then each player and their hands.

    The dealer's hole card is not in the view while face down, so it cannot appear here. At
    most ``EMBED_DESCRIPTION_LIMIT`` characters.
    """
    style = _Style(markdown)
    header = [style.bold(style.name(view.table_name, TABLE_NAME_LIMIT, "Blackjack"))]
    if view.round_number:
        header.append(f"Round #{view.round_number}")
    header.append(view.phase.value)
    if view.max_bet:
        header.append(f"Bets {chips_text(view.min_bet)}–{chips_text(view.max_bet)}")
    dealer = _cards(view.dealer_cards)
    if view.dealer_hole_hidden:
        dealer = f"{dealer} {style.hidden_card}".strip()
    dealer_line = f"Dealer: {dealer or '—'}"
    if view.dealer_total:
        dealer_line += f" ({style.escape(shorten(view.dealer_total, 16))})"
    lines = [" · ".join(header), dealer_line, ""]
    for seat in view.seats:
        lines.extend(_blackjack_seat_lines(seat, style))
    return _cap(lines)
