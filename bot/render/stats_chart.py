"""The /stats picture: a bankroll graph (chips won over time) and, for poker, the player's
tendencies against the server's average, drawn with Pillow from a frozen view. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.assets import PALETTE, RGB, SUPERSAMPLE, drawable_text, encode_png, fit_text, font

WIDTH = 800
PANEL_HEIGHT = 270
MARGIN = 24
LEFT_AXIS = 86
"""Room left of the graph for the chip labels."""
SERVER_COLOUR: RGB = (150, 160, 178)


@dataclass(frozen=True, slots=True)
class BankrollPoint:
    """The running total of chips won at the end of one step (a day, or a hand)."""

    label: str
    total: int


@dataclass(frozen=True, slots=True)
class Tendency:
    """One percentage statistic: the player's and the server's (None when not measured)."""

    label: str
    player: float | None
    server: float | None


@dataclass(frozen=True, slots=True)
class StatsPicture:
    """Everything the picture shows; no Discord or storage types."""

    title: str
    bankroll: tuple[BankrollPoint, ...]
    tendencies: tuple[Tendency, ...] = ()


def stats_image_size(picture: StatsPicture) -> tuple[int, int]:
    panels = 2 if picture.tendencies else 1
    return WIDTH, PANEL_HEIGHT * panels


def render_stats_picture(picture: StatsPicture) -> bytes:
    """The picture as PNG bytes (the same view gives the same bytes)."""
    size = stats_image_size(picture)
    image = Image.new("RGB", size, PALETTE.background)
    draw = ImageDraw.Draw(image)
    _bankroll(image, draw, picture, top=0)
    if picture.tendencies:
        _tendencies(draw, picture.tendencies, top=PANEL_HEIGHT)
    return encode_png(image, palette=True)


def _chips(value: int) -> str:
    sign = "-" if value < 0 else "+" if value > 0 else ""
    magnitude = abs(value)
    if magnitude >= 1_000_000:
        return f"{sign}{magnitude / 1_000_000:.1f}M"
    if magnitude >= 10_000:
        return f"{sign}{magnitude / 1_000:.1f}k"
    return f"{sign}{magnitude:,}"


def _bankroll(
    image: Image.Image, draw: ImageDraw.ImageDraw, picture: StatsPicture, top: int
) -> None:
    title = font(20, bold=True)
    small = font(13)
    draw.text(
        (MARGIN, top + 14),
        fit_text(drawable_text(picture.title), title, WIDTH - 2 * MARGIN),
        font=title,
        fill=PALETTE.text,
    )
    left, right = MARGIN + LEFT_AXIS, WIDTH - MARGIN
    upper, lower = top + 56, top + PANEL_HEIGHT - 40
    totals = [0, *(point.total for point in picture.bankroll)]
    high, low = max(totals), min(totals)
    if high == low:
        high, low = high + 1, low - 1

    def y_of(value: int) -> float:
        return lower - (value - low) * (lower - upper) / (high - low)

    for value in sorted({high, low, 0}):
        y = y_of(value)
        draw.line(
            [(left, y), (right, y)],
            fill=PALETTE.plate_border if value == 0 else PALETTE.plate,
            width=1,
        )
        draw.text((left - 8, y), _chips(value), font=small, fill=PALETTE.muted, anchor="rm")
    steps = max(len(totals) - 1, 1)
    points = [
        (left + index * (right - left) / steps, y_of(value)) for index, value in enumerate(totals)
    ]
    _line(image, points, PALETTE.win if totals[-1] >= 0 else PALETTE.danger)
    if picture.bankroll:
        first, last = picture.bankroll[0].label, picture.bankroll[-1].label
        draw.text((left, lower + 10), drawable_text(first), font=small, fill=PALETTE.muted)
        draw.text(
            (right, lower + 10), drawable_text(last), font=small, fill=PALETTE.muted, anchor="ra"
        )
        draw.text(
            (right, upper - 22),
            f"{_chips(totals[-1])} chips",
            font=font(15, bold=True),
            fill=PALETTE.chips,
            anchor="ra",
        )
    else:
        draw.text(
            ((left + right) / 2, (upper + lower) / 2),
            "No results yet",
            font=small,
            fill=PALETTE.dim_text,
            anchor="mm",
        )


def _line(image: Image.Image, points: list[tuple[float, float]], colour: RGB) -> None:
    """A thick anti-aliased polyline (drawn large on a mask, scaled down, then filled)."""
    if len(points) < 2:
        return
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box = (int(min(xs)) - 4, int(min(ys)) - 4, int(max(xs)) + 5, int(max(ys)) + 5)
    width, height = box[2] - box[0], box[3] - box[1]
    mask = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    scaled = [((x - box[0]) * SUPERSAMPLE, (y - box[1]) * SUPERSAMPLE) for x, y in points]
    ImageDraw.Draw(mask).line(scaled, fill=255, width=3 * SUPERSAMPLE, joint="curve")
    mask = mask.resize((width, height), Image.Resampling.BILINEAR)
    image.paste(Image.new("RGB", (width, height), colour), box[:2], mask)


def _tendencies(draw: ImageDraw.ImageDraw, tendencies: tuple[Tendency, ...], top: int) -> None:
    title, small = font(17, bold=True), font(12)
    draw.text((MARGIN, top + 8), "Tendencies", font=title, fill=PALETTE.text)
    draw.rectangle([(WIDTH - 300, top + 14), (WIDTH - 288, top + 26)], fill=PALETTE.chips)
    draw.text((WIDTH - 282, top + 20), "player", font=small, fill=PALETTE.muted, anchor="lm")
    draw.rectangle([(WIDTH - 220, top + 19), (WIDTH - 208, top + 22)], fill=SERVER_COLOUR)
    draw.text(
        (WIDTH - 202, top + 20), "server average", font=small, fill=PALETTE.muted, anchor="lm"
    )
    left, right = MARGIN, WIDTH - MARGIN
    base, ceiling = top + PANEL_HEIGHT - 44, top + 48
    slot = (right - left) / len(tendencies)
    for fraction in (0.0, 0.5, 1.0):
        y = base - fraction * (base - ceiling)
        draw.line([(left, y), (right, y)], fill=PALETTE.plate, width=1)
    for index, tendency in enumerate(tendencies):
        centre = left + slot * (index + 0.5)
        bar = slot * 0.44
        if tendency.player is not None:
            y = base - min(max(tendency.player, 0.0), 100.0) / 100 * (base - ceiling)
            draw.rectangle([(centre - bar / 2, y), (centre + bar / 2, base)], fill=PALETTE.chips)
            draw.text(
                (centre, y - 3),
                f"{tendency.player:.0f}",
                font=small,
                fill=PALETTE.text,
                anchor="md",
            )
        if tendency.server is not None:
            y = base - min(max(tendency.server, 0.0), 100.0) / 100 * (base - ceiling)
            draw.rectangle(
                [(centre - bar * 0.75, y - 1), (centre + bar * 0.75, y + 2)], fill=SERVER_COLOUR
            )
        label = fit_text(drawable_text(tendency.label), small, slot - 4)
        draw.text((centre, base + 8), label, font=small, fill=PALETTE.muted, anchor="ma")
