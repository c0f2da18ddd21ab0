"""The images and text Felt shows for its tables: pure functions from public views to PNG bytes.

The table host fills the frozen views in ``bot.render.models`` (never game objects) and calls the
renderers, usually in a worker thread: they share nothing mutable but per-thread fonts and
read-only sprite caches, and the same view gives the same bytes. Table views carry only face-up
cards, so nothing rendered from them can reveal a hidden card.
"""

from __future__ import annotations

from bot.render.blackjack import image_size as blackjack_image_size
from bot.render.blackjack import render_blackjack_table
from bot.render.cards import render_cards
from bot.render.holdem import SIZE as HOLDEM_IMAGE_SIZE
from bot.render.holdem import render_holdem_table
from bot.render.models import (
    BlackjackHandView,
    BlackjackPhase,
    BlackjackResultLabel,
    BlackjackSeatView,
    BlackjackTableView,
    HoldemSeatView,
    HoldemTableView,
    SeatStatus,
    Stage,
    ViewError,
)
from bot.render.text import EMBED_DESCRIPTION_LIMIT, blackjack_table_text, holdem_table_text

__all__ = [
    "EMBED_DESCRIPTION_LIMIT",
    "HOLDEM_IMAGE_SIZE",
    "BlackjackHandView",
    "BlackjackPhase",
    "BlackjackResultLabel",
    "BlackjackSeatView",
    "BlackjackTableView",
    "HoldemSeatView",
    "HoldemTableView",
    "SeatStatus",
    "Stage",
    "ViewError",
    "blackjack_image_size",
    "blackjack_table_text",
    "holdem_table_text",
    "render_blackjack_table",
    "render_cards",
    "render_holdem_table",
]
