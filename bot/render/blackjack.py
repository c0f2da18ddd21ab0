"""The Blackjack table image: the dealer at the top, players along the curved rail below.

Each player's hands (1 to 4 after splits) are drawn above their name plate, in rows; the image
grows taller only when some seat needs more rows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.assets import (
    PALETTE,
    RGB,
    badge,
    chip_icon,
    chips_text,
    drawable_text,
    encode_png,
    fit_text,
    font,
    glow,
    paste,
    pill,
    rounded_box,
)
from bot.render.cards import card_size, draw_card
from bot.render.models import (
    BlackjackHandView,
    BlackjackPhase,
    BlackjackResultLabel,
    BlackjackSeatView,
    BlackjackTableView,
)
from engine.cards import Card

WIDTH = 1280
HEADER_H = 64
DEALER_CARD_W = 70
HAND_CARD_W = 56
HAND_W = 144
"""The width a hand's card fan and labels may use."""
ROW_H = 124
"""The height of one row of hands: cards, then the total and bet line, then a gap."""
PLATE_H = 50
FIRST_ROW_TOP = 290
"""No row of hands starts above this: below the dealer's cards, total and insurance line."""
BOWL_HALF_WIDTH = 1000
"""The felt is an ellipse wider than the image, so the rail curves gently."""
PLATE_INSET = 28
"""How far inside the rail the name plates' bottoms sit."""
MIN_HEIGHT = 600

RESULT_COLOURS: dict[BlackjackResultLabel, RGB] = {
    BlackjackResultLabel.WIN: (46, 160, 87),
    BlackjackResultLabel.BLACKJACK: (214, 160, 28),
    BlackjackResultLabel.EVEN_MONEY: (214, 160, 28),
    BlackjackResultLabel.PUSH: (98, 106, 120),
    BlackjackResultLabel.LOSE: (200, 52, 60),
    BlackjackResultLabel.SURRENDER: (120, 96, 140),
}


