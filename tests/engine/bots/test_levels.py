"""Each smart level's style in self-play: it lands in the human ranges its docstring states
(``HUMAN_RANGES``). Every run is seeded, so it is exact and repeatable; the runs are slow
(`pytest -m slow`). The levels' strength is in ``test_simulate.py``."""

from __future__ import annotations

import pytest

from engine.bots.registry import parse_seats
from engine.bots.simulate import simulate_holdem
from engine.bots.smart import HUMAN_RANGES, Difficulty
from engine.holdem.stats import total


@pytest.mark.slow
@pytest.mark.parametrize("level", list(Difficulty))
def test_each_level_lands_in_its_human_ranges_at_six_max(level: Difficulty) -> None:
    spec = "smart" if level is Difficulty.NORMAL else f"smart:{level.value}"
    result = simulate_holdem(parse_seats(",".join([spec] * 6)), 3_000, seed=2024)
    style = total(seat.style for seat in result.seats)
    figures = {
        "vpip": style.vpip_pct,
        "pfr": style.pfr_pct,
        "three_bet": style.three_bet_pct,
        "af": style.af,
        "wtsd": style.wtsd_pct,
    }
    print(level.value, figures, "preflop raises p99", result.preflop_raises_p99)
    for name, (low, high) in HUMAN_RANGES[level].items():
        value = figures[name]
        assert value is not None and low <= value <= high, (level, name, value, figures)
    assert result.preflop_raises_p99 <= 4
