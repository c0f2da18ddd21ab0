"""The text fallbacks: what they say, how they shorten names, and the embed length limit."""

from __future__ import annotations

import pytest

from bot.render import (
    EMBED_DESCRIPTION_LIMIT,
    BlackjackHandView,
    BlackjackPhase,
    BlackjackResultLabel,
    BlackjackSeatView,
    BlackjackTableView,
    HoldemSeatView,
    HoldemTableView,
    SeatStatus,
    Stage,
    blackjack_table_text,
    holdem_table_text,
    samples,
)
from bot.render.text import NAME_LIMIT, shorten
from engine.cards import Card, parse_cards

LONG = "W" * 40 + "*_~`|<>[]()\\" * 10


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def test_holdem_text_names_stacks_board_pots_and_who_acts() -> None:
    text = holdem_table_text(samples.six_max_mid_hand())
    for expected in ["Alice", "2,480", "Carol", "5,105", "A♥ 7♣ 7♦ Q♠", "Pot: 1,350", "Turn"]:
        assert expected in text
    assert "▶ #4 **Carol**" in text
    assert "~~bob\\_the\\_builder~~" in text
    assert "Bluff Bot [bot]" in text
    assert "away" in text


def test_holdem_text_shows_showdown_hands_side_pots_and_winnings() -> None:
    text = holdem_table_text(samples.ten_seat_showdown())
    assert "Pots: main 4,800 · side 1 2,400 · side 2 600 (total 7,800)" in text
    assert "shows K♠ K♦ (Full House, Kings full of Nines)" in text
    assert "**wins 7,800**" in text
    assert "#5 · empty seat" in text


def test_holdem_text_shows_no_cards_for_seats_that_showed_none() -> None:
    text = holdem_table_text(samples.six_max_mid_hand())
    assert "shows" not in text


def test_holdem_text_plain_mode_has_no_markdown() -> None:
    text = holdem_table_text(samples.six_max_mid_hand(), markdown=False)
    assert "**" not in text
    assert "~~" not in text
    assert "bob_the_builder" in text


def test_holdem_text_with_zero_pots_and_no_board() -> None:
    view = HoldemTableView(
        "T",
        1,
        Stage.PREFLOP,
        (HoldemSeatView(1, "A", stack=5), HoldemSeatView(2, "B", stack=5)),
        pots=(0,),
    )
    text = holdem_table_text(view)
    assert "Board: —" in text
    assert "Pot" not in text


def ten_long_seats() -> HoldemTableView:
    seats = tuple(
        HoldemSeatView(
            number,
            f"{number} {LONG}",
            stack=10**9 + number,
            bet=10**8,
            status=SeatStatus.ALL_IN,
            is_bot=True,
            is_button=number == 1,
            is_small_blind=number == 2,
            is_big_blind=number == 3,
            shown_cards=(Card(2 * number - 2), Card(2 * number - 1)),
            hand_description="D" * 100,
            amount_won=10**9,
            last_action="L" * 100,
        )
        for number in range(1, 11)
    )
    return HoldemTableView(
        "T" * 300,
        10**9,
        Stage.SHOWDOWN,
        seats,
        board=cards("As Ks Qs Js 9d"),
        pots=tuple(10**9 + index for index in range(9)),
        small_blind=10**8,
        big_blind=2 * 10**8,
    )


def test_holdem_text_stays_under_the_embed_limit_with_ten_long_names() -> None:
    view = ten_long_seats()
    for markdown in (True, False):
        text = holdem_table_text(view, markdown=markdown)
        assert len(text) <= EMBED_DESCRIPTION_LIMIT
        assert text.count("\n#") + text.count("\n▶") == 10  # every seat kept its line


def test_holdem_text_truncates_long_names() -> None:
    text = holdem_table_text(ten_long_seats(), markdown=False)
    assert "1 WWWWWWWWWWWWWWWWWWWWW…" in text
    assert "W" * NAME_LIMIT not in text


def test_shorten_cleans_and_cuts() -> None:
    assert shorten("  Ann\n\tBell\x00 ", 24) == "Ann Bell"
    assert shorten("abcdefghij", 5) == "abcd…"
    assert len(shorten("x" * 100, NAME_LIMIT)) == NAME_LIMIT


def test_markdown_in_names_is_escaped() -> None:
    seats = (HoldemSeatView(1, "**bold** `x` <@1>", stack=5), HoldemSeatView(2, "B", stack=5))
    text = holdem_table_text(HoldemTableView("T", 1, Stage.FLOP, seats, board=cards("2c 3c 4c")))
    assert "\\*\\*bold\\*\\* \\`x\\` \\<@1\\>" in text


def test_blackjack_text_shows_dealer_hands_totals_and_results() -> None:
    text = blackjack_table_text(samples.blackjack_splits())
    assert "Dealer: 10♦ 🂠" in text
    assert "▶ #1 **Bob the Splitter**" in text
    assert "↳ ▶ hand 2: 8♦ 5♥ (13) · bet 100" in text
    assert "#3 Carol — A♥ 6♣ (soft 17) · bet 200" in text
    settled = blackjack_table_text(samples.blackjack_settled())
    assert "Dealer: 10♦ 7♥ (17)" in settled
    assert "**BLACKJACK +75**" in settled
    assert "**LOSE -100**" in settled
    assert "**PUSH**" in settled
    assert "bet 200 doubled · **WIN +200**" in settled


def test_blackjack_text_plain_hidden_card() -> None:
    text = blackjack_table_text(samples.blackjack_splits(), markdown=False)
    assert "Dealer: 10♦ [?]" in text
    assert "**" not in text


@pytest.mark.parametrize("hands", [1, 2, 3, 4])
def test_blackjack_text_stays_under_the_limit_with_seven_long_seats(hands: int) -> None:
    many = tuple(parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h"))
    seats = tuple(
        BlackjackSeatView(
            index,
            LONG,
            bet=10**9,
            insurance=10**8,
            is_bot=True,
            hand_to_act=0 if index == 0 else None,
            hands=tuple(
                BlackjackHandView(
                    many,
                    total=LONG,
                    bet=10**9,
                    result=BlackjackResultLabel.EVEN_MONEY,
                    net=-(10**9),
                )
                for _ in range(hands)
            ),
        )
        for index in range(7)
    )
    view = BlackjackTableView(
        "T" * 300, 10**9, BlackjackPhase.SETTLED, seats, dealer_cards=many, dealer_total=LONG
    )
    text = blackjack_table_text(view)
    assert len(text) <= EMBED_DESCRIPTION_LIMIT
    assert text.count(LONG[:NAME_LIMIT]) == 0
    assert text.count("[bot]") == 7
