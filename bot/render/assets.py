"""Shared drawing resources: the shipped fonts, the palette, anti-aliased sprites, PNG encoding.

Everything cached here is either per thread (fonts: a FreeType face must not be used by two
threads at once) or an image that is never modified after it is built (sprites), so renders may
run in any number of worker threads at once.
"""

from __future__ import annotations

import functools
import io
import re
import struct
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = Path(__file__).resolve().with_name("fonts")
REGULAR_FONT = FONT_DIR / "DejaVuSans.ttf"
BOLD_FONT = FONT_DIR / "DejaVuSans-Bold.ttf"

SUPERSAMPLE = 4
"""Shapes are drawn this many times larger and scaled down, which anti-aliases their edges."""

PNG_COMPRESS_LEVEL = 3
"""zlib level for the PNGs: the flat colours compress nearly as well as at 6, in less time."""

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Palette:
    """Every colour the renderer uses, in one place."""

    background: RGB = (22, 24, 30)
    rim: RGB = (58, 36, 22)
    rim_light: RGB = (104, 70, 42)
    table_shadow: RGB = (10, 11, 14)
    felt_centre: RGB = (30, 112, 66)
    felt_edge: RGB = (24, 96, 56)
    felt_line: RGB = (60, 150, 98)
    felt_text: RGB = (150, 205, 170)
    text: RGB = (242, 244, 247)
    muted: RGB = (160, 168, 180)
    dim_text: RGB = (104, 111, 122)
    chips: RGB = (247, 201, 72)
    win: RGB = (88, 214, 125)
    danger: RGB = (232, 72, 77)
    bot: RGB = (92, 139, 237)
    plate: RGB = (28, 31, 38)
    plate_border: RGB = (64, 71, 84)
    plate_dim: RGB = (26, 28, 33)
    plate_dim_border: RGB = (44, 48, 56)
    highlight: RGB = (255, 204, 51)
    pill: RGB = (12, 40, 24)
    card_face: RGB = (253, 253, 251)
    card_edge: RGB = (190, 194, 201)
    card_red: RGB = (206, 32, 41)
    card_black: RGB = (22, 22, 28)
    card_back: RGB = (158, 28, 44)
    card_back_line: RGB = (214, 84, 100)
    slot: RGB = (52, 140, 88)


PALETTE = Palette()

