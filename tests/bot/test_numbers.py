"""The one number parser: refuses everything but its documented grammar with its own error, reads
back every number it should, and never echoes more than a short piece of what was typed."""

from __future__ import annotations

import contextlib
import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bot.numbers
from bot.discord.errors import Refusal
from bot.discord.holdem.options import ALL_IN_WORDS, MIN_WORDS, raise_amount
from bot.holdem.events import Offer
from bot.numbers import (
    MAX_NUMBER_LENGTH,
    QUOTE_LIMIT,
    NumberError,
    parse_whole,
    quote,
    read_decimal,
    read_whole,
)

ECHO_LIMIT = QUOTE_LIMIT + 60
"""A refusal may hold the quoted input plus a sentence around it, never the whole input."""


@given(st.text())
def test_read_whole_raises_only_number_error_on_any_text(text: str) -> None:
    for suffixes in (False, True):
        message = ""
        try:
            value = read_whole(text, suffixes=suffixes)
        except NumberError as error:
            message = str(error)
        else:
            assert isinstance(value, int)
        assert "\n" not in message
        assert len(message) <= ECHO_LIMIT + len("a number must be a whole number ()")


@given(st.text(alphabet="0123456789,_' -kKmMe²١", max_size=30))
def test_read_whole_on_number_like_text_raises_only_number_error(text: str) -> None:
    with contextlib.suppress(NumberError):
        read_whole(text, suffixes=True)


@given(st.integers(min_value=-(2**63), max_value=2**63))
def test_read_whole_round_trips_every_spelling_of_a_number(number: int) -> None:
    spellings = [str(number), f"{number:,}", f"{number:_}", f" {number} "]
    spellings += [f"{number:,}".replace(",", "'"), f"{number:,}".replace(",", " ")]
    for spelling in spellings:
        assert read_whole(spelling) == number


@given(st.integers(min_value=0, max_value=10**6))
def test_read_whole_suffixes_multiply(number: int) -> None:
    assert read_whole(f"{number}k", suffixes=True) == number * 1000
    assert read_whole(f"{number}M", suffixes=True) == number * 1_000_000
    assert read_whole(f"{number}e3", suffixes=True) == number * 1000


@pytest.mark.parametrize(
    "text",
    ["²", "١٢", "１２０", "12.5", "1,00", "1,000_000", "", "  ", "--1", "+5", "1e", "five",
     "9" * 10_000, "5k"],
)  # fmt: skip
def test_read_whole_refuses_what_it_does_not_document(text: str) -> None:
    with pytest.raises(NumberError):
        read_whole(text)


def test_read_whole_refuses_a_huge_number_without_echoing_it() -> None:
    with pytest.raises(NumberError) as caught:
        read_whole("9" * 10_000, what="--bet")
    assert len(str(caught.value)) < ECHO_LIMIT
    assert "10,000 characters" in str(caught.value)
    assert len("9" * MAX_NUMBER_LENGTH) == MAX_NUMBER_LENGTH


def test_parse_whole_names_the_option_and_the_range() -> None:
    exact = r"^--bet must be a whole number from 10 to 500, not '5'$"
    with pytest.raises(NumberError, match=exact):
        parse_whole("5", what="--bet", low=10, high=500)
    with pytest.raises(NumberError, match="from 10 to 500, not '-10'"):
        parse_whole("-10", what="--bet", low=10, high=500)
    with pytest.raises(NumberError, match="of at least 0, not '²'"):
        parse_whole("²", what="--seed", low=0)
    assert parse_whole("1,000", what="--hands", low=1) == 1000


def test_quote_cuts_long_input_and_says_how_long_it_was() -> None:
    assert quote("abc") == "'abc'"
    long = quote("x" * 3000)
    assert long.endswith("…' (3,000 characters)")
    assert len(long) < QUOTE_LIMIT + 30


def test_numbers_doctests_pass() -> None:
    assert doctest.testmod(bot.numbers).failed == 0


@given(st.text(max_size=60) | st.just("9" * 10_000) | st.just("²"))
def test_discord_raise_modal_reads_through_the_one_parser(text: str) -> None:
    legal = Offer(
        seat_no=1,
        can_fold=True,
        can_check=False,
        call_amount=10,
        min_raise_to=40,
        max_raise_to=1000,
        bet_so_far=0,
        is_bet=False,
    )
    message = ""
    try:
        amount = raise_amount(text, legal)
    except Refusal as refusal:
        message = str(refusal)
    else:
        assert 40 <= amount <= 1000
        if text.strip().lower() not in ALL_IN_WORDS | MIN_WORDS:
            assert read_whole(text) == amount
    assert len(message) < 150  # says what fits; quotes at most 20 characters


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--shard-ids", "²"], "not '²'"),
        (["--shard-ids", "0-99999999999999999"], "shard ids are numbers and ranges"),
        (["--shard-count", "²"], "--shard-count: not a whole number: '²'"),
        (["--shard-count", "65537"], "--shard-count: at most 65,535, not '65537'"),
        (["--shard-count", "9" * 10_000], "(10,000 characters)"),
    ],
)
def test_felt_run_shard_options_read_through_the_one_parser(
    capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    from bot.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["run", *arguments])
    assert exited.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in last and len(last) < 250


@pytest.mark.parametrize(
    "text", ["1e3", "-1", "1,000.5", "12.", "²", "١٢", "nan", "inf", "", "9" * 41]
)
def test_read_decimal_refuses_anything_but_plain_digits_with_a_fraction(text: str) -> None:
    with pytest.raises(NumberError, match=r"must be a number like 1500 or 12\.5"):
        read_decimal(text, what="a stack")


@given(st.integers(min_value=0, max_value=10**12))
def test_read_decimal_reads_every_number_written_with_a_fraction(thousandths: int) -> None:
    text = f"{thousandths // 1000}.{thousandths % 1000:03d}"
    assert read_decimal(text) == float(text)