def _columns(view: BlackjackTableView) -> tuple[float, int]:
    """The width of each seat's column and how many hands fit side by side in it."""
    column = min(300.0, (WIDTH - 60) / len(view.seats))
    return column, max(1, int((column - 4) // HAND_W))


def _rows(seat: BlackjackSeatView, per_row: int) -> int:
    return max(1, math.ceil(len(seat.hands) / per_row))


def _seat_x(index: int, count: int, column: float) -> float:
    return WIDTH / 2 + (index - (count - 1) / 2) * column


def _rail_factor(x: float) -> float:
    """How far down the rail is at ``x``, as a fraction of its depth in the middle."""
    reach = (x - WIDTH / 2) / BOWL_HALF_WIDTH
    return math.sqrt(1 - reach * reach)


def _bowl_depth(height: int) -> float:
    """The vertical semi-axis of the felt bowl of an image this tall."""
    return height - HEADER_H - 26


def _plate_top(x: float, height: int) -> float:
    """Where a name plate at ``x`` goes: just inside the curved rail."""
    return HEADER_H + (_bowl_depth(height) - PLATE_INSET) * _rail_factor(x) - PLATE_H


def image_size(view: BlackjackTableView) -> tuple[int, int]:
    """The (width, height) of the image for ``view``: 1280 wide, and tall enough that every
    seat's rows of hands fit between the dealer and the rail (a multiple of 32 px)."""
    column, per_row = _columns(view)
    count = len(view.seats)
    needed = MIN_HEIGHT
    for index, seat in enumerate(view.seats):
        # The plate top must leave room for the seat's rows above it, below FIRST_ROW_TOP.
        room = FIRST_ROW_TOP + _rows(seat, per_row) * ROW_H + PLATE_H - HEADER_H
        depth = room / _rail_factor(_seat_x(index, count, column)) + PLATE_INSET
        needed = max(needed, math.ceil(depth + HEADER_H + 26))
    return WIDTH, -(-needed // 32) * 32


@functools.lru_cache(maxsize=8)
def _background(height: int) -> Image.Image:
    """The empty table of this height: a dark header band, the dealer's flat rail at the top and
    a felt bowl whose curved rail runs below the players."""
    size = (WIDTH, height)
    canvas = Image.new("RGB", size, PALETTE.background)
    scale = 3
    centre = (WIDTH / 2, HEADER_H)
    axes = (BOWL_HALF_WIDTH, _bowl_depth(height))

    def bowl_mask(grow: float, ring_width: float = 0) -> Image.Image:
        big = Image.new("L", (WIDTH * scale, height * scale), 0)
        box = (
            (centre[0] - axes[0] - grow) * scale,
            (centre[1] - axes[1] - grow) * scale,
            (centre[0] + axes[0] + grow) * scale,
            (centre[1] + axes[1] + grow) * scale,
        )
        draw = ImageDraw.Draw(big)
        if ring_width:
            draw.ellipse(box, outline=255, width=round(ring_width * scale))
        else:
            draw.ellipse(box, fill=255)
        draw.rectangle((0, 0, WIDTH * scale, (HEADER_H - 6) * scale), fill=0)
        return big.resize(size, Image.Resampling.BOX)

    canvas.paste(PALETTE.table_shadow, (0, 0), bowl_mask(26))
    canvas.paste(PALETTE.rim, (0, 0), bowl_mask(20))
    canvas.paste(PALETTE.rim_light, (0, 0), bowl_mask(16, 2))
    canvas.paste(PALETTE.felt_edge, (0, 0), bowl_mask(0))
    # The dealer's rail: a flat strip of wood along the top of the felt.
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, HEADER_H - 6, WIDTH, HEADER_H + 4), fill=PALETTE.rim)
    draw.line((0, HEADER_H + 4, WIDTH, HEADER_H + 4), fill=PALETTE.rim_light, width=1)
    # The insurance line printed on the felt, an arc under the dealer.
    arc = Image.new("L", (WIDTH * scale, height * scale), 0)
    arc_bottom = FIRST_ROW_TOP - 18
    arc_box = (
        (centre[0] - 400) * scale,
        (arc_bottom - 240) * scale,
        (centre[0] + 400) * scale,
        arc_bottom * scale,
    )
    ImageDraw.Draw(arc).arc(arc_box, start=22, end=158, fill=255, width=2 * scale)
    canvas.paste(PALETTE.felt_line, (0, 0), arc.resize(size, Image.Resampling.BOX))
    draw.text(
        (centre[0], arc_bottom - 22),
        "INSURANCE PAYS 2 TO 1",
        font=font(13, bold=True),
        fill=PALETTE.felt_line,
        anchor="mm",
    )
    return canvas


def _fan(
    canvas: Image.Image,
    cards: Sequence[Card | None],
    centre_x: float,
    top: float,
    card_width: int,
    max_width: float,
    *,
    step: float,
) -> None:
    """Cards overlapping left to right, centred on ``centre_x`` (``None`` is a face-down card)."""
    count = len(cards)
    if count == 0:
        return
    card_w, _card_h = card_size(card_width)
    if count > 1:
        step = min(step, (max_width - card_w) / (count - 1))
    row = card_w + step * (count - 1)
    left = centre_x - row / 2
    for index, card in enumerate(cards):
        draw_card(canvas, card, left + index * step, top, card_width)


def _draw_hand(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    hand: BlackjackHandView,
    centre_x: float,
    top: float,
    *,
    to_act: bool,
) -> None:
    _card_w, card_h = card_size(HAND_CARD_W)
    if to_act:
        box_w, box_h = HAND_W - 4, ROW_H - 10
        left = round(centre_x - box_w / 2)
        box_top = round(top - 6)
        spread = 10
        paste(
            canvas,
            glow(box_w, box_h, 12, PALETTE.highlight, spread),
            left - spread,
            box_top - spread,
        )
        frame = rounded_box(box_w, box_h, 12, PALETTE.felt_edge, PALETTE.highlight, 2)
        paste(canvas, frame, left, box_top)
    _fan(canvas, hand.cards, centre_x, top, HAND_CARD_W, HAND_W - 12, step=30)

    if hand.result is not None:
        label = hand.result.label
        if hand.net:
            label += f" {'+' if hand.net > 0 else ''}{chips_text(hand.net)}"
        pill(
            canvas,
            draw,
            (centre_x, top + card_h - 14),
            label,
            face=font(13, bold=True),
            fill=RESULT_COLOURS[hand.result],
            colour=(255, 255, 255),
            height=24,
        )

    # The line under the cards: total on the left, stake on the right.
    line_y = top + card_h + 17
    face = font(14, bold=True)
    left_edge = centre_x - HAND_W / 2 + 6
    right_edge = centre_x + HAND_W / 2 - 6
    if hand.total:
        total = fit_text(drawable_text(hand.total), face, 78)
        width = round(face.getlength(total)) + 16
        paste(canvas, rounded_box(width, 22, 11, (0, 0, 0, 110)), left_edge, line_y - 11)
        draw.text((left_edge + width / 2, line_y), total, font=face, fill=PALETTE.text, anchor="mm")
    if hand.bet:
        stake = chips_text(hand.bet)
        draw.text((right_edge, line_y), stake, font=face, fill=PALETTE.chips, anchor="rm")
        x = right_edge - face.getlength(stake) - 18
        paste(canvas, chip_icon(15), x, line_y - 7)
        if hand.is_doubled:
            badge(canvas, draw, x - 30, line_y, "x2", fill=(88, 96, 110))


def _draw_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: BlackjackSeatView,
    centre_x: float,
    plate_top: float,
    column: float,
    per_row: int,
    phase: BlackjackPhase,
) -> None:
    # Hands fill rows left to right, the last row resting on the name plate.
    rows = _rows(seat, per_row)
    for index, hand in enumerate(seat.hands):
        row, position = divmod(index, per_row)
        in_row = min(per_row, len(seat.hands) - row * per_row)
        hand_x = centre_x + (position - (in_row - 1) / 2) * HAND_W
        top = plate_top - (rows - row) * ROW_H + 10
        _draw_hand(canvas, draw, hand, hand_x, top, to_act=seat.hand_to_act == index)
    if not seat.hands and seat.bet:
        pill(
            canvas,
            draw,
            (centre_x, plate_top - 40),
            chips_text(seat.bet),
            face=font(16, bold=True),
            fill=(0, 0, 0, 120),
            colour=PALETTE.text,
            icon=chip_icon(18),
        )

    _draw_seat_plate(canvas, draw, seat, centre_x, plate_top, column, phase)


