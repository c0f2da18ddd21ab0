"""The replayer's frames: one per street dealt and the result, stacks that follow the chips, and
only the viewer's own cards and the cards shown at showdown face up."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.holdem.kinds import SeatStatus, Stage
from bot.render.holdem import SIZE
from bot.render.replayer import render_replay_frame, replay_frames
from engine.holdem.story import masked_history, tell
from tests.engine.holdem.export_hands import stored_hand


def test_frames_show_only_the_viewers_and_the_shown_cards_on_random_hands() -> None:
    rng = random.Random(61)
    checked = 0
    for number in range(150):
        stored = stored_hand(rng, number + 1)
        if stored.history.extra["seat_count"] > 10:
            continue
        viewer = rng.randrange(stored.setup.players)
        story = tell(masked_history(stored.history, viewer))
        frames = replay_frames(story, viewer, table_name="Main", hand_number=number + 1)
        hand = stored.hand
        allowed = set(hand.board) | set(hand.hole_cards[viewer])
        allowed |= {c for i, hole in enumerate(hand.hole_cards) if hand.shown[i] for c in hole}
        for frame in frames:
            assert frame.cards_seen <= allowed, (frame.title, stored.text)
        streets = 1 + sum(1 for step in story.steps if step.kind.value == "board")
        assert len(frames) == streets + 1
        assert frames[-1].view.street in (Stage.SHOWDOWN, Stage.HAND_OVER)
        final = {s.seat: s.stack for s in frames[-1].view.seats if s.status is not SeatStatus.EMPTY}
        assert sorted(final.values()) == sorted(hand.stacks)
        assert sum(seat.amount_won for seat in frames[-1].view.seats) == sum(
            pot.amount for pot in story.pots
        )
        checked += 1
    assert checked > 100


def test_a_frame_renders_as_the_table_image_with_its_lines_under_it() -> None:
    rng = random.Random(62)
    stored = stored_hand(rng)
    story = tell(masked_history(stored.history, 0))
    frame = replay_frames(story, 0, table_name="Main", hand_number=1)[0]
    png = render_replay_frame(frame)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == SIZE[0] and image.size[1] > SIZE[1]
    assert render_replay_frame(frame) == png  # the same frame gives the same bytes
