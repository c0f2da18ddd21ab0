"""The Hold'em table image: a felt oval, seats clockwise from the bottom, bets, pots and board."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.assets import (
    PALETTE,
    SUPERSAMPLE,
    badge,
    chip_icon,
    chips_text,
    disc,
    drawable_text,
    encode_png,
    fit_text,
    font,
    glow,
    paste,
    pill,
    rounded_box,
)
from bot.render.cards import card_size, card_slot, draw_card
from bot.render.models import HoldemSeatView, HoldemTableView, SeatStatus, Stage

WIDTH = 1280
HEIGHT = 800
SIZE = (WIDTH, HEIGHT)
"""Every Hold'em table image has this size, whatever the number of seats."""

CENTRE = (WIDTH / 2, 414)
RIM_AXES = (540, 286)
FELT_AXES = (514, 260)
LINE_AXES = (430, 196)
SEAT_AXES = (520, 314)
BET_AXES = (352, 178)

PLATE_W = 206
PLATE_H = 62
SEAT_CARD_W = 54
BOARD_CARD_W = 78
BOARD_GAP = 10
MORE_BOARD_CARD_W = 40
MORE_BOARD_GAP = 4


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where one seat's things go."""

    angle: float
    plate_centre: tuple[float, float]
    bet_centre: tuple[float, float]
    button_centre: tuple[float, float]


def _on_ellipse(axes: tuple[float, float], angle: float) -> tuple[float, float]:
    radians = math.radians(angle)
    return (CENTRE[0] + axes[0] * math.cos(radians), CENTRE[1] + axes[1] * math.sin(radians))


def _plate_centre(angle: float) -> tuple[float, float]:
    """On the seat ring, kept inside the image with a margin."""
    x, y = _on_ellipse(SEAT_AXES, angle)
    margin = PLATE_W / 2 + 14
    return (min(max(x, margin), WIDTH - margin), y)


def _button_centre(angle: float) -> tuple[float, float]:
    """Beside the seat's bet, clockwise, a little nearer the seat."""
    radians = math.radians(angle)
    tangent = (-BET_AXES[0] * math.sin(radians), BET_AXES[1] * math.cos(radians))
    length = math.hypot(*tangent)
    outward = (math.cos(radians), math.sin(radians))
    bet = _on_ellipse(BET_AXES, angle)
    return (
        bet[0] + 78 * tangent[0] / length + 30 * outward[0],
        bet[1] + 78 * tangent[1] / length + 30 * outward[1],
    )


@functools.cache
def seat_spots(count: int) -> tuple[_Spot, ...]:
    """Where ``count`` seats go: the first at the bottom centre, then clockwise."""
    spots = []
    for index in range(count):
        angle = 90 + index * 360 / count
        spots.append(
            _Spot(
                angle=angle,
                plate_centre=_plate_centre(angle),
                bet_centre=_on_ellipse(BET_AXES, angle),
                button_centre=_button_centre(angle),
            )
        )
    return tuple(spots)


@functools.cache
def _background() -> Image.Image:
    """The empty table: a dark room, a shadowed wooden rail, flat felt with a lighter inner
    racetrack. Flat colours keep the PNG small and its palette exact."""
    canvas = Image.new("RGB", SIZE, PALETTE.background)

    def ellipse_mask(axes: tuple[float, float], ring_width: float = 0) -> Image.Image:
        scale = SUPERSAMPLE
        big = Image.new("L", (WIDTH * scale, HEIGHT * scale), 0)
        box = (
            (CENTRE[0] - axes[0]) * scale,
            (CENTRE[1] - axes[1]) * scale,
            (CENTRE[0] + axes[0]) * scale,
            (CENTRE[1] + axes[1]) * scale,
        )
        draw = ImageDraw.Draw(big)
        if ring_width:
            draw.ellipse(box, outline=255, width=round(ring_width * scale))
        else:
            draw.ellipse(box, fill=255)
        return big.resize(SIZE, Image.Resampling.BOX)

    canvas.paste(PALETTE.table_shadow, (0, 0), ellipse_mask((RIM_AXES[0] + 5, RIM_AXES[1] + 9)))
    canvas.paste(PALETTE.rim, (0, 0), ellipse_mask(RIM_AXES))
    canvas.paste(PALETTE.rim_light, (0, 0), ellipse_mask((RIM_AXES[0] - 4, RIM_AXES[1] - 4), 2))
    canvas.paste(PALETTE.felt_edge, (0, 0), ellipse_mask(FELT_AXES))
    canvas.paste(PALETTE.felt_centre, (0, 0), ellipse_mask(LINE_AXES))
    canvas.paste(PALETTE.felt_line, (0, 0), ellipse_mask(LINE_AXES, 2))
    return canvas


