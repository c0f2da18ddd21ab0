"""The table image and the replayer draw the other boards of a board run twice (or a double
board)."""

from __future__ import annotations

from dataclasses import replace

from bot.render import render_holdem_table
from bot.render.models import Stage
from bot.render.replayer import replay_frames
from bot.render.samples import heads_up_preflop
from engine.cards import parse_cards
from engine.holdem import phh
from engine.holdem.story import tell
from tests.engine.holdem.test_exports_home import run_twice


def test_table_image_draws_the_other_boards_under_the_first() -> None:
    view = replace(
        heads_up_preflop(), street=Stage.SHOWDOWN, board=tuple(parse_cards("2c7d9s3hJc"))
    )
    one = render_holdem_table(view)
    two = render_holdem_table(replace(view, more_boards=(tuple(parse_cards("2c7d9sAhKc")),)))
    other = render_holdem_table(replace(view, more_boards=(tuple(parse_cards("2c7d9sQhQc")),)))
    assert one != two != other


def test_replay_of_a_board_run_twice_shows_each_runs_board() -> None:
    hand = run_twice()
    frames = replay_frames(tell(phh.from_hand(hand)), 0, table_name="Main", hand_number=1)
    boards = {frame.view.board for frame in frames}
    assert hand.boards[0] in boards and hand.boards[1] in boards
