"""The /stats picture: a PNG of the right size, the same bytes for the same view, and a panel of
tendencies only when there are some."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.stats_chart import (
    BankrollPoint,
    StatsPicture,
    Tendency,
    render_stats_picture,
    stats_image_size,
)

BANKROLL = tuple(BankrollPoint(f"2025-03-{day:02d}", (day % 5 - 2) * 150) for day in range(1, 11))
TENDENCIES = (
    Tendency("VPIP", 24.0, 30.0),
    Tendency("PFR", None, 12.0),
    Tendency("WTSD", 130.0, None),
)


def test_a_poker_picture_has_the_bankroll_and_tendency_panels() -> None:
    picture = StatsPicture("Alice · Hold'em · all time", BANKROLL, TENDENCIES)
    image = Image.open(io.BytesIO(render_stats_picture(picture)))
    assert image.format == "PNG"
    assert image.size == stats_image_size(picture) == (800, 540)


def test_a_blackjack_picture_is_the_bankroll_alone() -> None:
    picture = StatsPicture("Bob · Blackjack · season 2", BANKROLL)
    assert Image.open(io.BytesIO(render_stats_picture(picture))).size == (800, 270)


def test_the_same_view_gives_the_same_bytes_and_another_view_others() -> None:
    picture = StatsPicture("Alice", BANKROLL, TENDENCIES)
    moved = StatsPicture("Alice", (*BANKROLL, BankrollPoint("2025-03-11", 900)), TENDENCIES)
    assert render_stats_picture(picture) == render_stats_picture(picture)
    assert render_stats_picture(moved) != render_stats_picture(picture)


def test_no_results_and_a_flat_line_still_draw() -> None:
    for bankroll in ((), (BankrollPoint("2025-03-01", 0),)):
        data = render_stats_picture(StatsPicture("Nobody 🂡", bankroll))
        assert Image.open(io.BytesIO(data)).size == (800, 270)