def _plate_sprite(kind: str) -> Image.Image:
    if kind == "dim":
        return rounded_box(PLATE_W, PLATE_H, 12, PALETTE.plate_dim, PALETTE.plate_dim_border, 1)
    if kind == "empty":
        return rounded_box(PLATE_W, PLATE_H, 12, (0, 0, 0, 70), PALETTE.plate_dim_border, 1)
    if kind == "act":
        return rounded_box(PLATE_W, PLATE_H, 12, PALETTE.plate, PALETTE.highlight, 3)
    if kind == "win":
        return rounded_box(PLATE_W, PLATE_H, 12, PALETTE.plate, PALETTE.win, 3)
    return rounded_box(PLATE_W, PLATE_H, 12, PALETTE.plate, PALETTE.plate_border, 1)


def _caption(seat: HoldemSeatView, street: Stage) -> tuple[str, tuple[int, int, int]]:
    """The line under a seat's plate and its colour."""
    if seat.status is SeatStatus.FOLDED:
        return "Folded", PALETTE.dim_text
    if seat.status is SeatStatus.SITTING_OUT:
        return "Away", PALETTE.dim_text
    if seat.status is SeatStatus.WAITING:
        return "Waiting for next hand", PALETTE.dim_text
    if street.is_over and seat.hand_description:
        return seat.hand_description, PALETTE.text
    if seat.is_to_act:
        return "To act", PALETTE.highlight
    return seat.last_action, PALETTE.muted


def _draw_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: HoldemSeatView,
    spot: _Spot,
    street: Stage,
) -> None:
    cx, cy = spot.plate_centre
    left = round(cx - PLATE_W / 2)
    top = round(cy - PLATE_H / 2)
    if seat.status is SeatStatus.EMPTY:
        paste(canvas, _plate_sprite("empty"), left, top)
        draw.text((cx, cy - 7), "Empty seat", font=font(16), fill=PALETTE.dim_text, anchor="mm")
        draw.text(
            (cx, cy + 14), f"seat {seat.seat}", font=font(12), fill=PALETTE.dim_text, anchor="mm"
        )
        return
    dimmed = seat.status in (SeatStatus.FOLDED, SeatStatus.SITTING_OUT, SeatStatus.WAITING)
    won = street.is_over and seat.amount_won > 0
    _draw_seat_cards(canvas, seat, cx, top, street, dimmed)
    _draw_plate(canvas, seat, left, top, won, dimmed)
    _draw_name_row(canvas, draw, seat, left, top, dimmed)
    _draw_stack_row(canvas, draw, seat, left, top, won, dimmed)
    caption, colour = _caption(seat, street)
    if caption:
        face = font(13, bold=colour == PALETTE.highlight)
        text = fit_text(drawable_text(caption), face, PLATE_W + 40)
        draw.text((cx, top + PLATE_H + 11), text, font=face, fill=colour, anchor="mm")


def _draw_seat_cards(
    canvas: Image.Image, seat: HoldemSeatView, cx: float, top: int, street: Stage, dimmed: bool
) -> None:
    # Cards sit above the plate, their lower part tucked under it.
    card_w, card_h = card_size(SEAT_CARD_W)
    cards_top = top - card_h + 22
    if seat.shown_cards:
        count = len(seat.shown_cards)
        row = count * card_w + (count - 1) * 4
        for index, card in enumerate(seat.shown_cards):
            x = cx - row / 2 + index * (card_w + 4)
            draw_card(canvas, card, x, cards_top, SEAT_CARD_W, dimmed=dimmed)
    elif seat.status.in_hand and street.has_hand:
        for index in range(2):
            x = cx - card_w - 2 + index * (card_w + 4)
            draw_card(canvas, None, x, cards_top + 4, SEAT_CARD_W)


def _draw_plate(
    canvas: Image.Image, seat: HoldemSeatView, left: int, top: int, won: bool, dimmed: bool
) -> None:
    if seat.is_to_act:
        spread = 12
        paste(
            canvas,
            glow(PLATE_W, PLATE_H, 12, PALETTE.highlight, spread),
            left - spread,
            top - spread,
        )
        plate = _plate_sprite("act")
    elif won:
        spread = 12
        paste(canvas, glow(PLATE_W, PLATE_H, 12, PALETTE.win, spread), left - spread, top - spread)
        plate = _plate_sprite("win")
    else:
        plate = _plate_sprite("dim" if dimmed else "normal")
    paste(canvas, plate, left, top)


