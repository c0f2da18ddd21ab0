"""The Hold'em simulator: reproducible, chips conserved, seats and button, refusals, and the
quality bar (fast checks here; the full runs are marked slow)."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from engine.bots.errors import IllegalBotActionError
from engine.bots.margins import DealNets, Margin
from engine.bots.registry import parse_seats
from engine.bots.simulate import (
    HoldemSimResult,
    SeatResult,
    SimulationSetupError,
    play_hand,
    seating,
    simulate_holdem,
)
from engine.bots.view import SeatView
from engine.holdem import Action, Hand, RaiseTo, Stakes

FIELD = "smart,random,passive,aggressive,random,passive"


def test_simulate_is_reproducible_and_conserves_chips() -> None:
    specs = parse_seats("smart,random,aggressive,passive")
    first = simulate_holdem(specs, 60, seed=5)
    again = simulate_holdem(specs, 60, seed=5)
    other = simulate_holdem(specs, 60, seed=6)
    assert first == again
    assert first != other
    assert sum(seat.net for seat in first.seats) == 0
    assert [seat.strategy for seat in first.seats] == ["smart", "random", "aggressive", "passive"]
    assert [seat.seat for seat in first.seats] == [1, 2, 3, 4]
    assert all(seat.hands == 60 for seat in first.seats)


def test_simulate_reports_bb_per_100_and_its_standard_error() -> None:
    seat = SeatResult(seat=1, strategy="smart", hands=4, net=8, net_squares=8 * 8 + 0 + 0 + 0,
                      big_blind=2)  # fmt: skip
    # Nets 8, 0, 0, 0 chips: 1 bb a hand on average, sample SD of the chip nets is 4.
    assert seat.bb_per_100 == pytest.approx(100.0)
    assert seat.stderr_bb_per_100 == pytest.approx(100 * 4 / 2 / 2)
    low, high = seat.interval_95
    assert low == pytest.approx(100 - 1.96 * 100) and high == pytest.approx(100 + 1.96 * 100)


def test_simulate_summary_has_exactly_the_documented_fields() -> None:
    result = simulate_holdem(parse_seats("random,passive"), 20, seed=1)
    summary = result.summary()
    assert list(summary) == ["hands", "preflop_raises_p99", "seats"]
    assert summary["hands"] == 20
    seats = summary["seats"]
    assert isinstance(seats, list)
    for entry in seats:
        assert list(entry) == [
            "seat", "strategy", "net", "bb_per_100", "stderr_bb_per_100", "vpip_pct",
            "pfr_pct", "three_bet_pct", "af", "wtsd_pct", "wsd_pct", "max_raises_in_a_hand",
        ]  # fmt: skip


def test_simulate_results_combine_by_adding_hands_and_nets() -> None:
    specs = parse_seats("random,aggressive,passive")
    a = simulate_holdem(specs, 30, seed=1)
    b = simulate_holdem(specs, 20, seed=2, first_hand=30)
    total = HoldemSimResult.combine([a, b])
    assert total.hands == 50
    assert [s.net for s in total.seats] == [
        x.net + y.net for x, y in zip(a.seats, b.seats, strict=True)
    ]


def test_simulate_moves_the_button_one_seat_each_hand() -> None:
    assert seating(0, 3) == [1, 2, 0]  # seat 0 has the button: seat 1 posts the small blind
    assert seating(1, 3) == [2, 0, 1]
    assert seating(4, 2) == [1, 0]
    buttons = {seating(n, 6)[-1] for n in range(6)}
    assert buttons == set(range(6))


@pytest.mark.parametrize(
    ("seats", "hands", "blinds", "stack", "message"),
    [
        ("smart", 10, (1, 2), 200, "2 to 10"),
        (",".join(["random"] * 11), 10, (1, 2), 200, "2 to 10"),
        ("smart,random", 0, (1, 2), 200, "at least 1"),
        ("smart,random", 10, (2, 1), 200, "small <= big"),
        ("smart,random", 10, (0, 2), 200, "small <= big"),
        ("smart,random", 10, (1, 2), 0, "stack"),
    ],
)
def test_simulate_refuses_bad_setups(
    seats: str, hands: int, blinds: tuple[int, int], stack: int, message: str
) -> None:
    with pytest.raises(SimulationSetupError, match=message):
        simulate_holdem(
            parse_seats(seats), hands, seed=1, small_blind=blinds[0], big_blind=blinds[1],
            stack=stack,
        )  # fmt: skip


def test_play_hand_refuses_a_cheating_strategy() -> None:
    class Cheater:
        name: ClassVar[str] = "cheater"

        def decide(self, view: SeatView, rng: random.Random) -> Action:
            return RaiseTo(10**6)

    hand = Hand(Stakes.standard(2, 1, 2), [100, 100], rng=random.Random(1))
    with pytest.raises(IllegalBotActionError, match="not legal"):
        play_hand(hand, [Cheater(), Cheater()], [random.Random(1), random.Random(2)])


# ------------------------------------------------------------------------------ quality bar


def lower_bound(seat: SeatResult) -> float:
    return seat.interval_95[0]


def test_duplicate_deals_play_each_deal_from_every_seat() -> None:
    specs = parse_seats("random,passive,aggressive")
    decks: list[tuple[int, ...]] = []
    result = simulate_holdem(
        specs, 6, seed=3, duplicate=True,
        on_hand=lambda hand, order: decks.append(tuple(hand.hole_cards[0])),
    )  # fmt: skip
    assert decks[0] == decks[1] == decks[2] and decks[3] == decks[4] == decks[5]
    assert decks[0] != decks[3]
    assert all(seat.block == 3 for seat in result.seats)
    assert sum(seat.net for seat in result.seats) == 0
    with pytest.raises(SimulationSetupError, match="divisible by the 3 seats"):
        simulate_holdem(specs, 7, seed=3, duplicate=True)


def test_duplicate_error_is_measured_over_whole_deals() -> None:
    # Two deals of two hands: nets 8 and 0 chips a deal, so 2 chips (1 bb) a hand.
    seat = SeatResult(seat=1, strategy="smart", hands=4, net=8, net_squares=64, big_blind=2,
                      block=2)  # fmt: skip
    assert seat.bb_per_100 == pytest.approx(100.0)
    # Per deal: mean 4, sample SD sqrt(32); the error of the mean, per hand, in bb.
    assert seat.stderr_bb_per_100 == pytest.approx(100 * (32**0.5 / 2**0.5) / 2 / 2)


def test_smart_beats_random_and_aggressive_heads_up_quick() -> None:
    # (Beating passive by a clear margin takes thousands of hands: see the slow tests.)
    for other, hands in (("random", 600), ("aggressive", 1_500)):
        result = simulate_holdem(parse_seats(f"smart,{other}"), hands, seed=7)
        assert lower_bound(result.seats[0]) > 0, (other, result.seats[0])


def test_smart_wins_at_a_six_max_table_quick() -> None:
    result = simulate_holdem(parse_seats(FIELD), 1_500, seed=7)
    smart = result.seats[0]
    assert lower_bound(smart) > 0, smart


def test_hard_beats_a_calling_station_quick() -> None:
    result = simulate_holdem(parse_seats("smart:hard,station"), 600, seed=2024)
    assert lower_bound(result.seats[0]) > 0, result.seats[0]


# The bar, in full: run with `make test-all` or `pytest -m slow`. Each run is seeded, so
# it is exact and repeatable; each asserts that the 95% interval of the win rate is above zero.
# Matches between levels are played in duplicate (each deal from both seats), which cancels
# most of the cards' luck; the README quotes each figure and the command behind it.

LEVELS = ["smart:easy", "smart", "smart:hard"]


def played(seats: str, hands: int, *, duplicate: bool = False) -> HoldemSimResult:
    """Play ``seats`` at seed 2024 and print every seat's figures (``pytest -m slow -rP``
    shows them; the README quotes them)."""
    result = simulate_holdem(parse_seats(seats), hands, seed=2024, duplicate=duplicate)
    for seat in result.seats:
        low, high = seat.interval_95
        style = seat.style
        print(
            f"{seat.strategy}: {seat.bb_per_100:+.1f} +/- {seat.stderr_bb_per_100:.1f} bb/100 "
            f"[{low:+.1f}, {high:+.1f}] over {seat.hands:,} hands; VPIP {style.vpip_pct} "
            f"PFR {style.pfr_pct} 3-bet {style.three_bet_pct} AF {style.af} WTSD {style.wtsd_pct}"
        )
    return result


SIX_MAX_FIELDS = [
    FIELD,
    "smart,random,passive,aggressive,passive,aggressive",
    "smart,random,passive,aggressive,passive,passive",
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stronger", "weaker", "hands"),
    [("smart:hard", "smart", 20_000), ("smart", "smart:easy", 6_000)],
)
def test_a_higher_level_beats_the_lower_one_heads_up(
    stronger: str, weaker: str, hands: int
) -> None:
    result = played(f"{stronger},{weaker}", hands, duplicate=True)
    assert lower_bound(result.seats[0]) > 0, result.seats


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("other", ["random", "passive", "aggressive"])
def test_every_level_beats_each_simple_strategy_heads_up(level: str, other: str) -> None:
    result = played(f"{level},{other}", 6_000, duplicate=True)
    assert lower_bound(result.seats[0]) > 0, result.seats[0]


def played_in_duplicate(seats: str, hands: int) -> tuple[HoldemSimResult, DealNets]:
    """Play ``seats`` in duplicate at seed 2024, recording each seat's net per deal."""
    nets = DealNets(len(seats.split(",")), block=len(seats.split(",")))
    result = simulate_holdem(parse_seats(seats), hands, seed=2024, duplicate=True, on_hand=nets)
    return result, nets