_thread_fonts = threading.local()


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at ``size`` px, cached per thread.

    The basic layout engine is forced so the same text lays out identically whether or not
    this machine's Pillow was built with libraqm.
    """
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(
        _thread_fonts, "cache", None
    )
    if cache is None:
        cache = {}
        _thread_fonts.cache = cache
    key = (size, bold)
    loaded = cache.get(key)
    if loaded is None:
        path = BOLD_FONT if bold else REGULAR_FONT
        loaded = ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
        cache[key] = loaded
    return loaded


def _cmap_codepoints(data: bytes) -> frozenset[int]:
    """The code points a TrueType font maps to a glyph (its cmap, formats 4 and 12)."""
    (num_tables,) = struct.unpack_from(">H", data, 4)
    cmap = None
    for index in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return frozenset()
    (subtable_count,) = struct.unpack_from(">H", data, cmap + 2)
    points: set[int] = set()
    for index in range(subtable_count):
        platform, _encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        if platform not in (0, 3):
            continue
        start = cmap + offset
        (fmt,) = struct.unpack_from(">H", data, start)
        if fmt == 4:
            points |= _cmap_format4(data, start)
        elif fmt == 12:
            (groups,) = struct.unpack_from(">I", data, start + 12)
            for group in range(groups):
                first, last, _glyph = struct.unpack_from(">III", data, start + 16 + 12 * group)
                points.update(range(first, last + 1))
    return frozenset(points)


def _cmap_format4(data: bytes, start: int) -> set[int]:
    (seg_x2,) = struct.unpack_from(">H", data, start + 6)
    segments = seg_x2 // 2
    ends = start + 14
    starts = ends + seg_x2 + 2
    deltas = starts + seg_x2
    range_offsets = deltas + seg_x2
    points: set[int] = set()
    for seg in range(segments):
        (last,) = struct.unpack_from(">H", data, ends + 2 * seg)
        (first,) = struct.unpack_from(">H", data, starts + 2 * seg)
        (delta,) = struct.unpack_from(">h", data, deltas + 2 * seg)
        range_at = range_offsets + 2 * seg
        (range_offset,) = struct.unpack_from(">H", data, range_at)
        for code in range(first, min(last, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(
                    ">H", data, range_at + range_offset + 2 * (code - first)
                )
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                points.add(code)
    return points


@functools.cache
def drawable_codepoints() -> frozenset[int]:
    """Code points both shipped fonts can draw."""
    return _cmap_codepoints(REGULAR_FONT.read_bytes()) & _cmap_codepoints(BOLD_FONT.read_bytes())


_SPACES = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """``text`` with control characters dropped and runs of whitespace made one space."""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch.isspace())
    return _SPACES.sub(" ", kept).strip()


def drawable_text(text: str) -> str:
    """``text`` cleaned and without characters the fonts lack (emoji, CJK), which would
    otherwise be drawn as empty boxes; an all-emoji name becomes ``"?"``."""
    covered = drawable_codepoints()
    kept = _SPACES.sub(" ", "".join(ch for ch in clean_text(text) if ord(ch) in covered)).strip()
    return kept if kept or not text.strip() else "?"


def fit_text(text: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` shortened with an ellipsis so it is at most ``max_width`` px wide."""
    if face.getlength(text) <= max_width:
        return text
    ellipsis = "…"
    low, high = 0, len(text)
    # Binary search for the longest prefix that fits with the ellipsis.
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ellipsis) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ellipsis


def chips_text(amount: int) -> str:
    """A chip count with thousands separators: ``12,500``."""
    return f"{amount:,}"