def _draw_name_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: HoldemSeatView,
    left: int,
    top: int,
    dimmed: bool,
) -> None:
    """Row 1: name, then BOT badge and seat number on the right."""
    small = font(12)
    row1 = top + 20
    right = left + PLATE_W - 10
    seat_label = f"#{seat.seat}"
    draw.text((right, row1), seat_label, font=small, fill=PALETTE.dim_text, anchor="rm")
    right -= round(small.getlength(seat_label)) + 6
    if seat.is_bot:
        bot_width = round(font(11, bold=True).getlength("BOT")) + 10
        right -= bot_width
        badge(canvas, draw, right, row1, "BOT", fill=PALETTE.bot if not dimmed else (54, 72, 110))
        right -= 6
    name_face = font(17, bold=True)
    name = fit_text(drawable_text(seat.name) or "Player", name_face, right - (left + 12))
    name_colour = PALETTE.dim_text if dimmed else PALETTE.text
    draw.text((left + 12, row1), name, font=name_face, fill=name_colour, anchor="lm")


def _draw_stack_row(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: HoldemSeatView,
    left: int,
    top: int,
    won: bool,
    dimmed: bool,
) -> None:
    """Row 2: stack with a chip, then position and all-in badges (or winnings) on the right."""
    row2 = top + 44
    icon = chip_icon(16)
    paste(canvas, icon, left + 12, row2 - 8)
    stack_colour = PALETTE.muted if dimmed else PALETTE.chips
    draw.text(
        (left + 34, row2),
        chips_text(seat.stack),
        font=font(16, bold=True),
        fill=stack_colour,
        anchor="lm",
    )
    right = left + PLATE_W - 10
    if won:
        text = f"+{chips_text(seat.amount_won)}"
        draw.text((right, row2), text, font=font(16, bold=True), fill=PALETTE.win, anchor="rm")
        return
    labels: list[tuple[str, tuple[int, int, int]]] = []
    if seat.status is SeatStatus.ALL_IN:
        labels.append(("ALL IN", PALETTE.danger))
    if seat.is_big_blind:
        labels.append(("BB", (88, 96, 110)))
    if seat.is_small_blind:
        labels.append(("SB", (88, 96, 110)))
    for text, colour in labels:
        width = round(font(11, bold=True).getlength(text)) + 10
        right -= width
        badge(canvas, draw, right, row2, text, fill=colour)
        right -= 5


def _draw_bets(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: HoldemTableView) -> None:
    spots = seat_spots(len(view.seats))
    face = font(15, bold=True)
    for seat, spot in zip(view.seats, spots, strict=True):
        if seat.bet > 0:
            pill(
                canvas,
                draw,
                spot.bet_centre,
                chips_text(seat.bet),
                face=face,
                fill=(0, 0, 0, 120),
                colour=PALETTE.text,
                icon=chip_icon(18),
            )
        if seat.is_button:
            button = disc(28, (250, 250, 250), (170, 170, 175), 2)
            bx, by = spot.button_centre
            paste(canvas, button, bx - 14, by - 14)
            draw.text((bx, by), "D", font=font(15, bold=True), fill=(20, 20, 24), anchor="mm")


def _draw_middle(canvas: Image.Image, draw: ImageDraw.ImageDraw, view: HoldemTableView) -> None:
    card_w, card_h = card_size(BOARD_CARD_W)
    row = 5 * card_w + 4 * BOARD_GAP
    left = CENTRE[0] - row / 2
    top = CENTRE[1] - card_h / 2 + 6
    if not view.street.has_hand:
        draw.text(
            CENTRE,
            view.street.label,
            font=font(22, bold=True),
            fill=PALETTE.felt_text,
            anchor="mm",
        )
    else:
        for index in range(5):
            x = left + index * (card_w + BOARD_GAP)
            if index < len(view.board):
                draw_card(canvas, view.board[index], x, top, BOARD_CARD_W)
            else:
                paste(canvas, card_slot(BOARD_CARD_W), x, top)
        below = top + card_h + _draw_more_boards(canvas, view, top + card_h + 6)
        draw.text(
            (CENTRE[0], below + 20),
            view.street.label.upper(),
            font=font(14, bold=True),
            fill=PALETTE.felt_text,
            anchor="mm",
        )

    _draw_pots(canvas, draw, view, top, row)


def _draw_more_boards(canvas: Image.Image, view: HoldemTableView, top: float) -> float:
    """The other boards of a double board or a board run N times, smaller, in rows under the
    first; returns the height they take."""
    width = MORE_BOARD_CARD_W
    card_w, card_h = card_size(width)
    left = CENTRE[0] - (5 * card_w + 4 * MORE_BOARD_GAP) / 2
    for row, board in enumerate(view.more_boards):
        y = top + row * (card_h + MORE_BOARD_GAP)
        for index, card in enumerate(board):
            draw_card(canvas, card, left + index * (card_w + MORE_BOARD_GAP), y, width)
    rows = len(view.more_boards)
    return rows * (card_h + MORE_BOARD_GAP) + (6 if rows else 0)


