"""Each smart level's style in self-play (human ranges), and its strength: against the other
levels, the simple strategies and the fixed exploits people try. Every run is seeded, so it is
exact and repeatable; the slow ones are the issue's bar in full (`pytest -m slow`)."""

from __future__ import annotations

import pytest

from engine.bots.exploits import CallingStation, MinRaiser, Shover
from engine.bots.personality import Personality
from engine.bots.registry import parse_seats
from engine.bots.simulate import SeatResult, simulate_holdem
from engine.bots.smart import HUMAN_RANGES, Difficulty, SmartStrategy
from engine.holdem.stats import total
from tests.engine.bots.exploits import session

LEVELS = ("smart:easy", "smart", "smart:hard")


def lower_bound(seat: SeatResult) -> float:
    return seat.interval_95[0]


def hard_bot() -> SmartStrategy:
    return SmartStrategy(Difficulty.HARD, personality=Personality.draw("hard", "exploited"))


def test_hard_beats_a_calling_station_quick() -> None:
    hard, _ = session([hard_bot(), CallingStation()], 600, seed=2024)
    assert lower_bound(hard) > 0, hard


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
    for name, (low, high) in HUMAN_RANGES[level].items():
        value = figures[name]
        assert value is not None and low <= value <= high, (level, name, value, figures)
    assert result.preflop_raises_p99 <= 4


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stronger", "weaker", "hands"),
    [("smart:hard", "smart", 20_000), ("smart", "smart:easy", 6_000)],
)
def test_a_higher_level_beats_the_lower_one_heads_up(
    stronger: str, weaker: str, hands: int
) -> None:
    result = simulate_holdem(parse_seats(f"{stronger},{weaker}"), hands, seed=2024)
    assert lower_bound(result.seats[0]) > 0, result.seats


@pytest.mark.slow
@pytest.mark.parametrize("level", ["smart:easy", "smart:hard"])
@pytest.mark.parametrize("other", ["random", "passive", "aggressive"])
def test_every_level_beats_each_simple_strategy_heads_up(level: str, other: str) -> None:
    result = simulate_holdem(parse_seats(f"{level},{other}"), 4_000, seed=2024)
    assert lower_bound(result.seats[0]) > 0, result.seats[0]


@pytest.mark.slow
@pytest.mark.parametrize("level", ["smart:easy", "smart:hard"])
def test_every_level_beats_the_six_max_field(level: str) -> None:
    field = f"{level},random,passive,aggressive,random,passive"
    result = simulate_holdem(parse_seats(field), 6_000, seed=2024)
    smart, *others = result.seats
    assert lower_bound(smart) > 0, smart
    # Every level wins; the loose, passive easy level wins less than the maniac, who takes a
    # big share of the random seats' chips, but more than the random and passive seats.
    beaten = others if level == "smart:hard" else [o for o in others if o.strategy != "aggressive"]
    assert all(smart.bb_per_100 > other.bb_per_100 for other in beaten), result.seats


@pytest.mark.slow
@pytest.mark.parametrize("exploit", [MinRaiser, Shover, CallingStation])
def test_hard_does_not_lose_to_a_fixed_exploit(exploit: type) -> None:
    hard, _ = session([hard_bot(), exploit()], 3_000, seed=2024)
    assert lower_bound(hard) > 0, hard
