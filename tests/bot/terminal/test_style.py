"""Cards in the terminal: rank and suit symbol, red suits red, black suits dark."""

from __future__ import annotations

from bot.terminal.style import BLACK_CARD, HIDDEN_CARD, RED_CARD, card_text, cards_text, signed
from engine.cards import parse_card, parse_cards


def test_card_text_colours_by_suit() -> None:
    hearts, spades = card_text(parse_card("Th")), card_text(parse_card("As"))
    assert hearts.plain == "10♥ " and hearts.style == RED_CARD
    assert spades.plain == " A♠ " and spades.style == BLACK_CARD
    assert card_text(parse_card("2d")).style == RED_CARD
    assert card_text(parse_card("Kc")).style == BLACK_CARD


def test_cards_text_hides_face_down_cards_and_says_when_empty() -> None:
    row = cards_text(parse_cards("Ah Kd"), hidden=1)
    assert row.plain == " A♥   K♦   ?? "
    assert any(span.style == HIDDEN_CARD for span in row.spans)
    assert cards_text([]).plain == "—"


def test_signed_amounts_show_a_plus_a_minus_or_plus_minus_zero() -> None:
    assert signed(1250).plain == "+1,250"
    assert signed(-40).plain == "-40"
    assert signed(0).plain == "±0"