def _draw_seat_plate(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: BlackjackSeatView,
    centre_x: float,
    plate_top: float,
    column: float,
    phase: BlackjackPhase,
) -> None:
    """The name plate: name and BOT badge, then the bet, insurance and result."""
    plate_w = round(min(column - 10, 200))
    left = round(centre_x - plate_w / 2)
    top = round(plate_top)
    acting = seat.hand_to_act is not None
    if acting:
        spread = 10
        paste(
            canvas,
            glow(plate_w, PLATE_H, 10, PALETTE.highlight, spread),
            left - spread,
            top - spread,
        )
        plate = rounded_box(plate_w, PLATE_H, 10, PALETTE.plate, PALETTE.highlight, 3)
    else:
        plate = rounded_box(plate_w, PLATE_H, 10, PALETTE.plate, PALETTE.plate_border, 1)
    paste(canvas, plate, left, top)

    row1 = top + 16
    right = left + plate_w - 9
    if seat.is_bot:
        right -= round(font(11, bold=True).getlength("BOT")) + 10
        badge(canvas, draw, right, row1, "BOT", fill=PALETTE.bot)
        right -= 6
    name_face = font(15, bold=True)
    name = fit_text(drawable_text(seat.name) or "Player", name_face, right - (left + 10))
    draw.text((left + 10, row1), name, font=name_face, fill=PALETTE.text, anchor="lm")

    row2 = top + 36
    small = font(13)
    details = [f"Bet {chips_text(seat.bet)}"] if seat.bet else []
    if seat.insurance:
        details.append(f"Ins {chips_text(seat.insurance)}")
    nets = [hand.net for hand in seat.hands if hand.net is not None]
    right = left + plate_w - 9
    if phase is BlackjackPhase.SETTLED and nets:
        net = sum(nets)
        text = f"{'+' if net > 0 else ''}{chips_text(net)}"
        colour = PALETTE.win if net > 0 else PALETTE.danger if net < 0 else PALETTE.muted
        draw.text((right, row2), text, font=font(14, bold=True), fill=colour, anchor="rm")
        right -= round(font(14, bold=True).getlength(text)) + 8
    elif acting:
        draw.text(
            (right, row2), "To act", font=font(13, bold=True), fill=PALETTE.highlight, anchor="rm"
        )
        right -= 52
    detail = fit_text(" · ".join(details), small, right - (left + 10))
    draw.text((left + 10, row2), detail, font=small, fill=PALETTE.muted, anchor="lm")


