"""Pots: the merged construction equals building every layer and merging, as PokerKit does."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from engine.holdem.pots import Pot, build_pots, split, without


def _layer_by_layer(
    contributions: Sequence[int], live: Sequence[bool], dead_money: int
) -> list[Pot]:
    """The definition: one layer per distinct contribution, adjacent equal layers merged."""
    pots: list[Pot] = []
    amount = dead_money
    previous = 0
    for level in sorted(set(contributions)):
        for contribution in contributions:
            if contribution >= level:
                amount += level - previous
        eligible = tuple(
            i for i, contribution in enumerate(contributions) if live[i] and contribution >= level
        )
        while pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, eligible))
        amount = 0
        previous = level
    return pots


@given(
    st.lists(st.tuples(st.integers(0, 60), st.booleans()), min_size=2, max_size=10),
    st.integers(0, 20),
)
def test_pots_build_the_same_pots_as_layer_by_layer(
    players: list[tuple[int, bool]], dead_money: int
) -> None:
    contributions = [contribution for contribution, _ in players]
    live = [alive for _, alive in players]
    assert build_pots(contributions, live, dead_money) == _layer_by_layer(
        contributions, live, dead_money
    )


@given(
    st.integers(0, 60),
    st.lists(st.tuples(st.integers(0, 80), st.booleans()), min_size=2, max_size=10),
    st.integers(0, 20),
)
def test_pots_when_every_live_player_put_in_the_same_are_the_pots_built_layer_by_layer(
    level: int, players: list[tuple[int, bool]], dead_money: int
) -> None:
    # The usual showdown, which build_pots works out in one pass; folded players put in less
    # or more than the live ones.
    contributions = [level if alive else contribution for contribution, alive in players]
    live = [alive for _, alive in players]
    assert build_pots(contributions, live, dead_money) == _layer_by_layer(
        contributions, live, dead_money
    )


@given(
    st.lists(st.tuples(st.integers(0, 60), st.booleans(), st.booleans()), min_size=2, max_size=10),
    st.integers(0, 20),
)
def test_pots_without_killed_players_are_the_pots_built_without_them(
    players: list[tuple[int, bool, bool]], dead_money: int
) -> None:
    contributions = [contribution for contribution, _, _ in players]
    live = [alive for _, alive, _ in players]
    killed = [i for i, (_, alive, kill) in enumerate(players) if alive and kill]
    still_live = [alive and i not in killed for i, alive in enumerate(live)]
    assert without(build_pots(contributions, live, dead_money), killed) == build_pots(
        contributions, still_live, dead_money
    )


def test_pots_side_pot_for_a_short_all_in_and_folded_chips_in_the_main_pot() -> None:
    pots = build_pots([50, 10, 200, 10, 0, 200], [True, True, True, False, False, True], 5)
    assert pots == [Pot(55, (0, 1, 2, 5)), Pot(120, (0, 2, 5)), Pot(300, (2, 5))]


def test_pots_chips_nobody_live_matched_make_a_pot_nobody_can_win() -> None:
    assert build_pots([30, 10], [False, True]) == [Pot(20, (1,)), Pot(20, ())]


def test_pots_split_gives_the_odd_chip_to_the_first_winner() -> None:
    assert split(10, [1, 4, 5]) == [(1, 4), (4, 3), (5, 3)]
