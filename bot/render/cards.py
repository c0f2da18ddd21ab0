"""Card sprites (faces and backs, cached per size) and ``render_cards`` for a row of cards."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.assets import PALETTE, SUPERSAMPLE, encode_png, font, paste, rounded_box
from bot.render.models import ViewError
from engine.cards import Card, Rank

CARD_ASPECT = 1.4
"""Height over width, as for a poker-size card (63 x 88 mm)."""

DM_CARD_WIDTH = 120
MAX_ROW_CARDS = 16


def rank_label(rank: Rank) -> str:
    """The rank as printed on a card: ``"10"`` for tens, else the one-character notation."""
    return "10" if rank is Rank.TEN else rank.char


def card_label(card: Card) -> str:
    """A card for people to read: ``"10♥"``, ``"A♠"``."""
    return rank_label(card.rank) + card.suit.symbol


def card_size(width: int) -> tuple[int, int]:
    """The (width, height) of a card ``width`` px wide."""
    return width, round(width * CARD_ASPECT)


def _corner_radius(width: int) -> int:
    return max(3, round(width * 0.09))


@functools.lru_cache(maxsize=256)
def card_face(card: Card, width: int, dimmed: bool = False) -> Image.Image:
    """A face-up card sprite (RGBA): large rank and suit in the top-left corner, so it reads
    even when the bottom is covered, and a big suit in the bottom-right."""
    w, h = card_size(width)
    sprite = rounded_box(w, h, _corner_radius(w), PALETTE.card_face, PALETTE.card_edge, 1).copy()
    draw = ImageDraw.Draw(sprite)
    colour = PALETTE.card_red if card.suit.is_red else PALETTE.card_black
    rank = rank_label(card.rank)
    # "10" is two glyphs wide: a little smaller and further in, so it clears the edge.
    rank_face = font(round(h * (0.245 if rank == "10" else 0.31)), bold=True)
    column = w * (0.30 if rank == "10" else 0.25)
    draw.text((column, h * 0.05), rank, font=rank_face, fill=colour, anchor="mt")
    rank_bottom = rank_face.getbbox(rank, anchor="mt")[3] + h * 0.05
    draw.text(
        (column, rank_bottom + h * 0.03),
        card.suit.symbol,
        font=font(round(h * 0.22)),
        fill=colour,
        anchor="mt",
    )
    draw.text(
        (w * 0.66, h * 0.66),
        card.suit.symbol,
        font=font(round(h * 0.50)),
        fill=colour,
        anchor="mm",
    )
    if dimmed:
        sprite = _dim(sprite)
    return sprite


@functools.lru_cache(maxsize=16)
def card_back(width: int, dimmed: bool = False) -> Image.Image:
    """A face-down card sprite (RGBA): a red lattice inside a white border."""
    w, h = card_size(width)
    scale = SUPERSAMPLE
    big_w, big_h = w * scale, h * scale
    radius = _corner_radius(w) * scale
    big = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (0, 0, big_w - 1, big_h - 1), radius=radius, fill=(*PALETTE.card_edge, 255)
    )
    draw.rounded_rectangle(
        (scale, scale, big_w - 1 - scale, big_h - 1 - scale),
        radius=radius - scale,
        fill=(255, 255, 255, 255),
    )
    inset = max(3, round(w * 0.08)) * scale
    inner = (inset, inset, big_w - 1 - inset, big_h - 1 - inset)
    lattice = Image.new("RGBA", (big_w, big_h), (*PALETTE.card_back, 255))
    lattice_draw = ImageDraw.Draw(lattice)
    step = round(w * 0.2 * scale)
    line = max(scale, round(w * 0.035 * scale))
    for offset in range(-big_h, big_w + big_h, step):
        lattice_draw.line(
            (offset, 0, offset + big_h, big_h), fill=(*PALETTE.card_back_line, 255), width=line
        )
        lattice_draw.line(
            (offset, big_h, offset + big_h, 0), fill=(*PALETTE.card_back_line, 255), width=line
        )
    mask = Image.new("L", (big_w, big_h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=max(0, radius - inset), fill=255)
    big.paste(lattice, (0, 0), mask)
    frame = round(w * 0.05 * scale)
    draw.rounded_rectangle(
        (inset + frame, inset + frame, big_w - 1 - inset - frame, big_h - 1 - inset - frame),
        radius=max(0, radius - inset - frame),
        outline=(255, 235, 238, 200),
        width=max(scale, round(w * 0.02 * scale)),
    )
    sprite = big.resize((w, h), Image.Resampling.LANCZOS)
    if dimmed:
        sprite = _dim(sprite)
    return sprite


@functools.lru_cache(maxsize=64)
def card_shadow(width: int) -> Image.Image:
    """A soft dark shape to paste 2 px below a card."""
    w, h = card_size(width)
    return rounded_box(w, h, _corner_radius(w), (0, 0, 0, 90))


@functools.lru_cache(maxsize=16)
def card_slot(width: int) -> Image.Image:
    """The outline of a place where a board card will go."""
    w, h = card_size(width)
    return rounded_box(w, h, _corner_radius(w), (0, 0, 0, 38), PALETTE.slot, 2)


def _dim(sprite: Image.Image) -> Image.Image:
    """The sprite darkened and washed out, for folded or sitting-out seats."""
    shade = Image.new("RGBA", sprite.size, (20, 22, 26, 255))
    dimmed = Image.blend(sprite, shade, 0.55)
    dimmed.putalpha(sprite.getchannel("A"))
    return dimmed


def draw_card(
    canvas: Image.Image, card: Card | None, x: float, y: float, width: int, *, dimmed: bool = False
) -> None:
    """Draw a card (``None`` for a face-down card) with its top-left corner at (x, y)."""
    paste(canvas, card_shadow(width), x + 1, y + 2)
    sprite = card_back(width, dimmed) if card is None else card_face(card, width, dimmed)
    paste(canvas, sprite, x, y)


def render_cards(cards: Sequence[Card], *, card_width: int = DM_CARD_WIDTH) -> bytes:
    """A row of face-up cards as PNG bytes on a transparent background (a player's hole
    cards for a DM or an ephemeral reply). Safe in any thread; the same cards give the same
    bytes."""
    if not 1 <= len(cards) <= MAX_ROW_CARDS:
        raise ViewError(f"render_cards draws 1 to {MAX_ROW_CARDS} cards, not {len(cards)}")
    if not all(isinstance(card, Card) for card in cards):
        raise ViewError("render_cards takes engine.cards.Card values")
    if not 24 <= card_width <= 400:
        raise ViewError(f"card_width must be 24 to 400 px, not {card_width}")
    w, h = card_size(card_width)
    margin = max(4, card_width // 15)
    gap = max(4, card_width // 10)
    size = (2 * margin + len(cards) * w + (len(cards) - 1) * gap, 2 * margin + h + 2)
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    for index, card in enumerate(cards):
        draw_card(canvas, card, margin + index * (w + gap), margin, card_width)
    return encode_png(canvas)
