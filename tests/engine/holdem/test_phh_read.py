"""PHH's TOML reader: the fast path for Felt's own layout reads exactly what tomllib reads."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from engine.holdem import Call, Check, Fold, Hand, RaiseTo, Stakes, phh


def _tomllib_or_error(text: str) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return ("error", str(error))


def _read_or_error(text: str) -> Any:
    try:
        return phh.read_toml(text)
    except tomllib.TOMLDecodeError as error:
        return ("error", str(error))


def _random_hands(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        players = rng.randint(2, 9)
        hand = Hand(Stakes.standard(players, 1, 2, rng.choice((0, 1))), [150] * players, rng=rng)
        while (legal := hand.turn) is not None:
            roll = rng.random()
            if roll < 0.2 and legal.can_fold:
                action: Fold | Check | Call | RaiseTo = Fold()
            elif roll < 0.4 and legal.min_raise_to is not None and legal.max_raise_to is not None:
                action = RaiseTo(rng.randint(legal.min_raise_to, legal.max_raise_to))
            else:
                action = Check() if legal.can_check else Call()
            hand.act(legal.player, action)
        hands.append(hand)
    return hands


def test_phh_read_toml_reads_felts_files_as_tomllib_does() -> None:
    histories = [
        phh.from_hand(hand, hand=number, players=[f"p{i}" for i in range(hand.player_count)])
        for number, hand in enumerate(_random_hands(40, seed=3))
    ]
    one = phh.dumps(histories[0])
    many = phh.dumps_all(histories)
    assert phh.read_toml(one) == tomllib.loads(one)
    assert phh.read_toml(many) == tomllib.loads(many)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a = 1\n",
        "a = null\n",
        "a = NaN\n",
        "a = 1.5\n",
        "a = 1e3\n",
        'a = "x\\/y"\n',
        'a = "x\\ty"\n',
        'a = "tab\there"\n',
        'a = "del\x7f"\n',
        'a = {"b": 1}\n',
        "a = [1, 2,]\n",
        "a = 1\na = 2\n",
        "[1]\na = 1\n[1]\na = 2\n",
        "a = 1\n[a]\nb = 2\n",
        "é = 1\n",
        "a-b = 1\n",
        "a = 1 # comment\n",
        "a = 1\rb = 2\n",
        "a = 1\r\nb = 2\r\n",
        "a = 1\x0bb = 2\n",
        'a = true\nb = false\nc = [true, 1, "x"]\n',
        "a = 007\n",
        "a = -0\n",
        "a = 2024-01-01\n",
        'actions = [\n  "p1 cc",\n  "p2 f",\n]\n',
        'actions = [\n  "p1 cc"\n  "p2 f",\n]\n',
        'actions = [\n  "p1 cc",\n',
        "[1]\n[2]\n",
        "[ 1 ]\na = 1\n",
        "[[1]]\na = 1\n",
        "  a = 1\n",
        "a =1\n",
        'a = "x = y"\n',
    ],
)
def test_phh_read_toml_gives_tomllibs_result_or_error(text: str) -> None:
    assert _read_or_error(text) == _tomllib_or_error(text)