@functools.lru_cache(maxsize=512)
def rounded_box(
    width: int,
    height: int,
    radius: int,
    fill: RGB | RGBA,
    outline: RGB | None = None,
    outline_width: int = 0,
) -> Image.Image:
    """An anti-aliased rounded rectangle as an RGBA sprite (cached; never modify it)."""
    scale = SUPERSAMPLE
    big = Image.new("RGBA", (width * scale, height * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    box = (0, 0, width * scale - 1, height * scale - 1)
    fill_rgba = fill if len(fill) == 4 else (*fill, 255)
    if outline is not None and outline_width > 0:
        draw.rounded_rectangle(box, radius=radius * scale, fill=(*outline, 255))
        inset = outline_width * scale
        inner = (inset, inset, width * scale - 1 - inset, height * scale - 1 - inset)
        inner_radius = max(0, (radius - outline_width) * scale)
        draw.rounded_rectangle(inner, radius=inner_radius, fill=fill_rgba)
    else:
        draw.rounded_rectangle(box, radius=radius * scale, fill=fill_rgba)
    return big.resize((width, height), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=64)
def glow(width: int, height: int, radius: int, colour: RGB, spread: int) -> Image.Image:
    """A soft halo to paste behind a ``width`` x ``height`` box (``spread`` px on each side)."""
    size = (width + 2 * spread, height + 2 * spread)
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (spread, spread, spread + width - 1, spread + height - 1), radius=radius, fill=210
    )
    mask = mask.filter(ImageFilter.GaussianBlur(spread / 2))
    halo = Image.new("RGBA", size, (*colour, 0))
    halo.putalpha(mask)
    return halo


@functools.lru_cache(maxsize=32)
def disc(diameter: int, fill: RGB, outline: RGB, outline_width: int) -> Image.Image:
    """An anti-aliased filled circle with a ring (the dealer button, chips)."""
    scale = SUPERSAMPLE
    size = diameter * scale
    big = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.ellipse((0, 0, size - 1, size - 1), fill=(*outline, 255))
    inset = outline_width * scale
    draw.ellipse((inset, inset, size - 1 - inset, size - 1 - inset), fill=(*fill, 255))
    return big.resize((diameter, diameter), Image.Resampling.LANCZOS)


@functools.cache
def chip_icon(diameter: int = 20) -> Image.Image:
    """A casino chip: a coloured disc with white edge spots and a darker centre."""
    scale = SUPERSAMPLE
    size = diameter * scale
    big = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    red = (200, 40, 52, 255)
    draw.ellipse((0, 0, size - 1, size - 1), fill=red)
    # Six white edge spots, as on real chips.
    for step in range(6):
        draw.pieslice(
            (0, 0, size - 1, size - 1), start=step * 60 - 12, end=step * 60 + 12, fill="white"
        )
    ring = size * 0.22
    draw.ellipse((ring, ring, size - ring, size - ring), fill=red)
    draw.ellipse(
        (ring, ring, size - ring, size - ring), outline=(255, 255, 255, 255), width=max(1, scale)
    )
    return big.resize((diameter, diameter), Image.Resampling.LANCZOS)


def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste an RGBA ``sprite`` with its top-left corner at (x, y), blending by its alpha."""
    if canvas.mode == "RGBA":
        # Paste would multiply the alpha of anti-aliased edges into a transparent canvas.
        canvas.alpha_composite(sprite, (round(x), round(y)))
    else:
        canvas.paste(sprite, (round(x), round(y)), sprite)


def pill(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    *,
    face: ImageFont.FreeTypeFont,
    fill: RGB | RGBA,
    colour: RGB,
    icon: Image.Image | None = None,
    outline: RGB | None = None,
    height: int = 28,
) -> tuple[int, int, int, int]:
    """A rounded label centred on ``centre``, optionally with an icon before the text.

    Returns the pill's box (left, top, right, bottom).
    """
    pad = height // 2
    gap = 6
    text_width = round(face.getlength(text))
    icon_width = icon.width + gap if icon is not None else 0
    width = text_width + icon_width + 2 * pad - (4 if icon is not None else 0)
    left = round(centre[0] - width / 2)
    top = round(centre[1] - height / 2)
    box = rounded_box(width, height, height // 2, fill, outline, 1 if outline else 0)
    paste(canvas, box, left, top)
    x = left + pad - (4 if icon is not None else 0)
    if icon is not None:
        paste(canvas, icon, x, top + (height - icon.height) / 2)
        x += icon_width
    draw.text((x, top + height / 2), text, font=face, fill=colour, anchor="lm")
    return (left, top, left + width, top + height)


def badge(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    left: float,
    centre_y: float,
    text: str,
    *,
    fill: RGB,
    colour: RGB = (255, 255, 255),
    size: int = 11,
) -> int:
    """A small capsule label (``BOT``, ``SB``, ``ALL IN``) starting at ``left``; returns its
    right edge."""
    face = font(size, bold=True)
    height = size + 7
    width = round(face.getlength(text)) + 10
    top = round(centre_y - height / 2)
    paste(canvas, rounded_box(width, height, 4, fill), left, top)
    draw.text((left + width / 2, top + height / 2), text, font=face, fill=colour, anchor="mm")
    return round(left) + width


def encode_png(image: Image.Image, *, palette: bool | Image.Image = False) -> bytes:
    """The image as PNG bytes: no metadata, no timestamps, so the same pixels give the same
    bytes. ``palette`` reduces an RGB image to 256 colours first (fast octree; or the nearest
    colours of a palette image given, much faster), which makes table images about four times
    smaller and faster to encode; the tables are drawn in flat colours so nothing bands."""
    buffer = io.BytesIO()
    if isinstance(palette, Image.Image) and image.mode == "RGB":
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif palette and image.mode == "RGB":
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
