"""The PNG renderers: valid images of the documented size, the same bytes every time and in
any thread, every table shape, and the things a player must be able to see."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render import (
    HOLDEM_IMAGE_SIZE,
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
    blackjack_image_size,
    render_blackjack_table,
    render_cards,
    render_holdem_table,
    samples,
)
from bot.render.holdem import PLATE_H, PLATE_W, draw_holdem_table, seat_spots
from engine.cards import Card, parse_cards

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 400_000


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    Image.open(io.BytesIO(data)).verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def rgb_pixels(image: Image.Image) -> Iterator[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return zip(data[0::3], data[1::3], data[2::3], strict=True)


def holdem_view(count: int, **changes: object) -> HoldemTableView:
    seats = tuple(
        HoldemSeatView(
            number, f"Player {number}", stack=1_000 * number, bet=10 if number < 3 else 0
        )
        for number in range(1, count + 1)
    )
    fields: dict[str, object] = {
        "table_name": "Test table",
        "hand_number": 7,
        "street": Stage.FLOP,
        "seats": seats,
        "board": cards("As Kd 7c"),
        "pots": (60,),
    }
    fields.update(changes)
    return HoldemTableView(**fields)  # type: ignore[arg-type]


def blackjack_view(hand_counts: list[int], **changes: object) -> BlackjackTableView:
    shoe = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    seats = []
    for index, count in enumerate(hand_counts):
        hands = tuple(
            BlackjackHandView((shoe[hand], shoe[hand + 1]), total="soft 17", bet=25)
            for hand in range(count)
        )
        seats.append(BlackjackSeatView(index, f"Player {index}", hands=hands, bet=25))
    fields: dict[str, object] = {
        "table_name": "BJ",
        "round_number": 3,
        "phase": BlackjackPhase.PLAYERS,
        "seats": tuple(seats),
        "dealer_cards": cards("Td"),
        "dealer_hole_hidden": True,
    }
    fields.update(changes)
    return BlackjackTableView(**fields)  # type: ignore[arg-type]


ALL_SAMPLES = [
    *((name, render_holdem_table, build) for name, build in samples.HOLDEM_SAMPLES.items()),
    *((name, render_blackjack_table, build) for name, build in samples.BLACKJACK_SAMPLES.items()),
]


@pytest.mark.parametrize(("name", "render", "build"), ALL_SAMPLES, ids=[s[0] for s in ALL_SAMPLES])
def test_sample_renders_are_small_valid_pngs(name: str, render, build) -> None:  # type: ignore[no-untyped-def]
    data = render(build())
    image = open_png(data)
    assert 1000 <= image.width <= 1400, name
    assert len(data) < MAX_BYTES, name


@pytest.mark.parametrize("count", range(2, 11))
def test_holdem_renders_every_table_size_at_the_documented_size(count: int) -> None:
    image = open_png(render_holdem_table(holdem_view(count)))
    assert image.size == HOLDEM_IMAGE_SIZE


def test_holdem_renders_the_same_bytes_twice() -> None:
    view = samples.ten_seat_showdown()
    assert render_holdem_table(view) == render_holdem_table(view)


def test_renders_are_the_same_bytes_from_many_threads_at_once() -> None:
    views = [build() for build in samples.HOLDEM_SAMPLES.values()]
    tables = [build() for build in samples.BLACKJACK_SAMPLES.values()]
    expected = [render_holdem_table(v) for v in views] + [render_blackjack_table(t) for t in tables]
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [
            *(pool.submit(render_holdem_table, v) for v in views * 3),
            *(pool.submit(render_blackjack_table, t) for t in tables * 3),
        ]
        results = [future.result() for future in futures]
    holdem = len(views) * 3
    assert results[:holdem] == expected[: len(views)] * 3
    assert results[holdem:] == expected[len(views) :] * 3


def test_holdem_handles_empty_seats_zero_pots_and_no_hand() -> None:
    seats = (
        HoldemSeatView(1, "Alone", stack=500, status=SeatStatus.WAITING),
        *(HoldemSeatView(number, status=SeatStatus.EMPTY) for number in range(2, 10)),
    )
    for pots in [(), (0,), (0, 0)]:
        view = HoldemTableView("Quiet", 0, Stage.WAITING, seats, pots=pots)
        assert open_png(render_holdem_table(view)).size == HOLDEM_IMAGE_SIZE


def test_holdem_zero_pots_draw_nothing_in_the_middle() -> None:
    assert render_holdem_table(holdem_view(6, pots=())) == render_holdem_table(
        holdem_view(6, pots=(0,))
    )
    assert render_holdem_table(holdem_view(6, pots=())) != render_holdem_table(
        holdem_view(6, pots=(60,))
    )


def test_holdem_image_changes_only_when_cards_are_shown() -> None:
    """The view has no hole cards to draw (see test_render_models); turning cards face up is
    the one way to put card faces on a seat, and it does change the picture."""
    hidden = holdem_view(6, street=Stage.SHOWDOWN)
    seats = list(hidden.seats)
    seats[0] = dataclasses.replace(seats[0], shown_cards=cards("Qs Qh"))
    shown = dataclasses.replace(hidden, seats=tuple(seats))
    assert render_holdem_table(shown) != render_holdem_table(hidden)
    assert render_holdem_table(hidden) == render_holdem_table(holdem_view(6, street=Stage.SHOWDOWN))


def plate_brightness(image: Image.Image, count: int, index: int) -> float:
    x, y = seat_spots(count)[index].plate_centre
    box = (round(x - PLATE_W / 2 + 8), round(y - PLATE_H / 2 + 8), round(x), round(y))
    return float(ImageStat.Stat(image.convert("L").crop(box)).mean[0])


def test_holdem_folded_seat_is_dimmer_than_an_active_one() -> None:
    active = holdem_view(6)
    seats = list(active.seats)
    seats[3] = dataclasses.replace(seats[3], status=SeatStatus.FOLDED)
    folded = dataclasses.replace(active, seats=tuple(seats))
    bright = plate_brightness(open_png(render_holdem_table(active)), 6, 3)
    dim = plate_brightness(open_png(render_holdem_table(folded)), 6, 3)
    assert dim < bright - 1


def test_holdem_seat_to_act_is_highlighted_in_yellow() -> None:
    view = holdem_view(6)
    seats = list(view.seats)
    seats[2] = dataclasses.replace(seats[2], is_to_act=True)
    image = open_png(render_holdem_table(dataclasses.replace(view, seats=tuple(seats))))
    rgb = image.convert("RGB")

    def yellow_pixels(index: int) -> int:
        x, y = seat_spots(6)[index].plate_centre
        box = (round(x - PLATE_W / 2 - 4), round(y - PLATE_H / 2 - 4), round(x), round(y))
        return sum(1 for r, g, b in rgb_pixels(rgb.crop(box)) if r > 200 and g > 160 and b < 110)

    assert yellow_pixels(2) > 50
    assert yellow_pixels(1) == 0


@pytest.mark.parametrize("hands", [[1], [2], [3], [4], [4, 4, 4, 4, 4, 4, 4], [1, 0, 3]])
def test_blackjack_renders_1_to_4_split_hands(hands: list[int]) -> None:
    view = blackjack_view(hands)
    image = open_png(render_blackjack_table(view))
    assert image.size == blackjack_image_size(view)
    assert image.width == 1280
    assert 600 <= image.height <= 1400


def test_blackjack_image_grows_with_rows_of_split_hands() -> None:
    one = blackjack_image_size(blackjack_view([1] * 7))
    four = blackjack_image_size(blackjack_view([4] * 7))
    assert four[1] > one[1]


def test_blackjack_renders_the_same_bytes_twice_and_results_change_it() -> None:
    view = samples.blackjack_splits()
    assert render_blackjack_table(view) == render_blackjack_table(view)
    seat = view.seats[0]
    settled_hand = dataclasses.replace(seat.hands[0], result=BlackjackResultLabel.BLACKJACK, net=75)
    changed = dataclasses.replace(
        view, seats=(dataclasses.replace(seat, hands=(settled_hand,)), *view.seats[1:])
    )
    assert render_blackjack_table(changed) != render_blackjack_table(view)


def test_blackjack_hidden_hole_card_is_drawn_as_a_back() -> None:
    hidden = blackjack_view([1])
    revealed = dataclasses.replace(hidden, dealer_hole_hidden=False)
    assert render_blackjack_table(hidden) != render_blackjack_table(revealed)


def test_render_cards_gives_a_transparent_row_of_the_expected_size() -> None:
    image = open_png(render_cards(cards("Ah Td")))
    # Two 120 x 168 cards, 12 px apart, 8 px margins, 2 px for the shadow.
    assert image.size == (2 * 8 + 2 * 120 + 12, 2 * 8 + 168 + 2)
    assert image.mode == "RGBA"
    assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]


def test_render_cards_prints_hearts_red_and_spades_black() -> None:
    def red_pixels(card: str) -> int:
        image = open_png(render_cards(cards(card))).convert("RGB")
        return sum(1 for r, g, b in rgb_pixels(image) if r > 150 and g < 80 and b < 80)

    assert red_pixels("Ah") > 500
    assert red_pixels("As") == 0


def test_render_cards_is_deterministic_and_refuses_nothing_to_draw() -> None:
    assert render_cards(cards("2c 3d")) == render_cards(cards("2c 3d"))
    assert render_cards(cards("2c 3d")) != render_cards(cards("2c 3h"))
    with pytest.raises(ViewError):
        render_cards(())


def test_holdem_render_on_the_fixed_palette_keeps_the_drawn_colours() -> None:
    # A busy 9-seat table that is none of the samples the palette was found in.
    view = holdem_view(9, board=cards("Ah Kd 7c 2s Th"))
    drawn = draw_holdem_table(view)
    sent = open_png(render_holdem_table(view)).convert("RGB")
    difference = ImageStat.Stat(ImageChops.difference(drawn, sent)).mean
    assert max(difference) < 3.0  # out of 255 per channel, on average over the image