def _draw_dealer(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: BlackjackTableView) -> None:
    centre_x = WIDTH / 2
    draw.text(
        (centre_x, HEADER_H + 24),
        "DEALER",
        font=font(15, bold=True),
        fill=PALETTE.felt_text,
        anchor="mm",
    )
    cards: list[Card | None] = list(view.dealer_cards)
    if view.dealer_hole_hidden:
        cards.append(None)
    card_w, card_h = card_size(DEALER_CARD_W)
    top = HEADER_H + 40
    if cards:
        _fan(canvas, cards, centre_x, top, DEALER_CARD_W, 480, step=card_w + 8)
    else:
        for index in range(2):
            x = centre_x - card_w - 5 + index * (card_w + 10)
            paste(canvas, rounded_box(card_w, card_h, 6, (0, 0, 0, 38), PALETTE.slot, 2), x, top)
    if view.dealer_total:
        pill(
            canvas,
            draw,
            (centre_x, top + card_h + 22),
            fit_text(drawable_text(view.dealer_total), font(15, bold=True), 200),
            face=font(15, bold=True),
            fill=(0, 0, 0, 120),
            colour=PALETTE.text,
            height=26,
        )


def _draw_header(draw: ImageDraw.ImageDraw, view: BlackjackTableView) -> None:
    title_face = font(22, bold=True)
    title = fit_text(drawable_text(view.table_name) or "Blackjack", title_face, 420)
    draw.text((24, 22), title, font=title_face, fill=PALETTE.text, anchor="lm")
    parts = [f"Round #{view.round_number}"] if view.round_number else []
    parts.append(view.phase.value)
    if view.max_bet:
        parts.append(f"Bets {chips_text(view.min_bet)}–{chips_text(view.max_bet)}")
    draw.text((24, 47), " · ".join(parts), font=font(15), fill=PALETTE.muted, anchor="lm")
    draw.text(
        (WIDTH - 24, 22), "♠ ♥ FELT ♦ ♣", font=font(14, bold=True), fill=(70, 76, 88), anchor="rm"
    )


def render_blackjack_table(view: BlackjackTableView) -> bytes:
    """The table as PNG bytes (1280 px wide, see ``image_size``), safe to post at any moment.

    The dealer's hole card is not in the view while it is face down, only a flag, so the image
    cannot reveal it. Safe to call from worker threads; the same view gives the same bytes.
    """
    _width, height = image_size(view)
    canvas = _background(height).copy()
    draw = ImageDraw.Draw(canvas)
    _draw_header(draw, view)
    _draw_dealer(canvas, draw, view)
    column, per_row = _columns(view)
    count = len(view.seats)
    for index, seat in enumerate(view.seats):
        centre_x = _seat_x(index, count, column)
        plate_top = _plate_top(centre_x, height)
        _draw_seat(canvas, draw, seat, centre_x, plate_top, column, per_row, view.phase)
    return encode_png(canvas, palette=True)