def shown(margin: Margin, label: str) -> Margin:
    low, high = margin.interval_95
    print(f"{label}: {margin.bb_per_100:+.1f} +/- {margin.stderr_bb_per_100:.1f} bb/100 "
          f"[{low:+.1f}, {high:+.1f}] over {margin.units:,} deals")  # fmt: skip
    return margin


SIX_MAX_HANDS = 24_000


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_beats_the_six_max_field(level: str) -> None:
    """What "beats the 6-max field" means (issue 16: every smart level beats random, passive
    and aggressive at 6-max): at the table of ``FIELD`` with the level in the first seat,

    1. the level wins chips: the 95% interval of its bb/100 is above zero; and
    2. it out-earns each weak strategy seated at the same table: for every other seat, the 95%
       interval of the paired difference (the level's net minus that seat's, deal by deal, in
       bb/100) is above zero. A difference of two win rates at one table is measured on the
       difference itself: the seats play the same hands, often against each other.

    Played in duplicate (each deal from every seat, the button going round), so each seat
    holds the same cards in the same positions and most of the cards' luck cancels; the random
    seats' own randomness does not, so it takes tens of thousands of hands. The maniac is the
    hard one to out-earn: it plays every hand, and the random seats fold a third of the time
    to each of its bets. The easy level (loose, passive, no reads) wins and out-earns the
    random and passive seats but not the maniac; that part of the claim is made for the
    normal and hard levels only.
    """
    seats = f"{level},{FIELD.partition(',')[2]}"
    result, nets = played_in_duplicate(seats, SIX_MAX_HANDS)
    smart, *others = result.seats
    shown(Margin(smart.bb_per_100, smart.stderr_bb_per_100, SIX_MAX_HANDS // 6), level)
    assert lower_bound(smart) > 0, smart
    for other in others:
        if level == "smart:easy" and other.strategy == "aggressive":
            continue
        margin = shown(nets.margin([0], [other.seat - 1], 2), f"{level} - {other.strategy}")
        assert margin.interval_95[0] > 0, (other, margin)


@pytest.mark.slow
def test_hard_beats_normal_at_six_max() -> None:
    """Three hard and three normal seats, alternating, in duplicate (every deal from every
    seat): the hard seats' mean net minus the normal seats', deal by deal, has a 95% interval
    above zero."""
    seats = ",".join(["smart:hard", "smart"] * 3)
    _result, nets = played_in_duplicate(seats, HARD_SIX_MAX_HANDS)
    margin = shown(nets.margin([0, 2, 4], [1, 3, 5], 2), "hard - normal at 6-max")
    assert margin.interval_95[0] > 0, margin


HARD_SIX_MAX_HANDS = 24_000


@pytest.mark.slow
@pytest.mark.parametrize("field", SIX_MAX_FIELDS[1:])
def test_smart_beats_the_other_six_max_fields(field: str) -> None:
    result = played(field, 6_000)
    smart, *others = result.seats
    assert lower_bound(smart) > 0, smart
    assert all(smart.bb_per_100 > other.bb_per_100 for other in others), result.seats


@pytest.mark.slow
@pytest.mark.parametrize("exploit", ["minraiser", "shover", "station"])
def test_hard_does_not_lose_to_a_fixed_exploit(exploit: str) -> None:
    result = played(f"smart:hard,{exploit}", 4_000, duplicate=True)
    assert lower_bound(result.seats[0]) > 0, result.seats[0]
