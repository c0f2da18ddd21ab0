"""Shared drawing resources: the shipped fonts, what they can draw, text fitting."""

from __future__ import annotations

import hashlib
import threading

from bot.render.assets import (
    BOLD_FONT,
    REGULAR_FONT,
    clean_text,
    drawable_codepoints,
    drawable_text,
    fit_text,
    font,
)

# The fonts are shipped so renders match on every machine; a changed file changes every image.
FONT_SHA256 = {
    REGULAR_FONT.name: "abdc775b21b1bc470d50c97e790d276f2054b7504e56e5bd3e64f48d68582322",
    BOLD_FONT.name: "0d977336a6d5fba34eab8e3199eb218327161b5143749f802982c2bc34df0c96",
}


def test_shipped_fonts_are_the_pinned_dejavu_files_with_their_licence() -> None:
    for path in (REGULAR_FONT, BOLD_FONT):
        assert hashlib.sha256(path.read_bytes()).hexdigest() == FONT_SHA256[path.name]
    licence = (REGULAR_FONT.parent / "LICENSE-DejaVu.txt").read_text()
    assert "Bitstream Vera" in licence


def test_fonts_cover_suits_latin_and_not_emoji() -> None:
    covered = drawable_codepoints()
    for text in "♠♥♦♣AZaz09ÉéßŁ€·…–":
        assert ord(text) in covered, text
    assert ord("🎲") not in covered
    assert ord("中") not in covered


def test_drawable_text_drops_what_the_fonts_cannot_draw() -> None:
    assert drawable_text("🎲 Lucky 🍀 Lucy") == "Lucky Lucy"
    assert drawable_text("🎲🎲") == "?"
    assert drawable_text("") == ""
    assert drawable_text("Émile") == "Émile"


def test_clean_text_removes_control_characters_and_newlines() -> None:
    assert clean_text("a\nb\x1b[31m\u200bc") == "a b[31mc"


def test_fit_text_shortens_to_the_width_with_an_ellipsis() -> None:
    face = font(17, bold=True)
    long = "Maximilian Alexander von Hohenzollern"
    fitted = fit_text(long, face, 120)
    assert fitted.endswith("…")
    assert face.getlength(fitted) <= 120
    assert fit_text("Ann", face, 120) == "Ann"


def test_fonts_are_cached_per_thread() -> None:
    here = font(15)
    assert font(15) is here
    elsewhere: list[object] = []
    worker = threading.Thread(target=lambda: elsewhere.append(font(15)))
    worker.start()
    worker.join()
    assert elsewhere[0] is not here