def _draw_pots(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, view: HoldemTableView, top: float, row: float
) -> None:
    pots = [amount for amount in view.pots if amount > 0]
    if not pots:
        return
    face = font(16, bold=True)
    if len(view.pots) == 1 or len(pots) == 1:
        labels = [f"Pot {chips_text(sum(pots))}"]
    else:
        labels = [
            f"{'Main' if index == 0 else f'Side {index}'} {chips_text(amount)}"
            for index, amount in enumerate(view.pots)
            if amount > 0
        ]
    # Lay the pot pills out in rows no wider than the board, bottom row nearest the board.
    widths = [round(face.getlength(label)) + 28 + 22 for label in labels]
    rows: list[list[int]] = [[]]
    used = 0
    for index, width in enumerate(widths):
        if rows[-1] and used + width > row + 60:
            rows.append([])
            used = 0
        rows[-1].append(index)
        used += width + 10
    y = top - 26
    for line in rows:
        total = sum(widths[i] for i in line) + 10 * (len(line) - 1)
        x = CENTRE[0] - total / 2
        for index in line:
            pill(
                canvas,
                draw,
                (x + widths[index] / 2, y),
                labels[index],
                face=face,
                fill=PALETTE.pill,
                colour=PALETTE.chips,
                icon=chip_icon(18),
                outline=(48, 110, 72),
            )
            x += widths[index] + 10
        y -= 36


def _draw_header(draw: ImageDraw.ImageDraw, view: HoldemTableView) -> None:
    title_face = font(22, bold=True)
    title = fit_text(drawable_text(view.table_name) or "Hold'em", title_face, 360)
    draw.text((24, 22), title, font=title_face, fill=PALETTE.text, anchor="lm")
    parts = [f"Hand #{view.hand_number}"] if view.hand_number else []
    if view.big_blind:
        parts.append(f"Blinds {chips_text(view.small_blind)}/{chips_text(view.big_blind)}")
    if parts:
        draw.text((24, 48), " · ".join(parts), font=font(15), fill=PALETTE.muted, anchor="lm")
    draw.text(
        (WIDTH - 24, 22), "♠ ♥ FELT ♦ ♣", font=font(14, bold=True), fill=(70, 76, 88), anchor="rm"
    )


def render_holdem_table(view: HoldemTableView) -> bytes:
    """The table as PNG bytes (``SIZE`` px), safe to post in the channel at any moment.

    The view holds only face-up cards, so the image cannot show a hidden hole card: seats in
    the hand that show nothing get card backs. Safe to call from worker threads; the same view
    gives the same bytes.
    """
    return encode_png(draw_holdem_table(view), palette=_palette())


def draw_holdem_table(view: HoldemTableView) -> Image.Image:
    """The table as an RGB image, before it is reduced to the palette and encoded."""
    canvas = _background().copy()
    draw = ImageDraw.Draw(canvas)
    _draw_header(draw, view)
    _draw_middle(canvas, draw, view)
    _draw_bets(canvas, draw, view)
    # Seats are drawn top row first so lower seats' cards overlap the ones above, not under.
    spots = seat_spots(len(view.seats))
    order = sorted(range(len(view.seats)), key=lambda index: spots[index].plate_centre[1])
    for index in order:
        _draw_seat(canvas, draw, view.seats[index], spots[index], view.street)
    return canvas


@functools.cache
def _palette() -> Image.Image:
    """The 256 colours of every table image, found once in sample tables (every seat state,
    cards of all suits, chips). Mapping an image to a known palette takes about 1 ms; finding
    one per image (fast octree) took about as long as drawing it, half of a table's render,
    and with a thousand tables the renders are what a bot's CPU spends most on (issue 21).
    The tables are drawn in flat colours, so the nearest palette colour loses nothing."""
    # Imported here: the samples import this module (through the package) to draw them.
    from bot.render.samples import (  # noqa: PLC0415
        heads_up_preflop,
        six_max_mid_hand,
        ten_seat_showdown,
    )

    drawn = [
        draw_holdem_table(view())
        for view in (six_max_mid_hand, ten_seat_showdown, heads_up_preflop)
    ]
    sheet = Image.new("RGB", (WIDTH, HEIGHT * len(drawn)))
    for index, image in enumerate(drawn):
        sheet.paste(image, (0, HEIGHT * index))
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
