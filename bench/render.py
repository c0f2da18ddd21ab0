"""Milliseconds per render for each kind of image, against Pillow encoding a blank image.

The reference is measured in the same run: Pillow's own cost of encoding a blank RGB image of
the same size to PNG (default settings), so the ratio stays comparable on a noisy machine.
Goal: a 10-seat Hold'em table well under 50 ms.

    .venv/bin/python bench/render.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import functools
import io
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from bot.render import (
    HOLDEM_IMAGE_SIZE,
    BlackjackHandView,
    BlackjackPhase,
    BlackjackSeatView,
    BlackjackTableView,
    blackjack_image_size,
    blackjack_table_text,
    holdem_table_text,
    render_blackjack_table,
    render_cards,
    render_holdem_table,
    samples,
)
from engine.cards import parse_cards


def best_ms(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def blank_png_ms(size: tuple[int, int], repeat: int) -> float:
    blank = Image.new("RGB", size)

    def encode() -> bytes:
        buffer = io.BytesIO()
        blank.save(buffer, format="PNG")
        return buffer.getvalue()

    return best_ms(encode, repeat)


def seven_by_four() -> BlackjackTableView:
    """Seven players with four split hands each: the tallest Blackjack image."""
    hand = BlackjackHandView(tuple(parse_cards("8s 3c Th")), total="21", bet=100)
    seats = tuple(
        BlackjackSeatView(index, f"Player {index}", bet=100, hands=(hand,) * 4)
        for index in range(7)
    )
    dealer = tuple(parse_cards("Td"))
    return BlackjackTableView("#blackjack", 1, BlackjackPhase.PLAYERS, seats, dealer, True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="runs per figure (best is kept)")
    args = parser.parse_args()
    repeat = args.repeat

    holdem = {name: build() for name, build in samples.HOLDEM_SAMPLES.items()}
    tables = {name: build() for name, build in samples.BLACKJACK_SAMPLES.items()}
    tables["blackjack-7x4-hands"] = seven_by_four()
    hole = parse_cards("Ah Td")

    cold = time.perf_counter()
    render_holdem_table(holdem["holdem-10seat-showdown"])
    cold_ms = (time.perf_counter() - cold) * 1000
    print(f"first render, cold caches (fonts, sprites, felt): {cold_ms:.0f} ms")
    print(f"best of {repeat} runs each; ratio = render / Pillow PNG-encoding a blank RGB image")
    print("of the same size (measured now, in this process)")
    print(f"{'kind':<34} {'size':>10} {'KB':>6} {'ms':>7} {'ref ms':>7} {'ratio':>6}")

    def report(name: str, render: Callable[[], bytes], size: tuple[int, int]) -> float:
        data = render()
        ms = best_ms(render, repeat)
        reference = blank_png_ms(size, repeat)
        print(
            f"{name:<34} {size[0]:>5}x{size[1]:<4} {len(data) / 1024:>6.0f} "
            f"{ms:>7.1f} {reference:>7.1f} {ms / reference:>6.2f}"
        )
        return ms

    cards_size = Image.open(io.BytesIO(render_cards(hole))).size
    report("render_cards (2 cards)", lambda: render_cards(hole), cards_size)
    for name, view in holdem.items():
        report(name, functools.partial(render_holdem_table, view), HOLDEM_IMAGE_SIZE)
    for name, table in tables.items():
        size = blackjack_image_size(table)
        report(name, functools.partial(render_blackjack_table, table), size)

    ten = holdem["holdem-10seat-showdown"]
    text_us = best_ms(lambda: holdem_table_text(ten), repeat) * 1000
    splits = tables["blackjack-splits-hidden"]
    blackjack_us = best_ms(lambda: blackjack_table_text(splits), repeat) * 1000
    print(f"holdem_table_text (10 seats): {text_us:.0f} us")
    print(f"blackjack_table_text (splits): {blackjack_us:.0f} us")

    # Two worker threads, as the bot runs renders: how much of the second core they use.
    jobs = 4 * repeat
    for workers in (1, 2):
        with ThreadPoolExecutor(max_workers=workers) as pool:
            start = time.perf_counter()
            list(pool.map(render_holdem_table, [ten] * jobs))
            elapsed = time.perf_counter() - start
        print(f"10-seat renders with {workers} worker thread(s): {jobs / elapsed:.0f} per second")


if __name__ == "__main__":
    main()
