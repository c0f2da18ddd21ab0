"""The table image draws the other boards of a board run twice (or a double board)."""

from __future__ import annotations

from dataclasses import replace

from bot.render import render_holdem_table
from bot.render.models import Stage
from bot.render.samples import heads_up_preflop
from engine.cards import parse_cards


def test_table_image_draws_the_other_boards_under_the_first() -> None:
    view = replace(
        heads_up_preflop(), street=Stage.SHOWDOWN, board=tuple(parse_cards("2c7d9s3hJc"))
    )
    one = render_holdem_table(view)
    two = render_holdem_table(replace(view, more_boards=(tuple(parse_cards("2c7d9sAhKc")),)))
    other = render_holdem_table(replace(view, more_boards=(tuple(parse_cards("2c7d9sQhQc")),)))
    assert one != two != other
